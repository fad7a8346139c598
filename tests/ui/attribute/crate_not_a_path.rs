use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created", crate = "cloudevent runtime")]
struct OrderCreated;

fn main() {}
