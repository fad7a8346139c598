//! A batch reader does not check again a `source`, `type`, `datacontenttype` or `dataschema`
//! its previous event passed with. That memory must not change a verdict: a batch reads to
//! exactly what reading each of its events alone gives (the first failing index and its
//! error, or every event), under every profile, whatever mix of repeated, changed and broken
//! values the events carry.

use cloudevent_runtime::{AnyEvent, Batch, FormatError, Policy, Profile};
use proptest::prelude::*;

const SOURCES: &[&str] = &[
    "https://orders.example.com/checkout",
    "/orders/checkout",
    "http://localhost/x",
    "not a uri",
];
const TYPES: &[&str] = &[
    "com.example.order.created.v1",
    "com.example.order.created",
    "ordercreated",
    "bad type",
];
const SCHEMAS: &[&str] = &[
    "https://schemas.example.com/order/created/v1.json",
    "https://schemas.example.com/order/created/v2.json",
    "relative",
];
const CONTENT_TYPES: &[&str] = &["application/json", "text/plain", "bogus"];

fn event() -> impl Strategy<Value = serde_json::Value> {
    (
        proptest::sample::select(SOURCES),
        proptest::sample::select(TYPES),
        proptest::option::of(proptest::sample::select(SCHEMAS)),
        proptest::option::of(proptest::sample::select(CONTENT_TYPES)),
        proptest::option::of(proptest::sample::select(&["", "2026-11-23T10:00:00Z"][..])),
    )
        .prop_map(|(source, ty, dataschema, content_type, time)| {
            let mut event = serde_json::json!({
                "specversion": "1.0",
                "id": "01JD0000000000000000000000",
                "source": source,
                "type": ty,
                "correlationid": "c-1",
                "causationid": "c-0",
                "data": "x",
            });
            for (name, value) in [
                ("dataschema", dataschema),
                ("datacontenttype", content_type),
                ("time", time),
            ] {
                if let Some(value) = value {
                    event[name] = value.into();
                }
            }
            event
        })
}

/// What reading each event alone gives, as the batch reports it.
fn one_by_one(events: &[serde_json::Value], policy: &Policy) -> Result<usize, FormatError> {
    for (index, event) in events.iter().enumerate() {
        let bytes = serde_json::to_vec(event).expect("writes");
        if let Err(error) = AnyEvent::from_slice_with(&bytes, policy) {
            return Err(FormatError::InBatch {
                index,
                source: Box::new(error),
            });
        }
    }
    Ok(events.len())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn a_batch_reads_as_its_events_read_alone(
        profile in proptest::sample::select(&Profile::ALL[..]),
        events in proptest::collection::vec(event(), 0..8),
    ) {
        let policy = Policy::new(profile);
        let batch = serde_json::to_vec(&events).expect("writes");
        let read = Batch::from_slice_with(&batch, &policy).map(|batch| batch.len());
        // `FormatError` is not `PartialEq`; its debug text names index, rule and value.
        prop_assert_eq!(format!("{read:?}"), format!("{:?}", one_by_one(&events, &policy)));
    }
}
