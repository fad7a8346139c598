//! Serving a gateway that stays up (feature `gateway`): the documented gateway's server,
//! with the limits a server facing the internet needs and `axum::serve` leaves out.
//!
//! `axum::serve` sets no header read timeout (hyper applies one only with a timer), no
//! request timeout and no connection cap: a client sending a byte a second kept its
//! connection forever, and 200 such connections held 200 MB. [`serve`] reads each request's
//! header section within [`ServeLimits::header_read_timeout`] (else the connection is
//! closed), answers `408 Request Timeout` when reading the body and handling the request
//! take longer than [`ServeLimits::request_timeout`], and holds at most
//! [`ServeLimits::max_connections`] connections at once. At the cap, a new connection takes
//! the place of the idlest one (no request in progress, idle the longest since it was
//! accepted or last answered), which is closed; only when every connection is in the middle
//! of a request is the new one closed as soon as it is accepted. Idle connections filling the
//! cap once kept every other client out until the header read timeout closed them (issue
//! 38): a client that sends nothing now holds a place only until a client that does needs it.

use std::collections::HashMap;
use std::future::Future as _;
use std::io;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::Poll;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::response::IntoResponse as _;
use http::StatusCode;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Notify;
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
    /// How many connections are served at once. Default 1,024.
    ///
    /// At the cap, a new connection sheds the idlest one: of the connections with no request
    /// in progress, the one idle the longest (since it was accepted, or since its last
    /// response) is closed and the new one served. Shedding the idlest, rather than a shorter
    /// timeout for silent connections or a cap per address, because it frees a place at once
    /// for the client that needs it, whatever the flood's rate or addresses (a gateway behind
    /// a load balancer sees one address), and it closes only connections a client is not
    /// using. When every connection is in the middle of a request, the new one is closed as
    /// soon as it is accepted.
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
    let connections = Arc::new(Connections::new(limits.max_connections));
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
        let Some(place) = connections.admit() else {
            drop(stream);
            continue;
        };
        let app = app.clone();
        tokio::spawn(async move {
            let state = Arc::clone(&place.state);
            let service = hyper::service::service_fn(move |request: http::Request<Incoming>| {
                let mut app = app.clone();
                // Counted busy from here until the response is ready (or the request is
                // dropped with its connection), so shedding never cuts a request short.
                let request_guard = Busy::enter(&state);
                async move {
                    let Some(_busy) = request_guard else {
                        // Chosen for shedding just as this request arrived.
                        return Ok(
                            (StatusCode::SERVICE_UNAVAILABLE, "connection shed").into_response()
                        );
                    };
                    app.call(request.map(Body::new)).await
                }
            });
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_read_timeout);
            let mut connection = std::pin::pin!(
                builder
                    .serve_connection(TokioIo::new(stream), service)
                    .with_upgrades()
            );
            let mut shed = std::pin::pin!(place.state.shed.notified());
            // A client's error (a reset, a timeout) ends its connection and nothing else;
            // shedding ends it by dropping it, which closes the socket.
            std::future::poll_fn(|cx| {
                if connection.as_mut().poll(cx).is_ready() || shed.as_mut().poll(cx).is_ready() {
                    Poll::Ready(())
                } else {
                    Poll::Pending
                }
            })
            .await;
            // `place` is dropped here, after the connection: its place under the cap is free.
        });
    }
}

/// The connections being served, so that the cap can shed the idlest one.
struct Connections {
    cap: usize,
    /// The clock the connections' idle times are read on.
    epoch: Instant,
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    next: u64,
    by_id: HashMap<u64, Arc<ConnectionState>>,
}

/// What the cap knows of one connection.
struct ConnectionState {
    /// Requests in progress, or [`SHED`] once the connection is chosen to be shed.
    busy: AtomicUsize,
    /// Milliseconds from `epoch` to when the connection was accepted or last answered.
    idle_since: AtomicU64,
    /// The cap's clock ([`Connections::epoch`]).
    epoch: Instant,
    shed: Notify,
}

impl ConnectionState {
    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// [`ConnectionState::busy`] of a connection being shed: no request may start on it.
const SHED: usize = usize::MAX;

/// A connection's place under the cap, given back when the connection ends.
struct Place {
    connections: Arc<Connections>,
    id: u64,
    state: Arc<ConnectionState>,
}

impl Connections {
    fn new(cap: usize) -> Self {
        Connections {
            cap,
            epoch: Instant::now(),
            open: Mutex::new(Open::default()),
        }
    }

    /// A place for a new connection: a free one, else the idlest connection's (it is told
    /// to close); `None` when every connection is in the middle of a request.
    fn admit(self: &Arc<Self>) -> Option<Place> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        while open.by_id.len() >= self.cap {
            let (&id, idlest) = open
                .by_id
                .iter()
                .filter(|(_, state)| state.busy.load(Ordering::Acquire) == 0)
                .min_by_key(|(id, state)| (state.idle_since.load(Ordering::Relaxed), **id))?;
            // A request may start on it meanwhile: then it is busy, and another is tried.
            if idlest
                .busy
                .compare_exchange(0, SHED, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                idlest.shed.notify_one();
                open.by_id.remove(&id);
            }
        }
        let state = ConnectionState {
            busy: AtomicUsize::new(0),
            idle_since: AtomicU64::new(0),
            epoch: self.epoch,
            shed: Notify::new(),
        };
        state.idle_since.store(state.now_ms(), Ordering::Relaxed);
        let state = Arc::new(state);
        let id = open.next;
        open.next += 1;
        open.by_id.insert(id, Arc::clone(&state));
        Some(Place {
            connections: Arc::clone(self),
            id,
            state,
        })
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut open = self
            .connections
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        open.by_id.remove(&self.id);
    }
}

/// One request in progress on a connection; when it ends the connection is idle from then.
/// Its response's body is written after that; a gateway's bodies are short.
struct Busy {
    state: Arc<ConnectionState>,
}

impl Busy {
    /// `None` when the connection is being shed.
    fn enter(state: &Arc<ConnectionState>) -> Option<Busy> {
        state
            .busy
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n != SHED).then_some(n + 1)
            })
            .ok()?;
        Some(Busy {
            state: Arc::clone(state),
        })
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let state = &self.state;
        state.idle_since.store(state.now_ms(), Ordering::Relaxed);
        state.busy.fetch_sub(1, Ordering::AcqRel);
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
