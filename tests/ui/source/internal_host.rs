use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "https://orders.svc.internal/checkout")]
struct OrderCreated;

fn main() {}
