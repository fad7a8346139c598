//! Every contestant writes and reads the same event, so the benchmark compares like with like.

use cloudevent_bench::{
    OrderCreated, PlainEvent, ours, plain, reference_batch_json, reference_json,
};
use cloudevent_runtime::{AnyEvent, Batch, Event, Profile, Validator};
use cloudevents::{AttributesReader, EventBuilder, EventBuilderV10};
use serde_json::Value;

fn sdk() -> cloudevents::Event {
    EventBuilderV10::new()
        .id(cloudevent_bench::ID)
        .source(cloudevent_bench::SOURCE)
        .ty(cloudevent_bench::TYPE)
        .time(cloudevent_bench::TIME)
        .subject(cloudevent_bench::SUBJECT)
        .extension(
            cloudevent_bench::EXTENSION,
            cloudevent_bench::EXTENSION_VALUE,
        )
        .data_with_schema(
            cloudevent_bench::DATACONTENTTYPE,
            cloudevent_bench::DATASCHEMA,
            serde_json::to_value(cloudevent_bench::payload()).unwrap(),
        )
        .build()
        .unwrap()
}

fn as_value(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap()
}

#[test]
fn the_reference_event_is_about_460_bytes() {
    let len = reference_json().len();
    assert!((440..=480).contains(&len), "{len} bytes");
}

#[test]
fn all_contestants_write_the_same_json_object() {
    let reference = as_value(&reference_json());
    assert_eq!(as_value(&serde_json::to_vec(&ours()).unwrap()), reference);
    assert_eq!(as_value(&serde_json::to_vec(&plain()).unwrap()), reference);
    assert_eq!(as_value(&serde_json::to_vec(&sdk()).unwrap()), reference);
}

#[test]
fn all_contestants_read_the_reference_event() {
    let json = reference_json();
    let ours = Event::<OrderCreated>::from_slice(&json).unwrap();
    assert_eq!(ours, cloudevent_bench::ours());
    let plain: PlainEvent = serde_json::from_slice(&json).unwrap();
    assert_eq!(plain, cloudevent_bench::plain());
    let sdk_event: cloudevents::Event = serde_json::from_slice(&json).unwrap();
    assert_eq!(sdk_event.id(), cloudevent_bench::ID);
    assert_eq!(sdk_event, sdk());
}

#[test]
fn the_reference_event_is_strictly_valid() {
    let event = AnyEvent::from_slice(&reference_json()).unwrap();
    let report = Validator::new(Profile::IntgStd015)
        .type_prefix("com.example")
        .validate(&event);
    assert!(report.is_valid(), "{report}");
}

#[test]
fn the_batch_holds_distinct_events() {
    let batch = Batch::from_slice(&reference_batch_json(100)).unwrap();
    assert_eq!(batch.len(), 100);
    assert_ne!(batch.events()[0].id(), batch.events()[99].id());
}
