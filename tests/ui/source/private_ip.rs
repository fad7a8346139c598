use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "http://192.168.1.10/checkout")]
struct OrderCreated;

fn main() {}
