use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.order_created")]
struct OrderCreated;

fn main() {}
