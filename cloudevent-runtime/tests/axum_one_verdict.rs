//! Issue 21 §2: the axum gateway reaches one verdict. For every case of the shared corpus
//! (`fixtures/corpus/*.json`) that HTTP can carry, `Checked<AnyEvent>` (or `Checked<Batch>`)
//! under the case's profile answers 2xx exactly when the `Validator` under the same policy
//! finds no error, and a 400's first error is the one the reader alone stops at.
#![cfg(feature = "axum")]

use cloudevent_runtime::Validate;
use std::path::Path;

use axum::extract::{FromRequest, Request};
use axum::response::IntoResponse;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use cloudevent_runtime::binding::axum::{Checked, EventRejection};
use cloudevent_runtime::binding::http::{read_event, read_message, structured_document};
use cloudevent_runtime::binding::{BindingError, ContentMode, percent};
use cloudevent_runtime::{AnyEvent, Batch, FormatError, Json, Policy, Profile, Validator};
use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use serde_json::Value;

const STRUCTURED: &str = "application/cloudevents+json; charset=utf-8";
const BATCH: &str = "application/cloudevents-batch+json; charset=utf-8";

/// One case as an HTTP request: headers, body, and whether it is a JSON document the
/// structured reader reads as is.
struct Message {
    name: String,
    profile: Profile,
    headers: HeaderMap,
    body: Vec<u8>,
    batch: bool,
}

fn decode(text: &str) -> Vec<u8> {
    STANDARD.decode(text).expect("corpus base64")
}

fn header(headers: &mut HeaderMap, name: &str, value: &[u8]) -> Option<()> {
    headers.append(
        HeaderName::from_bytes(name.as_bytes()).ok()?,
        HeaderValue::from_bytes(value).ok()?,
    );
    Some(())
}

/// The cases HTTP carries (structured, batch, binary and raw HTTP); `None` for the others
/// (Kafka records) and for headers `http` cannot hold.
fn message(raw: &Value) -> Option<Message> {
    let name = raw["name"].as_str()?.to_owned();
    let profile: Profile = raw["profile"].as_str()?.parse().ok()?;
    let mut text = serde_json::to_string(&raw["input"]).ok()?;
    for repeat in raw
        .get("repeat")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let times = usize::try_from(repeat["times"].as_u64()?).ok()?;
        text = text.replace(
            repeat["marker"].as_str()?,
            &repeat["text"].as_str()?.repeat(times),
        );
    }
    let input: Value = serde_json::from_str(&text).ok()?;
    let (kind, body) = input.as_object()?.iter().next()?;
    let mut headers = HeaderMap::new();
    let structured = |headers: &mut HeaderMap, content_type: &str, body: Vec<u8>| {
        header(headers, "content-type", content_type.as_bytes())?;
        Some(body)
    };
    let body = match kind.as_str() {
        "structured" => structured(&mut headers, STRUCTURED, serde_json::to_vec(body).ok()?)?,
        "structured_text" => structured(&mut headers, STRUCTURED, body.as_str()?.into())?,
        "structured_base64" => structured(&mut headers, STRUCTURED, decode(body.as_str()?))?,
        "batch" => structured(&mut headers, BATCH, serde_json::to_vec(body).ok()?)?,
        "batch_text" => structured(&mut headers, BATCH, body.as_str()?.into())?,
        "binary" => {
            for pair in body["attributes"].as_array()? {
                let value = percent::encode(pair[1].as_str()?);
                header(
                    &mut headers,
                    &format!("ce-{}", pair[0].as_str()?),
                    value.as_bytes(),
                )?;
            }
            if let Some(content_type) = body.get("datacontenttype").and_then(Value::as_str) {
                header(&mut headers, "content-type", content_type.as_bytes())?;
            }
            body.get("data_base64")
                .and_then(Value::as_str)
                .map(decode)
                .unwrap_or_default()
        }
        "http" => {
            for pair in body["headers"].as_array()? {
                let value = match &pair[1] {
                    Value::String(s) => s.clone().into_bytes(),
                    Value::Object(o) => decode(o["base64"].as_str()?),
                    _ => Vec::new(),
                };
                header(&mut headers, pair[0].as_str()?, &value)?;
            }
            match (body.get("body_base64"), body.get("body_text")) {
                (Some(Value::String(b)), _) => decode(b),
                (_, Some(Value::String(t))) => t.as_bytes().to_vec(),
                _ => Vec::new(),
            }
        }
        _ => return None,
    };
    let batch = headers
        .get("content-type")
        .is_some_and(|v| v.as_bytes().starts_with(b"application/cloudevents-batch"));
    Some(Message {
        name,
        profile,
        headers,
        body,
        batch,
    })
}

fn request(message: &Message) -> Request {
    let mut request = Request::builder()
        .method("POST")
        .body(axum::body::Body::from(message.body.clone()))
        .unwrap();
    *request.headers_mut() = message.headers.clone();
    request
}

/// What the `Validator` says under the policy: `Some(valid)`, or `None` for a message the
/// binding refuses before any event is read (no document to validate).
fn validator_verdict(message: &Message, policy: &Policy) -> Option<bool> {
    let validator = Validator::new(policy.clone());
    let (mode, document, _) = structured_document(&message.headers, &message.body, policy).ok()?;
    Some(match mode {
        ContentMode::Batch => validator.validate_batch_bytes::<Json>(&document).is_valid(),
        _ => validator.validate_bytes::<Json>(&document).is_valid(),
    })
}

/// The rule the strict reader alone stops at, when the case can be read by it under the
/// policy (a JSON document under any profile; any HTTP message under the CloudEvents MUSTs,
/// the binding reader's policy).
fn reader_rule(message: &Message, policy: &Policy) -> Option<Option<String>> {
    let format_rule = |error: FormatError| {
        let error = match error {
            FormatError::InBatch { source, .. } => *source,
            other => other,
        };
        error.rule().map(|r| r.as_str().to_owned())
    };
    let binding_rule = |error: BindingError| Some(error.rule_under(policy).as_str().to_owned());
    let structured = message
        .headers
        .get("content-type")
        .is_some_and(|v| v.as_bytes().starts_with(b"application/cloudevents"));
    if structured && message.batch {
        return Some(
            Batch::decode_with::<Json>(&message.body, policy)
                .err()
                .and_then(format_rule),
        );
    }
    if structured {
        return Some(
            AnyEvent::decode_with::<Json>(&message.body, policy)
                .err()
                .and_then(format_rule),
        );
    }
    if message.profile != Profile::CloudEvents {
        return None;
    }
    Some(if message.batch {
        read_message::<AnyEvent>(&message.headers, &message.body)
            .err()
            .and_then(binding_rule)
    } else {
        read_event::<AnyEvent>(&message.headers, &message.body)
            .err()
            .and_then(binding_rule)
    })
}

async fn checked(message: &Message, policy: &Policy) -> Result<(), EventRejection> {
    if message.batch {
        Checked::<Batch>::from_request(request(message), policy)
            .await
            .map(drop)
    } else {
        Checked::<AnyEvent>::from_request(request(message), policy)
            .await
            .map(drop)
    }
}

#[tokio::test]
async fn checked_status_and_report_agree_with_the_validator_and_the_reader_on_the_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let (mut seen, mut compared) = (0, 0);
    let mut failures = Vec::new();
    for path in files {
        let cases: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for message in cases.iter().filter_map(message) {
            seen += 1;
            let policy = Policy::new(message.profile);
            let name = &message.name;
            let verdict = checked(&message, &policy).await;
            let accepted = verdict.is_ok();
            // 2xx iff the validator finds no error (a binding refusal has no document).
            let valid = validator_verdict(&message, &policy).unwrap_or(false);
            if accepted != valid {
                failures.push(format!(
                    "{name}: accepted {accepted}, validator valid {valid}"
                ));
            }
            let Err(rejection) = verdict else { continue };
            let status = rejection.status();
            let first = rejection
                .findings()
                .into_iter()
                .find(|f| f.is_error())
                .map(|f| f.rule.as_str().to_owned());
            if first.is_none() {
                failures.push(format!("{name}: {status} without an error finding"));
            }
            // The body is the report, never empty.
            let response = rejection.into_response();
            let body = axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .unwrap();
            let report: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            if report["valid"] != Value::Bool(false) {
                failures.push(format!("{name}: {status} body is not a refusal report"));
            }
            if status != StatusCode::BAD_REQUEST {
                continue;
            }
            if let Some(reader) = reader_rule(&message, &policy) {
                compared += 1;
                if reader.is_none() {
                    failures.push(format!("{name}: 400, but the reader accepts"));
                } else if reader != first {
                    failures.push(format!(
                        "{name}: first error {first:?}, the reader stops at {reader:?}"
                    ));
                }
            }
        }
    }
    assert!(seen > 200, "only {seen} HTTP cases read");
    assert!(
        compared > 50,
        "only {compared} refusals compared with the reader"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
