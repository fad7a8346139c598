//! The Protobuf format (issue 14) on the reference event and a batch of 100, side by side with
//! a plain `prost` message of the same shape (the limit: docs/performance.md asks for 1.3x) and with
//! our own JSON path. `cargo xtask bench` runs this after `events` and prints its table.
//!
//! Contestants: `ours` (`AnyEvent::to_protobuf` / `AnyEvent::from_protobuf`, which includes
//! the strict wire checks and the policy check), `prost` (`prost::Message` derived for the
//! spec's messages, `encode_to_vec` / `decode`: no checks, the attributes left in a map),
//! `json` (`AnyEvent::to_vec` / `AnyEvent::from_slice` of the same event).

use std::hint::black_box;
use std::time::Duration;

use cloudevent_bench::{reference_batch_json, reference_json};
use cloudevent_runtime::protobuf::messages::{CloudEvent, CloudEventBatch};
use cloudevent_runtime::{AnyEvent, Batch, Protobuf};
use criterion::{Criterion, criterion_group, criterion_main};
use prost::Message as _;

const BATCH: usize = 100;

fn event(c: &mut Criterion) {
    let json = reference_json();
    let any = AnyEvent::from_slice(&json).expect("the reference event parses");
    let bytes = any.encode::<Protobuf>().unwrap();
    let message = CloudEvent::decode(bytes.as_slice()).expect("prost reads our bytes");
    assert_eq!(
        message.encoded_len(),
        bytes.len(),
        "the same message, the same size"
    );

    let mut group = c.benchmark_group("protobuf_encode");
    group.bench_function("ours", |b| {
        b.iter(|| black_box(&any).encode::<Protobuf>().unwrap())
    });
    group.bench_function("prost", |b| b.iter(|| black_box(&message).encode_to_vec()));
    group.bench_function("json", |b| b.iter(|| black_box(&any).to_vec()));
    group.finish();

    let mut group = c.benchmark_group("protobuf_decode");
    group.bench_function("ours", |b| {
        b.iter(|| AnyEvent::decode::<Protobuf>(black_box(&bytes)).expect("reads"))
    });
    group.bench_function("prost", |b| {
        b.iter(|| CloudEvent::decode(black_box(bytes.as_slice())).expect("reads"))
    });
    group.bench_function("json", |b| {
        b.iter(|| AnyEvent::from_slice(black_box(&json)).expect("reads"))
    });
    group.finish();
}

fn batch(c: &mut Criterion) {
    let json = reference_batch_json(BATCH);
    let batch = Batch::from_slice(&json).expect("the reference batch parses");
    let bytes = batch.encode::<Protobuf>().unwrap();
    let message = CloudEventBatch::decode(bytes.as_slice()).expect("prost reads our bytes");
    assert_eq!(message.events.len(), BATCH);

    let mut group = c.benchmark_group("protobuf_batch_encode");
    group.bench_function("ours", |b| {
        b.iter(|| black_box(&batch).encode::<Protobuf>().unwrap())
    });
    group.bench_function("prost", |b| b.iter(|| black_box(&message).encode_to_vec()));
    group.bench_function("json", |b| b.iter(|| black_box(&batch).to_vec()));
    group.finish();

    let mut group = c.benchmark_group("protobuf_batch_decode");
    group.bench_function("ours", |b| {
        b.iter(|| Batch::decode::<Protobuf>(black_box(&bytes)).expect("reads"))
    });
    group.bench_function("prost", |b| {
        b.iter(|| CloudEventBatch::decode(black_box(bytes.as_slice())).expect("reads"))
    });
    group.bench_function("json", |b| {
        b.iter(|| Batch::from_slice(black_box(&json)).expect("reads"))
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(1000))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50)
}

criterion_group! {
    name = benches;
    config = config();
    targets = event, batch
}
criterion_main!(benches);
