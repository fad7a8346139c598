//! Hostile headers and properties on the binary-mode mappings of NATS (`ce-` headers,
//! percent-encoded) and MQTT 5 (user properties): whatever a peer sends, the reader returns an
//! event or a typed error naming a rule, never panics; and what it accepts, it writes back and
//! reads again to the same event. 256 cases a property keep CI fast.
#![cfg(all(feature = "nats", feature = "mqtt"))]

use cloudevent_runtime::Attributes;
use std::str::FromStr;

use async_nats::{HeaderMap, HeaderName, HeaderValue};
use cloudevent_runtime::binding::mqtt::{self, MqttPublish, MqttVersion};
use cloudevent_runtime::binding::{BindingError, BindingEvent, ContentMode, nats};
use cloudevent_runtime::{AnyEvent, CloudEvent, Data, Event};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.shipped",
    source = "https://orders.example.com/shipping"
)]
struct OrderShipped {
    #[cloudevent(subject)]
    order_id: String,
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The headers of a valid binary-mode message; the strategies below corrupt, repeat, reorder
/// and add to them.
const VALID: &[(&str, &str)] = &[
    ("specversion", "1.0"),
    ("id", "1"),
    ("source", "https://orders.example.com/shipping"),
    ("type", "com.example.order.shipped"),
    ("subject", "order-1"),
    ("datacontenttype", "application/json"),
];

/// Attribute names: the core ones, the reserved `data`, and arbitrary text.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::sample::select(
            VALID
                .iter()
                .map(|(n, _)| (*n).to_owned())
                .collect::<Vec<_>>()
        ),
        Just("data".to_owned()),
        Just("data_base64".to_owned()),
        "[a-zA-Z0-9_.-]{0,12}",
        any::<String>(),
    ]
}

/// Values: valid ones, percent-escapes good and bad, quotes, and arbitrary text.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::sample::select(
            VALID
                .iter()
                .map(|(_, v)| (*v).to_owned())
                .collect::<Vec<_>>()
        ),
        "(%[0-9A-Fa-f]{2}|%[^0-9A-Fa-f]{0,2}|[ \"\\\\a-z])*",
        any::<String>(),
    ]
}

/// A valid message with up to four headers added (each maybe repeating or shadowing a valid
/// one) and maybe one valid header dropped.
fn headers() -> impl Strategy<Value = Vec<(String, String)>> {
    (
        proptest::collection::vec((name(), value()), 0..4),
        proptest::option::of(0..VALID.len()),
    )
        .prop_map(|(extra, dropped)| {
            let mut headers: Vec<(String, String)> = VALID
                .iter()
                .enumerate()
                .filter(|(i, _)| Some(*i) != dropped)
                .map(|(_, (n, v))| ((*n).to_owned(), (*v).to_owned()))
                .collect();
            headers.extend(extra);
            headers
        })
}

fn payload() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(br#"{"order_id":"order-1"}"#.to_vec()),
        Just(Vec::new()),
        proptest::collection::vec(any::<u8>(), 0..32),
    ]
}

/// A refusal names its rule and says something.
fn check_error(error: &BindingError) -> Result<(), TestCaseError> {
    prop_assert!(!error.rule().as_str().is_empty());
    prop_assert!(!error.to_string().is_empty());
    Ok(())
}

/// `event` as a binary-mode reader gives it back: JSON data without `datacontenttype` travels
/// with the content type the JSON format implies for it (CE-JSON 3.1), `application/json`.
fn as_binary_reads_it(event: &AnyEvent) -> AnyEvent {
    let mut expected = event.clone();
    if expected.datacontenttype().is_none() && matches!(expected.data(), Some(Data::Json(_))) {
        expected.set_datacontenttype(Some("application/json".into()));
    }
    expected
}

/// What a reader accepted writes back and reads again to the same event, in both modes.
fn check_accepted_nats<E: BindingEvent>(event: &E) -> Result<(), TestCaseError> {
    let any = event
        .to_any_event()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    for mode in [ContentMode::Binary, ContentMode::Structured] {
        let (headers, payload) = nats::to_message(event, mode)
            .map_err(|e| TestCaseError::fail(format!("{mode:?} write: {e}")))?;
        let again: E = nats::from_parts(Some(&headers), &payload)
            .map_err(|e| TestCaseError::fail(format!("{mode:?} read: {e}")))?;
        let again = again
            .to_any_event()
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let expected = if mode == ContentMode::Binary {
            as_binary_reads_it(&any)
        } else {
            any.clone()
        };
        prop_assert_eq!(&again, &expected, "{:?}", mode);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn nats_reader_never_panics_on_hostile_headers(
        headers in headers(),
        prefix in proptest::sample::select(vec!["ce-", "CE-", "Ce-"]),
        content_type in proptest::option::of(prop_oneof![
            Just("application/cloudevents+json".to_owned()),
            Just("application/cloudevents+avro".to_owned()),
            Just("application/json".to_owned()),
            any::<String>(),
        ]),
        payload in payload(),
    ) {
        let mut map = HeaderMap::new();
        for (name, value) in &headers {
            // What the client cannot put on the wire (CR, LF, `:` or non-ASCII in a name; CR
            // or LF in a value) never reaches a reader; the rest goes through as written.
            let (Ok(name), Ok(value)) = (
                HeaderName::from_str(&format!("{prefix}{name}")),
                HeaderValue::from_str(value),
            ) else {
                continue;
            };
            map.append(name, value);
        }
        if let Some(content_type) = content_type.as_deref().and_then(|c| HeaderValue::from_str(c).ok()) {
            map.insert("Content-Type", content_type);
        }
        match nats::from_parts::<AnyEvent>(Some(&map), &payload) {
            Ok(event) => check_accepted_nats(&event)?,
            Err(error) => check_error(&error)?,
        }
        match nats::from_parts::<Event<OrderShipped>>(Some(&map), &payload) {
            Ok(event) => check_accepted_nats(&event)?,
            Err(error) => check_error(&error)?,
        }
    }

    #[test]
    fn mqtt5_reader_never_panics_on_hostile_user_properties(
        user_properties in headers(),
        content_type in proptest::option::of(prop_oneof![
            Just("application/json".to_owned()),
            Just("application/cloudevents+json".to_owned()),
            any::<String>(),
        ]),
        payload in payload(),
    ) {
        let publish = MqttPublish { content_type, user_properties, payload };
        for version in [MqttVersion::V5, MqttVersion::V3_1_1] {
            match mqtt::from_publish::<AnyEvent>(&publish, version) {
                Ok(event) => {
                    for (version, mode) in [
                        (MqttVersion::V5, ContentMode::Binary),
                        (MqttVersion::V5, ContentMode::Structured),
                        (MqttVersion::V3_1_1, ContentMode::Structured),
                    ] {
                        let out = mqtt::to_publish(&event, version, mode)
                            .map_err(|e| TestCaseError::fail(e.to_string()))?;
                        let again: AnyEvent = mqtt::from_publish(&out, version)
                            .map_err(|e| TestCaseError::fail(format!("{version:?} {mode:?}: {e}")))?;
                        let expected = if mode == ContentMode::Binary { as_binary_reads_it(&event) } else { event.clone() };
                        prop_assert_eq!(&again, &expected, "{:?} {:?}", version, mode);
                    }
                }
                Err(error) => check_error(&error)?,
            }
            match mqtt::from_publish::<Event<OrderShipped>>(&publish, version) {
                Ok(event) => {
                    let out = mqtt::to_publish(&event, MqttVersion::V5, ContentMode::Binary)
                        .map_err(|e| TestCaseError::fail(e.to_string()))?;
                    let again: Event<OrderShipped> = mqtt::from_publish(&out, MqttVersion::V5)
                        .map_err(|e| TestCaseError::fail(e.to_string()))?;
                    prop_assert_eq!(&again, &event);
                }
                Err(error) => check_error(&error)?,
            }
        }
    }
}

/// The mappings' edge cases, one each, so a regression names itself.
#[test]
fn nats_binary_mode_edge_cases() {
    let mut headers = HeaderMap::new();
    for (name, value) in VALID {
        headers.insert(format!("ce-{name}").as_str(), *value);
    }
    let ok: Event<OrderShipped> =
        nats::from_parts(Some(&headers), br#"{"order_id":"order-1"}"#).unwrap();
    assert_eq!(ok.data().order_id, "order-1");
    // A binary-mode message with no data: an empty payload (an event without data).
    let event: AnyEvent = nats::from_parts(Some(&headers), b"").unwrap();
    assert_eq!(event.data(), None);
    // An id that cannot be a NATS header value cannot become `Nats-Msg-Id` or `ce-id` either.
    let bad = AnyEvent::new("a\r\nb", "/s", "com.example.order.shipped");
    let (written, _) = nats::to_message(&bad, ContentMode::Binary).unwrap();
    assert_eq!(written.get("ce-id").unwrap().as_str(), "a%0D%0Ab");
}
