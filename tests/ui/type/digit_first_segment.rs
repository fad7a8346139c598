use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.1order.created")]
struct OrderCreated;

fn main() {}
