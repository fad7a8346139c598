use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(source = "https://orders.example.com/checkout")]
struct OrderCreated;

fn main() {}
