//! Issue 10: the bugs where one door accepted what another refused, each a test at every door
//! it came through. The shared corpus (`cloudevent-cli/tests/corpus.rs`) covers the same
//! ground case by case; these tests name each reported bug.
#![cfg(all(feature = "axum", feature = "reqwest", feature = "kafka"))]

use axum::Router;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::routing::post;
use cloudevent_runtime::Attributes;
use cloudevent_runtime::Json;
use cloudevent_runtime::Validate;
use cloudevent_runtime::binding::axum::Checked;
use cloudevent_runtime::binding::http::{event_request, read_event};
use cloudevent_runtime::binding::kafka::{self, KafkaRecord};
use cloudevent_runtime::binding::{BindingError, BindingEvent, ContentMode};
use cloudevent_runtime::{
    AnyEvent, Batch, CloudEvent, Data, Event, Policy, Profile, Validator, limits,
};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com/checkout"
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension)]
    priority: i32,
}

const VALID: &str = r#""specversion":"1.0","id":"1","source":"https://orders.example.com/checkout","type":"com.example.order.created""#;

/// One structured event: the valid core plus `extra` members.
fn structured(extra: &str) -> Vec<u8> {
    if extra.is_empty() {
        format!("{{{VALID}}}").into_bytes()
    } else {
        format!("{{{VALID},{extra}}}").into_bytes()
    }
}

/// What the CloudEvents profile's validator says: the errors' rule ids.
fn validator_errors(bytes: &[u8], profile: Profile) -> Vec<&'static str> {
    Validator::new(profile)
        .validate_bytes::<Json>(bytes)
        .errors()
        .map(|v| v.rule.as_str())
        .collect()
}

/// Cases the issue found accepted by `AnyEvent` and the extractors while
/// `cloudevent validate --profile cloudevents` refused them.
const CE_FORBIDS: [(&str, &str); 9] = [
    (r#""ExtA":"x""#, "CE 1.0.2 naming"),
    (r#""ext_a":"x""#, "CE 1.0.2 naming"),
    (r#""ext-a":"x""#, "CE 1.0.2 naming"),
    (r#""ünï":"x""#, "CE 1.0.2 naming"),
    (r#""":"x""#, "CE 1.0.2 naming"),
    (r#""dataschema":"/orders/v1.json""#, "CE 1.0.2 dataschema"),
    (r#""datacontenttype":"json""#, "CE 1.0.2 datacontenttype"),
    (r#""subject":"a\uFFFEb""#, "CE 1.0.2 type system"),
    (r#""subject":"order 1","time":"yesterday""#, "CE 1.0.2 time"),
];

#[test]
fn any_event_refuses_what_the_cloudevents_validator_refuses() {
    for (extra, rule) in CE_FORBIDS {
        let bytes = structured(extra);
        let errors = validator_errors(&bytes, Profile::CloudEvents);
        assert!(errors.contains(&rule), "{extra}: validator said {errors:?}");
        let error = AnyEvent::from_slice(&bytes).expect_err(extra);
        let violation = error.violation().expect("a rule violation");
        assert_eq!(violation.rule.as_str(), rule, "{extra}: {error}");
        let batch = [b"[".as_slice(), &bytes, b"]"].concat();
        assert!(Batch::from_slice(&batch).is_err(), "batch accepted {extra}");
    }
    let spaced = br#"{"specversion":"1.0","id":"1","source":"has space","type":"com.example.order.created"}"#;
    assert_eq!(
        AnyEvent::from_slice(spaced)
            .unwrap_err()
            .violation()
            .unwrap()
            .rule
            .as_str(),
        "CE 1.0.2 source"
    );
}

#[test]
fn typed_parse_refuses_the_same_and_names_the_profiles_rule() {
    for (extra, _) in CE_FORBIDS {
        let bytes = format!(r#"{{{VALID},{extra},"data":{{"order_id":"o-1","priority":1}}}}"#);
        let error = Event::<OrderCreated>::from_slice(bytes.as_bytes()).expect_err(extra);
        // The type's profile is intg-std-015 (the default); CE's MUSTs hold there too, and
        // the first error found is the first error the validator lists.
        let errors = validator_errors(bytes.as_bytes(), Profile::IntgStd015);
        let first = error.violation().expect("a violation").rule.as_str();
        assert_eq!(Some(&first), errors.first(), "{extra}: {error}");
    }
}

#[test]
fn parse_errors_cite_the_profiles_own_rule_ids() {
    let no_id = br#"{"specversion":"1.0","source":"/s","type":"com.example.order.created"}"#;
    let any = AnyEvent::from_slice(no_id).unwrap_err();
    assert_eq!(any.violation().unwrap().rule.as_str(), "CE 1.0.2 required");
    let strict =
        AnyEvent::decode_with::<Json>(no_id, &Policy::new(Profile::IntgStd015)).unwrap_err();
    assert_eq!(
        strict.violation().unwrap().rule.as_str(),
        "INTG-STD-015 R-2"
    );
}

#[test]
fn http_binary_refuses_bad_extension_names_and_data_headers() {
    let base = |extra: &[(&str, &str)]| {
        let mut headers = HeaderMap::new();
        for (name, value) in [
            ("ce-specversion", "1.0"),
            ("ce-id", "1"),
            ("ce-source", "https://orders.example.com/checkout"),
            ("ce-type", "com.example.order.created"),
        ]
        .iter()
        .chain(extra)
        {
            headers.insert(
                HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        headers
    };
    for (name, body) in [
        ("ce-ext_a", b"".as_slice()),
        ("ce-ext-a", b""),
        ("ce-", b""),
        ("ce-data", b""),
        ("ce-data", b"{}"),
        ("ce-data_base64", b""),
    ] {
        let headers = base(&[(name, "x")]);
        let error = read_event::<AnyEvent>(&headers, body).expect_err(name);
        assert_eq!(error.rule().as_str(), "CE 1.0.2 naming", "{name}: {error}");
    }
}

#[test]
fn kafka_refuses_bad_extension_names_and_reads_an_empty_value_as_no_data() {
    let headers = |extra: &[(&str, &[u8])]| -> Vec<(String, Option<Vec<u8>>)> {
        [
            ("ce_specversion", b"1.0".as_slice()),
            ("ce_id", b"1"),
            ("ce_source", b"https://orders.example.com/checkout"),
            ("ce_type", b"com.example.order.created"),
            ("content-type", b"application/json"),
        ]
        .iter()
        .chain(extra)
        .map(|(n, v)| ((*n).to_owned(), Some(v.to_vec())))
        .collect()
    };
    let record = KafkaRecord {
        headers: headers(&[("ce_ext-a", b"x")]),
        value: Some(b"{}".to_vec()),
        ..KafkaRecord::default()
    };
    let error = kafka::from_record::<AnyEvent>(&record).unwrap_err();
    assert!(error.to_string().contains("CE 1.0.2 naming"), "{error}");

    let empty = KafkaRecord {
        headers: headers(&[]),
        value: Some(Vec::new()),
        ..KafkaRecord::default()
    };
    let event = kafka::from_record::<AnyEvent>(&empty).unwrap();
    assert!(
        event.data().is_none(),
        "an empty value is no data, as over HTTP"
    );
}

#[test]
fn kafka_writes_an_event_without_data_as_an_empty_value_not_a_tombstone() {
    let event = AnyEvent::new(
        "1",
        "https://orders.example.com/checkout",
        "com.example.order.created",
    );
    let record = kafka::to_record(&event, ContentMode::Binary).unwrap();
    assert_eq!(record.value.as_deref(), Some(b"".as_slice()));
}

#[test]
fn binary_json_data_without_datacontenttype_is_sent_as_application_json() {
    let mut event = AnyEvent::new(
        "1",
        "https://orders.example.com/checkout",
        "com.example.order.created",
    );
    event.set_data(Some(Data::json(r#"{"n":1}"#).unwrap()));
    let parts = event.to_binary().unwrap();
    assert_eq!(parts.datacontenttype.as_deref(), Some("application/json"));
}

#[test]
fn typed_read_refuses_an_extension_given_by_both_envelope_and_payload_with_different_values() {
    let bytes = format!(r#"{{{VALID},"priority":7,"data":{{"order_id":"o-1","priority":-3}}}}"#);
    let error = Event::<OrderCreated>::from_slice(bytes.as_bytes()).unwrap_err();
    assert!(error.to_string().contains("priority"), "{error}");
    let same = format!(r#"{{{VALID},"priority":-3,"data":{{"order_id":"o-1","priority":-3}}}}"#);
    assert!(Event::<OrderCreated>::from_slice(same.as_bytes()).is_ok());
}

#[test]
fn producers_refuse_an_event_over_256_kib_before_sending() {
    let mut event = AnyEvent::new(
        "1",
        "https://orders.example.com/checkout",
        "com.example.order.created",
    );
    let big = format!("\"{}\"", "x".repeat(limits::MAX_EVENT_BYTES));
    event.set_data(Some(Data::json(big).unwrap()));
    let error = event_request("http://127.0.0.1:1/", &event, ContentMode::Structured).unwrap_err();
    assert!(matches!(error, BindingError::TooLarge { .. }), "{error}");
    for mode in [ContentMode::Binary, ContentMode::Structured] {
        let error = kafka::to_record(&event, mode).unwrap_err();
        assert!(
            matches!(error, BindingError::TooLarge { .. }),
            "{mode:?}: {error}"
        );
    }
}

async fn accept_any(Checked(event): Checked<AnyEvent>) -> String {
    event.id().to_owned()
}

async fn accept_typed(event: Event<OrderCreated>) -> String {
    event.id().to_owned()
}

async fn accept_default(event: AnyEvent) -> String {
    event.id().to_owned()
}

/// A real server on 127.0.0.1: `/gateway` reads under INTG-STD-015 from router state,
/// `/any` under the CloudEvents default, `/typed` under the type's own profile.
async fn server() -> String {
    let app = Router::new()
        .route("/gateway", post(accept_any))
        .route("/any", post(accept_default))
        .route("/typed", post(accept_typed))
        .with_state(Policy::new(Profile::IntgStd015));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{address}")
}

async fn post_json(
    client: &reqwest::Client,
    url: &str,
    body: Vec<u8>,
    content_type: &str,
) -> (StatusCode, serde_json::Value) {
    let response = client
        .post(url)
        .header("content-type", content_type)
        .body(body)
        .timeout(std::time::Duration::from_secs(10))
        .send()
        .await
        .unwrap();
    let status = StatusCode::from_u16(response.status().as_u16()).unwrap();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text)),
    )
}

#[tokio::test]
async fn extractors_give_the_validators_verdict_under_the_chosen_policy() {
    let base = server().await;
    let client = reqwest::Client::new();
    let structured_type = "application/cloudevents+json";
    for (extra, rule) in CE_FORBIDS {
        let (status, report) = post_json(
            &client,
            &format!("{base}/any"),
            structured(extra),
            structured_type,
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{extra}");
        assert!(report.to_string().contains(rule), "{extra}: {report}");
    }
    // INTG-STD-015's gateway rules 1-5: accepted under CloudEvents, refused at the gateway.
    for (extra, rule) in [
        (
            r#""source":"https://localhost:8080/orders""#,
            "INTG-STD-015 R-",
        ),
        (
            r#""time":"2026-03-28T14:22:31+01:00""#,
            "INTG-STD-015 gateway 4",
        ),
        (
            r#""dataschema":"https://schemas.example.com/orders/latest.json""#,
            "INTG-STD-015 R-2",
        ),
        (r#""useremail":"a@example.com""#, "INTG-STD-015 R-14"),
        (r#""authtoken":"x""#, "INTG-STD-015 R-14"),
    ] {
        let body = format!(
            r#"{{"specversion":"1.0","id":"1","type":"com.example.order.created",{}{}}}"#,
            extra,
            if extra.contains("\"source\"") {
                ""
            } else {
                r#","source":"https://orders.example.com/checkout""#
            }
        );
        let (status, _) = post_json(
            &client,
            &format!("{base}/any"),
            body.clone().into_bytes(),
            structured_type,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{extra} under cloudevents");
        let (status, report) = post_json(
            &client,
            &format!("{base}/gateway"),
            body.clone().into_bytes(),
            structured_type,
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{extra} at the gateway");
        assert!(report.to_string().contains(rule), "{extra}: {report}");
        // The same event with the typed payload: `OrderCreated` reads under INTG-STD-015.
        let typed = format!(
            r#"{},"data":{{"order_id":"o-1","priority":1}}}}"#,
            body.strip_suffix('}').unwrap()
        );
        let (status, report) = post_json(
            &client,
            &format!("{base}/typed"),
            typed.into_bytes(),
            structured_type,
        )
        .await;
        assert_eq!(
            status,
            StatusCode::BAD_REQUEST,
            "{extra} at a typed intg-std-015 door"
        );
        assert!(report.to_string().contains(rule), "{extra}: {report}");
    }
}

#[tokio::test]
async fn a_plain_text_post_without_ce_headers_is_415_and_reports_never_echo_the_body() {
    let base = server().await;
    let client = reqwest::Client::new();
    let secret = "card 4111-1111-1111-1111";
    let (status, report) = post_json(
        &client,
        &format!("{base}/any"),
        secret.as_bytes().to_vec(),
        "text/plain",
    )
    .await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{report}");
    assert!(!report.to_string().contains("4111"), "{report}");
    let leaky = structured(&format!(r#""ExtA":"x","data":"{secret}""#));
    let (status, report) = post_json(
        &client,
        &format!("{base}/any"),
        leaky,
        "application/cloudevents+json",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(!report.to_string().contains("4111"), "{report}");
}

#[test]
fn one_report_shape_for_the_library_the_extractors_and_the_cli() {
    let report =
        Validator::new(Profile::CloudEvents).validate_bytes::<Json>(&structured(r#""ExtA":"x""#));
    let json = serde_json::to_value(&report).unwrap();
    for key in ["valid", "id", "profile", "findings", "attributes"] {
        assert!(json.get(key).is_some(), "missing `{key}` in {json}");
    }
    assert_eq!(
        json["attributes"]["source"],
        "https://orders.example.com/checkout"
    );
    let finding = &json["findings"][0];
    for key in ["rule", "severity", "attribute", "message"] {
        assert!(finding.get(key).is_some(), "missing `{key}` in {finding}");
    }
}

#[test]
fn a_lone_surrogate_names_its_attribute_and_the_string_rule_at_every_reader() {
    let bytes = structured(r#""subject":"a\ud800""#);
    let error = AnyEvent::from_slice(&bytes).unwrap_err();
    let violation = error.violation().expect("a violation");
    assert_eq!(
        (&*violation.attribute, violation.rule.as_str()),
        ("subject", "CE 1.0.2 type system")
    );
    let report = Validator::new(Profile::CloudEvents).validate_bytes::<Json>(&bytes);
    let errors: Vec<(&str, &str)> = report
        .errors()
        .map(|v| (&*v.attribute, v.rule.as_str()))
        .collect();
    assert_eq!(errors, [("subject", "CE 1.0.2 type system")]);
}
