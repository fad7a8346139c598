use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "OrderCreated", source = "")]
struct OrderCreated;

fn main() {}
