use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(tpye = "com.example.order.created")]
struct OrderCreated;

fn main() {}
