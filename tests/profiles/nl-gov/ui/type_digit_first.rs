use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "1nl.brp.persoon-gehuwd")]
struct OrderCreated;

fn main() {}
