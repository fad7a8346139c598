//! Every row of issue 25's table, each row's contestants side by side, for `cargo xtask bench`
//! (wall clock, contestants alternating round by round so a loaded machine hits them all) and
//! `cargo xtask bench --instructions` (one contestant a process under callgrind: instructions
//! per call, which other processes on the machine do not change).
//!
//! ```text
//! rows list                          # `row contestant` per line
//! rows time [rounds] [ROW]           # `row contestant median_ns fastest_ns` per line
//! rows run ROW CONTESTANT N          # set up, one warm-up call, then N calls (for callgrind)
//! ```
//!
//! The xtask holds the targets and prints the table; this file only knows what each
//! contestant does. Every contestant builds its inputs before the loop and drops its output
//! inside it, so a call is the whole operation a user pays for.

use cloudevent_runtime::Validate;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use cloudevent_bench::{
    OrderPlaced, PlainPlaced, PlainRootEvent, ours_root, placed, plain_new, plain_placed,
    root_batch_json, root_json,
};
use cloudevent_runtime::binding::{ContentMode, http as binding};
use cloudevent_runtime::protobuf::messages::CloudEvent as ProstEvent;
use cloudevent_runtime::registry::{Registry, RegistryEntry, RegistryValidator};
use cloudevent_runtime::{AnyEvent, Event, Profile, Protobuf, Validator};
use prost::Message as _;

#[path = "../benches/loopback/mod.rs"]
mod loopback;
#[path = "../benches/sdk/mod.rs"]
#[allow(dead_code, reason = "the bench's SDK helpers; this driver uses a few")]
mod sdk;

/// One contestant: what one call does, its inputs already built.
type Call = Box<dyn FnMut()>;

/// How many events the batch row holds.
const BATCH: usize = 100;

/// The rows, in the issue's order, each with the function that sets up its contestants (only
/// the row asked for is set up). Names are what the xtask matches.
type Setup = fn() -> Vec<(&'static str, Call)>;
const ROWS: &[(&str, Setup)] = &[
    ("new_to_vec", new_to_vec),
    ("typed_parse", typed_parse),
    ("typed_parse_escaped", typed_parse_escaped),
    ("http_binary", http_binary),
    ("protobuf_decode", protobuf_decode),
    ("registry_data", registry_data),
    ("batch_100", batch_100),
    ("passthrough", passthrough),
    ("gateway_20kb", gateway_20kb),
    ("gateway_1kib", gateway_1kib),
    ("nats_read", nats_read),
];

fn new_to_vec() -> Vec<(&'static str, Call)> {
    vec![
        (
            "ours",
            Box::new(|| {
                drop(black_box(
                    Event::new(black_box(placed())).to_vec().expect("writes"),
                ))
            }),
        ),
        (
            "plain",
            Box::new(|| {
                drop(black_box(
                    serde_json::to_vec(&plain_new(black_box(plain_placed()))).expect("writes"),
                ))
            }),
        ),
        (
            "sdk",
            Box::new(|| {
                drop(black_box(
                    serde_json::to_vec(&sdk::sdk_new(black_box(placed()))).expect("writes"),
                ))
            }),
        ),
    ]
}

fn typed_parse() -> Vec<(&'static str, Call)> {
    let json = root_json();
    let (a, b, c) = (json.clone(), json.clone(), json);
    vec![
        (
            "ours",
            Box::new(move || {
                drop(black_box(
                    Event::<OrderPlaced>::from_slice(black_box(&a)).expect("parses"),
                ))
            }),
        ),
        (
            "plain",
            Box::new(move || {
                drop(black_box(
                    serde_json::from_slice::<PlainRootEvent>(black_box(&b)).expect("parses"),
                ))
            }),
        ),
        (
            "sdk",
            Box::new(move || drop(black_box(sdk::sdk_parse_as::<PlainPlaced>(black_box(&c))))),
        ),
    ]
}

/// The typed parse row's event as a writer that escapes every `/` sends it (PHP's
/// `json_encode` by default): `source`, `datacontenttype` and `dataschema` carry escapes.
fn typed_parse_escaped() -> Vec<(&'static str, Call)> {
    let json = String::from_utf8(root_json())
        .expect("serde_json writes UTF-8")
        .replace('/', "\\/")
        .into_bytes();
    let theirs = json.clone();
    vec![
        (
            "ours",
            Box::new(move || {
                drop(black_box(
                    Event::<OrderPlaced>::from_slice(black_box(&json)).expect("parses"),
                ))
            }),
        ),
        (
            "plain",
            Box::new(move || {
                drop(black_box(
                    serde_json::from_slice::<PlainRootEvent>(black_box(&theirs)).expect("parses"),
                ))
            }),
        ),
    ]
}

fn http_binary() -> Vec<(&'static str, Call)> {
    let request =
        binding::event_request("http://127.0.0.1/events", &ours_root(), ContentMode::Binary)
            .expect("encodes");
    let theirs = request.clone();
    vec![
        (
            "ours",
            Box::new(move || {
                drop(black_box(
                    binding::from_request::<Event<OrderPlaced>, _>(black_box(&request))
                        .expect("decodes"),
                ))
            }),
        ),
        (
            "sdk",
            Box::new(move || {
                let request = black_box(&theirs);
                let mut event =
                    cloudevents::binding::http::to_event(request.headers(), request.body().clone())
                        .expect("SDK decodes");
                let (_, _, data) = event.take_data();
                drop(black_box((event, sdk::sdk_payload_as::<PlainPlaced>(data))));
            }),
        ),
    ]
}

fn protobuf_decode() -> Vec<(&'static str, Call)> {
    let json = cloudevent_bench::reference_json();
    let bytes = AnyEvent::from_slice(&json)
        .expect("parses")
        .encode::<Protobuf>()
        .expect("encodes");
    let theirs = bytes.clone();
    vec![
        (
            "ours",
            Box::new(move || {
                drop(black_box(
                    AnyEvent::decode::<Protobuf>(black_box(&bytes)).expect("reads"),
                ))
            }),
        ),
        (
            "prost",
            Box::new(move || {
                drop(black_box(
                    ProstEvent::decode(black_box(theirs.as_slice())).expect("reads"),
                ))
            }),
        ),
    ]
}

/// The profile's report alone, and with the registry's data check: the row's figure is the
/// difference (what checking `data` against its schema adds to an event a gateway parsed).
fn registry_data() -> Vec<(&'static str, Call)> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let read = |path: &str| std::fs::read(root.join(path)).expect("the registry fixture");
    let schema = serde_json::from_slice(&read("schemas/com.example.order.created/v1.json"))
        .expect("the schema is JSON");
    let registry = Registry::new(vec![RegistryEntry::new(
        "com.example.order.created",
        schema,
    )])
    .expect("the schema compiles");
    let profile = Validator::new(Profile::IntgStd015);
    let registry = RegistryValidator::new(profile.clone(), registry);
    let event = AnyEvent::from_slice(&read(
        "cloudevent-cli/tests/data/registry/order-created.json",
    ))
    .expect("the registry event parses");
    assert!(
        registry.validate(&event).is_valid(),
        "the 1 KiB event is valid"
    );
    let theirs = event.clone();
    vec![
        (
            "registry",
            Box::new(move || drop(black_box(registry.validate(black_box(&event))))),
        ),
        (
            "profile",
            Box::new(move || drop(black_box(profile.validate(black_box(&theirs))))),
        ),
    ]
}

fn batch_100() -> Vec<(&'static str, Call)> {
    let json = root_batch_json(BATCH);
    let (a, b, c) = (json.clone(), json.clone(), json);
    vec![
        (
            "ours",
            Box::new(move || {
                drop(black_box(
                    serde_json::from_slice::<Vec<Event<OrderPlaced>>>(black_box(&a))
                        .expect("parses"),
                ))
            }),
        ),
        (
            "plain",
            Box::new(move || {
                drop(black_box(
                    serde_json::from_slice::<Vec<PlainRootEvent>>(black_box(&b)).expect("parses"),
                ))
            }),
        ),
        (
            "sdk",
            Box::new(move || {
                let events: Vec<cloudevents::Event> =
                    serde_json::from_slice(black_box(&c)).expect("parses");
                let read: Vec<_> = events
                    .into_iter()
                    .map(|mut event| {
                        let (_, _, data) = event.take_data();
                        (event, sdk::sdk_payload_as::<PlainPlaced>(data))
                    })
                    .collect();
                drop(black_box(read));
            }),
        ),
    ]
}

/// Read an event, change one attribute (`subject`), write it: what a gateway that re-routes
/// events does, on the dynamic event that keeps every extension.
fn passthrough() -> Vec<(&'static str, Call)> {
    let json = root_json();
    let theirs = json.clone();
    vec![
        (
            "ours",
            Box::new(move || {
                let mut event = AnyEvent::from_slice(black_box(&json)).expect("parses");
                event.set_subject(Some("order-8842/shipped".to_owned()));
                drop(black_box(event.to_vec()));
            }),
        ),
        (
            "sdk",
            Box::new(move || {
                let mut event: cloudevents::Event =
                    serde_json::from_slice(black_box(&theirs)).expect("parses");
                cloudevents::AttributesWriter::set_subject(
                    &mut event,
                    Some("order-8842/shipped".to_owned()),
                );
                drop(black_box(serde_json::to_vec(&event).expect("writes")));
            }),
        ),
    ]
}

/// Runs `call` `n` times; the time per call.
fn per_call(call: &mut Call, n: u32) -> Duration {
    let start = Instant::now();
    for _ in 0..n {
        call();
    }
    start.elapsed() / n.max(1)
}

fn median(mut values: Vec<Duration>) -> Duration {
    values.sort();
    values[values.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("list") => {
            for (row, setup) in ROWS {
                for (name, _) in setup() {
                    println!("{row} {name}");
                }
            }
        }
        Some("run") => {
            let [_, row, contestant, n] = &args[..] else {
                panic!("usage: rows run ROW CONTESTANT N");
            };
            let n: u64 = n.parse().expect("N is a number");
            let mut call = ROWS
                .iter()
                .find(|(name, _)| name == row)
                .and_then(|(_, setup)| setup().into_iter().find(|(name, _)| name == contestant))
                .map(|(_, call)| call)
                .unwrap_or_else(|| panic!("no contestant `{row} {contestant}`"));
            // One call outside the count: lazy start-up (a thread's id generator, a schema's
            // first use) is in the N=0 run the xtask subtracts.
            call();
            for _ in 0..n {
                call();
            }
        }
        Some("time") => {
            let rounds: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(30);
            let only = args.get(2);
            if let Some(only) = only {
                assert!(
                    ROWS.iter().any(|(row, _)| row == only),
                    "no row `{only}` (rows list names them)"
                );
            }
            for (row, setup) in ROWS
                .iter()
                .filter(|(row, _)| only.is_none_or(|only| only == row))
            {
                let mut contestants = setup();
                // Each round about 10 ms of the slowest contestant, all taking turns.
                let slowest = contestants
                    .iter_mut()
                    .map(|(_, call)| {
                        call();
                        per_call(call, 20)
                    })
                    .max()
                    .unwrap_or_default();
                let n = (Duration::from_millis(10).as_nanos() / slowest.as_nanos().max(1))
                    .clamp(1, 100_000) as u32;
                let mut times = vec![Vec::with_capacity(rounds); contestants.len()];
                for _ in 0..rounds {
                    for ((_, call), times) in contestants.iter_mut().zip(&mut times) {
                        times.push(per_call(call, n));
                    }
                }
                for ((name, _), times) in contestants.iter().zip(times) {
                    let fastest = times.iter().min().copied().unwrap_or_default();
                    println!(
                        "{row} {name} {:.1} {:.1}",
                        median(times).as_nanos() as f64,
                        fastest.as_nanos() as f64
                    );
                }
            }
        }
        _ => panic!("usage: rows list | rows time [rounds] [ROW] | rows run ROW CONTESTANT N"),
    }
}

/// A structured-mode POST of `body` as a gateway receives it, made anew for each call; the
/// body is shared, as hyper hands it over.
fn structured_request(body: Vec<u8>) -> impl Fn() -> axum::extract::Request + Clone {
    let body = axum::body::Bytes::from(body);
    move || {
        let mut request = axum::extract::Request::new(axum::body::Body::from(body.clone()));
        *request.method_mut() = axum::http::Method::POST;
        request.headers_mut().insert(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/cloudevents+json"),
        );
        request
    }
}

/// The 20 KB gateway row's handler path in process (no network, hyper or router): the
/// documented gateway's extractor, `Checked<AnyEvent>` under INTG-STD-015, on the
/// structured-mode request `cargo xtask bench-e2e` sends, against the SDK's axum extractor
/// on the same request. The request's body is shared, as hyper hands it over.
fn gateway_20kb() -> Vec<(&'static str, Call)> {
    use axum::extract::FromRequest;
    use cloudevent_runtime::binding::axum::Checked;
    use cloudevent_runtime::{Policy, Profile};
    use futures_util::FutureExt as _;

    let request = structured_request(cloudevent_bench::gateway_json());
    let theirs = request.clone();
    let policy = Policy::new(Profile::IntgStd015);
    vec![
        (
            "ours",
            Box::new(move || {
                let read = Checked::<AnyEvent>::from_request(black_box(request()), &policy)
                    .now_or_never()
                    .expect("an in-memory body is read at once");
                drop(black_box(read.expect("the gateway accepts the event")));
            }),
        ),
        (
            "sdk",
            Box::new(move || {
                let read = cloudevents::Event::from_request(black_box(theirs()), &())
                    .now_or_never()
                    .expect("an in-memory body is read at once");
                drop(black_box(read.expect("the SDK reads the event")));
            }),
        ),
    ]
}

/// Issue 40's 1 KiB all-checks gateway row's handler path in process (no network, hyper or
/// router): `Registered<AnyEvent>` (INTG-STD-015, then `data` against the registry's schema)
/// and the `cesql!` filter, the gateway of `cargo xtask bench-e2e gateway_1kib`, against the
/// SDK's axum extractor on the same structured-mode request.
fn gateway_1kib() -> Vec<(&'static str, Call)> {
    use axum::extract::FromRequest;
    use cloudevent_runtime::binding::axum::Registered;
    use futures_util::FutureExt as _;

    let request = structured_request(cloudevent_bench::registry_event_json());
    let theirs = request.clone();
    let registry = loopback::gateway::registry_validator();
    vec![
        (
            "ours",
            Box::new(move || {
                let read = Registered::<AnyEvent>::from_request(black_box(request()), &registry)
                    .now_or_never()
                    .expect("an in-memory body is read at once");
                let Registered(event) = read.expect("the gateway accepts the event");
                assert!(loopback::gateway::selects(&event), "the filter selects it");
                drop(black_box(event));
            }),
        ),
        (
            "sdk",
            Box::new(move || {
                let read = cloudevents::Event::from_request(black_box(theirs()), &())
                    .now_or_never()
                    .expect("an in-memory body is read at once");
                drop(black_box(read.expect("the SDK reads the event")));
            }),
        ),
    ]
}

/// Issue 40's JetStream consume row's in-process part: ours `nats::from_parts` of a delivered
/// message (headers and payload as our publisher sends them) and the deduplicator's check of
/// its `(source, id)`; plain `serde_json::from_slice` of the same payload. One message read
/// again and again: after the first call the check finds a remembered key (no insertion),
/// and everything stays in the data cache; `cargo xtask bench-e2e`'s `read_ns` reads 20,000
/// distinct messages, each key new.
fn nats_read() -> Vec<(&'static str, Call)> {
    use cloudevent_runtime::Attributes;
    use cloudevent_runtime::binding::nats;
    use cloudevent_runtime::dedupe::{Deduplicator, InMemoryDeduplicator};

    let mut messages = loopback::nats::event_messages(1, true);
    let (headers, payload) = messages.pop().expect("one message");
    let theirs = payload.clone();
    let seen = InMemoryDeduplicator::new(16, Duration::from_secs(3600));
    vec![
        (
            "ours",
            Box::new(move || {
                let event: Event<cloudevent_bench::OrderCreated> =
                    nats::from_parts(black_box(headers.as_ref()), black_box(&payload))
                        .expect("a valid event");
                black_box(seen.check(event.source(), event.id()).expect("in memory"));
                drop(black_box(event));
            }),
        ),
        (
            "plain",
            Box::new(move || {
                drop(black_box(
                    serde_json::from_slice::<loopback::nats::PlainTracedEvent>(black_box(&theirs))
                        .expect("the event"),
                ))
            }),
        ),
    ]
}
