//! The HTTP binding end to end: a real axum server on 127.0.0.1 and the real reqwest client.
#![cfg(all(feature = "axum", feature = "reqwest"))]

mod common;

use cloudevent_runtime::Attributes;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use cloudevent_runtime::binding::axum::{EventResponse, Events, WebHook};
use cloudevent_runtime::binding::http::{batch_request, event_request, read_event};
use cloudevent_runtime::binding::reqwest::{RetryPolicy, SendError, Sender};
use cloudevent_runtime::binding::{BindingEvent, ContentMode};
use cloudevent_runtime::{AnyEvent, Batch, CloudEvent, Event, ExtensionValue, ExtensionValueBuf};
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

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
    #[cloudevent(extension)]
    express: bool,
    note: String,
}

fn order(note: &str) -> Event<OrderCreated> {
    Event::new(OrderCreated {
        order_id: "order-1".into(),
        priority: 7,
        express: true,
        note: note.into(),
    })
}

#[derive(Default)]
struct Counters {
    too_many: AtomicU32,
    unavailable: AtomicU32,
    always_down: AtomicU32,
}

async fn typed_echo(event: Event<OrderCreated>) -> EventResponse<Event<OrderCreated>> {
    EventResponse::new(event)
}

async fn any_echo(event: AnyEvent) -> EventResponse<AnyEvent> {
    EventResponse::new(event).binary()
}

async fn batch_count(Events(events): Events<Event<OrderCreated>>) -> String {
    events.len().to_string()
}

async fn any_batch_count(batch: Batch) -> String {
    batch.len().to_string()
}

async fn raw_subject(headers: HeaderMap) -> String {
    headers
        .get("ce-subject")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

async fn too_many(
    State(counters): State<Arc<Counters>>,
    event: AnyEvent,
) -> (StatusCode, HeaderMap, String) {
    let attempt = counters.too_many.fetch_add(1, Ordering::SeqCst) + 1;
    let mut headers = HeaderMap::new();
    if attempt == 1 {
        headers.insert("retry-after", "1".parse().unwrap());
        return (StatusCode::TOO_MANY_REQUESTS, headers, "slow down".into());
    }
    (StatusCode::ACCEPTED, headers, event.id().to_owned())
}

async fn unavailable(State(counters): State<Arc<Counters>>, _event: AnyEvent) -> StatusCode {
    let attempt = counters.unavailable.fetch_add(1, Ordering::SeqCst) + 1;
    if attempt < 3 {
        StatusCode::SERVICE_UNAVAILABLE
    } else {
        StatusCode::NO_CONTENT
    }
}

async fn always_down(State(counters): State<Arc<Counters>>) -> StatusCode {
    counters.always_down.fetch_add(1, Ordering::SeqCst);
    StatusCode::BAD_GATEWAY
}

async fn refuses() -> (StatusCode, &'static str) {
    (StatusCode::UNPROCESSABLE_ENTITY, "order unknown")
}

async fn long_retry_after() -> (StatusCode, [(&'static str, &'static str); 1]) {
    (StatusCode::TOO_MANY_REQUESTS, [("retry-after", "3600")])
}

struct Server {
    base: String,
    counters: Arc<Counters>,
}

async fn server() -> Server {
    let counters = Arc::new(Counters::default());
    let app = Router::new()
        .route("/typed", post(typed_echo))
        .route(
            "/any",
            post(any_echo).options(
                WebHook::allow_origins(["eventemitter.example.com"])
                    .with_rate(120)
                    .handler(),
            ),
        )
        .route("/batch", post(batch_count))
        .route("/any-batch", post(any_batch_count))
        .route("/raw-subject", post(raw_subject))
        .route("/429", post(too_many))
        .route("/503", post(unavailable))
        .route("/down", post(always_down))
        .route("/refuses", post(refuses))
        .route("/long-retry", post(long_retry_after))
        .with_state(counters.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    Server {
        base: format!("http://{address}"),
        counters,
    }
}

fn sender() -> Sender {
    Sender::new(
        reqwest::Client::new(),
        RetryPolicy {
            max_attempts: 4,
            initial_backoff: Duration::from_millis(10),
            max_backoff: Duration::from_millis(50),
            max_retry_after: Duration::from_secs(5),
        },
    )
}

/// Every test runs under this bound, so a hung server fails the test instead of CI.
async fn bounded<F: std::future::Future<Output = ()>>(test: F) {
    tokio::time::timeout(Duration::from_secs(30), test)
        .await
        .expect("test took longer than 30 s");
}

#[tokio::test]
async fn typed_event_round_trips_in_structured_and_binary_mode() {
    bounded(async {
        let server = server().await;
        for mode in [ContentMode::Structured, ContentMode::Binary] {
            let sent = order("two boxes");
            let request = event_request(format!("{}/typed", server.base), &sent, mode).unwrap();
            let delivered = sender().send(request).await.unwrap();
            assert_eq!(delivered.status, StatusCode::OK, "{mode:?}");
            let echoed: Event<OrderCreated> =
                read_event(&delivered.headers, &delivered.body).unwrap();
            assert_eq!(echoed.id(), sent.id(), "{mode:?}");
            assert_eq!(echoed.data(), sent.data(), "{mode:?}");
            assert_eq!(echoed.subject(), Some("order-1"));
            // Typed extensions come back as their types, not as the header's string.
            assert_eq!(
                echoed.extension("priority"),
                Some(ExtensionValueBuf::Integer(7)),
                "{mode:?}"
            );
            assert_eq!(
                echoed.extension("express"),
                Some(ExtensionValueBuf::Boolean(true)),
                "{mode:?}"
            );
            assert_eq!(echoed.to_vec().unwrap(), sent.to_vec().unwrap(), "{mode:?}");
        }
    })
    .await;
}

#[tokio::test]
async fn dynamic_event_round_trips_in_both_modes_with_extensions_and_text_data() {
    bounded(async {
        let server = server().await;
        let mut sent = AnyEvent::new(
            "evt-1",
            "https://orders.example.com",
            "com.example.order.noted",
        );
        sent.set_subject(Some("café ☕ \"q\" 100%".into()));
        sent.set_datacontenttype(Some("text/plain; charset=utf-8".into()));
        sent.set_data(Some(cloudevent_runtime::Data::Text("hello".into())));
        sent.extensions_mut().insert("region", "eu west");
        for mode in [ContentMode::Structured, ContentMode::Binary] {
            let request = event_request(format!("{}/any", server.base), &sent, mode).unwrap();
            let delivered = sender().send(request).await.unwrap();
            // The server answers in binary mode: attributes in ce- headers.
            assert!(delivered.headers.contains_key("ce-id"));
            let echoed: AnyEvent = read_event(&delivered.headers, &delivered.body).unwrap();
            assert_eq!(echoed, sent, "{mode:?}");
        }
    })
    .await;
}

#[tokio::test]
async fn binary_mode_header_values_are_percent_encoded_on_the_wire() {
    bounded(async {
        let server = server().await;
        let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.noted");
        event.set_subject(Some("café ☕".into()));
        let request = event_request(
            format!("{}/raw-subject", server.base),
            &event,
            ContentMode::Binary,
        )
        .unwrap();
        let delivered = sender().send(request).await.unwrap();
        assert_eq!(
            String::from_utf8(delivered.body).unwrap(),
            "caf%C3%A9%20%E2%98%95"
        );
    })
    .await;
}

async fn post_binary_subject(base: &str, raw_subject: &str) -> reqwest::Response {
    reqwest::Client::new()
        .post(format!("{base}/any"))
        .header("ce-specversion", "1.0")
        .header("ce-id", "1")
        .header("ce-source", "https://orders.example.com")
        .header("ce-type", "com.example.order.noted")
        .header("ce-subject", raw_subject)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn percent_decoding_vectors() {
    bounded(async {
        let server = server().await;
        for (raw, decoded) in [
            ("a%20b", "a b"),
            ("100%25", "100%"),
            ("%22q%22", "\"q\""),
            ("caf%C3%A9%20%E2%98%95", "café ☕"),
            ("caf%c3%a9%20%e2%98%95", "café ☕"), // lower-case hex
            ("%61%62c", "abc"),                   // needless escapes
            ("100%2525", "100%25"),               // decoded exactly once
            ("\"a b\"", "a b"),                   // RFC 7230 quoted string
        ] {
            let response = post_binary_subject(&server.base, raw).await;
            assert_eq!(response.status(), StatusCode::OK, "{raw}");
            let headers = response.headers().clone();
            let body = response.bytes().await.unwrap().to_vec();
            let event: AnyEvent =
                cloudevent_runtime::binding::http::read_event(&headers, &body).unwrap();
            assert_eq!(event.subject(), Some(decoded), "{raw}");
        }
        for raw in ["%C0%A0", "%FF", "%4", "%zz"] {
            let response = post_binary_subject(&server.base, raw).await;
            assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{raw}");
            let report: serde_json::Value = response.json_body().await;
            assert!(
                report["findings"][0]["message"]
                    .as_str()
                    .unwrap()
                    .contains("ce-subject"),
                "{report}"
            );
        }
    })
    .await;
}

trait JsonBody {
    async fn json_body(self) -> serde_json::Value;
}

impl JsonBody for reqwest::Response {
    async fn json_body(self) -> serde_json::Value {
        serde_json::from_slice(&self.bytes().await.unwrap()).unwrap()
    }
}

#[tokio::test]
async fn datacontenttype_header_in_binary_mode_is_refused() {
    bounded(async {
        let server = server().await;
        let response = reqwest::Client::new()
            .post(format!("{}/any", server.base))
            .header("ce-specversion", "1.0")
            .header("ce-id", "1")
            .header("ce-source", "https://orders.example.com")
            .header("ce-type", "com.example.order.noted")
            .header("ce-datacontenttype", "application/json")
            .header("content-type", "application/json")
            .body("{}")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        let report = response.json_body().await;
        // An `AnyEvent` route reads under the CloudEvents profile: its binding refusal cites
        // the bindings' content modes, not INTG-STD-015 R-8 (issue 41).
        assert_eq!(report["findings"][0]["rule"], "CE binding 1.3", "{report}");
        assert!(
            report["findings"][0]["message"]
                .as_str()
                .unwrap()
                .contains("ce-datacontenttype"),
            "{report}"
        );
    })
    .await;
}

#[tokio::test]
async fn invalid_structured_event_gets_400_with_every_finding() {
    bounded(async {
        let server = server().await;
        let response = reqwest::Client::new()
            .post(format!("{}/any", server.base))
            .header("content-type", "application/cloudevents+json")
            .body(r#"{"specversion":"1.0","source":"","type":"com.example.order.noted"}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        let report = response.json_body().await;
        let findings = report["findings"].as_array().unwrap();
        assert!(findings.len() >= 2, "id missing and source empty: {report}");
        assert!(
            findings
                .iter()
                .all(|f| f["rule"].is_string() && f["message"].is_string())
        );
    })
    .await;
}

#[tokio::test]
async fn wrong_type_for_a_typed_endpoint_is_400() {
    bounded(async {
        let server = server().await;
        let other = AnyEvent::new(
            "1",
            "https://orders.example.com",
            "com.example.order.cancelled",
        );
        let request = event_request(
            format!("{}/typed", server.base),
            &other,
            ContentMode::Structured,
        )
        .unwrap();
        match sender().send(request).await {
            Err(SendError::Rejected { status, body }) => {
                assert_eq!(status, StatusCode::BAD_REQUEST);
                assert!(body.contains("com.example.order.created"), "{body}");
            }
            other => panic!("expected a 400, got {other:?}"),
        }
    })
    .await;
}

#[tokio::test]
async fn unsupported_mode_or_format_is_415() {
    bounded(async {
        let server = server().await;
        let client = reqwest::Client::new();
        let avro = client
            .post(format!("{}/any", server.base))
            .header("content-type", "application/cloudevents+xml")
            .body("x")
            .send()
            .await
            .unwrap();
        assert_eq!(avro.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
        let batch_to_single = client
            .post(format!("{}/any", server.base))
            .header("content-type", "application/cloudevents-batch+json")
            .body("[]")
            .send()
            .await
            .unwrap();
        assert_eq!(batch_to_single.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
        let single_to_batch = client
            .post(format!("{}/batch", server.base))
            .header("content-type", "application/cloudevents+json")
            .body(AnyEvent::new("1", "https://a.example.com", "com.example.order.created").to_vec())
            .send()
            .await
            .unwrap();
        assert_eq!(single_to_batch.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    })
    .await;
}

#[tokio::test]
async fn batches_typed_dynamic_and_empty() {
    bounded(async {
        let server = server().await;
        let events = vec![order("a"), order("b"), order("c")];
        let delivered = sender()
            .send(batch_request(format!("{}/batch", server.base), &events).unwrap())
            .await
            .unwrap();
        assert_eq!(delivered.body, b"3");
        let empty: Vec<AnyEvent> = Vec::new();
        let delivered = sender()
            .send(batch_request(format!("{}/any-batch", server.base), &empty).unwrap())
            .await
            .unwrap();
        assert_eq!(delivered.body, b"0");
        // One event of another type spoils a typed batch: 400, the refusal in that event's
        // report (issue 41: the batch report `Checked<Batch>` gives).
        let mixed = vec![
            order("a").to_any_event().unwrap(),
            AnyEvent::new(
                "2",
                "https://orders.example.com",
                "com.example.order.cancelled",
            ),
        ];
        match sender()
            .send(batch_request(format!("{}/batch", server.base), &mixed).unwrap())
            .await
        {
            Err(SendError::Rejected { status, body }) => {
                assert_eq!(status, StatusCode::BAD_REQUEST);
                let report: serde_json::Value = serde_json::from_str(&body).unwrap();
                assert_eq!(report["events"][1]["id"], "2", "{body}");
                let findings = report["events"][1]["findings"].as_array().unwrap();
                assert!(
                    findings
                        .iter()
                        .any(|f| f["rule"] == "CE 1.0.2 type" && f["severity"] == "error"),
                    "{body}"
                );
            }
            other => panic!("expected 400, got {other:?}"),
        }
    })
    .await;
}

#[tokio::test]
async fn too_many_requests_backs_off_for_retry_after() {
    bounded(async {
        let server = server().await;
        let event = AnyEvent::new(
            "e429",
            "https://orders.example.com",
            "com.example.order.noted",
        );
        let started = Instant::now();
        let delivered = sender()
            .send(
                event_request(
                    format!("{}/429", server.base),
                    &event,
                    ContentMode::Structured,
                )
                .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(delivered.status, StatusCode::ACCEPTED);
        assert_eq!(delivered.attempts, 2);
        assert_eq!(server.counters.too_many.load(Ordering::SeqCst), 2);
        assert!(
            started.elapsed() >= Duration::from_millis(950),
            "Retry-After: 1 not honoured: {:?}",
            started.elapsed()
        );
    })
    .await;
}

#[tokio::test]
async fn retry_after_beyond_the_policy_gives_up_at_once() {
    bounded(async {
        let server = server().await;
        let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.noted");
        let result = sender()
            .send(
                event_request(
                    format!("{}/long-retry", server.base),
                    &event,
                    ContentMode::Structured,
                )
                .unwrap(),
            )
            .await;
        assert!(
            matches!(result, Err(SendError::RetryAfterTooLong { .. })),
            "{result:?}"
        );
    })
    .await;
}

#[tokio::test]
async fn server_errors_retry_with_backoff_then_succeed_or_give_up() {
    bounded(async {
        let server = server().await;
        let event = AnyEvent::new(
            "e503",
            "https://orders.example.com",
            "com.example.order.noted",
        );
        let delivered = sender()
            .send(
                event_request(format!("{}/503", server.base), &event, ContentMode::Binary).unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(delivered.status, StatusCode::NO_CONTENT);
        assert_eq!(delivered.attempts, 3);
        assert_eq!(server.counters.unavailable.load(Ordering::SeqCst), 3);

        let result = sender()
            .send(
                event_request(format!("{}/down", server.base), &event, ContentMode::Binary)
                    .unwrap(),
            )
            .await;
        match result {
            Err(SendError::GaveUp {
                attempts, status, ..
            }) => {
                assert_eq!(attempts, 4);
                assert_eq!(status, Some(StatusCode::BAD_GATEWAY));
            }
            other => panic!("expected GaveUp, got {other:?}"),
        }
        assert_eq!(server.counters.always_down.load(Ordering::SeqCst), 4);
    })
    .await;
}

#[tokio::test]
async fn other_client_errors_fail_at_once_with_the_body() {
    bounded(async {
        let server = server().await;
        let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.noted");
        match sender()
            .send(
                event_request(
                    format!("{}/refuses", server.base),
                    &event,
                    ContentMode::Structured,
                )
                .unwrap(),
            )
            .await
        {
            Err(SendError::Rejected { status, body }) => {
                assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
                assert_eq!(body, "order unknown");
            }
            other => panic!("expected Rejected, got {other:?}"),
        }
    })
    .await;
}

#[tokio::test]
async fn connection_refused_is_retried_then_reported() {
    bounded(async {
        // A port nobody listens on, held for the whole test: bound, never listening, so every
        // attempt is refused. A port bound and dropped was free again, and a test beside this
        // one binding 127.0.0.1:0 could have been given it and answered.
        let unheard = tokio::net::TcpSocket::new_v4().unwrap();
        unheard.bind("127.0.0.1:0".parse().unwrap()).unwrap();
        let port = unheard.local_addr().unwrap().port();
        let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.noted");
        let result = sender()
            .send(
                event_request(
                    format!("http://127.0.0.1:{port}/"),
                    &event,
                    ContentMode::Structured,
                )
                .unwrap(),
            )
            .await;
        assert!(
            matches!(
                result,
                Err(SendError::GaveUp {
                    attempts: 4,
                    status: None,
                    ..
                })
            ),
            "{result:?}"
        );
        drop(unheard);
    })
    .await;
}

#[tokio::test]
async fn oversize_body_is_413_by_content_length_and_while_streaming() {
    bounded(async {
        let server = server().await;
        let big = vec![b' '; 300 * 1024];
        let response = reqwest::Client::new()
            .post(format!("{}/any", server.base))
            .header("content-type", "application/cloudevents+json")
            .body(big)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);

        // Chunked, without Content-Length: refused once the limit is passed while reading.
        let address = server.base.trim_start_matches("http://");
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        stream
            .write_all(b"POST /any HTTP/1.1\r\nhost: x\r\ncontent-type: application/cloudevents+json\r\ntransfer-encoding: chunked\r\n\r\n")
            .await
            .unwrap();
        // Up to 100 MB, the size issue 6 names; the server answers after 256 KiB and the
        // writes stop as soon as it has closed the connection.
        let chunk = vec![b' '; 64 * 1024];
        for _ in 0..1600 {
            let head = format!("{:x}\r\n", chunk.len());
            if stream.write_all(head.as_bytes()).await.is_err()
                || stream.write_all(&chunk).await.is_err()
                || stream.write_all(b"\r\n").await.is_err()
            {
                break; // the server may already have answered and closed
            }
        }
        let _ = stream.write_all(b"0\r\n\r\n").await;
        let mut answer = vec![0; 64];
        let n = stream.read(&mut answer).await.unwrap();
        let status_line = String::from_utf8_lossy(&answer[..n]);
        assert!(status_line.starts_with("HTTP/1.1 413"), "{status_line}");
    })
    .await;
}

#[tokio::test]
async fn a_100_mb_content_length_is_413_before_any_body_is_sent() {
    bounded(async {
        let server = server().await;
        let address = server.base.trim_start_matches("http://");
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        // Only the head: the answer cannot wait for the body, which never comes.
        stream
            .write_all(b"POST /any HTTP/1.1\r\nhost: x\r\ncontent-type: application/cloudevents+json\r\ncontent-length: 104857600\r\n\r\n")
            .await
            .unwrap();
        let mut answer = vec![0; 64];
        let n = stream.read(&mut answer).await.unwrap();
        let status_line = String::from_utf8_lossy(&answer[..n]);
        assert!(status_line.starts_with("HTTP/1.1 413"), "{status_line}");
    })
    .await;
}

#[tokio::test]
async fn web_hook_validation_handshake() {
    bounded(async {
        let server = server().await;
        let client = reqwest::Client::new();
        let granted = client
            .request(reqwest::Method::OPTIONS, format!("{}/any", server.base))
            .header("WebHook-Request-Origin", "eventemitter.example.com")
            .send()
            .await
            .unwrap();
        assert_eq!(granted.status(), StatusCode::OK);
        assert_eq!(
            granted.headers()["webhook-allowed-origin"],
            "eventemitter.example.com"
        );
        assert_eq!(granted.headers()["webhook-allowed-rate"], "120");
        let refused = client
            .request(reqwest::Method::OPTIONS, format!("{}/any", server.base))
            .header("WebHook-Request-Origin", "attacker.example.net")
            .send()
            .await
            .unwrap();
        assert!(!refused.headers().contains_key("webhook-allowed-origin"));
        assert_eq!(refused.status(), StatusCode::FORBIDDEN);

        // The sender's side of the same handshake.
        let url = format!("{}/any", server.base);
        let grant = sender()
            .handshake(&url, "eventemitter.example.com", Some(60))
            .await
            .unwrap();
        assert_eq!(grant.requests_per_minute, Some(120));
        let refused = sender().handshake(&url, "attacker.example.net", None).await;
        assert!(
            matches!(refused, Err(SendError::NotPermitted { status, .. }) if status == StatusCode::FORBIDDEN),
            "{refused:?}"
        );
    })
    .await;
}

#[test]
fn extension_value_of_a_typed_event_is_typed_before_sending() {
    // The binary parts carry canonical strings; the typed payload remains the source of truth.
    let parts = order("x").to_binary().unwrap();
    assert_eq!(parts.attribute("priority"), Some("7"));
    assert_eq!(parts.attribute("express"), Some("true"));
    let priority = order("x").extension("priority");
    assert_eq!(
        priority.as_ref().map(|v| v.as_value()),
        Some(ExtensionValue::Integer(7))
    );
}

/// The ordering stage behind HTTP endpoints (issue 22): a producer stamps `sequence` with a
/// `Sequencer`; on the way in 2 and 3 are swapped and 5 is dropped. Each request is read by
/// the binding's reader (the axum extractor), as `Event<T>` on one route and `AnyEvent` on
/// another, and pushed into that route's stage (a push consumer has no stream to wrap): the
/// handled sequence is in order, the swap put back, the gap before 6 reported at the end.
#[tokio::test]
async fn http_endpoints_put_events_in_sequence_order() {
    use cloudevent_runtime::order::{FileSequenceStore, OrderingStage, Sequencer};
    use common::ordering::{SENT, assert_put_in_order, label, stage, stamped};
    use std::sync::Mutex;

    type Handled<E> = Mutex<(OrderingStage<E>, Vec<String>)>;
    struct Stages {
        typed: Handled<Event<OrderCreated>>,
        any: Handled<AnyEvent>,
    }
    /// The end of the stream: what is still held, with its gaps; everything handled.
    fn finish<E: Attributes>(handled: &Handled<E>) -> Vec<String> {
        let mut handled = handled.lock().unwrap();
        let (stage, out) = &mut *handled;
        out.extend(stage.flush().map(label));
        out.clone()
    }
    async fn typed(State(stages): State<Arc<Stages>>, event: Event<OrderCreated>) -> StatusCode {
        let mut handled = stages.typed.lock().unwrap();
        let (stage, out) = &mut *handled;
        out.extend(stage.push(event).map(label));
        StatusCode::ACCEPTED
    }
    async fn any(State(stages): State<Arc<Stages>>, event: AnyEvent) -> StatusCode {
        let mut handled = stages.any.lock().unwrap();
        let (stage, out) = &mut *handled;
        out.extend(stage.push(event).map(label));
        StatusCode::ACCEPTED
    }

    bounded(async {
        let stages = Arc::new(Stages {
            typed: Mutex::new((stage(), Vec::new())),
            any: Mutex::new((stage(), Vec::new())),
        });
        let app = Router::new()
            .route("/ordered/typed", post(typed))
            .route("/ordered/any", post(any))
            .with_state(stages.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

        let dir = tempfile::tempdir().unwrap();
        let sequencer =
            Sequencer::new(FileSequenceStore::open(dir.path().join("seq.log")).unwrap());
        let stamped = stamped(&sequencer, "order-1", |n| order(&format!("box {n}"))).await;
        for route in ["typed", "any"] {
            for i in SENT {
                let request = event_request(
                    format!("{base}/ordered/{route}"),
                    &stamped[i],
                    ContentMode::Binary,
                )
                .unwrap();
                let delivered = sender().send(request).await.unwrap();
                assert_eq!(delivered.status, StatusCode::ACCEPTED);
            }
        }
        let typed_out = finish(&stages.typed);
        let any_out = finish(&stages.any);
        assert_put_in_order(&typed_out, &any_out);
    })
    .await;
}
