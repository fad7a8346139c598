//! Ours against plain prost on a loaded machine: criterion's medians move by tens of percent
//! when other builds share the cores, so this alternates the contestants in short rounds and
//! compares each one's fastest round (the round least disturbed by the load).
//!
//! `cargo run --release -p cloudevent-bench --example protobuf_ratio [rounds]`

use std::hint::black_box;
use std::time::{Duration, Instant};

use cloudevent_bench::{reference_batch_json, reference_json};
use cloudevent_runtime::protobuf::messages::{CloudEvent, CloudEventBatch};
use cloudevent_runtime::{AnyEvent, Batch, Protobuf};
use prost::Message as _;

fn fastest(rounds: usize, iterations: u32, mut f: impl FnMut()) -> Duration {
    (0..rounds)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..iterations {
                f();
            }
            start.elapsed() / iterations
        })
        .min()
        .unwrap_or_default()
}

fn compare(
    name: &str,
    rounds: usize,
    iterations: u32,
    mut ours: impl FnMut(),
    mut prost: impl FnMut(),
) {
    let (mut best_ours, mut best_prost) = (Duration::MAX, Duration::MAX);
    for _ in 0..rounds {
        best_ours = best_ours.min(fastest(1, iterations, &mut ours));
        best_prost = best_prost.min(fastest(1, iterations, &mut prost));
    }
    println!(
        "{name:<28} ours {best_ours:>10.2?}  prost {best_prost:>10.2?}  ours/prost {:.2}x",
        best_ours.as_secs_f64() / best_prost.as_secs_f64()
    );
}

fn main() {
    let rounds = std::env::args()
        .nth(1)
        .and_then(|r| r.parse().ok())
        .unwrap_or(200);
    let any = AnyEvent::from_slice(&reference_json()).expect("the reference event parses");
    let bytes = any.encode::<Protobuf>().unwrap();
    let batch = Batch::from_slice(&reference_batch_json(100)).expect("the reference batch parses");
    let batch_bytes = batch.encode::<Protobuf>().unwrap();
    compare(
        "decode one event",
        rounds,
        2_000,
        || {
            drop(black_box(
                AnyEvent::decode::<Protobuf>(black_box(&bytes)).expect("reads"),
            ))
        },
        || {
            drop(black_box(
                CloudEvent::decode(black_box(bytes.as_slice())).expect("reads"),
            ))
        },
    );
    compare(
        "decode a batch of 100",
        rounds / 4,
        40,
        || {
            drop(black_box(
                Batch::decode::<Protobuf>(black_box(&batch_bytes)).expect("reads"),
            ))
        },
        || {
            drop(black_box(
                CloudEventBatch::decode(black_box(batch_bytes.as_slice())).expect("reads"),
            ))
        },
    );
    let message = CloudEvent::decode(bytes.as_slice()).expect("reads");
    compare(
        "encode one event",
        rounds,
        2_000,
        || drop(black_box(black_box(&any).encode::<Protobuf>().unwrap())),
        || drop(black_box(black_box(&message).encode_to_vec())),
    );
}
