use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "https://orders.example.com/check out")]
struct OrderCreated;

fn main() {}
