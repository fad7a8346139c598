//! One axum service three ways, and a bounded HTTP/1.1 load generator on 127.0.0.1.
//!
//! Every service reads the reference event from `POST /events`, takes the typed payload
//! ([`OrderCreated`]) and answers 202 Accepted, or 400 when it cannot:
//!
//! - [`Service::Ours`]: the `Event<OrderCreated>` extractor the README shows users, strict
//!   validation on (`OrderCreated`'s profile, INTG-STD-015: type, source hygiene, UTC `time`,
//!   extension names, size limit, control characters...).
//! - [`Service::Sdk`]: `cloudevents-sdk` 0.9's axum extractor (`cloudevents::Event`), then what
//!   a consumer of that typed endpoint has to do: check the `type`, take `data` and convert it
//!   to the payload struct.
//! - [`Service::Floor`]: no CloudEvents library at all: axum's `Bytes` and plain serde into a
//!   struct of owned strings (structured) or the payload (binary, `ce-type` compared). Not a
//!   contestant: it shows what axum and serde cost alone, to tell where a gap comes from.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use cloudevent_bench::{OrderCreated, PlainEvent, TYPE};
use cloudevent_runtime::Event;
use cloudevent_runtime::binding::{ContentMode, http as binding};
use cloudevents::AttributesReader;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::Run;

/// Which service answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Service {
    /// Our `Event<OrderCreated>` extractor.
    Ours,
    /// `cloudevents-sdk` 0.9's axum extractor.
    Sdk,
    /// axum `Bytes` + plain serde, no CloudEvents checks (the floor).
    Floor,
}

impl Service {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Service::Ours => "ours: Event<OrderCreated> extractor (INTG-STD-015)",
            Service::Sdk => "cloudevents-sdk 0.9 axum extractor",
            Service::Floor => "axum Bytes + plain serde (no CloudEvents checks)",
        }
    }

    /// The axum router serving `POST /events`.
    pub fn router(self) -> Router {
        match self {
            Service::Ours => Router::new().route("/events", post(ours)),
            Service::Sdk => Router::new().route("/events", post(sdk)),
            Service::Floor => Router::new().route("/events", post(floor)),
        }
    }
}

async fn ours(event: Event<OrderCreated>) -> StatusCode {
    std::hint::black_box(event.into_data());
    StatusCode::ACCEPTED
}

async fn sdk(mut event: cloudevents::Event) -> StatusCode {
    if event.ty() != TYPE {
        return StatusCode::BAD_REQUEST;
    }
    let (_, _, data) = event.take_data();
    let payload: Result<OrderCreated, _> = match data {
        Some(cloudevents::Data::Json(value)) => serde_json::from_value(value),
        Some(cloudevents::Data::Binary(bytes)) => serde_json::from_slice(&bytes),
        Some(cloudevents::Data::String(text)) => serde_json::from_str(&text),
        None => return StatusCode::BAD_REQUEST,
    };
    match payload {
        Ok(payload) => {
            std::hint::black_box(payload);
            StatusCode::ACCEPTED
        }
        Err(_) => StatusCode::BAD_REQUEST,
    }
}

async fn floor(headers: HeaderMap, body: Bytes) -> StatusCode {
    let ok = match headers.get("ce-type") {
        Some(ty) => {
            ty.as_bytes() == TYPE.as_bytes()
                && serde_json::from_slice::<OrderCreated>(&body)
                    .map(std::hint::black_box)
                    .is_ok()
        }
        None => serde_json::from_slice::<PlainEvent>(&body)
            .map(|event| event.ty == TYPE && std::hint::black_box(event).data.quantity >= 0)
            .unwrap_or(false),
    };
    if ok {
        StatusCode::ACCEPTED
    } else {
        StatusCode::BAD_REQUEST
    }
}

/// The content mode of a case.
pub fn mode_name(mode: ContentMode) -> &'static str {
    match mode {
        ContentMode::Structured => "structured",
        ContentMode::Binary => "binary",
        ContentMode::Batch => "batch",
    }
}

/// A request every connection sends over and over: headers and body built once.
#[derive(Debug, Clone)]
pub struct Prepared {
    headers: HeaderMap,
    body: Bytes,
}

impl Prepared {
    /// The reference event as our HTTP binding writes it in `mode` (the SDK reads the same
    /// bytes: `tests/same_event.rs`).
    pub fn reference(mode: ContentMode) -> Self {
        let event = cloudevent_bench::ours();
        let request = binding::event_request("http://127.0.0.1/events", &event, mode)
            .expect("the reference event is written");
        let (parts, body) = request.into_parts();
        Prepared {
            headers: parts.headers,
            body: Bytes::from(body),
        }
    }

    /// Any headers and body.
    pub fn new(headers: HeaderMap, body: impl Into<Bytes>) -> Self {
        Prepared {
            headers,
            body: body.into(),
        }
    }

    /// The request as hyper's HTTP/1.1 client writes it: the request line, the headers as
    /// given, `content-length`, the body.
    fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(256 + self.body.len());
        bytes.extend_from_slice(b"POST /events HTTP/1.1\r\n");
        for (name, value) in &self.headers {
            bytes.extend_from_slice(name.as_str().as_bytes());
            bytes.extend_from_slice(b": ");
            bytes.extend_from_slice(value.as_bytes());
            bytes.extend_from_slice(b"\r\n");
        }
        bytes.extend_from_slice(format!("content-length: {}\r\n\r\n", self.body.len()).as_bytes());
        bytes.extend_from_slice(&self.body);
        bytes
    }

    fn request(&self) -> hyper::Request<Full<Bytes>> {
        let mut request = hyper::Request::new(Full::new(self.body.clone()));
        *request.method_mut() = hyper::Method::POST;
        *request.uri_mut() = hyper::Uri::from_static("/events");
        *request.headers_mut() = self.headers.clone();
        request
    }
}

/// A service listening on an ephemeral port of 127.0.0.1 until [`Server::stop`].
pub struct Server {
    /// Where it listens.
    pub address: SocketAddr,
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl Server {
    /// Starts `service` on 127.0.0.1:0 in the current runtime.
    pub async fn start(service: Service) -> Self {
        let listener = TcpListener::bind(("127.0.0.1", 0))
            .await
            .expect("bind 127.0.0.1:0");
        let address = listener.local_addr().expect("local address");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            axum::serve(listener, service.router())
                .with_graceful_shutdown(async {
                    let _ = stopped.await;
                })
                .await
                .expect("the server runs");
        });
        Server {
            address,
            stop,
            task,
        }
    }

    /// Stops accepting, lets open connections finish, and waits (at most 10 s).
    pub async fn stop(self) {
        let _ = self.stop.send(());
        tokio::time::timeout(Duration::from_secs(10), self.task)
            .await
            .expect("the server stops within 10 s")
            .expect("the server task did not panic");
    }
}

/// How the load generator speaks HTTP/1.1. Client and server share this machine's two cores,
/// so every cycle the client spends on a request is taken from the server under test and
/// added to both contestants alike: it narrows every ratio towards 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadGenerator {
    /// The request written once as bytes and sent as they are; of each answer the status line
    /// and `content-length` read with `httparse` (what `wrk` and `oha` do). The default.
    Raw,
    /// hyper's HTTP/1.1 client connection: a `Request` built for each send, its headers
    /// cloned, the answer read into a `Response` (the generator before 2026-11-30).
    Hyper,
}

impl LoadGenerator {
    /// `E2E_CLIENT=hyper` selects [`LoadGenerator::Hyper`]; anything else, or nothing, the
    /// default [`LoadGenerator::Raw`].
    pub fn from_env() -> Self {
        match std::env::var("E2E_CLIENT").as_deref() {
            Ok("hyper") => LoadGenerator::Hyper,
            _ => LoadGenerator::Raw,
        }
    }

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            LoadGenerator::Raw => {
                "raw HTTP/1.1: the request's bytes written once, answers read with httparse"
            }
            LoadGenerator::Hyper => "hyper 1 client connection",
        }
    }
}

/// One keep-alive HTTP/1.1 connection of either generator.
enum Connection {
    Hyper(SendRequest<Full<Bytes>>),
    Raw(RawConnection),
}

/// A request as each generator sends it: hyper's parts, and the bytes hyper writes for them.
struct Wire {
    request: Prepared,
    bytes: Vec<u8>,
}

impl Wire {
    fn new(request: &Prepared) -> Self {
        Wire {
            request: request.clone(),
            bytes: request.to_bytes(),
        }
    }
}

impl Connection {
    /// Sends `wire` and reads the whole answer: its status, and its body when that is not
    /// `expected` (to say what went wrong).
    async fn exchange(&mut self, wire: &Wire, expected: StatusCode) -> (StatusCode, Vec<u8>) {
        match self {
            Connection::Hyper(connection) => {
                connection.ready().await.expect("connection ready");
                let response = connection
                    .send_request(wire.request.request())
                    .await
                    .expect("response");
                let status = response.status();
                let body = response
                    .into_body()
                    .collect()
                    .await
                    .expect("response body")
                    .to_bytes();
                let body = if status == expected {
                    Vec::new()
                } else {
                    body.to_vec()
                };
                (status, body)
            }
            Connection::Raw(connection) => connection
                .exchange(&wire.bytes, expected)
                .await
                .expect("an HTTP/1.1 answer"),
        }
    }
}

/// A TCP connection the raw generator writes requests to and reads answers from, one at a
/// time; `buffer` holds what was read past the last answer.
struct RawConnection {
    stream: TcpStream,
    buffer: Vec<u8>,
}

impl RawConnection {
    async fn exchange(
        &mut self,
        request: &[u8],
        expected: StatusCode,
    ) -> std::io::Result<(StatusCode, Vec<u8>)> {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};

        self.stream.write_all(request).await?;
        loop {
            if let Some((status, head, length)) = response_head(&self.buffer)? {
                let end = head + length;
                if self.buffer.len() >= end {
                    let body = if status == expected {
                        Vec::new()
                    } else {
                        self.buffer[head..end].to_vec()
                    };
                    self.buffer.drain(..end);
                    return Ok((status, body));
                }
            }
            self.buffer.reserve(4096);
            if self.stream.read_buf(&mut self.buffer).await? == 0 {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "the server closed the connection before the whole answer",
                ));
            }
        }
    }
}

/// The status, head length and body length (`content-length`, none = 0) of the answer at the
/// start of `buffer`, once its head is complete. A chunked or unparsable answer is an error:
/// the services under test answer with a length.
fn response_head(buffer: &[u8]) -> std::io::Result<Option<(StatusCode, usize, usize)>> {
    let invalid = |what: String| std::io::Error::new(std::io::ErrorKind::InvalidData, what);
    let mut headers = [httparse::EMPTY_HEADER; 16];
    let mut response = httparse::Response::new(&mut headers);
    let head = match response.parse(buffer) {
        Ok(httparse::Status::Complete(head)) => head,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(error) => return Err(invalid(format!("an answer's head: {error}"))),
    };
    let status = response
        .code
        .and_then(|code| StatusCode::from_u16(code).ok())
        .ok_or_else(|| invalid("an answer without a status".into()))?;
    let mut length = 0;
    for header in response.headers.iter() {
        if header.name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(invalid("a chunked answer".into()));
        }
        if header.name.eq_ignore_ascii_case("content-length") {
            length = std::str::from_utf8(header.value)
                .ok()
                .and_then(|text| text.trim().parse().ok())
                .ok_or_else(|| invalid("an answer's content-length".into()))?;
        }
    }
    Ok(Some((status, head, length)))
}

/// A fixed set of keep-alive HTTP/1.1 connections to one server.
pub struct Client {
    connections: Vec<Connection>,
    tasks: Vec<JoinHandle<()>>,
}

impl Client {
    /// Opens `concurrency` connections (TCP_NODELAY, as a browser or reqwest would) that
    /// `generator` speaks on.
    pub async fn connect(
        address: SocketAddr,
        concurrency: usize,
        generator: LoadGenerator,
    ) -> Self {
        let mut connections = Vec::with_capacity(concurrency);
        let mut tasks = Vec::new();
        for _ in 0..concurrency {
            let stream = TcpStream::connect(address).await.expect("connect");
            stream.set_nodelay(true).expect("TCP_NODELAY");
            match generator {
                LoadGenerator::Raw => connections.push(Connection::Raw(RawConnection {
                    stream,
                    buffer: Vec::with_capacity(4096),
                })),
                LoadGenerator::Hyper => {
                    let (sender, connection) =
                        hyper::client::conn::http1::handshake(TokioIo::new(stream))
                            .await
                            .expect("HTTP/1.1 handshake");
                    tasks.push(tokio::spawn(async move {
                        let _ = connection.await;
                    }));
                    connections.push(Connection::Hyper(sender));
                }
            }
        }
        Client { connections, tasks }
    }

    /// Sends `total` copies of `request`, each connection taking the next one as soon as its
    /// previous answer is read, and checks every answer is `expected`. Latency is measured
    /// from handing the request to the connection to the end of the response body.
    ///
    /// # Panics
    /// On any other status (with the body), or a connection error: a benchmark that counts
    /// refusals as throughput would measure nothing.
    pub async fn run(&mut self, request: &Prepared, total: usize, expected: StatusCode) -> Run {
        let next = Arc::new(AtomicUsize::new(0));
        let wire = Arc::new(Wire::new(request));
        let per_connection = total / self.connections.len().max(1) + 1;
        let start = Instant::now();
        let workers: Vec<JoinHandle<(Connection, Vec<u64>)>> = self
            .connections
            .drain(..)
            .map(|mut connection| {
                let next = Arc::clone(&next);
                let wire = Arc::clone(&wire);
                tokio::spawn(async move {
                    let mut latencies = Vec::with_capacity(per_connection);
                    while next.fetch_add(1, Ordering::Relaxed) < total {
                        let sent = Instant::now();
                        let (status, body) = connection.exchange(&wire, expected).await;
                        assert_eq!(
                            status,
                            expected,
                            "unexpected answer: {}",
                            String::from_utf8_lossy(&body)
                        );
                        latencies.push(sent.elapsed().as_nanos() as u64);
                    }
                    (connection, latencies)
                })
            })
            .collect();
        let mut latencies_ns = Vec::with_capacity(total);
        for worker in workers {
            let (connection, latencies) = worker.await.expect("load worker");
            self.connections.push(connection);
            latencies_ns.extend(latencies);
        }
        let elapsed = start.elapsed();
        latencies_ns.sort_unstable();
        Run {
            count: latencies_ns.len(),
            elapsed,
            latencies_ns,
        }
    }

    /// Sends one request and returns the status.
    pub async fn status(&mut self, request: &Prepared) -> StatusCode {
        let connection = self.connections.first_mut().expect("a connection");
        connection
            .exchange(&Wire::new(request), StatusCode::OK)
            .await
            .0
    }

    /// Closes every connection.
    pub async fn close(self) {
        drop(self.connections);
        for task in self.tasks {
            let _ = task.await;
        }
    }
}

/// One measured run of `service` in `mode`: a fresh server, `concurrency` connections,
/// `warmup` requests not counted, then `total` requests timed; the server is stopped at the
/// end.
pub async fn measure(
    service: Service,
    request: &Prepared,
    warmup: usize,
    total: usize,
    concurrency: usize,
    generator: LoadGenerator,
) -> Run {
    let server = Server::start(service).await;
    let mut client = Client::connect(server.address, concurrency, generator).await;
    if warmup > 0 {
        client.run(request, warmup, StatusCode::ACCEPTED).await;
    }
    let run = client.run(request, total, StatusCode::ACCEPTED).await;
    client.close().await;
    server.stop().await;
    run
}

/// What one request costs the service's extractor and handler alone, in process, without
/// the network, hyper or the router: `iterations` requests one after another, nanoseconds
/// each. Splits an end-to-end gap into "our code" and "the rest".
///
/// # Panics
/// When the service refuses the request.
pub async fn extract_ns(service: Service, request: &Prepared, iterations: usize) -> f64 {
    use axum::extract::FromRequest;

    let start = Instant::now();
    for _ in 0..iterations {
        let mut incoming =
            axum::extract::Request::new(axum::body::Body::from(request.body.clone()));
        *incoming.method_mut() = hyper::Method::POST;
        *incoming.headers_mut() = request.headers.clone();
        let status = match service {
            Service::Ours => match Event::<OrderCreated>::from_request(incoming, &()).await {
                Ok(event) => ours(event).await,
                Err(rejection) => panic!("{rejection}"),
            },
            Service::Sdk => match cloudevents::Event::from_request(incoming, &()).await {
                Ok(event) => sdk(event).await,
                Err(_) => StatusCode::BAD_REQUEST,
            },
            Service::Floor => {
                let headers = incoming.headers().clone();
                let body = Bytes::from_request(incoming, &()).await.expect("body");
                floor(headers, body).await
            }
        };
        assert_eq!(status, StatusCode::ACCEPTED, "{}", service.name());
    }
    start.elapsed().as_nanos() as f64 / iterations as f64
}
