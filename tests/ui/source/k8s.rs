use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "k8s://cluster/orders/checkout")]
struct OrderCreated;

fn main() {}
