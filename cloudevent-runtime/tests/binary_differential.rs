//! Binary mode has two readers over one set of rules (issue 13): the parts of a binary-mode
//! message read straight into the event, and the structured-mode document those parts stand
//! for parsed by the JSON reader. They must agree on every input, valid or not: the same
//! event, or the same first error (rule id and attribute). The fuzz target
//! `fuzz/fuzz_targets/binary_differential.rs` holds them to it on arbitrary input.

#![cfg(all(feature = "http", feature = "kafka"))]

use std::fmt::Debug;

use cloudevent_runtime::binding::kafka::{self, KafkaRecord};
use cloudevent_runtime::binding::{
    BinaryParts, BindingError, BindingEvent, ContentMode, http, percent,
};
use cloudevent_runtime::{AnyEvent, CloudEvent, Event};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A typed event whose payload is any JSON (or text): the typed reader's rules without a
/// payload shape of its own to refuse.
#[derive(Debug, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.ledger.entry.posted",
    source = "https://ledger.example.com/eu"
)]
struct EntryPosted(Option<Value>);

/// The event, or the first error's rule id and attribute.
type Verdict = Result<String, (String, String)>;

fn verdict<E: Debug>(result: Result<E, BindingError>) -> Verdict {
    result.map(|event| format!("{event:?}")).map_err(|error| {
        let violation = error.violation();
        (violation.rule.to_string(), violation.attribute.to_string())
    })
}

/// Both readers of one kind of event on the same parts.
fn both<E: BindingEvent + Debug>(
    parts: &BinaryParts,
    from_document: fn(&[u8]) -> Result<E, BindingError>,
) -> (Verdict, Verdict) {
    let fast = verdict(E::from_binary(parts.clone()));
    let slow = verdict(
        parts
            .to_structured_document()
            .and_then(|document| from_document(&document)),
    );
    (fast, slow)
}

fn any_from_document(document: &[u8]) -> Result<AnyEvent, BindingError> {
    Ok(AnyEvent::from_slice(document)?)
}

fn typed_from_document(document: &[u8]) -> Result<Event<EntryPosted>, BindingError> {
    Ok(Event::<EntryPosted>::from_slice(document)?)
}

const REQUIRED: [(&str, &str); 4] = [
    ("specversion", "1.0"),
    ("id", "1"),
    ("source", "https://ledger.example.com/eu"),
    ("type", "com.example.ledger.entry.posted"),
];

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "specversion", "id", "source", "type", "subject", "time", "dataschema",
            "priority", "ExtA", "ext-a", "", "data", "data_base64", "datacontenttype",
            "correlationid", "password",
        ])
        .prop_map(str::to_owned),
        1 => "[a-z0-9]{1,22}",
        1 => any::<String>(),
    ]
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "1.0", "1.1", "", "1", "/s", "https://ledger.example.com/eu", "http://10.0.0.1/x",
            "com.example.ledger.entry.posted", "com.example.other", "2026-03-28T14:22:31Z",
            "2026-03-28T14:22:31.123+01:00", "now", "true", "-7", "9999999999",
            "x\u{1}y", "\"\\\n", "https://schemas.example.com/ledger/v1.json", "caf\u{e9}",
        ])
        .prop_map(str::to_owned),
        1 => any::<String>(),
    ]
}

fn content_type() -> impl Strategy<Value = Option<String>> {
    prop::option::of(prop_oneof![
        4 => prop::sample::select(vec![
            "application/json",
            "application/json; charset=utf-8",
            "application/problem+json",
            "text/plain",
            "text/csv; charset=utf-8",
            "application/octet-stream",
            "image/png",
            "nonsense",
        ])
        .prop_map(str::to_owned),
        1 => "[ -~]{0,12}",
    ])
}

fn body() -> impl Strategy<Value = Option<Vec<u8>>> {
    prop::option::of(prop_oneof![
        3 => prop::sample::select(vec![
            &br#"{"amount":12.5,"currency":"EUR"}"#[..],
            b"[]",
            b" 42 ",
            b"null",
            b"\"a string\"",
            br#""\udc00""#,
            b"{\"unterminated\":",
            b"plain words",
            b"\x89PNG\r\n\x1a\n",
            b"",
        ])
        .prop_map(<[u8]>::to_vec),
        1 => prop::collection::vec(any::<u8>(), 0..32),
        1 => any::<String>().prop_map(String::into_bytes),
    ])
}

prop_compose! {
    fn binary_parts()(
        required in prop::collection::vec(any::<bool>(), 4),
        extra in prop::collection::vec((name(), value()), 0..5),
        datacontenttype in content_type(),
        data in body(),
    ) -> BinaryParts {
        // Each required attribute is left out now and then; the extras add, replace or
        // duplicate attributes, valid or not.
        let mut attributes: Vec<(String, String)> = REQUIRED
            .iter()
            .zip(required)
            .filter(|(_, keep)| *keep)
            .map(|((n, v), _)| ((*n).to_owned(), (*v).to_owned()))
            .collect();
        for (index, (name, value)) in extra.into_iter().enumerate() {
            match attributes.iter_mut().find(|(n, _)| *n == name) {
                Some(slot) if index % 2 == 0 => slot.1 = value,
                _ => attributes.push((name, value)),
            }
        }
        BinaryParts { attributes, datacontenttype, data }
    }
}

/// The HTTP message the parts make (percent-encoded `ce-` headers), when every name is a
/// header name and no attribute is `datacontenttype`.
fn http_message(parts: &BinaryParts) -> Option<::http::HeaderMap> {
    let mut headers = ::http::HeaderMap::new();
    for (name, value) in &parts.attributes {
        let header = ::http::HeaderName::from_bytes(format!("ce-{name}").as_bytes()).ok()?;
        let value = ::http::HeaderValue::from_str(&percent::encode(value)).ok()?;
        headers.append(header, value);
    }
    if let Some(content_type) = &parts.datacontenttype {
        headers.insert(
            ::http::header::CONTENT_TYPE,
            ::http::HeaderValue::from_str(content_type).ok()?,
        );
    }
    Some(headers)
}

fn kafka_record(parts: &BinaryParts) -> KafkaRecord {
    let mut headers: Vec<(String, Option<Vec<u8>>)> = parts
        .attributes
        .iter()
        .map(|(name, value)| (format!("ce_{name}"), Some(value.clone().into_bytes())))
        .collect();
    if let Some(content_type) = &parts.datacontenttype {
        headers.push((
            "content-type".into(),
            Some(content_type.clone().into_bytes()),
        ));
    }
    KafkaRecord {
        key: None,
        headers,
        value: parts.data.clone(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1024,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn reading_binary_parts_agrees_with_parsing_their_document(parts in binary_parts()) {
        let (fast, slow) = both::<AnyEvent>(&parts, any_from_document);
        prop_assert_eq!(fast, slow, "AnyEvent");
        let (fast, slow) = both::<Event<EntryPosted>>(&parts, typed_from_document);
        prop_assert_eq!(fast, slow, "Event<EntryPosted>");
    }

    /// The same through the transports: a message read by the binding, against the document
    /// the binding says it stands for (what `cloudevent validate` and the axum extractors'
    /// reports are made from).
    #[test]
    fn transports_read_what_their_document_says(parts in binary_parts()) {
        if let Some(headers) = http_message(&parts) {
            let body = parts.data.clone().unwrap_or_default();
            let fast = verdict(http::read_event::<AnyEvent>(&headers, &body));
            let slow = verdict(
                http::structured_document(&headers, &body, &AnyEvent::DEFAULT_POLICY)
                    .and_then(|(_, document, _)| any_from_document(&document)),
            );
            prop_assert_eq!(fast, slow, "HTTP");
        }
        let record = kafka_record(&parts);
        let fast = verdict(kafka::from_record::<Event<EntryPosted>>(&record));
        let slow = verdict(
            kafka::structured_document(&record).and_then(|document| typed_from_document(&document)),
        );
        prop_assert_eq!(fast, slow, "Kafka");
    }

    /// A binding reads a binary-mode message from parts borrowed from it, without copying
    /// each header and the body first (issue 13); the owned parts the public API hands out
    /// for the same message read to the same verdict, for both kinds of event.
    #[test]
    fn a_message_reads_as_its_owned_parts_read(parts in binary_parts()) {
        let Some(headers) = http_message(&parts) else {
            return Ok(());
        };
        if !matches!(http::content_mode(&headers), Ok(ContentMode::Binary)) {
            return Ok(());
        }
        let body = parts.data.clone().unwrap_or_default();
        let owned = || http::read_binary_headers(&headers, body.clone());
        prop_assert_eq!(
            verdict(http::read_event::<AnyEvent>(&headers, &body)),
            verdict(owned().and_then(AnyEvent::from_binary)),
            "AnyEvent"
        );
        prop_assert_eq!(
            verdict(http::read_event::<Event<EntryPosted>>(&headers, &body)),
            verdict(owned().and_then(Event::<EntryPosted>::from_binary)),
            "Event<EntryPosted>"
        );
    }
}

#[test]
fn a_valid_message_reads_the_same_both_ways() {
    let parts = BinaryParts {
        attributes: REQUIRED
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .chain([("subject".to_owned(), "caf\u{e9} \u{2615}".to_owned())])
            .collect(),
        datacontenttype: Some("application/json".into()),
        data: Some(br#" {"amount": 12.5} "#.to_vec()),
    };
    let (fast, slow) = both::<Event<EntryPosted>>(&parts, typed_from_document);
    assert!(fast.is_ok(), "{fast:?}");
    assert_eq!(fast, slow);
}
