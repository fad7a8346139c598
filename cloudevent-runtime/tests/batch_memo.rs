//! A batch reader does not check again a `source`, `type`, `datacontenttype` or `dataschema`
//! its previous event passed with. That memory must not change a verdict: a batch reads to
//! exactly what reading each of its events alone gives (the first failing index and its
//! error, or every event), under every profile, whatever mix of repeated, changed and broken
//! values the events carry. The same for the Protobuf batch (feature `protobuf`).

use cloudevent_runtime::{AnyEvent, Batch, FormatError, Json, Policy, Profile};
#[cfg(feature = "protobuf")]
use cloudevent_runtime::{Attributes, Protobuf};
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
        if let Err(error) = AnyEvent::decode_with::<Json>(&bytes, policy) {
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
        let read = Batch::decode_with::<cloudevent_runtime::Json>(&batch, &policy).map(|batch| batch.len());
        // `FormatError` is not `PartialEq`; its debug text names index, rule and value.
        prop_assert_eq!(format!("{read:?}"), format!("{:?}", one_by_one(&events, &policy)));
    }
}

/// A length-delimited field of a Protobuf message.
#[cfg(feature = "protobuf")]
fn field(number: u8, bytes: &[u8]) -> Vec<u8> {
    let mut out = vec![(number << 3) | 2];
    let mut len = bytes.len();
    loop {
        let byte = (len & 0x7f) as u8;
        len >>= 7;
        if len == 0 {
            out.push(byte);
            break;
        }
        out.push(byte | 0x80);
    }
    out.extend_from_slice(bytes);
    out
}

/// One `CloudEvent` message (CloudEvents Protobuf format: id 1, source 2, specversion 3,
/// type 4, attributes 5 as map entries of `ce_string` 3 or `ce_uri` 5 for `dataschema`,
/// text_data 7) for a JSON event of `event()`, without its `time`.
#[cfg(feature = "protobuf")]
fn protobuf_event(event: &serde_json::Value) -> Vec<u8> {
    let text = |name: &str| event[name].as_str().unwrap_or_default().as_bytes().to_vec();
    let mut out = Vec::new();
    out.extend(field(1, &text("id")));
    out.extend(field(2, &text("source")));
    out.extend(field(3, &text("specversion")));
    out.extend(field(4, &text("type")));
    for name in [
        "dataschema",
        "datacontenttype",
        "correlationid",
        "causationid",
    ] {
        if let Some(value) = event[name].as_str() {
            let kind = if name == "dataschema" { 5 } else { 3 };
            let mut entry = field(1, name.as_bytes());
            entry.extend(field(2, &field(kind, value.as_bytes())));
            out.extend(field(5, &entry));
        }
    }
    out.extend(field(7, b"x"));
    out
}

#[cfg(feature = "protobuf")]
proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn a_protobuf_batch_reads_as_its_events_read_alone(
        profile in proptest::sample::select(&Profile::ALL[..]),
        events in proptest::collection::vec(event(), 0..8),
    ) {
        let policy = Policy::new(profile);
        let messages: Vec<Vec<u8>> = events.iter().map(protobuf_event).collect();
        let batch: Vec<u8> = messages.iter().flat_map(|m| field(1, m)).collect();
        let read = Batch::decode_with::<Protobuf>(&batch, &policy).map(|batch| batch.len());
        let alone = messages
            .iter()
            .enumerate()
            .find_map(|(index, message)| {
                AnyEvent::decode_with::<Protobuf>(message, &policy).err().map(|error| {
                    FormatError::InBatch { index, source: Box::new(error) }
                })
            })
            .map_or(Ok(messages.len()), Err);
        prop_assert_eq!(format!("{read:?}"), format!("{alone:?}"));
    }
}

/// The hand-written messages are real events: a valid one reads, in a batch too.
#[cfg(feature = "protobuf")]
#[test]
fn the_protobuf_messages_are_events() {
    let event = serde_json::json!({
        "specversion": "1.0",
        "id": "01JD0000000000000000000000",
        "source": SOURCES[0],
        "type": TYPES[0],
        "dataschema": SCHEMAS[0],
        "datacontenttype": "text/plain",
        "correlationid": "c-1",
        "causationid": "c-0",
    });
    let message = protobuf_event(&event);
    let policy = Policy::new(Profile::IntgStd015);
    let read = AnyEvent::decode_with::<Protobuf>(&message, &policy).expect("reads");
    assert_eq!(read.ty(), TYPES[0]);
    let batch = [field(1, &message), field(1, &message)].concat();
    assert_eq!(
        Batch::decode_with::<Protobuf>(&batch, &policy)
            .expect("reads")
            .len(),
        2
    );
}
