use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "nl.brp.persoon_gehuwd")]
struct OrderCreated;

fn main() {}
