use cloudevent_runtime::{CloudEvent, cesql};

#[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension)]
    priority: i32,
}

fn main() {
    // `priority` is an Integer extension of `OrderCreated`: never equal to 'high'.
    let _ = cesql!(OrderCreated, "priority = 'high'");
}
