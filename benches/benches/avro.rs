//! The Avro event format (issue 14 §5) on the reference event, beside our JSON path and a
//! plain `apache-avro` datum of the same record (the spec's schema, encoded and decoded by
//! the crate's generic `Value` codec: the limit docs/performance.md names). The format defines no
//! batch, so there is no batch row.
//!
//! Groups are the cases, functions the contestants: `avro` (ours), `json` (our JSON path on
//! the same event), `apache_avro` (the plain datum).

use std::hint::black_box;
use std::time::Duration;

use apache_avro::types::Value as AvroValue;
use cloudevent_bench::{OrderCreated, reference_json};
use cloudevent_runtime::{AnyEvent, Avro, Event, avro};
use criterion::{Criterion, criterion_group, criterion_main};

fn schema() -> apache_avro::Schema {
    apache_avro::Schema::parse_str(avro::SCHEMA).expect("the spec's schema parses")
}

fn encode(c: &mut Criterion) {
    let json = reference_json();
    let any = AnyEvent::from_slice(&json).expect("parses");
    let typed = Event::<OrderCreated>::from_slice(&json).expect("parses");
    let schema = schema();
    let bytes = any.encode::<Avro>().expect("encodes");
    let value = apache_avro::from_avro_datum(&schema, &mut &bytes[..], None).expect("decodes");
    let mut group = c.benchmark_group("avro_encode");
    group.bench_function("avro", |b| {
        b.iter(|| black_box(&any).encode::<Avro>().expect("encodes"))
    });
    group.bench_function("json", |b| b.iter(|| black_box(&any).to_vec()));
    group.bench_function("apache_avro", |b| {
        b.iter(|| apache_avro::to_avro_datum(&schema, black_box(value.clone())).expect("encodes"))
    });
    group.bench_function("avro_typed", |b| {
        b.iter(|| black_box(&typed).encode::<Avro>().expect("encodes"))
    });
    group.bench_function("json_typed", |b| {
        b.iter(|| black_box(&typed).to_vec().expect("encodes"))
    });
    group.finish();
}

fn decode(c: &mut Criterion) {
    let json = reference_json();
    let any = AnyEvent::from_slice(&json).expect("parses");
    let bytes = any.encode::<Avro>().expect("encodes");
    let schema = schema();
    let mut group = c.benchmark_group("avro_decode");
    group.bench_function("avro", |b| {
        b.iter(|| AnyEvent::decode::<Avro>(black_box(&bytes)).expect("decodes"))
    });
    group.bench_function("json", |b| {
        b.iter(|| AnyEvent::from_slice(black_box(&json)).expect("parses"))
    });
    group.bench_function("apache_avro", |b| {
        b.iter(|| {
            let value: AvroValue =
                apache_avro::from_avro_datum(&schema, &mut black_box(&bytes[..]), None)
                    .expect("decodes");
            value
        })
    });
    group.bench_function("avro_typed", |b| {
        b.iter(|| Event::<OrderCreated>::decode::<Avro>(black_box(&bytes)).expect("decodes"))
    });
    group.bench_function("json_typed", |b| {
        b.iter(|| Event::<OrderCreated>::from_slice(black_box(&json)).expect("parses"))
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
}

criterion_group! {
    name = benches;
    config = config();
    targets = encode, decode
}
criterion_main!(benches);
