use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "http://[::1]/checkout")]
struct OrderCreated;

fn main() {}
