use cloudevent_runtime::CloudEvent;

#[derive(serde::Serialize, CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
struct OrderCreated {
    #[cloudevent(id)]
    order_id: String,
    #[cloudevent(id)]
    request_id: String,
}

fn main() {}
