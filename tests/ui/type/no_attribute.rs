use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
struct OrderCreated;

fn main() {}
