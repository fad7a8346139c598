use cloudevent_runtime::CloudEvent;

#[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com",
    literal_headers
)]
struct OrderCreated;

fn main() {}
