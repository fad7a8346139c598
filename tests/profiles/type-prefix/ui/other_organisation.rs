use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "org.other.order.created")]
struct OrderCreated;

fn main() {}
