use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "net.com.example.order.created")]
struct OrderCreated;

fn main() {}
