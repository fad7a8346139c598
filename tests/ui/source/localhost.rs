use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "https://localhost/checkout")]
struct OrderCreated;

fn main() {}
