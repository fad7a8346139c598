//! Side-by-side benchmarks on one reference event (see the crate docs): our `Event<T>` and
//! `AnyEvent`, `cloudevents-sdk` 0.9 and a plain serde struct, in one run so the ratios are
//! comparable. `cargo xtask bench` runs this and prints the table of medians.
//!
//! The README-path cases of issue 13 come first (`new_serialize`, `root_parse`,
//! `root_batch_parse`, `root_http_decode`: the event `Event::new` writes, with its fresh id,
//! time and ADR-0003 attributes); the micro-cases of issue 6 follow.
//!
//! Group names are the cases, function names the contestants (`ours`, `plain`, `sdk`, ...);
//! the xtask reads `target/criterion/<group>/<contestant>/new/estimates.json`.

use cloudevent_runtime::Validate;
use std::hint::black_box;
use std::time::Duration;

use cloudevent_bench::{
    OrderCreated, OrderPlaced, PlainEvent, PlainPlaced, PlainRootEvent, ours, ours_root, placed,
    plain, plain_new, plain_placed, reference_batch_json, reference_json, root_batch_json,
    root_json,
};
use cloudevent_runtime::{AnyEvent, Batch, Event, Json, Profile, Validator};
use criterion::{Criterion, criterion_group, criterion_main};

mod sdk;
use sdk::{sdk_build, sdk_new, sdk_parse, sdk_parse_as, sdk_payload, sdk_payload_as, sdk_request};

/// How many events the batch cases hold.
const BATCH: usize = 100;

fn validator() -> Validator {
    Validator::new(
        cloudevent_runtime::Policy::new(Profile::IntgStd015).with_type_prefix("com.example"),
    )
}

/// (a) The README path: `Event::new(payload)` + `serde_json::to_vec`, against a plain struct
/// and the SDK's builder making the same event (fresh ids, time now, the payload built from
/// the constants in every contestant).
fn new_serialize(c: &mut Criterion) {
    let mut group = c.benchmark_group("new_serialize");
    group.bench_function("ours", |b| {
        b.iter(|| serde_json::to_vec(&Event::new(black_box(placed()))).expect("serializes"))
    });
    group.bench_function("plain", |b| {
        b.iter(|| serde_json::to_vec(&plain_new(black_box(plain_placed()))).expect("serializes"))
    });
    group.bench_function("sdk", |b| {
        b.iter(|| serde_json::to_vec(&sdk_new(black_box(placed()))).expect("serializes"))
    });
    group.finish();
}

/// (b) Typed parse of the README-path event (SDK: the event, then `data` to the payload).
fn root_parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("root_parse");
    let json = root_json();
    group.bench_function("ours", |b| {
        b.iter(|| Event::<OrderPlaced>::from_slice(black_box(&json)).expect("parses"))
    });
    group.bench_function("plain", |b| {
        b.iter(|| serde_json::from_slice::<PlainRootEvent>(black_box(&json)).expect("parses"))
    });
    group.bench_function("sdk", |b| {
        b.iter(|| sdk_parse_as::<PlainPlaced>(black_box(&json)))
    });
    group.finish();
}

/// (c) A batch of 100 README-path events: `AnyEvent` (`Batch`, every event checked against
/// the CloudEvents MUSTs) against the SDK, which also converts each `data` to the payload.
fn root_batch_parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("root_batch_parse");
    let json = root_batch_json(BATCH);
    group.bench_function("ours_any", |b| {
        b.iter(|| Batch::from_slice(black_box(&json)).expect("parses"))
    });
    group.bench_function("ours", |b| {
        b.iter(|| {
            serde_json::from_slice::<Vec<Event<OrderPlaced>>>(black_box(&json)).expect("parses")
        })
    });
    group.bench_function("plain", |b| {
        b.iter(|| serde_json::from_slice::<Vec<PlainRootEvent>>(black_box(&json)).expect("parses"))
    });
    group.bench_function("sdk", |b| {
        b.iter(|| {
            let events: Vec<cloudevents::Event> =
                serde_json::from_slice(black_box(&json)).expect("parses");
            events
                .into_iter()
                .map(|mut event| {
                    let (_, _, data) = event.take_data();
                    (event, sdk_payload_as::<PlainPlaced>(data))
                })
                .collect::<Vec<_>>()
        })
    });
    group.finish();
}

/// (e) A pass-through (issue 25): read the README-path event, change `subject`, write it;
/// ours on `AnyEvent` (every extension kept), the SDK on its `Event`.
fn root_passthrough(c: &mut Criterion) {
    let json = root_json();
    let mut group = c.benchmark_group("root_passthrough");
    group.bench_function("ours", |b| {
        b.iter(|| {
            let mut event = AnyEvent::from_slice(black_box(&json)).expect("parses");
            event.set_subject(Some("order-8842/shipped".to_owned()));
            event.to_vec()
        })
    });
    group.bench_function("sdk", |b| {
        b.iter(|| {
            let mut event: cloudevents::Event =
                serde_json::from_slice(black_box(&json)).expect("parses");
            cloudevents::AttributesWriter::set_subject(
                &mut event,
                Some("order-8842/shipped".to_owned()),
            );
            serde_json::to_vec(&event).expect("writes")
        })
    });
    group.finish();
}

/// (d) An HTTP binary-mode request of the README-path event to `Event<OrderPlaced>` through
/// the public binding API, against the SDK's HTTP binding reading the same request.
fn root_http_decode(c: &mut Criterion) {
    use cloudevent_runtime::binding::{ContentMode, http as binding};
    let request =
        binding::event_request("http://127.0.0.1/events", &ours_root(), ContentMode::Binary)
            .expect("encodes");
    let mut group = c.benchmark_group("root_http_decode");
    group.bench_function("ours", |b| {
        b.iter(|| {
            binding::from_request::<Event<OrderPlaced>, _>(black_box(&request)).expect("decodes")
        })
    });
    group.bench_function("sdk", |b| {
        b.iter(|| {
            let request = black_box(&request);
            let mut event =
                cloudevents::binding::http::to_event(request.headers(), request.body().clone())
                    .expect("SDK decodes");
            let (_, _, data) = event.take_data();
            (event, sdk_payload_as::<PlainPlaced>(data))
        })
    });
    group.finish();
}

fn serialize(c: &mut Criterion) {
    let mut group = c.benchmark_group("serialize");
    let (ours, plain, sdk) = (ours(), plain(), sdk_build());
    let mut buf = Vec::with_capacity(1024);
    group.bench_function("ours", |b| {
        b.iter(|| {
            buf.clear();
            serde_json::to_writer(&mut buf, black_box(&ours)).expect("serializes");
            black_box(buf.len())
        })
    });
    group.bench_function("plain", |b| {
        b.iter(|| {
            buf.clear();
            serde_json::to_writer(&mut buf, black_box(&plain)).expect("serializes");
            black_box(buf.len())
        })
    });
    group.bench_function("sdk", |b| {
        b.iter(|| {
            buf.clear();
            serde_json::to_writer(&mut buf, black_box(&sdk)).expect("serializes");
            black_box(buf.len())
        })
    });
    group.finish();
}

fn build_serialize(c: &mut Criterion) {
    let mut group = c.benchmark_group("build_serialize");
    group.bench_function("ours", |b| {
        b.iter(|| serde_json::to_vec(&ours()).expect("serializes"))
    });
    group.bench_function("plain", |b| {
        b.iter(|| serde_json::to_vec(&plain()).expect("serializes"))
    });
    group.bench_function("sdk", |b| {
        b.iter(|| serde_json::to_vec(&sdk_build()).expect("serializes"))
    });
    group.finish();
}

fn parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    let json = reference_json();
    group.bench_function("ours", |b| {
        b.iter(|| Event::<OrderCreated>::from_slice(black_box(&json)).expect("parses"))
    });
    group.bench_function("plain", |b| {
        b.iter(|| serde_json::from_slice::<PlainEvent>(black_box(&json)).expect("parses"))
    });
    group.bench_function("sdk", |b| b.iter(|| sdk_parse(black_box(&json))));
    group.finish();
}

fn parse_validate(c: &mut Criterion) {
    let mut group = c.benchmark_group("any_validate");
    let json = reference_json();
    let validator = validator();
    let report = validator.validate(&AnyEvent::from_slice(&json).expect("parses"));
    assert!(
        report.is_valid(),
        "the reference event is strictly valid: {report}"
    );
    group.bench_function("ours", |b| {
        b.iter(|| {
            let event = AnyEvent::from_slice(black_box(&json)).expect("parses");
            let report = validator.validate(&event);
            (event, report)
        })
    });
    group.bench_function("ours_slice", |b| {
        b.iter(|| validator.validate_bytes::<Json>(black_box(&json)))
    });
    group.bench_function("sdk", |b| {
        b.iter(|| serde_json::from_slice::<cloudevents::Event>(black_box(&json)).expect("parses"))
    });
    group.finish();
}

fn batch(c: &mut Criterion) {
    let json = reference_batch_json(BATCH);
    let ours_events: Vec<Event<OrderCreated>> = serde_json::from_slice(&json).expect("parses");
    let any_batch = Batch::from_slice(&json).expect("parses");
    let plain_events: Vec<PlainEvent> = serde_json::from_slice(&json).expect("parses");
    let sdk_events: Vec<cloudevents::Event> = serde_json::from_slice(&json).expect("parses");

    let mut group = c.benchmark_group("batch_serialize");
    let mut buf = Vec::with_capacity(json.len() * 2);
    let mut write = |b: &mut criterion::Bencher<'_>, value: &dyn erased::Ser| {
        b.iter(|| {
            buf.clear();
            value.write(&mut buf);
            black_box(buf.len())
        })
    };
    group.bench_function("ours", |b| write(b, &ours_events));
    group.bench_function("ours_any", |b| write(b, &any_batch));
    group.bench_function("plain", |b| write(b, &plain_events));
    group.bench_function("sdk", |b| write(b, &sdk_events));
    group.finish();

    let mut group = c.benchmark_group("batch_parse");
    group.bench_function("ours", |b| {
        b.iter(|| {
            serde_json::from_slice::<Vec<Event<OrderCreated>>>(black_box(&json)).expect("parses")
        })
    });
    group.bench_function("ours_any", |b| {
        b.iter(|| Batch::from_slice(black_box(&json)).expect("parses"))
    });
    group.bench_function("plain", |b| {
        b.iter(|| serde_json::from_slice::<Vec<PlainEvent>>(black_box(&json)).expect("parses"))
    });
    group.bench_function("sdk", |b| {
        b.iter(|| {
            let events: Vec<cloudevents::Event> =
                serde_json::from_slice(black_box(&json)).expect("parses");
            events
                .into_iter()
                .map(|mut event| {
                    let (_, _, data) = event.take_data();
                    (event, sdk_payload(data))
                })
                .collect::<Vec<_>>()
        })
    });
    group.finish();
}

/// One `write` for every contestant's batch type, so the batch loop is written once.
mod erased {
    pub trait Ser {
        fn write(&self, buf: &mut Vec<u8>);
    }

    impl<T: serde::Serialize> Ser for T {
        fn write(&self, buf: &mut Vec<u8>) {
            serde_json::to_writer(buf, self).expect("serializes");
        }
    }
}

fn http_binary(c: &mut Criterion) {
    use cloudevent_runtime::binding::{ContentMode, http as binding};
    let (ours, sdk) = (ours(), sdk_build());

    let mut group = c.benchmark_group("http_encode");
    group.bench_function("ours", |b| {
        b.iter(|| {
            binding::event_request(
                "http://127.0.0.1/events",
                black_box(&ours),
                ContentMode::Binary,
            )
            .expect("encodes")
        })
    });
    // The SDK's serializer consumes the event; the clone is part of what a sender pays.
    group.bench_function("sdk", |b| b.iter(|| sdk_request(black_box(&sdk).clone())));
    group.finish();

    let request = binding::event_request("http://127.0.0.1/events", &ours, ContentMode::Binary)
        .expect("encodes");
    let sdk_request = sdk_request(sdk);
    let mut group = c.benchmark_group("http_decode");
    group.bench_function("ours", |b| {
        b.iter(|| {
            binding::from_request::<Event<OrderCreated>, _>(black_box(&request)).expect("decodes")
        })
    });
    group.bench_function("ours_any", |b| {
        b.iter(|| binding::from_request::<AnyEvent, _>(black_box(&request)).expect("decodes"))
    });
    group.bench_function("sdk", |b| {
        b.iter(|| {
            let request = black_box(&sdk_request);
            let mut event =
                cloudevents::binding::http::to_event(request.headers(), request.body().clone())
                    .expect("SDK decodes");
            let (_, _, data) = event.take_data();
            (event, sdk_payload(data))
        })
    });
    group.finish();
}

fn config() -> Criterion {
    // Short settings so the whole run stays under five minutes on two cores; the medians are
    // stable to a few percent at this sample size (see BENCHMARKS.md).
    Criterion::default()
        .warm_up_time(Duration::from_millis(1000))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50)
}

criterion_group! {
    name = benches;
    config = config();
    targets = new_serialize, root_parse, root_batch_parse, root_http_decode, root_passthrough,
        serialize, build_serialize, parse, parse_validate, batch, http_binary
}
criterion_main!(benches);
