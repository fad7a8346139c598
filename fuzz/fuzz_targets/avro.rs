//! `AnyEvent` and `Event<T>` from the Avro format: never panic (no stack overflow, no
//! allocation past the input); whatever decodes writes back and decodes to the same event,
//! and writes to the same bytes a second time.
#![no_main]

use cloudevent_runtime::{AnyEvent, CloudEvent, Event, Policy, Profile, avro};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    lines: Vec<u32>,
}

fuzz_target!(|data: &[u8]| {
    let _ = Event::<OrderCreated>::from_avro(data);
    let _ = avro::decode(data, &Policy::new(Profile::IntgStd015));
    let Ok(event) = AnyEvent::from_avro(data) else {
        return;
    };
    let bytes = event
        .to_avro()
        .unwrap_or_else(|e| panic!("a decoded event does not encode: {e}\n{event:?}"));
    let again = AnyEvent::from_avro(&bytes)
        .unwrap_or_else(|e| panic!("own output does not decode: {e}\n{event:?}"));
    assert_eq!(again, event, "round trip changed the event");
    assert_eq!(again.to_avro().ok(), Some(bytes), "encoding is not stable");
});
