use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created.v2", dataschema = "https://schemas.example.com/orders/created/v1.json")]
struct OrderCreated;

fn main() {}
