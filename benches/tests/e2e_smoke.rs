//! A quick, bounded run of the end-to-end bench's contestants (`benches/e2e.rs`): both axum
//! services accept the reference event in both modes and give the same status for the same
//! bad requests; the NATS contestants publish and consume a few events against a real
//! `nats-server -js`.
//!
//! Without `nats-server` the NATS case is skipped with a message, except under `CI=true`,
//! where it fails: a skipped case would hide a broken bench in CI (as
//! `cloudevent-runtime/tests/binding_nats.rs` fails when the server is missing).

use std::time::Duration;

use axum::http::{HeaderMap, HeaderValue, StatusCode};
use cloudevent_runtime::binding::ContentMode;
use serde_json::Value;

#[path = "../benches/loopback/mod.rs"]
mod loopback;

use loopback::http::{Client, Prepared, Server, Service};
use loopback::nats::{self, Contestant, NatsServer};

async fn bounded<F: std::future::Future<Output = ()>>(test: F) {
    tokio::time::timeout(Duration::from_secs(30), test)
        .await
        .expect("the smoke test took longer than 30 s");
}

/// The structured reference event with one change.
fn structured(change: impl FnOnce(&mut serde_json::Map<String, Value>)) -> Prepared {
    let mut event: Value = serde_json::from_slice(&cloudevent_bench::reference_json()).unwrap();
    change(event.as_object_mut().unwrap());
    let mut headers = HeaderMap::new();
    headers.insert(
        "content-type",
        HeaderValue::from_static("application/cloudevents+json"),
    );
    Prepared::new(headers, serde_json::to_vec(&event).unwrap())
}

/// The binary-mode reference request with one header removed and another body.
fn binary(without: &str, body: &'static [u8]) -> Prepared {
    let event = cloudevent_bench::ours();
    let request = cloudevent_runtime::binding::http::event_request(
        "http://127.0.0.1/events",
        &event,
        ContentMode::Binary,
    )
    .unwrap();
    let mut headers = request.headers().clone();
    headers.remove(without);
    Prepared::new(headers, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_axum_services_accept_the_reference_event_and_refuse_the_same_requests() {
    bounded(async {
        let bad = [
            (
                "another type",
                structured(|e| {
                    e.insert("type".into(), "com.example.order.cancelled".into());
                }),
            ),
            (
                "no id",
                structured(|e| {
                    e.remove("id");
                }),
            ),
            (
                "payload of the wrong shape",
                structured(|e| {
                    e["data"]["quantity"] = "three".into();
                }),
            ),
            (
                "binary, no ce-type",
                binary("ce-type", br#"{"order_id":"order-8842"}"#),
            ),
            ("binary, body not JSON", binary("ce-region", b"not json")),
        ];
        for service in [Service::Ours, Service::Sdk] {
            let server = Server::start(service).await;
            let mut client = Client::connect(server.address, 4).await;
            for mode in [ContentMode::Structured, ContentMode::Binary] {
                let run = client
                    .run(&Prepared::reference(mode), 50, StatusCode::ACCEPTED)
                    .await;
                assert_eq!(run.count, 50, "{service:?} {mode:?}");
            }
            for (case, request) in &bad {
                let status = client.status(request).await;
                assert_eq!(
                    status,
                    StatusCode::BAD_REQUEST,
                    "{case}: {} answered {status}",
                    service.name()
                );
            }
            client.close().await;
            server.stop().await;
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_nats_contestants_publish_and_consume() {
    let Some(binary) = nats::server_binary() else {
        let message = "nats-server not found (PATH, /usr/sbin, /usr/bin, /usr/local/bin or \
                       NATS_SERVER_BIN): install it with `apt-get install -y nats-server` \
                       (`cargo xtask test` does this)";
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{message}; CI=true, so this fails instead of skipping"
        );
        eprintln!("skipped: {message}");
        return;
    };
    bounded(async {
        let server = NatsServer::start(&binary);
        let client = server.client().await;
        for contestant in [Contestant::Ours, Contestant::Plain] {
            let (published, consumed) = nats::measure(&client, contestant, 1, 50).await;
            assert_eq!(published.count, 50, "{}", contestant.name());
            assert_eq!(consumed.count, 50, "{}", contestant.name());
        }
    })
    .await;
}
