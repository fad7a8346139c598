use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "nl.BRP.persoon-gehuwd")]
struct OrderCreated;

fn main() {}
