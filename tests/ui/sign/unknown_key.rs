use cloudevent_runtime::CloudEvent;

#[derive(serde::Serialize, CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "https://orders.example.com", sign(extension = "region"))]
struct OrderCreated {
    #[cloudevent(extension)]
    region: String,
}

fn main() {}
