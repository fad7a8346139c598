//! `AnyEvent` and `Event<T>` from the Avro format: never panic (no stack overflow, no
//! allocation past the input); whatever decodes writes back and decodes to the same event,
//! and writes to the same bytes a second time.
#![no_main]

use cloudevent_runtime::{AnyEvent, Avro, CloudEvent, Event, Policy, Profile};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com"
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    lines: Vec<u32>,
}

fuzz_target!(|data: &[u8]| {
    let _ = Event::<OrderCreated>::decode::<Avro>(data);
    let _ = AnyEvent::decode_with::<Avro>(data, &Policy::new(Profile::IntgStd015));
    let Ok(event) = AnyEvent::decode::<Avro>(data) else {
        return;
    };
    let bytes = event
        .encode::<Avro>()
        .unwrap_or_else(|e| panic!("a decoded event does not encode: {e}\n{event:?}"));
    let again = AnyEvent::decode::<Avro>(&bytes)
        .unwrap_or_else(|e| panic!("own output does not decode: {e}\n{event:?}"));
    assert_eq!(again, event, "round trip changed the event");
    assert_eq!(
        again.encode::<Avro>().ok(),
        Some(bytes),
        "encoding is not stable"
    );
});
