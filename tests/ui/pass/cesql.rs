use cloudevent_runtime::filter::Filter;
use cloudevent_runtime::{AnyEvent, CloudEvent, Event, cesql};

#[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension)]
    region: String,
}

fn main() {
    let untyped = cesql!("type LIKE 'com.example.order.%' AND partitionkey = 'k1'");
    let typed = cesql!(OrderCreated, "region = 'eu' AND subject LIKE 'o-%'");
    let event = Event::new(OrderCreated { order_id: "o-1".into(), region: "eu".into() });
    assert!(typed.accepts(&event));
    assert!(!untyped.accepts(&AnyEvent::new("1", "/x", "org.other.thing")));
}
