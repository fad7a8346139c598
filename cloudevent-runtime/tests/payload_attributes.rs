//! `id`, `time` and `source` taken from the payload (`#[cloudevent(id)]`,
//! `#[cloudevent(time)]`, `#[cloudevent(source)]`, `source_template`): `Event::new` and the
//! builder use them, their values are checked by the rules crate under the type's profile,
//! and the typed reader refuses an envelope that disagrees with the payload.

use cloudevent_runtime::Attributes;
use cloudevent_runtime::{CloudEvent, Event, Profile};
use serde::{Deserialize, Serialize};

/// Shaped like a CDEvents payload: the binding takes `id`, `time` and `source` from
/// `context`, `subject` from `subject.id`. Here one level deep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(type = "dev.cdevents.build.started.0.2.0", profile = "cloudevents")]
struct BuildStarted {
    #[cloudevent(id)]
    context_id: u64,
    #[cloudevent(time)]
    timestamp: String,
    #[cloudevent(source)]
    origin: String,
    #[cloudevent(subject)]
    build: String,
}

fn started() -> BuildStarted {
    BuildStarted {
        context_id: 271828,
        timestamp: "2026-11-02T10:15:00.5+01:00".into(),
        origin: "/ci/shop".into(),
        build: "build-7".into(),
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.device.reading.taken",
    source_template = "https://devices.example.com/{tenantid}/{deviceid}",
    source = "https://devices.example.com/unknown"
)]
struct ReadingTaken {
    tenantid: String,
    deviceid: Option<String>,
    celsius: i32,
}

#[test]
fn event_new_takes_id_time_and_source_from_the_payload() {
    let event = Event::new(started());
    assert_eq!(event.id(), "271828", "integer to string");
    assert_eq!(
        event.time().unwrap().as_str(),
        "2026-11-02T10:15:00.5+01:00",
        "the text kept, offset and all"
    );
    assert_eq!(event.source(), "/ci/shop");
    assert_eq!(event.subject(), Some("build-7"));
    assert_eq!(
        <BuildStarted as cloudevent_runtime::CloudEventData>::ID_PROPERTY,
        Some("context_id")
    );
    let back: Event<BuildStarted> = Event::from_slice(&event.to_vec().unwrap()).unwrap();
    assert_eq!(back.id(), "271828");
    assert_eq!(back.data(), &started());
}

#[test]
fn a_source_template_is_filled_from_the_fields_and_percent_encoded() {
    let event = Event::new(ReadingTaken {
        tenantid: "acme".into(),
        deviceid: Some("oven 1".into()),
        celsius: 180,
    });
    assert_eq!(event.source(), "https://devices.example.com/acme/oven%201");
    // A variable absent: the type's default source.
    let event = Event::new(ReadingTaken {
        tenantid: "acme".into(),
        deviceid: None,
        celsius: 180,
    });
    assert_eq!(event.source(), "https://devices.example.com/unknown");
}

#[test]
fn a_payload_value_that_breaks_a_rule_is_refused_with_its_rule_id() {
    let mut bad = started();
    bad.timestamp = "yesterday".into();
    let err = Event::try_new(bad.clone()).unwrap_err();
    assert_eq!(err.violations()[0].attribute, "time");
    assert_eq!(err.violations()[0].rule.as_str(), "CE 1.0.2 time");
    // `Event::new` cannot fail: the event is refused when written.
    let written = Event::new(bad.clone()).to_vec().unwrap_err().to_string();
    assert!(written.contains("CE 1.0.2 time"), "{written}");
    // The builder reports it, unless it was given a time of its own.
    assert!(Event::builder(bad.clone()).build().is_err());
    assert!(Event::builder(bad).time(None).build().is_ok());

    let mut empty = started();
    empty.origin = String::new();
    let err = Event::try_new(empty).unwrap_err();
    assert_eq!(err.violations()[0].attribute, "source");
}

#[test]
fn the_profile_decides_a_payload_time_with_an_offset() {
    #[derive(Debug, Serialize, CloudEvent)]
    #[cloudevent(
        type = "com.example.order.placed",
        source = "https://orders.example.com"
    )]
    struct OrderPlaced {
        #[cloudevent(time)]
        placed_at: String,
    }
    assert_eq!(
        <OrderPlaced as cloudevent_runtime::CloudEventData>::PROFILE,
        Profile::IntgStd015
    );
    let err = Event::try_new(OrderPlaced {
        placed_at: "2026-11-02T10:15:00+01:00".into(),
    })
    .unwrap_err();
    assert_eq!(err.violations()[0].rule.as_str(), "INTG-STD-015 gateway 4");
}

#[test]
fn the_typed_reader_refuses_an_envelope_that_disagrees_with_the_payload() {
    let document = |id: &str, time: &str, source: &str| {
        format!(
            r#"{{"specversion":"1.0","id":"{id}","source":"{source}","type":"dev.cdevents.build.started.0.2.0","time":"{time}","data":{{"context_id":271828,"timestamp":"2026-11-02T10:15:00.5+01:00","origin":"/ci/shop","build":"build-7"}}}}"#
        )
    };
    let agree = document("271828", "2026-11-02T10:15:00.5+01:00", "/ci/shop");
    assert!(Event::<BuildStarted>::from_slice(agree.as_bytes()).is_ok());
    for (bytes, attribute) in [
        (
            document("1", "2026-11-02T10:15:00.5+01:00", "/ci/shop"),
            "id",
        ),
        (
            document("271828", "2026-11-02T09:15:00.5Z", "/ci/shop"),
            "time",
        ),
        (
            document("271828", "2026-11-02T10:15:00.5+01:00", "/ci/other"),
            "source",
        ),
    ] {
        let err = Event::<BuildStarted>::from_slice(bytes.as_bytes()).unwrap_err();
        assert_eq!(err.attribute(), Some(attribute), "{err}");
        assert_eq!(
            err.rule().map(|r| r.as_str()),
            Some("INTG-STD-015 R-7"),
            "{err}"
        );
    }
    // `time` is optional: an envelope without it is no second value.
    let no_time = agree.replace(r#""time":"2026-11-02T10:15:00.5+01:00","#, "");
    assert!(Event::<BuildStarted>::from_slice(no_time.as_bytes()).is_ok());
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Context {
    id: String,
    source: String,
    timestamp: String,
}

/// The CDEvents binding: `id`, `source`, `time` are members of `context`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(type = "dev.cdevents.build.finished.0.2.0", profile = "cloudevents")]
struct BuildFinished {
    #[cloudevent(id = "id", source = "source", time = "timestamp")]
    context: Context,
}

#[test]
fn a_member_of_a_field_fills_the_attribute() {
    let event = Event::new(BuildFinished {
        context: Context {
            id: "ctx-1".into(),
            source: "/ci/shop".into(),
            timestamp: "2026-11-02T10:15:00Z".into(),
        },
    });
    assert_eq!(event.id(), "ctx-1");
    assert_eq!(event.source(), "/ci/shop");
    assert_eq!(event.time().unwrap().as_str(), "2026-11-02T10:15:00Z");
    assert_eq!(
        <BuildFinished as cloudevent_runtime::CloudEventData>::TIME_PROPERTY,
        Some("context.timestamp")
    );
}
