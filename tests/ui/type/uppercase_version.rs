use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created.V2")]
struct OrderCreated;

fn main() {}
