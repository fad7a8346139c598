use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = 42)]
struct OrderCreated;

fn main() {}
