//! JetStream publish and consume, through our binding and through plain async-nats, against a
//! `nats-server -js` this module starts on a free 127.0.0.1 port with a temporary store.
//!
//! - ours, publish: `Event::new(payload)` (fresh id, time, ADR-0003 `correlationid` /
//!   `causationid`) and `nats::publish_jetstream` (structured mode, `Content-Type`,
//!   `Nats-Msg-Id` = the event id, waits for the stream's ack).
//! - ours, consume: `nats::handle_once::<Event<OrderCreated>>` with an
//!   `InMemoryDeduplicator` (strict typed read, `(source, id)` dedupe, explicit ack).
//! - plain, publish: what a hand-rolled producer does for each event inside the timed loop
//!   (issue 25): a struct of owned strings with fresh ULIDs for `id` and `correlationid`,
//!   `time` from `chrono::Utc::now()`, `serde_json::to_vec`, then `jetstream::Context::publish`,
//!   without headers ([`Contestant::Plain`]) or with the same two ours sends
//!   ([`Contestant::PlainHeaders`], issue 25's publish baseline); waits for the ack.
//! - plain, consume: `serde_json::from_slice` into a struct of owned strings, then ack.
//!
//! Both publishers keep the same number of publishes in flight ([`WINDOW`]); both consumers
//! read one pull consumer's message stream in order. Each run gets a fresh stream (file
//! storage, the JetStream default) that is deleted afterwards.

use cloudevent_runtime::Attributes;
use std::convert::Infallible;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use async_nats::jetstream::consumer::{AckPolicy, PullConsumer, pull};
use async_nats::{HeaderMap, jetstream};
use bytes::Bytes;
use cloudevent_bench::{OrderCreated, PlainPayload, payload};
use cloudevent_runtime::Event;
use cloudevent_runtime::binding::nats::{self, Handled};
use cloudevent_runtime::dedupe::{Deduplicator, InMemoryDeduplicator};
use futures_util::{StreamExt, stream};
use serde::{Deserialize, Serialize};

use super::Run;

/// What the plain producer writes and the plain consumer reads: the event `Event::new`
/// writes, every attribute an owned `String`, no checks.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[allow(dead_code, reason = "read to be parsed, not used")]
pub struct PlainTracedEvent {
    specversion: String,
    id: String,
    source: String,
    #[serde(rename = "type")]
    ty: String,
    time: String,
    subject: String,
    datacontenttype: String,
    dataschema: String,
    correlationid: String,
    causationid: String,
    data: PlainPayload,
}

/// Publishes in flight at once, for both publishers.
pub const WINDOW: usize = 64;

/// Who publishes and consumes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contestant {
    /// Our binding, `Nats-Msg-Id` and the deduplicator.
    Ours,
    /// async-nats alone, a plain struct serialized per event, no headers.
    Plain,
    /// The same with the headers ours sends (`Content-Type`, `Nats-Msg-Id`): issue 25's
    /// publish baseline, and, on consume, the variant that tells the headers' cost (client and
    /// server side) from the cost of our code.
    PlainHeaders,
}

impl Contestant {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Contestant::Ours => {
                "ours: Event::new + publish_jetstream (Nats-Msg-Id) / handle_once + dedupe"
            }
            Contestant::Plain => "plain async-nats: serde struct + publish / serde + ack",
            Contestant::PlainHeaders => {
                "plain async-nats: serde struct + publish with the same headers (Content-Type, \
                 Nats-Msg-Id) / serde + ack"
            }
        }
    }

    fn tag(self) -> &'static str {
        match self {
            Contestant::Ours => "ours",
            Contestant::Plain => "plain",
            Contestant::PlainHeaders => "headers",
        }
    }
}

/// Where `nats-server` is: `NATS_SERVER_BIN`, `PATH`, or the usual install directories.
pub fn server_binary() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("NATS_SERVER_BIN") {
        return Some(PathBuf::from(path));
    }
    std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .chain([
            "/usr/sbin".into(),
            "/usr/bin".into(),
            "/usr/local/bin".into(),
        ])
        .map(|dir| dir.join("nats-server"))
        .find(|candidate| candidate.is_file())
}

/// A `nats-server -js` child on 127.0.0.1 with a temporary store; killed on drop.
pub struct NatsServer {
    child: Child,
    /// `nats://127.0.0.1:<port>`.
    pub url: String,
    _store: tempfile::TempDir,
}

impl NatsServer {
    /// Starts `binary` on a loopback port of its own choosing and waits (at most 10 s) until
    /// it says it listens. `-p -1` lets the server bind the port itself: a port found free
    /// here (bound, then dropped) could be handed to a test beside this one binding
    /// 127.0.0.1:0 before the server bound it (the e2e smoke test's HTTP servers do).
    pub fn start(binary: &std::path::Path) -> Self {
        let store = tempfile::Builder::new()
            .prefix("cloudevent-e2e-nats-")
            .tempdir()
            .expect("a temporary store directory");
        let mut child = Command::new(binary)
            .args(["-js", "-a", "127.0.0.1", "-p", "-1", "-sd"])
            .arg(store.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("nats-server starts");
        let log = child.stderr.take().expect("nats-server's log");
        let mut server = NatsServer {
            child,
            url: String::new(),
            _store: store,
        };
        // The log is read to its end (the server exits when dropped), so it never fills the
        // pipe; the line naming the client port comes once the listener is open.
        let (listening, address) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(log).lines().map_while(Result::ok) {
                if let Some((_, address)) = line.split_once("Listening for client connections on ")
                {
                    let _ = listening.send(address.trim().to_owned());
                }
            }
        });
        let address = address
            .recv_timeout(Duration::from_secs(10))
            .expect("nats-server listens within 10 s");
        server.url = format!("nats://{address}");
        server
    }

    /// A connected client; a few attempts (about 5 s) while the server gets ready.
    pub async fn client(&self) -> async_nats::Client {
        let mut attempt = 1;
        loop {
            match async_nats::connect(&self.url).await {
                Ok(client) => return client,
                Err(error) if attempt < 25 => {
                    attempt += 1;
                    eprintln!("connect to nats-server, attempt {attempt}: {error}");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(error) => panic!(
                    "connect to nats-server {} after {attempt} attempts: {error}",
                    self.url
                ),
            }
        }
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One publish run and one consume run of `events` events through a fresh stream.
pub async fn measure(
    client: &async_nats::Client,
    contestant: Contestant,
    run: usize,
    events: usize,
) -> (Run, Run) {
    let context = jetstream::new(client.clone());
    let name = format!("E2E_{}_{run}", contestant.tag().to_uppercase());
    let subject = format!("e2e.{}.{run}", contestant.tag());
    let stream = context
        .create_stream(jetstream::stream::Config {
            name: name.clone(),
            subjects: vec![subject.clone()],
            duplicate_window: Duration::from_secs(120),
            ..Default::default()
        })
        .await
        .expect("create the stream");

    let published = match contestant {
        Contestant::Ours => publish_ours(&context, &subject, events).await,
        Contestant::Plain => publish_plain(&context, &subject, events, false).await,
        Contestant::PlainHeaders => publish_plain(&context, &subject, events, true).await,
    };
    let consumer: PullConsumer = stream
        .create_consumer(pull::Config {
            durable_name: Some("e2e".into()),
            ack_policy: AckPolicy::Explicit,
            ..Default::default()
        })
        .await
        .expect("create the consumer");
    let consumed = match contestant {
        Contestant::Ours => consume_ours(client, &consumer, events).await,
        Contestant::Plain | Contestant::PlainHeaders => {
            consume_plain(client, &consumer, events).await
        }
    };
    context
        .delete_stream(&name)
        .await
        .expect("delete the stream");
    (published, consumed)
}

async fn publish_ours(context: &jetstream::Context, subject: &str, events: usize) -> Run {
    let start = Instant::now();
    let acks: usize = stream::iter(0..events)
        .map(|_| async {
            let event = Event::new(payload());
            let ack =
                nats::publish_jetstream(context, subject.to_owned(), &event, nats::DEFAULT_MODE)
                    .await
                    .expect("publish");
            assert!(!ack.duplicate, "every event has a fresh id");
            1
        })
        .buffer_unordered(WINDOW)
        .fold(0, |n, one| async move { n + one })
        .await;
    Run {
        count: acks,
        elapsed: start.elapsed(),
        latencies_ns: Vec::new(),
    }
}

/// The messages our publisher sends, one event each (fresh ids), serialized up front: the
/// payload, and the headers `publish_jetstream` adds when `headers`.
pub fn event_messages(events: usize, headers: bool) -> Vec<(Option<HeaderMap>, Bytes)> {
    (0..events)
        .map(|_| {
            let event = Event::new(payload());
            let (mut map, payload) =
                nats::to_message(&event, nats::DEFAULT_MODE).expect("the event serializes");
            map.insert(async_nats::header::NATS_MESSAGE_ID, event.id());
            (headers.then_some(map), payload)
        })
        .collect()
}

/// What a hand-rolled producer sends for `Event::new(payload())`: the template's constant
/// attributes and payload copied, fresh ULIDs for `id` and `correlationid` (`causationid` =
/// `id`), `time` from `chrono::Utc::now()`, `serde_json::to_vec`; with `headers`, a header map
/// holding the `Content-Type` ours sends and `Nats-Msg-Id` = the id.
pub fn plain_message(
    template: &PlainTracedEvent,
    content_type: &str,
    headers: bool,
) -> (Option<HeaderMap>, Bytes) {
    let id = ulid::Ulid::generate().to_string();
    let event = PlainTracedEvent {
        specversion: template.specversion.clone(),
        causationid: id.clone(),
        id,
        source: template.source.clone(),
        ty: template.ty.clone(),
        time: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        subject: template.subject.clone(),
        datacontenttype: template.datacontenttype.clone(),
        dataschema: template.dataschema.clone(),
        correlationid: ulid::Ulid::generate().to_string(),
        data: template.data.clone(),
    };
    let payload = Bytes::from(serde_json::to_vec(&event).expect("a plain struct serializes"));
    let map = headers.then(|| {
        let mut map = HeaderMap::new();
        map.insert("Content-Type", content_type);
        map.insert(async_nats::header::NATS_MESSAGE_ID, event.id.as_str());
        map
    });
    (map, payload)
}

/// The template [`plain_message`] copies its constants from (the event `Event::new` writes,
/// read once before the clock starts) and the `Content-Type` ours sends.
pub fn plain_template() -> (PlainTracedEvent, String) {
    let (headers, payload) = event_messages(1, true).pop().expect("one message");
    let template = serde_json::from_slice(&payload).expect("the event reads as the plain struct");
    let content_type = headers
        .as_ref()
        .and_then(|h| h.get("Content-Type"))
        .map(|v| v.as_str().to_owned())
        .expect("ours sends a Content-Type");
    (template, content_type)
}

async fn publish_plain(
    context: &jetstream::Context,
    subject: &str,
    events: usize,
    headers: bool,
) -> Run {
    let (template, content_type) = plain_template();
    let start = Instant::now();
    let acks: usize = stream::iter(0..events)
        .map(|_| async {
            let (headers, payload) = plain_message(&template, &content_type, headers);
            match headers {
                Some(headers) => {
                    context
                        .publish_with_headers(subject.to_owned(), headers, payload)
                        .await
                }
                None => context.publish(subject.to_owned(), payload).await,
            }
            .expect("publish")
            .await
            .expect("the stream's ack");
            1
        })
        .buffer_unordered(WINDOW)
        .fold(0, |n, one| async move { n + one })
        .await;
    Run {
        count: acks,
        elapsed: start.elapsed(),
        latencies_ns: Vec::new(),
    }
}

/// The next message a pull consumer delivers. async-nats reports a missed idle heartbeat (the
/// client saw none for two of its intervals, which a loaded 2-core machine running the
/// server, the client and a build can cause) as an item of the stream, not its end: such an
/// item is skipped; any other error stops the bench.
async fn next_message(messages: &mut pull::Stream) -> jetstream::Message {
    loop {
        match messages.next().await.expect("the stream goes on") {
            Ok(message) => return message,
            Err(error) if error.kind() == pull::MessagesErrorKind::MissingHeartbeat => continue,
            Err(error) => panic!("a message: {error}"),
        }
    }
}

async fn consume_ours(client: &async_nats::Client, consumer: &PullConsumer, events: usize) -> Run {
    let seen = InMemoryDeduplicator::new(events * 2, Duration::from_secs(3600));
    let start = Instant::now();
    let mut messages = consumer.messages().await.expect("message stream");
    let mut processed = 0;
    for _ in 0..events {
        let message = next_message(&mut messages).await;
        let handled = nats::handle_once::<Event<OrderCreated>, _, _, _, Infallible>(
            &message,
            &seen,
            |event| {
                std::hint::black_box(event.data());
                async { Ok(()) }
            },
        )
        .await
        .expect("a valid event");
        if let Handled::Processed(_) = handled {
            processed += 1;
        }
    }
    client.flush().await.expect("flush the acks");
    Run {
        count: processed,
        elapsed: start.elapsed(),
        latencies_ns: Vec::new(),
    }
}

async fn consume_plain(client: &async_nats::Client, consumer: &PullConsumer, events: usize) -> Run {
    let start = Instant::now();
    let mut messages = consumer.messages().await.expect("message stream");
    let mut processed = 0;
    for _ in 0..events {
        let message = next_message(&mut messages).await;
        let event: PlainTracedEvent = serde_json::from_slice(&message.payload).expect("the event");
        std::hint::black_box(event);
        message.ack().await.expect("ack");
        processed += 1;
    }
    client.flush().await.expect("flush the acks");
    Run {
        count: processed,
        elapsed: start.elapsed(),
        latencies_ns: Vec::new(),
    }
}

/// What reading one delivered message costs each consumer in process, without the server:
/// ours `nats::from_parts::<Event<OrderCreated>>` (headers and payload as JetStream delivers
/// them) and the deduplicator's check; plain serde into [`PlainTracedEvent`]. Nanoseconds a
/// message, over `events` messages; tells a consume gap in our code from one in the transport.
pub fn read_ns(contestant: Contestant, events: usize) -> f64 {
    let messages = event_messages(events, true);
    let seen = InMemoryDeduplicator::new(events * 2, Duration::from_secs(3600));
    let start = Instant::now();
    for (headers, payload) in &messages {
        match contestant {
            Contestant::Ours => {
                let event: Event<OrderCreated> =
                    nats::from_parts(headers.as_ref(), payload).expect("a valid event");
                let new = seen.check(event.source(), event.id()).expect("in memory");
                assert_eq!(new, cloudevent_runtime::dedupe::Delivery::New);
                std::hint::black_box(event.data());
            }
            Contestant::Plain | Contestant::PlainHeaders => {
                let event: PlainTracedEvent = serde_json::from_slice(payload).expect("the event");
                std::hint::black_box(event);
            }
        }
    }
    start.elapsed().as_nanos() as f64 / events as f64
}

/// What building and writing one message costs each publisher in process, without the
/// server: ours `Event::new` + `nats::to_message` + `Nats-Msg-Id`; plain [`plain_message`]
/// with the same two headers. Nanoseconds a message, over `events` messages.
pub fn write_ns(contestant: Contestant, events: usize) -> f64 {
    let (template, content_type) = plain_template();
    let start = Instant::now();
    for _ in 0..events {
        match contestant {
            Contestant::Ours => {
                let event = Event::new(payload());
                let (mut headers, payload) =
                    nats::to_message(&event, nats::DEFAULT_MODE).expect("the event serializes");
                headers.insert(async_nats::header::NATS_MESSAGE_ID, event.id());
                std::hint::black_box((headers, payload));
            }
            Contestant::Plain | Contestant::PlainHeaders => {
                std::hint::black_box(plain_message(
                    &template,
                    &content_type,
                    contestant == Contestant::PlainHeaders,
                ));
            }
        }
    }
    start.elapsed().as_nanos() as f64 / events as f64
}
