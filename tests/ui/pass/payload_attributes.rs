//! `id`, `time` and `source` from the payload, and a `source_template`.
use cloudevent_runtime::{CloudEvent, Event};

#[derive(serde::Serialize, CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
struct OrderCreated {
    #[cloudevent(id)]
    order_number: u64,
    #[cloudevent(time)]
    placed_at: Option<String>,
    #[cloudevent(source)]
    shop: Option<String>,
}

#[derive(serde::Serialize, CloudEvent)]
#[cloudevent(
    type = "com.example.device.reading.taken",
    source_template = "https://devices.example.com/{tenantid}/{deviceid}"
)]
struct ReadingTaken {
    tenantid: String,
    deviceid: u32,
}

// Only a source field: `Event::new` takes the source from it.
#[derive(serde::Serialize, CloudEvent)]
#[cloudevent(type = "com.example.service.deploy.finished")]
struct DeployFinished {
    #[cloudevent(source)]
    origin: String,
}

fn main() {
    let _ = Event::new(OrderCreated { order_number: 1, placed_at: None, shop: None });
    let _ = Event::new(ReadingTaken { tenantid: "acme".into(), deviceid: 7 });
    let _ = Event::new(DeployFinished { origin: "https://deploy.example.com".into() });
}
