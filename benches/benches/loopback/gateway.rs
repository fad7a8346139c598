//! The gateway rows. 20 KB (issue 25): the documented gateway, `Checked<AnyEvent>` under
//! `Policy::new(Profile::IntgStd015)` served by `binding::gateway::serve` (header and request
//! timeouts, connection cap), against `cloudevents-sdk` 0.9's axum extractor served by
//! `axum::serve`, each answering 202 to [`cloudevent_bench::gateway_json`]'s event. 1 KiB,
//! every check on (issue 40): [`Gateway::AllChecks`], the same server with the registry's
//! extractor (`Registered<AnyEvent>`: the INTG-STD-015 profile, then `data` against its
//! schema from `schemas/`) and a `cesql!` filter in the handler, against the same SDK
//! extractor, on [`cloudevent_bench::registry_event_json`]'s event.
//!
//! Events a second **per core**: the server runs alone on one thread (a current-thread tokio
//! runtime of its own), so it can use at most one core, and its thread's CPU time is read from
//! `/proc/<pid>/task/<tid>/schedstat` (nanoseconds on a CPU) before and after the timed
//! requests. Events divided by that CPU time is the per-core rate; it is not moved by other
//! processes taking turns on the cores, as the wall-clock rate is. The load generator (the
//! keep-alive client of [`super::http`]) runs on the caller's runtime, other threads.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use axum::routing::post;
use cloudevent_runtime::binding::axum::{Checked, Registered};
use cloudevent_runtime::filter::Filter as _;
use cloudevent_runtime::registry::{Registry, RegistryEntry, RegistryValidator};
use cloudevent_runtime::{AnyEvent, Policy, Profile, Validator};
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// Which gateway answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gateway {
    /// Ours: `Checked<AnyEvent>`, INTG-STD-015, `binding::gateway::serve`.
    Ours,
    /// `cloudevents-sdk` 0.9's axum extractor on `axum::serve`.
    Sdk,
    /// Ours with every check: `Registered<AnyEvent>` (INTG-STD-015, then `data` against the
    /// registry's schema) and a `cesql!` filter, `binding::gateway::serve`.
    AllChecks,
}

impl Gateway {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Gateway::Ours => "ours: Checked<AnyEvent>, INTG-STD-015, binding::gateway::serve",
            Gateway::Sdk => "cloudevents-sdk 0.9 axum extractor, axum::serve (no profile)",
            Gateway::AllChecks => {
                "ours: Registered<AnyEvent> (INTG-STD-015 + registry data check) + cesql! filter, \
                 binding::gateway::serve"
            }
        }
    }

    /// The short tag used in the bench's output.
    pub fn tag(self) -> &'static str {
        match self {
            Gateway::Ours | Gateway::AllChecks => "ours",
            Gateway::Sdk => "sdk",
        }
    }
}

/// The all-checks gateway's state: the INTG-STD-015 validator and a registry of the one
/// schema the 1 KiB event's `type` names.
///
/// # Panics
/// When the bundled schema does not compile (a broken `schemas/` file).
pub fn registry_validator() -> RegistryValidator {
    let schema =
        serde_json::from_str(cloudevent_bench::REGISTRY_SCHEMA).expect("the schema is JSON");
    let registry = Registry::new(vec![RegistryEntry::new(
        "com.example.order.created",
        schema,
    )])
    .expect("the schema compiles");
    RegistryValidator::new(Validator::new(Profile::IntgStd015), registry)
}

/// The all-checks gateway's filter, a `cesql!` of the shape of issue 40's CESQL row
/// (`LIKE` + `IN` + `AND` + `EXISTS`, no `data`), parsed and checked when the bench compiles.
pub fn selects(event: &AnyEvent) -> bool {
    cloudevent_runtime::cesql!(
        "type LIKE 'com.example.%' AND source IN ('/orders', 'urn:shop:orders', 'https://api.example.com/orders') AND EXISTS subject"
    )
    .accepts(event)
}

/// The all-checks gateway's handler: the registry's extractor has read and checked the
/// event (400 or 422 otherwise); the filter selects it. An event the filter does not select
/// is answered 204, so a bench whose event stopped matching fails instead of counting it.
async fn all_checks(Registered(event): Registered<AnyEvent>) -> StatusCode {
    if selects(&event) {
        std::hint::black_box(event);
        StatusCode::ACCEPTED
    } else {
        StatusCode::NO_CONTENT
    }
}

async fn ours(Checked(event): Checked<AnyEvent>) -> StatusCode {
    std::hint::black_box(event);
    StatusCode::ACCEPTED
}

async fn sdk(event: cloudevents::Event) -> StatusCode {
    std::hint::black_box(event);
    StatusCode::ACCEPTED
}

/// Nanoseconds the calling thread has spent on a CPU so far
/// (`/proc/thread-self/schedstat`).
///
/// # Panics
/// When `schedstat` cannot be read (a kernel without it).
pub fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse().ok())
        .expect("/proc/thread-self/schedstat starts with the time on a CPU")
}

/// What one event costs `gateway`'s extractor and handler alone, in process (no network,
/// hyper or router): `iterations` structured-mode requests of `body`, one after another on
/// the calling thread, CPU nanoseconds each (the thread's time on a CPU, as the per-core
/// rate counts it, so other processes taking turns do not inflate it). Splits a per-core
/// rate into "our code" and "the HTTP stack".
///
/// # Panics
/// When the gateway refuses the event.
pub async fn extract_ns(gateway: Gateway, body: &axum::body::Bytes, iterations: usize) -> f64 {
    use axum::extract::FromRequest;

    let policy = Policy::new(Profile::IntgStd015);
    let registry = registry_validator();
    let request = || {
        let mut request = axum::extract::Request::new(axum::body::Body::from(body.clone()));
        *request.method_mut() = axum::http::Method::POST;
        request.headers_mut().insert(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/cloudevents+json"),
        );
        request
    };
    let start = thread_cpu_ns();
    for _ in 0..iterations {
        let status = match gateway {
            Gateway::Ours => match Checked::<AnyEvent>::from_request(request(), &policy).await {
                Ok(event) => ours(event).await,
                Err(rejection) => panic!("{rejection}"),
            },
            Gateway::AllChecks => {
                match Registered::<AnyEvent>::from_request(request(), &registry).await {
                    Ok(event) => all_checks(event).await,
                    Err(rejection) => panic!("{rejection}"),
                }
            }
            Gateway::Sdk => match cloudevents::Event::from_request(request(), &()).await {
                Ok(event) => sdk(event).await,
                Err(_) => StatusCode::BAD_REQUEST,
            },
        };
        assert_eq!(status, StatusCode::ACCEPTED, "{}", gateway.name());
    }
    (thread_cpu_ns() - start) as f64 / iterations.max(1) as f64
}

/// A gateway on its own thread and its own single-threaded runtime, on 127.0.0.1.
pub struct GatewayServer {
    /// Where it listens.
    pub address: SocketAddr,
    schedstat: PathBuf,
    stop: oneshot::Sender<()>,
    thread: std::thread::JoinHandle<()>,
}

impl GatewayServer {
    /// Starts `gateway` on an ephemeral port of 127.0.0.1.
    ///
    /// # Panics
    /// When the thread, the runtime or the listener cannot be made.
    pub fn start(gateway: Gateway) -> Self {
        let (ready, started) = std::sync::mpsc::channel();
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("gateway".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("the gateway's runtime");
                runtime.block_on(async move {
                    let listener = TcpListener::bind(("127.0.0.1", 0))
                        .await
                        .expect("bind 127.0.0.1:0");
                    // `/proc/thread-self` names this thread: `<pid>/task/<tid>`.
                    let task = std::fs::read_link("/proc/thread-self").expect("/proc/thread-self");
                    let schedstat = PathBuf::from("/proc").join(task).join("schedstat");
                    let address = listener.local_addr().expect("local address");
                    ready.send((address, schedstat)).expect("the caller waits");
                    match gateway {
                        Gateway::Ours => {
                            let app = Router::new()
                                .route("/events", post(ours))
                                .with_state(Policy::new(Profile::IntgStd015));
                            tokio::select! {
                                served = cloudevent_runtime::binding::gateway::serve(listener, app) => {
                                    served.expect("the gateway serves");
                                }
                                _ = stopped => {}
                            }
                        }
                        Gateway::AllChecks => {
                            let app = Router::new()
                                .route("/events", post(all_checks))
                                .with_state(registry_validator());
                            tokio::select! {
                                served = cloudevent_runtime::binding::gateway::serve(listener, app) => {
                                    served.expect("the gateway serves");
                                }
                                _ = stopped => {}
                            }
                        }
                        Gateway::Sdk => {
                            axum::serve(listener, Router::new().route("/events", post(sdk)))
                                .with_graceful_shutdown(async {
                                    let _ = stopped.await;
                                })
                                .await
                                .expect("the server runs");
                        }
                    }
                });
            })
            .expect("the gateway thread");
        let (address, schedstat) = started
            .recv_timeout(Duration::from_secs(10))
            .expect("the gateway starts within 10 s");
        GatewayServer {
            address,
            schedstat,
            stop,
            thread,
        }
    }

    /// Nanoseconds the server's thread has spent on a CPU so far.
    ///
    /// # Panics
    /// When `schedstat` cannot be read (a kernel without it).
    pub fn cpu_ns(&self) -> u64 {
        let text = std::fs::read_to_string(&self.schedstat).expect("the thread's schedstat");
        text.split_whitespace()
            .next()
            .and_then(|ns| ns.parse().ok())
            .expect("schedstat starts with the time on a CPU")
    }

    /// Stops the server and joins its thread (the connections should be closed first).
    pub fn stop(self) {
        let _ = self.stop.send(());
        self.thread
            .join()
            .expect("the gateway thread did not panic");
    }
}
