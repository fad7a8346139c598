//! Serving a gateway that stays up (feature `gateway`): the documented gateway's server,
//! with the limits a server facing the internet needs and `axum::serve` leaves out.
//!
//! `axum::serve` sets no header read timeout (hyper applies one only with a timer), no
//! request timeout and no connection cap: a client sending a byte a second kept its
//! connection forever, and 200 such connections held 200 MB. [`serve`] reads each request's
//! header section within [`ServeLimits::header_read_timeout`] (else the connection is
//! closed), answers `408 Request Timeout` when reading the body and handling the request
//! take longer than [`ServeLimits::request_timeout`], and holds at most
//! [`ServeLimits::max_connections`] connections at once (a connection past the cap is closed
//! as soon as it is accepted).

use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use http::StatusCode;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower_service::Service as _;

/// The limits [`serve_with`] applies; [`serve`] uses [`ServeLimits::default`].
///
/// ```
/// use std::time::Duration;
/// use cloudevent_runtime::binding::gateway::ServeLimits;
///
/// let limits = ServeLimits::default();
/// assert_eq!(limits.header_read_timeout, Duration::from_secs(10));
/// assert_eq!(limits.request_timeout, Duration::from_secs(30));
/// assert_eq!(limits.max_connections, 1024);
/// let strict = ServeLimits { max_connections: 64, ..ServeLimits::default() };
/// assert_eq!(strict.max_connections, 64);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServeLimits {
    /// How long a client may take to send a request's header section; the connection is
    /// closed past it. Default 10 s.
    pub header_read_timeout: Duration,
    /// How long reading a request's body and handling it may take; answered with `408
    /// Request Timeout` past it. Default 30 s.
    pub request_timeout: Duration,
    /// How many connections are served at once; one past the cap is closed when accepted.
    /// Default 1,024.
    pub max_connections: usize,
}

impl Default for ServeLimits {
    fn default() -> Self {
        ServeLimits {
            header_read_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            max_connections: 1024,
        }
    }
}

/// Serves `app` on `listener` (HTTP/1.1) with [`ServeLimits::default`]: the documented
/// gateway's server. Runs until the listener fails.
///
/// ```no_run
/// use axum::{Router, routing::post};
/// use cloudevent_runtime::binding::axum::Checked;
/// use cloudevent_runtime::binding::gateway::serve;
/// use cloudevent_runtime::{AnyEvent, Policy, Profile};
///
/// async fn gateway(Checked(event): Checked<AnyEvent>) -> &'static str { "accepted" }
///
/// # async fn run() -> std::io::Result<()> {
/// let app = Router::new()
///     .route("/events", post(gateway))
///     .with_state(Policy::new(Profile::IntgStd015));
/// serve(tokio::net::TcpListener::bind("0.0.0.0:8080").await?, app).await
/// # }
/// ```
///
/// # Errors
/// Never returns on its own; a listener that fails in a way a retry cannot mend (not a
/// refused or reset connection, nor running out of file descriptors) ends it with that error.
pub async fn serve(listener: TcpListener, app: Router) -> io::Result<()> {
    serve_with(listener, app, ServeLimits::default()).await
}

/// [`serve`] with chosen limits.
///
/// ```
/// use std::time::Duration;
/// use axum::{Router, routing::get};
/// use cloudevent_runtime::binding::gateway::{ServeLimits, serve_with};
/// use tokio::io::{AsyncReadExt, AsyncWriteExt};
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
/// let address = listener.local_addr().unwrap();
/// let limits = ServeLimits { header_read_timeout: Duration::from_millis(200), ..ServeLimits::default() };
/// let server = tokio::spawn(serve_with(listener, Router::new().route("/", get(|| async { "up" })), limits));
///
/// // A client that never finishes its header section is disconnected.
/// let mut slow = tokio::net::TcpStream::connect(address).await.unwrap();
/// slow.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
/// let mut rest = Vec::new();
/// let read = tokio::time::timeout(Duration::from_secs(5), slow.read_to_end(&mut rest)).await;
/// assert!(read.is_ok(), "the connection was closed within the header read timeout");
/// server.abort();
/// # });
/// ```
///
/// # Errors
/// See [`serve`].
pub async fn serve_with(listener: TcpListener, app: Router, limits: ServeLimits) -> io::Result<()> {
    let app = app.layer(tower_http::timeout::TimeoutLayer::with_status_code(
        StatusCode::REQUEST_TIMEOUT,
        limits.request_timeout,
    ));
    let connections = Arc::new(Semaphore::new(limits.max_connections));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(error) if can_go_on(&error) => {
                // Out of descriptors, or a connection that died in the backlog: wait a
                // little rather than spin, then accept again.
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
            Err(error) => return Err(error),
        };
        let Ok(permit) = Arc::clone(&connections).try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let app = app.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request: http::Request<Incoming>| {
                let mut app = app.clone();
                async move { app.call(request.map(Body::new)).await }
            });
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_read_timeout);
            // A client's error (a reset, a timeout) ends its connection and nothing else.
            let _ = builder
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades()
                .await;
            drop(permit);
        });
    }
}

/// Whether an `accept` error concerns one connection or a passing shortage, not the
/// listener.
fn can_go_on(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::Interrupted
            | io::ErrorKind::WouldBlock
    ) || scarce(error)
}

/// Out of descriptors or memory for a moment (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`).
#[cfg(unix)]
fn scarce(error: &io::Error) -> bool {
    error.raw_os_error().is_some_and(|code| {
        [libc::EMFILE, libc::ENFILE, libc::ENOBUFS, libc::ENOMEM].contains(&code)
    })
}

#[cfg(not(unix))]
fn scarce(_error: &io::Error) -> bool {
    false
}
