use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.examples.order.created")]
struct OrderCreated;

fn main() {}
