use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "OrderCreated", datacontenttype = "json")]
struct OrderCreated;

fn main() {}
