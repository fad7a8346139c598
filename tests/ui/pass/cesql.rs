use cloudevent_runtime::filter::Filter;
use cloudevent_runtime::{AnyEvent, CloudEvent, Event, cesql};

#[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension)]
    region: String,
    #[cloudevent(extension)]
    priority: Option<u8>,
    #[cloudevent(extension(name = "express", member = "express"))]
    context: Option<Context>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Context {
    express: bool,
}

fn main() {
    let untyped = cesql!("type LIKE 'com.example.order.%' AND partitionkey = 'k1'");
    let typed = cesql!(OrderCreated, "region = 'eu' AND subject LIKE 'o-%'");
    // Comparisons the declared types can satisfy: an Integer with a number or a numeric
    // string, a Boolean with a boolean or its text.
    let numbers = cesql!(OrderCreated, "priority = '2' AND priority > 1 AND express = 'true'");
    let event = Event::new(OrderCreated {
        order_id: "o-1".into(),
        region: "eu".into(),
        priority: Some(2),
        context: Some(Context { express: true }),
    });
    assert!(typed.accepts(&event));
    assert!(numbers.accepts(&event));
    assert!(!untyped.accepts(&AnyEvent::new("1", "/x", "org.other.thing")));
}
