use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created", datacontenttype = "application/ json")]
struct OrderCreated;

fn main() {}
