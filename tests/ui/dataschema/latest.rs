use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created", dataschema = "https://schemas.example.com/orders/latest/created.json")]
struct OrderCreated;

fn main() {}
