use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "https://orders.example.com:8443/checkout")]
struct OrderCreated;

fn main() {}
