use cloudevent_runtime::CloudEvent;

#[derive(serde::Serialize, CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
struct OrderCreated {
    #[cloudevent(time)]
    placed_at: f64,
}

fn main() {}
