use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "nl.brp.persoon-gehuwd", source = "")]
struct OrderCreated;

fn main() {}
