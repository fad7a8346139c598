//! Binary mode's two readers (issue 13): the parts read straight into the event, against the
//! structured-mode document they stand for parsed by the JSON reader. Arbitrary attributes,
//! content type and body; panics when the two disagree on the event or on the first error
//! (rule id and attribute), for `AnyEvent` and a typed event, and through the HTTP binding.
#![no_main]

use cloudevent_runtime::binding::{BinaryParts, BindingError, BindingEvent, http, percent};
use cloudevent_runtime::{AnyEvent, CloudEvent, Event};
use libfuzzer_sys::fuzz_target;
use serde::{Deserialize, Serialize};

/// Any JSON or text payload: the typed reader's rules without a payload shape to refuse.
#[derive(Debug, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.ledger.entry.posted",
    source = "https://ledger.example.com/eu"
)]
struct EntryPosted(Option<serde_json::Value>);

type Verdict = Result<String, (String, String)>;

fn verdict<E: std::fmt::Debug>(result: Result<E, BindingError>) -> Verdict {
    result.map(|event| format!("{event:?}")).map_err(|error| {
        let violation = error.violation();
        (violation.rule.to_string(), violation.attribute.to_string())
    })
}

fn agree<E: BindingEvent + std::fmt::Debug>(
    parts: &BinaryParts,
    from_document: fn(&[u8]) -> Result<E, BindingError>,
) {
    let fast = verdict(E::from_binary(parts.clone()));
    let slow = verdict(
        parts
            .to_structured_document()
            .and_then(|document| from_document(&document)),
    );
    assert_eq!(fast, slow, "the two readers disagree on {parts:?}");
}

fuzz_target!(
    |input: (Vec<(String, String)>, Option<String>, Option<Vec<u8>>)| {
        let (attributes, datacontenttype, data) = input;
        let parts = BinaryParts {
            attributes,
            datacontenttype,
            data,
        };
        agree::<AnyEvent>(&parts, |document| Ok(AnyEvent::from_slice(document)?));
        agree::<Event<EntryPosted>>(&parts, |document| {
            Ok(Event::<EntryPosted>::from_slice(document)?)
        });

        // Through HTTP, where every name is a header name: the binding's read against the
        // document the binding says the message stands for.
        let mut headers = ::http::HeaderMap::new();
        for (name, value) in &parts.attributes {
            let (Ok(name), Ok(value)) = (
                ::http::HeaderName::from_bytes(format!("ce-{name}").as_bytes()),
                ::http::HeaderValue::from_str(&percent::encode(value)),
            ) else {
                return;
            };
            headers.append(name, value);
        }
        if let Some(content_type) = &parts.datacontenttype {
            let Ok(value) = ::http::HeaderValue::from_str(content_type) else {
                return;
            };
            headers.insert(::http::header::CONTENT_TYPE, value);
        }
        let body = parts.data.clone().unwrap_or_default();
        let fast = verdict(http::read_event::<AnyEvent>(&headers, &body));
        let slow = verdict(
            http::structured_document(&headers, &body, &AnyEvent::DEFAULT_POLICY)
                .and_then(|(_, document, _)| Ok(AnyEvent::from_slice(&document)?)),
        );
        assert_eq!(fast, slow, "HTTP disagrees on {headers:?}");
    }
);
