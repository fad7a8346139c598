//! ADR-0003's consumer-side check of an event not seen before, at steady state (issue 40,
//! JetStream consume): 20,000 keys remembered, each call a new `(source, id)` that evicts the
//! oldest.
//!
//! - `dedupe_new_key/ours`: `InMemoryDeduplicator::check` (capacity 20,000, an hour's TTL);
//! - `dedupe_new_key/plain`: what a consumer writes by hand for the same bound, a `HashSet` of
//!   owned `(source, id)` pairs and a FIFO of the same pairs to evict the oldest (no TTL, no
//!   claims).
//!
//! Both are filled before timing; the ids (100,000 ULIDs, taken in turn) come round again
//! only long after they were evicted, so every call is a new key. Not in the rows driver
//! (`benches/examples/rows.rs`): its code there moved the other rows' code in that binary,
//! and callgrind's model counted 289 -> 320 L1 instruction-cache misses a typed parse for it
//! (BENCHMARKS.md, "the deduplicator's table").

use std::collections::{HashSet, VecDeque};
use std::hint::black_box;
use std::time::Duration;

use cloudevent_runtime::dedupe::{Deduplicator, Delivery, InMemoryDeduplicator};
use criterion::{Criterion, criterion_group, criterion_main};

const SOURCE: &str = "https://orders.example.com/orders";
const KEPT: usize = 20_000;

/// The hand-written bounded set.
struct Plain {
    set: HashSet<(String, String)>,
    fifo: VecDeque<(String, String)>,
}

impl Plain {
    /// Whether the pair is new; remembers it, evicting the oldest when full.
    fn check(&mut self, source: &str, id: &str) -> bool {
        let key = (source.to_owned(), id.to_owned());
        if self.set.contains(&key) {
            return false;
        }
        if self.fifo.len() >= KEPT
            && let Some(oldest) = self.fifo.pop_front()
        {
            self.set.remove(&oldest);
        }
        self.fifo.push_back(key.clone());
        self.set.insert(key);
        true
    }
}

fn dedupe(c: &mut Criterion) {
    let ids: Vec<String> = (0..100_000)
        .map(|_| ulid::Ulid::generate().to_string())
        .collect();
    let mut group = c.benchmark_group("dedupe_new_key");

    let seen = InMemoryDeduplicator::new(KEPT, Duration::from_secs(3600));
    for id in &ids[..KEPT] {
        assert_eq!(seen.check(SOURCE, id), Ok(Delivery::New));
    }
    let mut next = KEPT;
    group.bench_function("ours", |b| {
        b.iter(|| {
            let id = &ids[next];
            next = (next + 1) % ids.len();
            let new = seen.check(black_box(SOURCE), black_box(id));
            assert_eq!(black_box(new), Ok(Delivery::New));
        })
    });

    let mut plain = Plain {
        set: HashSet::new(),
        fifo: VecDeque::new(),
    };
    for id in &ids[..KEPT] {
        assert!(plain.check(SOURCE, id));
    }
    let mut next = KEPT;
    group.bench_function("plain", |b| {
        b.iter(|| {
            let id = &ids[next];
            next = (next + 1) % ids.len();
            assert!(black_box(plain.check(black_box(SOURCE), black_box(id))));
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = dedupe
}
criterion_main!(benches);
