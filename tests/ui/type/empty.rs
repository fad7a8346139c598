use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "")]
struct OrderCreated;

fn main() {}
