use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "OrderCreated")]
struct OrderCreated {
    #[cloudevent(extension = "customer_id")]
    value: String,
}

fn main() {}
