//! Issue 41 §1: a typed route reports in full. A real axum server on 127.0.0.1 with an
//! `Event<T>` route and a `Checked<AnyEvent>` route under the same profile: an event with
//! several problems is answered 400 on both, with the same body: every finding, and the
//! event's id, source and type.
#![cfg(feature = "axum")]

use axum::Router;
use axum::routing::post;
use cloudevent_runtime::binding::axum::{Checked, Events};
use cloudevent_runtime::{AnyEvent, Attributes, Batch, CloudEvent, Event, Policy, Profile};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com/checkout"
)]
struct OrderCreated {
    note: String,
}

async fn typed(event: Event<OrderCreated>) -> String {
    event.id().to_owned()
}

async fn checked(Checked(event): Checked<AnyEvent>) -> String {
    event.id().to_owned()
}

async fn typed_batch(Events(events): Events<Event<OrderCreated>>) -> String {
    events.len().to_string()
}

async fn checked_batch(Checked(batch): Checked<Batch>) -> String {
    batch.len().to_string()
}

async fn serve() -> String {
    let app = Router::new()
        .route("/typed", post(typed))
        .route("/checked", post(checked))
        .route("/typed-batch", post(typed_batch))
        .route("/checked-batch", post(checked_batch))
        .with_state(Policy::new(Profile::IntgStd015));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    address
}

/// One HTTP/1.1 POST over a fresh connection: the status and the body as JSON.
async fn post_to(address: &str, path: &str, headers: &[(&str, &str)], body: &str) -> (u16, Value) {
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let headers: String = headers
        .iter()
        .map(|(name, value)| format!("{name}: {value}\r\n"))
        .collect();
    let request = format!(
        "POST {path} HTTP/1.1\r\nhost: {address}\r\n{headers}content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let status = response.split(' ').nth(1).unwrap().parse().unwrap();
    let (_, body) = response.split_once("\r\n\r\n").unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// Three problems under INTG-STD-015: a `localhost` source with a port (R-5), a time that is
/// not UTC (R-2), a credential in an extension (R-14). The type and the data are `T`'s.
const BAD: &str = r#"{"specversion":"1.0","id":"evt-41","source":"https://localhost:8443/orders",
    "type":"com.example.order.created","time":"2026-03-28T14:22:31+01:00","token":"s3cr3t",
    "datacontenttype":"application/json","data":{"note":"n"}}"#;

/// What a 400 body says about the event: the id, the attributes that name it, and every
/// finding's rule and attribute.
fn shape(body: &Value) -> (Value, Value, Value, Value, Vec<(String, String)>) {
    let findings = body["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("no findings in {body}"))
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_owned(),
                f["attribute"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    (
        body["id"].clone(),
        body["attributes"]["id"].clone(),
        body["attributes"]["source"].clone(),
        body["attributes"]["type"].clone(),
        findings,
    )
}

#[tokio::test]
async fn a_typed_route_reports_every_finding_with_the_events_id_source_and_type() {
    let address = serve().await;
    let structured = [("content-type", "application/cloudevents+json")];
    let (typed_status, typed) = post_to(&address, "/typed", &structured, BAD).await;
    let (checked_status, checked) = post_to(&address, "/checked", &structured, BAD).await;
    assert_eq!(
        (typed_status, checked_status),
        (400, 400),
        "{typed}\n{checked}"
    );

    let (id, attr_id, source, ty, findings) = shape(&checked);
    assert_eq!(id, "evt-41");
    assert_eq!(attr_id, "evt-41");
    assert_eq!(source, "https://localhost:8443/orders");
    assert_eq!(ty, "com.example.order.created");
    for attribute in ["source", "time", "extension"] {
        assert!(
            findings.iter().any(|(_, a)| a == attribute),
            "Checked<AnyEvent> names {attribute}: {checked}"
        );
    }
    assert_eq!(
        shape(&typed),
        shape(&checked),
        "typed:\n{typed}\nchecked:\n{checked}"
    );
    assert_eq!(typed, checked);
}

#[tokio::test]
async fn a_typed_route_reports_a_binary_mode_event_in_full() {
    let address = serve().await;
    let headers = [
        ("ce-specversion", "1.0"),
        ("ce-id", "evt-42"),
        ("ce-source", "https://localhost:8443/orders"),
        ("ce-type", "com.example.order.created"),
        ("ce-time", "2026-03-28T14:22:31+01:00"),
        ("content-type", "application/json"),
    ];
    let body = r#"{"note":"n"}"#;
    let (typed_status, typed) = post_to(&address, "/typed", &headers, body).await;
    let (checked_status, checked) = post_to(&address, "/checked", &headers, body).await;
    assert_eq!(
        (typed_status, checked_status),
        (400, 400),
        "{typed}\n{checked}"
    );
    assert_eq!(typed["id"], "evt-42");
    assert_eq!(typed, checked);
}

/// What only the typed reader checks (the event type `T` takes) is listed too, beside the
/// validator's findings and with the event's attributes.
#[tokio::test]
async fn a_typed_route_lists_what_only_the_type_refuses() {
    let address = serve().await;
    let structured = [("content-type", "application/cloudevents+json")];
    let other_type = BAD.replace("com.example.order.created", "com.example.order.cancelled");
    let (status, typed) = post_to(&address, "/typed", &structured, &other_type).await;
    let (_, checked) = post_to(&address, "/checked", &structured, &other_type).await;
    assert_eq!(status, 400, "{typed}");
    assert_eq!(typed["id"], "evt-41");
    assert_eq!(typed["attributes"]["type"], "com.example.order.cancelled");
    let typed_findings = shape(&typed).4;
    let checked_findings = shape(&checked).4;
    assert!(
        typed_findings.starts_with(&checked_findings),
        "the validator's findings first:\n{typed}\n{checked}"
    );
    assert!(
        typed_findings.len() > checked_findings.len()
            && typed_findings.iter().any(|(_, a)| a == "type"),
        "and the type's refusal: {typed}"
    );
}

/// A typed batch (`Events<E>`) reports as `Checked<Batch>` does: each event's report with
/// its id and attributes; what only the type refuses is listed in the report of the event it
/// names.
#[tokio::test]
async fn a_typed_batch_route_reports_as_checked_batch_does() {
    let address = serve().await;
    let batch = [("content-type", "application/cloudevents-batch+json")];
    let event = |id: &str, ty: &str, time: &str| {
        format!(
            r#"{{"specversion":"1.0","id":"{id}","source":"https://orders.example.com/checkout",
            "type":"{ty}","time":"{time}","datacontenttype":"application/json","data":{{"note":"n"}}}}"#
        )
    };
    let good = event("evt-1", "com.example.order.created", "2026-03-28T13:22:31Z");

    let late = event(
        "evt-2",
        "com.example.order.created",
        "2026-03-28T14:22:31+01:00",
    );
    let body = format!("[{good},{late}]");
    let (typed_status, typed) = post_to(&address, "/typed-batch", &batch, &body).await;
    let (checked_status, checked) = post_to(&address, "/checked-batch", &batch, &body).await;
    assert_eq!(
        (typed_status, checked_status),
        (400, 400),
        "{typed}\n{checked}"
    );
    assert_eq!(typed["events"][1]["id"], "evt-2", "{typed}");
    assert_eq!(typed, checked);

    let other = event(
        "evt-3",
        "com.example.order.cancelled",
        "2026-03-28T13:22:31Z",
    );
    let body = format!("[{good},{other}]");
    let (typed_status, typed) = post_to(&address, "/typed-batch", &batch, &body).await;
    let (checked_status, _) = post_to(&address, "/checked-batch", &batch, &body).await;
    assert_eq!((typed_status, checked_status), (400, 200), "{typed}");
    assert_eq!(typed["events"][1]["id"], "evt-3", "{typed}");
    assert_eq!(
        typed["events"][1]["attributes"]["type"],
        "com.example.order.cancelled"
    );
    assert_eq!(
        shape(&typed["events"][1]).4,
        [("CE 1.0.2 type".to_owned(), "type".to_owned())]
    );
    assert_eq!(typed["events"][1]["valid"], false);
    assert_eq!(typed["valid"], false);
}
