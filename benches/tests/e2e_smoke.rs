//! A quick, bounded run of the end-to-end bench's contestants (`benches/e2e.rs`): both axum
//! services accept the reference event in both modes and give the same status for the same
//! bad requests; the gateways of the 20 KB and 1 KiB rows accept their events, and the
//! all-checks gateway refuses what each of its checks refuses; the memory cases' pieces
//! (the counting allocator, the batch readers, the gateway child's protocol over pipes) run
//! on small inputs; the NATS contestants publish and consume a few events against a real
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
#[path = "../benches/sdk/mod.rs"]
#[allow(
    dead_code,
    reason = "the bench's SDK helpers; the memory case uses one"
)]
mod sdk;

#[global_allocator]
static ALLOCATOR: loopback::memory::Counting = loopback::memory::Counting;

use loopback::gateway::{Gateway, GatewayServer};
use loopback::http::{Client, LoadGenerator, Prepared, Server, Service};
use loopback::memory;
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
        for (service, generator) in [
            (Service::Ours, LoadGenerator::Raw),
            (Service::Sdk, LoadGenerator::Raw),
            (Service::Ours, LoadGenerator::Hyper),
            (Service::Sdk, LoadGenerator::Hyper),
        ] {
            let server = Server::start(service).await;
            let mut client = Client::connect(server.address, 4, generator).await;
            for mode in [ContentMode::Structured, ContentMode::Binary] {
                let run = client
                    .run(&Prepared::reference(mode), 50, StatusCode::ACCEPTED)
                    .await;
                assert_eq!(run.count, 50, "{service:?} {mode:?} {generator:?}");
            }
            for (case, request) in &bad {
                let status = client.status(request).await;
                assert_eq!(
                    status,
                    StatusCode::BAD_REQUEST,
                    "{case}: {} answered {status} ({generator:?})",
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

/// A structured-mode request of `json`.
fn structured_json(json: Vec<u8>) -> Prepared {
    let mut headers = HeaderMap::new();
    headers.insert(
        "content-type",
        HeaderValue::from_static("application/cloudevents+json"),
    );
    Prepared::new(headers, json)
}

/// The 1 KiB registry event with one change.
fn registry_event(change: impl FnOnce(&mut serde_json::Map<String, Value>)) -> Prepared {
    let mut event: Value =
        serde_json::from_slice(&cloudevent_bench::registry_event_json()).unwrap();
    change(event.as_object_mut().unwrap());
    structured_json(serde_json::to_vec(&event).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gateways_accept_their_events_and_each_check_of_the_1kib_gateway_refuses() {
    bounded(async {
        let twenty_kb = structured_json(cloudevent_bench::gateway_json());
        let one_kib = structured_json(cloudevent_bench::registry_event_json());
        for (gateway, request) in [
            (Gateway::Ours, &twenty_kb),
            (Gateway::Sdk, &twenty_kb),
            (Gateway::AllChecks, &one_kib),
            (Gateway::Sdk, &one_kib),
        ] {
            let server = GatewayServer::start(gateway);
            let mut client = Client::connect(server.address, 4, LoadGenerator::Raw).await;
            let before = server.cpu_ns();
            let run = client.run(request, 20, StatusCode::ACCEPTED).await;
            assert_eq!(run.count, 20, "{}", gateway.name());
            assert!(
                server.cpu_ns() > before,
                "{}: no CPU time read",
                gateway.name()
            );
            if gateway == Gateway::AllChecks {
                let refused = [
                    (
                        "the profile: a non-UTC time (R-2)",
                        registry_event(|e| {
                            e.insert("time".into(), "2026-03-28T16:22:31.482+02:00".into());
                        }),
                        StatusCode::BAD_REQUEST,
                    ),
                    (
                        "the registry: data without `total`",
                        registry_event(|e| {
                            e["data"].as_object_mut().unwrap().remove("total");
                        }),
                        StatusCode::UNPROCESSABLE_ENTITY,
                    ),
                    (
                        "the filter: a source it does not select",
                        registry_event(|e| {
                            e.insert("source".into(), "https://shop.example.com/orders".into());
                        }),
                        StatusCode::NO_CONTENT,
                    ),
                ];
                for (case, request, expected) in &refused {
                    assert_eq!(client.status(request).await, *expected, "{case}");
                }
            }
            client.close().await;
            server.stop();
        }
    })
    .await;
}

#[test]
fn the_counting_allocator_counts_each_typed_parse() {
    let [ours, plain, sdk] = memory::TYPED_PARSE.map(|c| memory::typed_parse_allocs(c, 10));
    assert!(ours.0 > 0.0 && plain.0 > 0.0, "{ours:?} {plain:?}");
    assert!(ours.1 > 0.0 && plain.1 > 0.0, "{ours:?} {plain:?}");
    assert!(
        sdk.0 > ours.0,
        "the SDK's parse goes through a Value: {sdk:?} vs {ours:?}"
    );
}

#[test]
fn every_batch_reader_reads_the_batch_and_ours_finds_no_invalid_event() {
    let batch = cloudevent_bench::root_batch_json(150);
    for reader in memory::BATCH_READERS {
        assert_eq!(memory::read_batch(reader, &batch), (150, 0), "{reader}");
    }
    // The tests beside this one allocate while it runs: read the resident size
    // first, so the high-water mark read after it can only be as large or larger.
    let rss = memory::status_kib("VmRSS").expect("/proc/self/status has VmRSS");
    let peak = memory::status_kib("VmHWM").expect("/proc/self/status has VmHWM");
    assert!(peak >= rss && peak > 0, "VmHWM {peak} KiB, VmRSS {rss} KiB");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gateway_child_serves_and_reports_its_peak_over_pipes() {
    bounded(async {
        let (child_input, parent_input) = std::io::pipe().unwrap();
        let (parent_output, child_output) = std::io::pipe().unwrap();
        let child = std::thread::spawn(move || {
            memory::gateway_child(Gateway::Ours, child_input, child_output);
        });
        let request = structured_json(cloudevent_bench::gateway_json());
        let peak = memory::drive_gateway_child(
            parent_input,
            parent_output,
            &request,
            (2, 10, 2),
            LoadGenerator::Raw,
        )
        .await;
        child.join().unwrap();
        assert_eq!(peak.requests, 10);
        assert!(
            peak.peak_kib >= peak.idle_kib && peak.idle_kib > 0,
            "{peak:?}"
        );
    })
    .await;
}
