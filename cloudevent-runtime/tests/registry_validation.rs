//! Issue 12, item 4 and 5: `data` checked against the registry's schema for its type, the
//! declared extension types and deprecation sunsets, in the library and at an axum gateway
//! on 127.0.0.1.
#![cfg(all(feature = "registry", feature = "axum"))]

use axum::Router;
use axum::routing::post;
use cloudevent_runtime::Attributes;
use cloudevent_runtime::Json;
use cloudevent_runtime::Validate;
use cloudevent_runtime::binding::axum::Registered;
use cloudevent_runtime::registry::{
    Deprecation, Registry, RegistryEntry, RegistrySnapshot, RegistryValidator, UnknownType,
};
use cloudevent_runtime::rules::AttributeKind;
use cloudevent_runtime::{AnyEvent, Batch, Document, Profile, Timestamp, Validator};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const CHANGE: &str = "dev.cdevents.change.merged.0.2.0";
const CANCELLED: &str = "com.example.order.cancelled";

/// A CDEvents-shaped data schema: `subject` with a required `id` and `content`, a shared
/// definition reached through `$ref`, an enum.
fn change_schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "required": ["subject"],
        "properties": {
            "subject": {
                "type": "object",
                "required": ["id", "content"],
                "properties": {
                    "id": {"type": "string", "minLength": 1},
                    "source": {"type": "string"},
                    "content": {
                        "type": "object",
                        "required": ["repository"],
                        "properties": {"repository": {"$ref": "#/$defs/reference"}}
                    }
                }
            },
            "customData": {},
            "links": {"type": "array", "items": {"$ref": "#/$defs/link"}}
        },
        "$defs": {
            "reference": {
                "type": "object",
                "required": ["id"],
                "properties": {"id": {"type": "string"}, "source": {"type": "string"}}
            },
            "link": {
                "type": "object",
                "required": ["linkType"],
                "properties": {"linkType": {"enum": ["RELATION", "PATH", "END"]}}
            }
        }
    })
}

fn registry() -> Registry {
    Registry::new(vec![
        RegistryEntry::new(CHANGE, change_schema())
            .with_extension("express", AttributeKind::Boolean)
            .with_extension("hops", AttributeKind::Integer),
        RegistryEntry {
            deprecation: Some(Deprecation {
                from: Some("2026-01-01T00:00:00Z".into()),
                sunset: Some("2026-06-30T00:00:00Z".into()),
                migration: Some("https://docs.example.com/migrate/order-cancelled".into()),
                ..Deprecation::default()
            }),
            ..RegistryEntry::new(
                CANCELLED,
                json!({"type": "object", "required": ["orderId"], "properties": {"orderId": {"type": "string"}}}),
            )
        },
    ])
    .unwrap()
}

fn validator() -> RegistryValidator {
    RegistryValidator::new(Validator::new(Profile::CloudEvents), registry())
        .at(&Timestamp::try_from("2026-03-01T00:00:00Z").unwrap())
}

fn change_event(data: &Value, extra: &str) -> Vec<u8> {
    format!(
        r#"{{"specversion":"1.0","id":"271069a8-fc18-44f1-b38f-9d70a1695819","source":"/event/source/123","type":"{CHANGE}"{extra},"data":{data}}}"#
    )
    .into_bytes()
}

fn change_data() -> Value {
    json!({
        "subject": {"id": "mySubject123", "source": "/event/source/123",
                    "content": {"repository": {"id": "TestRepo/TestOrg", "source": "https://example.org"}}},
        "customData": {"hello": "world"},
        "links": [{"linkType": "RELATION"}]
    })
}

fn errors(report: &cloudevent_runtime::ValidationReport) -> Vec<(String, String)> {
    report
        .errors()
        .map(|f| (f.rule.to_string(), f.attribute.to_string()))
        .collect()
}

#[test]
fn a_real_shaped_event_passes_and_loses_nothing() {
    let report = validator().validate_bytes::<Json>(&change_event(&change_data(), ""));
    assert!(report.is_valid(), "{report}");
    assert!(report.findings().is_empty(), "{report}");
}

#[test]
fn a_removed_required_member_is_named_by_its_pointer() {
    let mut data = change_data();
    data["subject"]["content"]["repository"]
        .as_object_mut()
        .unwrap()
        .remove("id");
    let report = validator().validate_bytes::<Json>(&change_event(&data, ""));
    assert_eq!(
        errors(&report),
        [(
            "registry data".to_owned(),
            "data/subject/content/repository/id".to_owned()
        )]
    );
    let finding = report.errors().next().unwrap();
    assert!(finding.problem.contains("keyword `required`"), "{finding}");
    assert_eq!(finding.part, None);
}

#[test]
fn every_failing_member_is_reported_with_its_keyword() {
    let data = json!({
        "subject": {"id": "", "content": {"repository": {"id": 7}}},
        "links": [{"linkType": "RELATION"}, {"linkType": "SIDEWAYS"}]
    });
    let report = validator().validate_bytes::<Json>(&change_event(&data, ""));
    let mut found: Vec<String> = report.errors().map(|f| f.attribute.to_string()).collect();
    found.sort();
    assert_eq!(
        found,
        [
            "data/links/1/linkType",
            "data/subject/content/repository/id",
            "data/subject/id"
        ],
        "{report}"
    );
    assert!(report.errors().all(|f| f.problem.contains("keyword `")));
    // The report never quotes the data it refuses.
    assert!(!report.to_string().contains("SIDEWAYS"), "{report}");
}

#[test]
fn extensions_must_have_the_declared_type_in_both_modes() {
    let data = change_data();
    let good =
        validator().validate_bytes::<Json>(&change_event(&data, r#","express":true,"hops":2"#));
    assert!(good.is_valid(), "{good}");
    let bad = validator()
        .validate_bytes::<Json>(&change_event(&data, r#","express":"True","hops":"2x""#));
    assert_eq!(
        errors(&bad),
        [
            ("CE 1.0.2 type system".to_owned(), "express".to_owned()),
            ("CE 1.0.2 type system".to_owned(), "hops".to_owned())
        ]
    );
    assert!(
        bad.to_string()
            .contains("extension `express` is declared Boolean")
    );
    // Binary mode carries every value as a string: the canonical form passes.
    let mut event = AnyEvent::from_slice(&change_event(&data, "")).unwrap();
    event.extensions_mut().insert("express", "true");
    assert!(validator().validate(&event).is_valid());
    event.extensions_mut().insert("express", "True");
    assert!(!validator().validate(&event).is_valid());
}

#[test]
fn an_unknown_type_is_an_error_or_a_warning_by_choice() {
    let event =
        br#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.unknown.thing"}"#;
    let report = validator().validate_bytes::<Json>(event);
    assert_eq!(
        errors(&report),
        [("registry type".to_owned(), "type".to_owned())]
    );
    let report = validator()
        .unknown_type(UnknownType::Warning)
        .validate_bytes::<Json>(event);
    assert!(report.is_valid());
    assert!(
        report
            .warnings()
            .any(|f| f.rule.as_str() == "registry type")
    );
}

#[test]
fn absent_and_non_json_data() {
    let absent = format!(r#"{{"specversion":"1.0","id":"1","source":"/s","type":"{CHANGE}"}}"#);
    let report = validator().validate_bytes::<Json>(absent.as_bytes());
    assert!(report.has_rule("registry data"), "{report}");
    let binary = format!(
        r#"{{"specversion":"1.0","id":"1","source":"/s","type":"{CHANGE}","data_base64":"aGk="}}"#
    );
    let report = validator().validate_bytes::<Json>(binary.as_bytes());
    assert!(report.is_valid(), "{report}");
    assert!(
        report
            .warnings()
            .any(|f| f.rule.as_str() == "registry data")
    );
}

#[test]
fn a_type_past_its_sunset_gets_a_finding() {
    let event = format!(
        r#"{{"specversion":"1.0","id":"1","source":"/s","type":"{CANCELLED}","data":{{"orderId":"o-1"}}}}"#
    );
    assert!(
        validator()
            .validate_bytes::<Json>(event.as_bytes())
            .findings()
            .is_empty()
    );
    let late = validator().at(&Timestamp::try_from("2026-07-01T00:00:00Z").unwrap());
    let report = late.validate_bytes::<Json>(event.as_bytes());
    let finding = report
        .warnings()
        .find(|f| f.rule.as_str() == "CE deprecation")
        .expect("a sunset finding");
    assert_eq!(finding.value, CANCELLED);
    assert!(
        finding
            .hint
            .as_deref()
            .unwrap()
            .contains("migrate/order-cancelled")
    );
}

#[test]
fn data_too_deep_to_check_is_refused_not_passed() {
    let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    let event = format!(
        r#"{{"specversion":"1.0","id":"1","source":"/s","type":"{CANCELLED}","data":{deep}}}"#
    );
    let report = validator().validate_bytes::<Json>(event.as_bytes());
    let finding = report.errors().next().expect("a finding");
    assert_eq!(finding.rule.as_str(), "registry data");
    assert!(finding.problem.contains("128 levels"), "{finding}");
}

#[test]
fn batches_check_each_event() {
    let good = String::from_utf8(change_event(&change_data(), "")).unwrap();
    let bad = String::from_utf8(change_event(&json!({}), "")).unwrap();
    let bytes = format!("[{good},{bad}]");
    let Document::Batch(report) = validator().validate_document(bytes.as_bytes()) else {
        panic!("an array is a batch");
    };
    assert!(report.events()[0].is_valid());
    assert!(report.events()[1].has_rule("registry data"));
    let batch = Batch::from_slice(bytes.as_bytes()).unwrap();
    assert!(!validator().validate_batch(&batch).is_valid());
}

#[test]
fn findings_are_bounded() {
    let links: Vec<Value> = (0..200).map(|_| json!({"linkType": 1})).collect();
    let mut data = change_data();
    data["links"] = Value::Array(links);
    let report = validator().validate_bytes::<Json>(&change_event(&data, ""));
    assert_eq!(report.errors().count(), 33, "32 failures and the cut");
}

#[test]
fn construction_refuses_what_it_cannot_resolve_and_snapshots_round_trip() {
    let error = Registry::new(vec![RegistryEntry::new(
        CHANGE,
        json!({"properties": {"links": {"$ref": "links/embeddedlinksarray.json"}}}),
    )])
    .unwrap_err();
    assert!(error.to_string().contains(CHANGE), "{error}");
    let error = Registry::new(vec![RegistryEntry {
        deprecation: Some(Deprecation {
            sunset: Some("soon".into()),
            ..Deprecation::default()
        }),
        ..RegistryEntry::new(CHANGE, json!({}))
    }])
    .unwrap_err();
    assert!(error.to_string().contains("deprecationsunset"), "{error}");
    let error = Registry::new(vec![RegistryEntry {
        deprecation: Some(Deprecation {
            from: Some("2026-06-30T00:00:00Z".into()),
            sunset: Some("2026-01-01T00:00:00Z".into()),
            ..Deprecation::default()
        }),
        ..RegistryEntry::new(CHANGE, json!({}))
    }])
    .unwrap_err();
    assert!(
        error.to_string().contains("before deprecationfrom"),
        "{error}"
    );

    let snapshot = RegistrySnapshot {
        entries: vec![
            RegistryEntry::new(CHANGE, change_schema())
                .with_extension("express", AttributeKind::Boolean),
        ],
    };
    let registry = Registry::from_snapshot(snapshot.to_json().to_string().as_bytes()).unwrap();
    let validator = RegistryValidator::new(Validator::new(Profile::CloudEvents), registry);
    assert!(
        !validator
            .validate_bytes::<Json>(&change_event(&change_data(), r#","express":"True""#))
            .is_valid()
    );
}

async fn gateway(Registered(event): Registered<AnyEvent>) -> String {
    event.id().to_owned()
}

async fn post_json(address: &str, body: &[u8]) -> (u16, Value) {
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let head = format!(
        "POST /events HTTP/1.1\r\nhost: {address}\r\ncontent-type: application/cloudevents+json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8(response).unwrap();
    let status = text[9..12].parse().unwrap();
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

#[tokio::test]
async fn an_axum_gateway_is_one_line_of_state() {
    let app = Router::new()
        .route("/events", post(gateway))
        .with_state(validator());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let server = tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let run = async {
        let (status, _) = post_json(&address, &change_event(&change_data(), "")).await;
        assert_eq!(status, 200);

        let mut data = change_data();
        data["subject"].as_object_mut().unwrap().remove("id");
        let (status, report) = post_json(&address, &change_event(&data, "")).await;
        assert_eq!(status, 422, "{report}");
        assert_eq!(report["valid"], false);
        assert_eq!(report["findings"][0]["rule"], "registry data");
        assert_eq!(report["findings"][0]["attribute"], "data/subject/id");

        // The profile's refusal stays a 400, with the profile's findings.
        let (status, report) = post_json(&address, br#"{"specversion":"0.3"}"#).await;
        assert_eq!(status, 400, "{report}");
    };
    tokio::time::timeout(std::time::Duration::from_secs(20), run)
        .await
        .expect("the gateway answered in time");
    server.abort();
}

/// The registry's findings are added to whatever the format's own reader read, so every
/// format gets the same ones: the event of `a_removed_required_member_is_named_by_its_pointer`
/// in each format, and in a profile-refused variant (its data is still checked).
#[test]
fn every_format_gets_the_same_registry_findings() {
    fn in_every_format(json: &[u8]) -> Vec<Vec<(String, String)>> {
        let any = AnyEvent::from_slice(json).unwrap();
        let reports = [
            validator().validate_bytes::<Json>(json),
            validator().validate(&any),
            #[cfg(feature = "protobuf")]
            validator().validate_bytes::<cloudevent_runtime::Protobuf>(
                &any.encode::<cloudevent_runtime::Protobuf>().unwrap(),
            ),
            #[cfg(feature = "avro")]
            validator().validate_bytes::<cloudevent_runtime::Avro>(
                &any.encode::<cloudevent_runtime::Avro>().unwrap(),
            ),
        ];
        reports.iter().map(errors).collect()
    }
    let mut data = change_data();
    data["subject"]["content"]["repository"]
        .as_object_mut()
        .unwrap()
        .remove("id");
    let expected = vec![(
        "registry data".to_owned(),
        "data/subject/content/repository/id".to_owned(),
    )];
    for verdict in in_every_format(&change_event(
        &data,
        r#","datacontenttype":"application/json""#,
    )) {
        assert_eq!(verdict, expected);
    }

    // A profile that refuses the source: its finding, then the same registry finding.
    let strict = RegistryValidator::new(Validator::new(Profile::IntgStd015), registry())
        .at(&Timestamp::try_from("2026-03-01T00:00:00Z").unwrap());
    let json = change_event(&data, r#","datacontenttype":"application/json""#);
    #[cfg(any(feature = "protobuf", feature = "avro"))]
    let any = AnyEvent::from_slice(&json).unwrap();
    let from_json = strict.validate_bytes::<Json>(&json);
    assert!(from_json.has_rule("registry data"), "{from_json}");
    #[cfg(feature = "protobuf")]
    {
        let bytes = any.encode::<cloudevent_runtime::Protobuf>().unwrap();
        let report = strict.validate_bytes::<cloudevent_runtime::Protobuf>(&bytes);
        assert_eq!(errors(&report), errors(&from_json), "{report}");
    }
    #[cfg(feature = "avro")]
    {
        let bytes = any.encode::<cloudevent_runtime::Avro>().unwrap();
        let report = strict.validate_bytes::<cloudevent_runtime::Avro>(&bytes);
        assert_eq!(errors(&report), errors(&from_json), "{report}");
    }
}
