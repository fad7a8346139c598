use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created", datacontenttype = "")]
struct OrderCreated;

fn main() {}
