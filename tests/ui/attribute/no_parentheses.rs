use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent]
struct OrderCreated;

fn main() {}
