//! Issue 24, second part: the opt-in tolerance of senders that do not percent-encode.
//!
//! A table of header forms (a bare `%`, a leading `"`, raw non-ASCII UTF-8, Python's `True`
//! for a Boolean extension) through every door that reads `ce-` headers under a policy: the
//! HTTP binding's document for a validator (`http::structured_document` under a policy),
//! the plain HTTP and NATS readers and the typed `Event<T>` extractor under the event type's
//! policy (`#[cloudevent(literal_headers)]`), the axum gateway extractors
//! (`Checked<AnyEvent>`, `Registered<AnyEvent>`) on a real server on 127.0.0.1; each with the tolerance off (the default), on (CloudEvents, NL GOV profiles)
//! and asked for under INTG-STD-015 (never granted). Then the real peers: the JavaScript
//! SDK's binary messages (raw non-ASCII, a raw quote) and the Python SDK's (`True`) sent to
//! that server.
#![cfg(all(feature = "axum", feature = "registry"))]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use axum::Router;
use axum::routing::post;
use cloudevent_runtime::binding::axum::{Checked, Registered};
use cloudevent_runtime::binding::http;
use cloudevent_runtime::registry::{Registry, RegistryEntry, RegistryValidator};
use cloudevent_runtime::rules::{AttributeKind, LiteralHeader, Severity};
use cloudevent_runtime::{
    AnyEvent, Attributes, CloudEvent, Event, Json, Policy, Profile, Validate, Validator,
    binding::canonical_string,
};

/// The forms, the value a literal reading gives, and whether the tolerance covers them.
const FORMS: &[(&[u8], &str, Option<LiteralHeader>)] = &[
    (b"100%", "100%", Some(LiteralHeader::BarePercent)),
    (
        b"50% off %zz",
        "50% off %zz",
        Some(LiteralHeader::BarePercent),
    ),
    (b"\"a\" b", "\"a\" b", Some(LiteralHeader::Quote)),
    (b"\"open", "\"open", Some(LiteralHeader::Quote)),
    (
        "say \"hi\" 100% \u{fc}n\u{ef}".as_bytes(),
        "say \"hi\" 100% \u{fc}n\u{ef}",
        Some(LiteralHeader::NonAscii),
    ),
    (
        "caf\u{e9}".as_bytes(),
        "caf\u{e9}",
        Some(LiteralHeader::NonAscii),
    ),
    // Never tolerated: Latin-1 (not UTF-8), an overlong escape, a stray escape in a
    // value that is otherwise encoded is still one the strict reading decodes.
    (b"caf\xe9", "", None),
    (b"%C0%A0", "", None),
    (b"%FF", "", None),
];

fn lenient() -> Policy {
    Policy::new(Profile::CloudEvents).with_literal_headers(true)
}

fn gateway() -> Policy {
    Policy::new(Profile::IntgStd015).with_literal_headers(true)
}

fn headers(subject: &[u8]) -> ::http::HeaderMap {
    let mut headers = ::http::HeaderMap::new();
    for (name, value) in [
        ("ce-specversion", "1.0"),
        ("ce-id", "lit-1"),
        ("ce-source", "https://orders.example.com/checkout"),
        ("ce-type", "com.example.order.noted"),
    ] {
        headers.insert(name, value.parse().unwrap());
    }
    headers.insert(
        "ce-subject",
        ::http::HeaderValue::from_bytes(subject).unwrap(),
    );
    headers
}

#[test]
fn form_of_each_value_is_decided_in_the_rules() {
    for (raw, _, form) in FORMS {
        assert_eq!(LiteralHeader::of(raw), *form, "{raw:?}");
    }
    // A correctly encoded value is no form: the strict reading takes it.
    assert_eq!(LiteralHeader::of(b"caf%C3%A9"), None);
}

#[test]
fn http_document_door_reads_the_forms_only_when_asked_and_never_under_intg_std_015() {
    for (raw, literal, form) in FORMS {
        let headers = headers(raw);
        // Off by default: every door without a policy, and a policy without the tolerance.
        assert!(
            http::read_event::<AnyEvent>(&headers, b"").is_err(),
            "{raw:?}"
        );
        assert!(
            http::structured_document(&headers, b"", &AnyEvent::DEFAULT_POLICY).is_err(),
            "{raw:?}"
        );
        for policy in [Policy::new(Profile::CloudEvents), gateway()] {
            assert!(
                http::structured_document(&headers, b"", &policy).is_err(),
                "{raw:?} under {policy:?}"
            );
        }
        for policy in [
            lenient(),
            Policy::new(Profile::NlGov).with_literal_headers(true),
        ] {
            let read = http::structured_document(&headers, b"", &policy);
            if form.is_none() {
                assert!(read.is_err(), "{raw:?} is refused whatever the policy");
                continue;
            }
            let (_, document, warnings) = read.unwrap();
            assert_eq!(warnings.len(), 1, "{raw:?}");
            assert_eq!(warnings[0].severity, Severity::Warning);
            assert_eq!(warnings[0].rule.as_str(), "CE HTTP binding 3.1.3.2");
            assert_eq!(warnings[0].attribute, "subject");
            let event = AnyEvent::from_slice(&document).unwrap();
            assert_eq!(event.subject(), Some(*literal), "{raw:?}");
        }
    }
    // An encoded value reads the same under every policy, with no warning.
    for policy in [Policy::new(Profile::CloudEvents), lenient(), gateway()] {
        let (_, document, warnings) =
            http::structured_document(&headers(b"caf%C3%A9"), b"", &policy).unwrap();
        assert!(warnings.is_empty());
        assert_eq!(
            AnyEvent::from_slice(&document).unwrap().subject(),
            Some("caf\u{e9}")
        );
    }
}

/// A registry declaring `express` a Boolean, for the Python spelling.
fn registry_validator(policy: Policy) -> RegistryValidator {
    let registry = Registry::new(
        ["com.example.order.created", "com.example.order.noted"].map(|t| {
            RegistryEntry::new(t, serde_json::json!({}))
                .with_extension("express", AttributeKind::Boolean)
        }),
    )
    .unwrap();
    RegistryValidator::new(Validator::new(policy), registry)
}

#[test]
fn python_boolean_is_a_warning_only_when_asked_and_never_under_intg_std_015() {
    let mut headers = headers(b"o-1");
    for (spelling, tolerated) in [
        ("True", true),
        ("False", true),
        ("TRUE", false),
        ("1", false),
    ] {
        headers.insert("ce-express", spelling.parse().unwrap());
        let (_, document, _) =
            http::structured_document(&headers, b"", &AnyEvent::DEFAULT_POLICY).unwrap();
        let strict =
            registry_validator(Policy::new(Profile::CloudEvents)).validate_bytes::<Json>(&document);
        assert!(
            strict.has_rule("CE 1.0.2 type system") && !strict.is_valid(),
            "{spelling}"
        );
        let report = registry_validator(lenient()).validate_bytes::<Json>(&document);
        assert_eq!(report.is_valid(), tolerated, "{spelling}: {report}");
        if tolerated {
            let warning = report
                .warnings()
                .find(|w| w.attribute == "express")
                .unwrap();
            assert!(warning.problem.contains("Python SDK"), "{warning}");
        }
        let report = registry_validator(gateway()).validate_bytes::<Json>(&document);
        assert!(
            report.errors().any(|e| e.attribute == "express"),
            "{spelling}: INTG-STD-015 never tolerates it: {report}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// The typed doors: a type that declares the tolerance, and the same type without it.

/// Declares the tolerance: its readers (HTTP, NATS, the axum `Event<T>` extractor) read the
/// forms literally.
#[derive(Debug, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.noted",
    source = "https://orders.example.com/checkout",
    profile = "cloudevents",
    literal_headers
)]
struct Noted;

/// The same event type, strict (the default).
#[derive(Debug, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.noted",
    source = "https://orders.example.com/checkout",
    profile = "cloudevents"
)]
struct NotedStrict;

#[test]
fn typed_policy_carries_the_declared_tolerance() {
    assert_eq!(Event::<Noted>::POLICY, lenient());
    assert_eq!(
        Event::<NotedStrict>::POLICY,
        Policy::new(Profile::CloudEvents)
    );
}

#[test]
fn plain_http_readers_read_under_the_event_types_policy() {
    for (raw, literal, form) in FORMS {
        let headers = headers(raw);
        let request = {
            let mut request = ::http::Request::new(Vec::new());
            *request.headers_mut() = headers.clone();
            request
        };
        // Strict: the type without the tolerance, and `AnyEvent` (CloudEvents MUSTs).
        assert!(http::read_event::<Event<NotedStrict>>(&headers, b"").is_err());
        assert!(http::read_message::<AnyEvent>(&headers, b"").is_err());
        let read = http::read_event::<Event<Noted>>(&headers, b"");
        let message = http::read_message::<Event<Noted>>(&headers, b"");
        let from_request = http::from_request::<Event<Noted>, _>(&request);
        match form {
            Some(_) => {
                assert_eq!(read.unwrap().subject(), Some(*literal), "{raw:?}");
                let http::Received::Event(event) = message.unwrap() else {
                    panic!("one event")
                };
                assert_eq!(event.subject(), Some(*literal));
                assert_eq!(from_request.unwrap().subject(), Some(*literal));
            }
            None => {
                let error = read.unwrap_err();
                // Bytes that are no text (R-8) or an escape that decodes to no UTF-8.
                assert!(
                    ["CE HTTP binding 3.1.3.2", "INTG-STD-015 R-8"]
                        .contains(&error.rule().as_str()),
                    "{error}"
                );
                assert!(message.is_err() && from_request.is_err(), "{raw:?}");
            }
        }
    }
}

#[cfg(feature = "nats")]
#[test]
fn nats_binary_headers_get_the_same_verdict() {
    use cloudevent_runtime::binding::nats;
    // CE NATS binding 1.0.3-wip §3.1.3.2 percent-encodes as HTTP does: the same forms, the
    // same verdict. NATS header values are text, so only the UTF-8 forms can be sent.
    for (raw, literal, form) in FORMS {
        let Ok(subject) = std::str::from_utf8(raw) else {
            continue;
        };
        let mut headers = async_nats::HeaderMap::new();
        for (name, value) in headers_text(subject) {
            headers.insert(name, value.as_str());
        }
        assert!(nats::from_parts::<Event<NotedStrict>>(Some(&headers), b"").is_err());
        assert!(nats::from_parts::<AnyEvent>(Some(&headers), b"").is_err());
        let read = nats::from_parts::<Event<Noted>>(Some(&headers), b"");
        match form {
            Some(_) => assert_eq!(read.unwrap().subject(), Some(*literal), "{raw:?}"),
            None => assert!(read.is_err(), "{raw:?}"),
        }
    }
}

#[cfg(feature = "nats")]
fn headers_text(subject: &str) -> Vec<(&'static str, String)> {
    vec![
        ("ce-specversion", "1.0".to_owned()),
        ("ce-id", "lit-1".to_owned()),
        (
            "ce-source",
            "https://orders.example.com/checkout".to_owned(),
        ),
        ("ce-type", "com.example.order.noted".to_owned()),
        ("ce-subject", subject.to_owned()),
    ]
}

// ---------------------------------------------------------------------------------------
// The axum gateway on a real server.

async fn echo(Checked(event): Checked<AnyEvent>) -> String {
    event.subject().unwrap_or_default().to_owned()
}

async fn typed(event: Event<Noted>) -> String {
    event.subject().unwrap_or_default().to_owned()
}

async fn typed_strict(event: Event<NotedStrict>) -> String {
    event.subject().unwrap_or_default().to_owned()
}

async fn registered(Registered(event): Registered<AnyEvent>) -> String {
    event
        .extension_value("express")
        .map(|v| canonical_string(v.as_value()).into_owned())
        .unwrap_or_default()
}

/// A bounded server on 127.0.0.1: `/strict`, `/lenient`, `/gateway` read `Checked<AnyEvent>`
/// under those policies, `/registry` and `/registry-strict` read `Registered<AnyEvent>`.
async fn server() -> String {
    let route = |policy: Policy| Router::new().route("/", post(echo)).with_state(policy);
    let registry = |policy: Policy| {
        Router::new()
            .route("/", post(registered))
            .with_state(registry_validator(policy))
    };
    let app = Router::new()
        .route("/typed", post(typed))
        .route("/typed-strict", post(typed_strict))
        .nest("/strict", route(Policy::new(Profile::CloudEvents)))
        .nest("/lenient", route(lenient()))
        .nest("/gateway", route(gateway()))
        .nest("/registry", registry(lenient()))
        .nest(
            "/registry-strict",
            registry(Policy::new(Profile::CloudEvents)),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let _ = tokio::time::timeout(Duration::from_secs(60), axum::serve(listener, app)).await;
    });
    format!("{address}")
}

/// POSTs raw headers (bytes as the peer wrote them, no client re-encoding) and an empty or
/// given body; the status and the body of the answer.
fn post_raw(
    address: &str,
    path: &str,
    headers: &[(String, Vec<u8>)],
    body: &[u8],
) -> (u16, String) {
    let mut request =
        format!("POST {path} HTTP/1.1\r\nhost: {address}\r\nconnection: close\r\n").into_bytes();
    for (name, value) in headers {
        request.extend_from_slice(name.as_bytes());
        request.extend_from_slice(b": ");
        request.extend_from_slice(value);
        request.extend_from_slice(b"\r\n");
    }
    request.extend_from_slice(format!("content-length: {}\r\n\r\n", body.len()).as_bytes());
    request.extend_from_slice(body);
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.write_all(&request).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer[9..12].parse().unwrap();
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

/// Header names and their bytes, as sent.
type RawHeaders = Vec<(String, Vec<u8>)>;

fn raw_headers(subject: &[u8]) -> RawHeaders {
    headers(subject)
        .iter()
        .map(|(name, value)| (name.to_string(), value.as_bytes().to_vec()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn axum_gateway_reads_the_forms_only_when_its_policy_asks() {
    let address = server().await;
    let address = address.as_str();
    tokio::task::spawn_blocking({
        let address = address.to_owned();
        move || {
            for (raw, literal, form) in FORMS {
                let headers = raw_headers(raw);
                let (status, body) = post_raw(&address, "/strict", &headers, b"");
                assert_eq!(status, 400, "{raw:?}: {body}");
                assert!(body.contains("ce-subject"), "{body}");
                let (status, body) = post_raw(&address, "/lenient", &headers, b"");
                if form.is_some() {
                    assert_eq!((status, body.as_str()), (200, *literal), "{raw:?}");
                } else {
                    assert_eq!(status, 400, "{raw:?}: {body}");
                }
                let (status, body) = post_raw(&address, "/gateway", &headers, b"");
                assert_eq!(status, 400, "{raw:?}: {body}");
                assert!(
                    body.contains("never granted under the INTG-STD-015"),
                    "{body}"
                );
                // The typed extractor reads under its type's policy.
                let (status, body) = post_raw(&address, "/typed-strict", &headers, b"");
                assert_eq!(status, 400, "{raw:?}: {body}");
                let (status, body) = post_raw(&address, "/typed", &headers, b"");
                if form.is_some() {
                    assert_eq!((status, body.as_str()), (200, *literal), "{raw:?}");
                } else {
                    assert_eq!(status, 400, "{raw:?}: {body}");
                }
            }
            // A refusal's report lists the literal reading's warning beside the error.
            let mut headers = raw_headers(b"100%");
            headers.retain(|(name, _)| name != "ce-source");
            let (status, body) = post_raw(&address, "/lenient", &headers, b"");
            assert_eq!(status, 400, "{body}");
            assert!(
                body.contains("CE HTTP binding 3.1.3.2") && body.contains("source"),
                "{body}"
            );
        }
    })
    .await
    .unwrap();
}

// ---------------------------------------------------------------------------------------
// The real peers.

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The HTTP binary-mode messages a peer SDK writes for the interop fixtures:
/// `(case, headers)`.
fn peer_messages(program: &str, script: &str) -> Vec<(String, RawHeaders)> {
    // Without this, node starts and fails with `ERR_MODULE_NOT_FOUND`.
    let package = workspace().join("tests/interop/js/node_modules/cloudevents");
    assert!(
        program != "node" || package.is_dir(),
        "{} is not there: run `cargo xtask test`, which runs `npm ci` in tests/interop/js",
        package.display()
    );
    let events = workspace().join("tests/interop/events.json");
    let output = Command::new(program)
        .arg(workspace().join(script))
        .arg("emit")
        .arg(events)
        .current_dir(workspace())
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| {
            panic!("{program} {script}: {e}; `cargo xtask test` installs the SDKs")
        });
    assert!(
        output.status.success(),
        "{program} {script}: {}; `cargo xtask test` installs the SDKs",
        String::from_utf8_lossy(&output.stderr)
    );
    let messages: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).unwrap();
    messages
        .into_iter()
        .filter(|m| m["kind"] == "http-binary")
        .map(|m| {
            let headers = m["headers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| {
                    (
                        h[0].as_str().unwrap().to_owned(),
                        h[1].as_str().unwrap_or_default().as_bytes().to_vec(),
                    )
                })
                .collect();
            (m["case"].as_str().unwrap().to_owned(), headers)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn javascript_sdk_unencoded_subjects_are_read_literally_only_when_asked() {
    let address = server().await;
    let messages = peer_messages("node", "tests/interop/js/peer.mjs");
    tokio::task::spawn_blocking(move || {
        for (case, want) in [
            ("subject-special", "say \"hi\" 100% \u{fc}n\u{ef}"),
            ("subject-quoted", "\"a\" b"),
        ] {
            let (_, headers) = messages.iter().find(|(c, _)| c == case).unwrap();
            let sent = &headers.iter().find(|(n, _)| n == "ce-subject").unwrap().1;
            assert_eq!(sent, want.as_bytes(), "the JS SDK sends {case} unencoded");
            let (status, body) = post_raw(&address, "/strict", headers, b"");
            assert_eq!(status, 400, "{case}: {body}");
            let (status, body) = post_raw(&address, "/lenient", headers, b"");
            assert_eq!((status, body.as_str()), (200, want), "{case}");
            let (status, body) = post_raw(&address, "/gateway", headers, b"");
            assert_eq!(status, 400, "{case}: {body}");
        }
    })
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_sdk_boolean_spelling_is_a_warning_only_when_asked() {
    let address = server().await;
    let messages = peer_messages("python3", "tests/interop/python/peer.py");
    tokio::task::spawn_blocking(move || {
        let (_, headers) = messages.iter().find(|(c, _)| c == "json-object").unwrap();
        let express = &headers.iter().find(|(n, _)| n == "ce-express").unwrap().1;
        assert_eq!(express, b"True", "the Python SDK writes Python's spelling");
        let body = br#"{"order_id":"order-1","priority":7,"express":true,"total_cents":14999}"#;
        // 422: the profile accepts the event, the registry's Boolean refuses `True`.
        let (status, answer) = post_raw(&address, "/registry-strict", headers, body);
        assert_eq!(status, 422, "{answer}");
        assert!(answer.contains("CE 1.0.2 type system"), "{answer}");
        let (status, answer) = post_raw(&address, "/registry", headers, body);
        assert_eq!((status, answer.as_str()), (200, "True"));
    })
    .await
    .unwrap();
}

/// A payload whose Boolean extension the Python SDK writes as `True` in binary mode.
#[derive(Debug, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com/checkout",
    profile = "cloudevents",
    literal_headers
)]
struct Flagged {
    #[cloudevent(extension)]
    express: bool,
}

/// [`Flagged`], strict.
#[derive(Debug, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com/checkout",
    profile = "cloudevents"
)]
struct FlaggedStrict {
    #[cloudevent(extension)]
    express: bool,
}

#[test]
fn typed_boolean_extension_in_python_spelling_only_when_the_type_tolerates_it() {
    let mut headers = headers(b"o-1");
    headers.insert("ce-type", "com.example.order.created".parse().unwrap());
    headers.insert("content-type", "application/json".parse().unwrap());
    for (spelling, body, tolerated) in [
        ("True", &br#"{"express":true}"#[..], true),
        ("False", br#"{"express":false}"#, true),
        ("TRUE", br#"{"express":true}"#, false),
    ] {
        headers.insert("ce-express", spelling.parse().unwrap());
        // Strict: the header and the payload disagree (`True` is no Boolean).
        let strict = http::read_event::<Event<FlaggedStrict>>(&headers, body).unwrap_err();
        assert!(strict.to_string().contains("express"), "{strict}");
        // The registry validator's verdict on the same value: one rule.
        assert_eq!(strict.rule().as_str(), "CE 1.0.2 type system", "{strict}");
        let lenient = http::read_event::<Event<Flagged>>(&headers, body);
        if tolerated {
            let event = lenient.unwrap();
            assert_eq!(
                event.extension("express"),
                Some(cloudevent_runtime::ExtensionValueBuf::Boolean(
                    spelling == "True"
                )),
                "{spelling}"
            );
        } else {
            assert!(lenient.is_err(), "{spelling}: only Python's spelling");
        }
    }
}
