use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created", type = "com.example.order.updated")]
struct OrderCreated;

fn main() {}
