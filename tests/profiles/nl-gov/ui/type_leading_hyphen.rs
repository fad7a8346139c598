use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "nl.brp.-gehuwd")]
struct OrderCreated;

fn main() {}
