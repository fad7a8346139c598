//! `Event<T>` from JSON: never panics; `Event::from_slice` (the object's members read straight
//! from the text where it can, issue 40) accepts exactly what serde_json's reader accepts
//! (`Event<T>`'s `Deserialize`) and reads the same event; whatever parses writes back and parses
//! to the same event.
#![no_main]

use cloudevent_runtime::{CloudEvent, Event};
use libfuzzer_sys::fuzz_target;
use serde::{Deserialize, Serialize};

/// A payload with a subject, an extension and every JSON value shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com/checkout",
    dataschema = "https://schemas.example.com/orders/created/v1.json"
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension)]
    region: Option<String>,
    #[serde(default)]
    quantity: i64,
    #[serde(default)]
    total: f64,
    #[serde(default)]
    express: bool,
    #[serde(default)]
    lines: Vec<String>,
}

fuzz_target!(|data: &[u8]| {
    let read = Event::<OrderCreated>::from_slice(data);
    let reference = serde_json::from_slice::<Event<OrderCreated>>(data);
    match (&read, &reference) {
        (Ok(read), Ok(reference)) => assert_eq!(read, reference, "the two readers differ"),
        (Err(_), Err(_)) => {}
        _ => panic!(
            "one reader accepts: from_slice {:?}, Deserialize {:?}",
            read.as_ref().err(),
            reference.as_ref().err()
        ),
    }
    let Ok(event) = read else {
        return;
    };
    // Fuzz finding 1 (fixed): object data read before a non-JSON datacontenttype was accepted
    // but could not be written. Any parsed event must write.
    let json = event
        .to_vec()
        .unwrap_or_else(|e| panic!("a parsed event does not serialize: {e}"));
    let mut again = Event::<OrderCreated>::from_slice(&json).unwrap_or_else(|e| {
        panic!(
            "own output does not parse: {e}\n{}",
            String::from_utf8_lossy(&json)
        )
    });
    // Fuzz finding 3: serde_json's default float parsing is not correctly rounded (its
    // `float_roundtrip` feature is), so a float may move by an ulp on each read, exactly as
    // with plain serde. Everything else must be equal.
    let (read, first) = (again.data().total, event.data().total);
    assert!(
        read == first || read.to_bits().abs_diff(first.to_bits()) <= 2,
        "float moved more than 2 ulps: {first} -> {read}"
    );
    again.data_mut().total = first;
    assert_eq!(again, event, "round trip changed the event");
});
