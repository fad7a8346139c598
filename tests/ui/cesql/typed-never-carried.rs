use cloudevent_runtime::{CloudEvent, cesql};

#[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension)]
    region: String,
}

fn main() {
    // `region` is the type's, `partitionkey` documented: both fine; `regoin` is neither.
    let _ = cesql!(OrderCreated, "region = 'eu' AND partitionkey = 'k1' AND regoin = 'eu'");
}
