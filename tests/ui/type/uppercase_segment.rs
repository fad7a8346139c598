use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.Example.order.created")]
struct OrderCreated;

fn main() {}
