//! The 20 KB gateway row (issue 25): the documented gateway, `Checked<AnyEvent>` under
//! `Policy::new(Profile::IntgStd015)` served by `binding::gateway::serve` (header and request
//! timeouts, connection cap), against `cloudevents-sdk` 0.9's axum extractor served by
//! `axum::serve`, each answering 202 to [`cloudevent_bench::gateway_json`]'s event.
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
use cloudevent_runtime::binding::axum::Checked;
use cloudevent_runtime::{AnyEvent, Policy, Profile};
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// Which gateway answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gateway {
    /// Ours: `Checked<AnyEvent>`, INTG-STD-015, `binding::gateway::serve`.
    Ours,
    /// `cloudevents-sdk` 0.9's axum extractor on `axum::serve`.
    Sdk,
}

impl Gateway {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Gateway::Ours => "ours: Checked<AnyEvent>, INTG-STD-015, binding::gateway::serve",
            Gateway::Sdk => "cloudevents-sdk 0.9 axum extractor, axum::serve (no profile)",
        }
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
