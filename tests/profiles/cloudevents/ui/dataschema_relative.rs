use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "OrderCreated", dataschema = "schemas/order.json")]
struct OrderCreated;

fn main() {}
