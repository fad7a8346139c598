//! Every contestant writes and reads the same event, so the benchmark compares like with like.

use cloudevent_bench::{
    OrderCreated, PlainEvent, ours, plain, reference_batch_json, reference_json,
};
use cloudevent_runtime::Attributes;
use cloudevent_runtime::Validate;
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
    let report = Validator::new(
        cloudevent_runtime::Policy::new(Profile::IntgStd015).with_type_prefix("com.example"),
    )
    .validate(&event);
    assert!(report.is_valid(), "{report}");
}

#[test]
fn the_batch_holds_distinct_events() {
    let batch = Batch::from_slice(&reference_batch_json(100)).unwrap();
    assert_eq!(batch.len(), 100);
    assert_ne!(batch[0].id(), batch[99].id());
}

#[path = "../benches/sdk/mod.rs"]
mod sdk_side;

#[test]
fn http_binary_requests_cross_decode() {
    use cloudevent_runtime::binding::{ContentMode, http as binding};

    let ours = cloudevent_bench::ours();
    let request =
        binding::event_request("http://127.0.0.1/events", &ours, ContentMode::Binary).unwrap();
    let mut by_sdk =
        cloudevents::binding::http::to_event(request.headers(), request.body().clone()).unwrap();
    let mut expected = sdk_side::sdk_build();
    // The SDK reads a binary-mode body as bytes, whatever the content type: compare the
    // payloads, then the attributes.
    let (payload, expected_payload) = (by_sdk.take_data().2, expected.take_data().2);
    assert_eq!(
        sdk_side::sdk_payload(payload),
        sdk_side::sdk_payload(expected_payload)
    );
    assert_eq!(by_sdk, expected);

    let sdk_request = sdk_side::sdk_request(sdk_side::sdk_build());
    // The SDK writes `time` through chrono as `+00:00`, not `Z`. `OrderCreated` reads under
    // INTG-STD-015 (its crate's profile), whose gateway rule 4 wants the `Z`: refused, as
    // `cloudevent validate --profile intg-std-015` refuses it.
    let refused = binding::from_request::<Event<OrderCreated>, _>(&sdk_request).unwrap_err();
    assert!(
        refused.to_string().contains("INTG-STD-015 gateway 4"),
        "{refused}"
    );
    // Under the CloudEvents MUSTs the same request reads, and it is the same event.
    let by_us: cloudevent_runtime::AnyEvent = binding::from_request(&sdk_request).unwrap();
    assert_eq!(
        by_us.time().unwrap().as_str(),
        "2026-11-22T10:15:30.123456+00:00"
    );
    let typed: Event<OrderCreated> = by_us.into_typed().unwrap();
    let time = ours.time().unwrap().clone();
    assert_eq!(typed.with_time(time).unwrap(), ours);
}

#[test]
fn sdk_parse_extracts_the_payload() {
    let (event, payload) = sdk_side::sdk_parse(&reference_json());
    assert_eq!(event.id(), cloudevent_bench::ID);
    assert_eq!(payload, cloudevent_bench::plain().data);
}

// The README path (issue 13): `Event::new`'s event, with fresh ids, time and the ADR-0003
// root attributes, written by every contestant.

use cloudevent_bench::{OrderPlaced, PlainPlaced, PlainRootEvent};

/// The attributes whose values are fresh on every emission; the rest must be equal.
const FRESH: [&str; 4] = ["id", "time", "correlationid", "causationid"];

/// Checks a freshly built README-path event against the fixed one: same attribute names,
/// same values except the fresh ones, which have the shapes `Event::new` gives them.
fn assert_same_root_event(who: &str, written: &[u8]) {
    let mut written = as_value(written);
    let mut reference = as_value(&cloudevent_bench::root_json());
    let keys = |v: &Value| {
        let mut keys: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        keys
    };
    assert_eq!(keys(&written), keys(&reference), "{who}: attribute names");
    let (id, correlationid) = (written["id"].clone(), written["correlationid"].clone());
    assert_eq!(id.as_str().unwrap().len(), 26, "{who}: id is a ULID");
    assert_eq!(
        correlationid.as_str().unwrap().len(),
        26,
        "{who}: correlationid"
    );
    assert_ne!(id, correlationid, "{who}: two ids");
    assert_eq!(
        written["causationid"], id,
        "{who}: a root's causationid is its id"
    );
    let time = written["time"].as_str().unwrap();
    cloudevent_runtime::Timestamp::try_from(time).unwrap_or_else(|e| panic!("{who}: {time}: {e}"));
    for name in FRESH {
        written.as_object_mut().unwrap().remove(name);
        reference.as_object_mut().unwrap().remove(name);
    }
    assert_eq!(written, reference, "{who}");
}

#[test]
fn readme_path_contestants_write_the_same_event() {
    let ours = Event::new(cloudevent_bench::placed());
    assert_same_root_event("ours", &serde_json::to_vec(&ours).unwrap());
    let plain = cloudevent_bench::plain_new(cloudevent_bench::plain_placed());
    assert_same_root_event("plain", &serde_json::to_vec(&plain).unwrap());
    assert!(plain.time.ends_with('Z') && plain.time.len() == ours.time().unwrap().as_str().len());
    let sdk = sdk_side::sdk_new(cloudevent_bench::placed());
    assert_same_root_event("sdk", &serde_json::to_vec(&sdk).unwrap());

    // With the fresh values fixed, the same JSON object.
    let reference = as_value(&cloudevent_bench::root_json());
    let ours = as_value(&serde_json::to_vec(&cloudevent_bench::ours_root()).unwrap());
    assert_eq!(ours, reference);
    let sdk = as_value(&serde_json::to_vec(&sdk_side::sdk_root()).unwrap());
    assert_eq!(sdk, reference);
}

#[test]
fn readme_path_contestants_read_the_same_event() {
    let json = cloudevent_bench::root_json();
    let ours = Event::<OrderPlaced>::from_slice(&json).unwrap();
    assert_eq!(ours, cloudevent_bench::ours_root());
    let plain: PlainRootEvent = serde_json::from_slice(&json).unwrap();
    assert_eq!(plain, cloudevent_bench::plain_root());
    let (mut sdk, payload) = sdk_side::sdk_parse_as::<PlainPlaced>(&json);
    assert_eq!(payload, cloudevent_bench::plain_placed());
    let mut expected = sdk_side::sdk_root();
    expected.take_data();
    sdk.take_data();
    assert_eq!(sdk, expected);
}

#[test]
fn readme_path_batches_hold_the_same_events() {
    let json = cloudevent_bench::root_batch_json(100);
    let batch = Batch::from_slice(&json).unwrap();
    let sdk: Vec<cloudevents::Event> = serde_json::from_slice(&json).unwrap();
    assert_eq!(batch.len(), 100);
    assert_eq!(sdk.len(), 100);
    for (ours, sdk) in batch.iter().zip(&sdk) {
        assert_eq!(ours.id(), sdk.id());
        let typed: Event<OrderPlaced> = ours.clone().into_typed().unwrap();
        assert_eq!(typed.data(), &cloudevent_bench::placed());
    }
    assert_ne!(batch[0].id(), batch[99].id());
}

#[test]
fn readme_path_http_request_reads_the_same_event_in_both_libraries() {
    use cloudevent_runtime::binding::{ContentMode, http as binding};

    let request = binding::event_request(
        "http://127.0.0.1/events",
        &cloudevent_bench::ours_root(),
        ContentMode::Binary,
    )
    .unwrap();
    let ours: Event<OrderPlaced> = binding::from_request(&request).unwrap();
    assert_eq!(ours, cloudevent_bench::ours_root());
    let mut by_sdk =
        cloudevents::binding::http::to_event(request.headers(), request.body().clone()).unwrap();
    let payload: PlainPlaced = sdk_side::sdk_payload_as(by_sdk.take_data().2);
    assert_eq!(payload, cloudevent_bench::plain_placed());
    let mut expected = sdk_side::sdk_root();
    expected.take_data();
    assert_eq!(by_sdk, expected);
}
