use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(subject)]
    customer_id: String,
}

fn main() {}
