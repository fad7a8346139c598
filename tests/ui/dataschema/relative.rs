use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created", dataschema = "/schemas/orders/created/v1.json")]
struct OrderCreated;

fn main() {}
