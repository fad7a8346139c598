//! The ordering stage's cost per event (issue 22): `OrderingStage::push` on `AnyEvent`s of
//! 16 (source, partitionkey) groups with `sequencetype: Integer`, against a baseline loop that
//! only moves the events through. Cases: every group in order (the common path: no event is
//! held), and each pair of numbers swapped (every other event waits for one event).
//!
//! The stage is built `from_start` (the groups begin at 1, so an early 2 waits for 1). The
//! events are built before timing and cloned per iteration batch, so the rows differ by
//! the stage's own work: reading three extensions, finding the group, holding or delivering.

use std::hint::black_box;
use std::time::Duration;

use cloudevent_runtime::order::{Ordered, OrderingStage};
use cloudevent_runtime::{AnyEvent, Attributes as _};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};

const GROUPS: i32 = 16;
const PER_GROUP: i32 = 64;

fn event(group: i32, n: i32) -> AnyEvent {
    let mut event = AnyEvent::new(
        format!("{group}-{n}"),
        "https://orders.example.com/checkout",
        "com.example.order.updated",
    );
    event
        .set_extension("partitionkey", format!("order-{group}").into())
        .unwrap();
    event
        .set_extension("sequencetype", "Integer".into())
        .unwrap();
    event
        .set_extension("sequence", n.to_string().into())
        .unwrap();
    event
}

/// Round-robin over the groups; `swap` exchanges each pair of numbers within a group.
fn stream(swap: bool) -> Vec<AnyEvent> {
    let mut events = Vec::new();
    for n in 1..=PER_GROUP {
        let n = if swap {
            n + if n % 2 == 1 { 1 } else { -1 }
        } else {
            n
        };
        for group in 0..GROUPS {
            events.push(event(group, n));
        }
    }
    events
}

fn order(c: &mut Criterion) {
    let mut group = c.benchmark_group("ordering_stage");
    group.throughput(Throughput::Elements((GROUPS * PER_GROUP) as u64));
    for (name, swap) in [("in_order", false), ("pairs_swapped", true)] {
        let events = stream(swap);
        let mut check = OrderingStage::new(1024, Duration::from_secs(60)).from_start();
        let delivered: usize = events
            .iter()
            .cloned()
            .map(|e| {
                check
                    .push(e)
                    .filter(|o| matches!(o, Ordered::Deliver(_)))
                    .count()
            })
            .sum();
        assert_eq!(delivered, events.len(), "{name}: every event is delivered");
        group.bench_function(format!("{name}/baseline"), |b| {
            b.iter_batched(
                || events.clone(),
                |events| {
                    for event in events {
                        black_box(event);
                    }
                },
                BatchSize::LargeInput,
            )
        });
        group.bench_function(format!("{name}/stage"), |b| {
            b.iter_batched(
                || events.clone(),
                |events| {
                    let mut stage = OrderingStage::new(1024, Duration::from_secs(60)).from_start();
                    for event in events {
                        for out in stage.push(event) {
                            black_box(out);
                        }
                    }
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = order
}
criterion_main!(benches);
