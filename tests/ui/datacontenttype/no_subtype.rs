use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created", datacontenttype = "json")]
struct OrderCreated;

fn main() {}
