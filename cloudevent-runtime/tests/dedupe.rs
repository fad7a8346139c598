//! Consumer-side idempotency (ADR-0003): `InMemoryDeduplicator` keyed on `(source, id)`,
//! bounded by capacity and TTL, with an injected clock.

use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cloudevent_runtime::AnyEvent;
use cloudevent_runtime::dedupe::{Claim, Deduplicator, Delivery, InMemoryDeduplicator};

/// A clock the test moves by hand.
#[derive(Clone)]
struct Manual {
    start: Instant,
    elapsed: Rc<Cell<Duration>>,
}

impl Manual {
    fn new() -> Self {
        Manual {
            start: Instant::now(),
            elapsed: Rc::default(),
        }
    }

    fn advance(&self, by: Duration) {
        self.elapsed.set(self.elapsed.get() + by);
    }

    fn clock(&self) -> impl Fn() -> Instant + use<> {
        let this = self.clone();
        move || this.start + this.elapsed.get()
    }
}

const MINUTE: Duration = Duration::from_secs(60);

#[test]
fn a_redelivery_is_a_duplicate() {
    let seen = InMemoryDeduplicator::new(10, MINUTE);
    assert_eq!(
        seen.check("https://orders.example.com", "01J0A"),
        Ok(Delivery::New)
    );
    assert_eq!(
        seen.check("https://orders.example.com", "01J0A"),
        Ok(Delivery::Duplicate)
    );
    assert_eq!(seen.len(), 1);
}

#[test]
fn the_key_is_source_and_id() {
    let seen = InMemoryDeduplicator::new(10, MINUTE);
    assert_eq!(seen.check("/orders", "1"), Ok(Delivery::New));
    assert_eq!(seen.check("/billing", "1"), Ok(Delivery::New));
    assert_eq!(seen.check("/orders", "2"), Ok(Delivery::New));
    // Concatenation must not collide: ("/a", "b1") is not ("/ab", "1").
    assert_eq!(seen.check("/a", "b1"), Ok(Delivery::New));
    assert_eq!(seen.check("/ab", "1"), Ok(Delivery::New));
    assert_eq!(seen.len(), 5);
}

#[test]
fn keys_expire_after_the_ttl_counted_from_the_first_delivery() {
    let time = Manual::new();
    let seen = InMemoryDeduplicator::with_clock(10, MINUTE, time.clock());
    assert_eq!(seen.check("/orders", "1"), Ok(Delivery::New));
    time.advance(Duration::from_secs(30));
    // A redelivery does not extend the window.
    assert_eq!(seen.check("/orders", "1"), Ok(Delivery::Duplicate));
    time.advance(Duration::from_secs(29));
    assert_eq!(seen.check("/orders", "1"), Ok(Delivery::Duplicate));
    time.advance(Duration::from_secs(1));
    assert_eq!(seen.check("/orders", "1"), Ok(Delivery::New));
    assert_eq!(seen.len(), 1);
}

#[test]
fn expired_keys_are_dropped_so_memory_follows_the_live_window() {
    let time = Manual::new();
    let seen = InMemoryDeduplicator::with_clock(1000, MINUTE, time.clock());
    for id in 0..100 {
        seen.check("/orders", &id.to_string()).unwrap();
    }
    assert_eq!(seen.len(), 100);
    time.advance(MINUTE);
    seen.check("/orders", "new").unwrap();
    assert_eq!(seen.len(), 1);
}

#[test]
fn a_full_deduplicator_evicts_the_oldest_key() {
    let seen = InMemoryDeduplicator::new(3, MINUTE);
    for id in ["1", "2", "3"] {
        assert_eq!(seen.check("/s", id), Ok(Delivery::New));
    }
    assert_eq!(seen.check("/s", "4"), Ok(Delivery::New));
    assert_eq!(seen.len(), 3);
    // "1" was the oldest: gone. "2".."4" are still known.
    assert_eq!(seen.check("/s", "2"), Ok(Delivery::Duplicate));
    assert_eq!(seen.check("/s", "3"), Ok(Delivery::Duplicate));
    assert_eq!(seen.check("/s", "4"), Ok(Delivery::Duplicate));
    assert_eq!(seen.check("/s", "1"), Ok(Delivery::New));
    // Re-adding "1" evicted "2", the oldest then.
    assert_eq!(seen.check("/s", "2"), Ok(Delivery::New));
}

/// The table grows many times on the way to 20,000 keys: every key stays known, with its own
/// verdict, through the growth and through eviction in arrival order.
#[test]
fn keys_stay_known_while_the_table_grows_and_evicts() {
    let seen = InMemoryDeduplicator::new(20_000, MINUTE);
    let id = |n: u32| format!("01J{n:06}");
    for n in 0..20_000 {
        assert_eq!(seen.check("/orders", &id(n)), Ok(Delivery::New));
    }
    for n in (0..20_000).step_by(997) {
        assert_eq!(seen.check("/orders", &id(n)), Ok(Delivery::Duplicate));
        assert_eq!(seen.check("/billing", &id(n)), Ok(Delivery::New), "{n}");
    }
    // 21 new keys evicted the 21 oldest.
    assert_eq!(seen.len(), 20_000);
    assert_eq!(seen.check("/orders", &id(0)), Ok(Delivery::New));
    assert_eq!(seen.check("/orders", &id(25)), Ok(Delivery::Duplicate));
    seen.forget("/orders", &id(25)).unwrap();
    assert_eq!(seen.check("/orders", &id(25)), Ok(Delivery::New));
}

#[test]
fn capacity_is_at_least_one() {
    let seen = InMemoryDeduplicator::new(0, MINUTE);
    assert_eq!(seen.check("/s", "1"), Ok(Delivery::New));
    assert_eq!(seen.check("/s", "1"), Ok(Delivery::Duplicate));
    assert_eq!(seen.check("/s", "2"), Ok(Delivery::New));
    assert_eq!(seen.check("/s", "1"), Ok(Delivery::New));
}

#[test]
fn forget_lets_the_next_delivery_through() {
    let seen = InMemoryDeduplicator::new(10, MINUTE);
    seen.check("/s", "1").unwrap();
    seen.forget("/s", "1").unwrap();
    assert!(seen.is_empty());
    assert_eq!(seen.check("/s", "1"), Ok(Delivery::New));
    assert_eq!(seen.check("/s", "1"), Ok(Delivery::Duplicate));
}

#[test]
fn memory_stays_bounded_under_forget_and_recheck() {
    // Forgetting leaves a stale queue entry; capacity bounds the queue, not only the map, and
    // a stale entry never evicts the live entry of the same key.
    let seen = InMemoryDeduplicator::new(2, MINUTE);
    for _ in 0..1000 {
        seen.check("/s", "1").unwrap();
        seen.forget("/s", "1").unwrap();
    }
    assert_eq!(seen.check("/s", "1"), Ok(Delivery::New));
    assert_eq!(seen.check("/s", "1"), Ok(Delivery::Duplicate));
    assert_eq!(seen.check("/s", "2"), Ok(Delivery::New));
    assert_eq!(seen.check("/s", "1"), Ok(Delivery::Duplicate));
    assert_eq!(seen.len(), 2);
}

#[test]
fn check_event_reads_source_and_id_from_an_event() {
    let seen = InMemoryDeduplicator::new(10, MINUTE);
    let first = AnyEvent::new("01J0A", "/orders", "com.example.order.created");
    let redelivered = AnyEvent::from_slice(&first.to_vec()).unwrap();
    let other_source = AnyEvent::new("01J0A", "/billing", "com.example.order.created");
    assert_eq!(seen.check_event(&first), Ok(Delivery::New));
    assert_eq!(seen.check_event(&redelivered), Ok(Delivery::Duplicate));
    assert_eq!(seen.check_event(&other_source), Ok(Delivery::New));
}

#[test]
fn one_deduplicator_serves_many_threads() {
    let seen = Arc::new(InMemoryDeduplicator::new(10_000, MINUTE));
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let seen = Arc::clone(&seen);
            std::thread::spawn(move || {
                (0..500)
                    .filter(|id| seen.check("/s", &id.to_string()) == Ok(Delivery::New))
                    .count()
            })
        })
        .collect();
    let new: usize = handles.into_iter().map(|h| h.join().unwrap()).sum();
    // Each id is new for exactly one thread.
    assert_eq!(new, 500);
}

/// A user's store behind the trait, failing like a remote one can.
struct Unavailable;

#[derive(Debug, PartialEq)]
struct Down;

impl Deduplicator for Unavailable {
    type Error = Down;

    fn claim(&self, _: &str, _: &str, _: Duration) -> Result<Claim, Down> {
        Err(Down)
    }

    fn commit(&self, _: &str, _: &str) -> Result<(), Down> {
        Err(Down)
    }

    fn forget(&self, _: &str, _: &str) -> Result<(), Down> {
        Err(Down)
    }
}

#[test]
fn a_shared_store_reports_its_failures() {
    let event = AnyEvent::new("1", "/orders", "com.example.order.created");
    assert_eq!(Unavailable.check_event(&event), Err(Down));
    // Through a reference and an Arc as well.
    fn through_a_reference(d: impl Deduplicator<Error = Down>) -> Result<Delivery, Down> {
        d.check("/s", "1")
    }
    assert_eq!(through_a_reference(&Unavailable), Err(Down));
    assert_eq!(Arc::new(Unavailable).forget("/s", "1"), Err(Down));
}

#[test]
fn a_claim_holds_for_its_lease_then_is_taken_over() {
    let time = Manual::new();
    let seen = InMemoryDeduplicator::with_clock(100, 10 * MINUTE, time.clock());
    let lease = Duration::from_secs(30);
    // Consumer A claims, then is killed before its effect: no commit.
    assert_eq!(seen.claim("/s", "1", lease), Ok(Claim::Claimed));
    time.advance(Duration::from_secs(29));
    // The redelivery reaches B while A's lease holds: B leaves it.
    assert_eq!(seen.claim("/s", "1", lease), Ok(Claim::InFlight));
    assert_eq!(seen.check("/s", "1"), Ok(Delivery::Duplicate));
    time.advance(Duration::from_secs(1));
    // The lease ran out: the next delivery is claimed, the effect runs once, and commits.
    assert_eq!(seen.claim("/s", "1", lease), Ok(Claim::Claimed));
    assert_eq!(seen.claim("/s", "1", lease), Ok(Claim::InFlight));
    seen.commit("/s", "1").unwrap();
    time.advance(MINUTE);
    assert_eq!(seen.claim("/s", "1", lease), Ok(Claim::Done));
    // The window counts from the first claim, as for `check`.
    time.advance(9 * MINUTE);
    assert_eq!(seen.claim("/s", "1", lease), Ok(Claim::Claimed));
}

#[test]
fn forget_releases_a_claim_and_commit_without_a_claim_records() {
    let seen = InMemoryDeduplicator::new(100, MINUTE);
    assert_eq!(seen.claim("/s", "1", MINUTE), Ok(Claim::Claimed));
    seen.forget("/s", "1").unwrap();
    assert_eq!(seen.claim("/s", "1", MINUTE), Ok(Claim::Claimed));
    seen.commit("/s", "2").unwrap();
    assert_eq!(seen.claim("/s", "2", MINUTE), Ok(Claim::Done));
    assert_eq!(seen.check("/s", "2"), Ok(Delivery::Duplicate));
    // A lease too long for the clock never runs out.
    assert_eq!(seen.claim("/s", "3", Duration::MAX), Ok(Claim::Claimed));
    assert_eq!(seen.claim("/s", "3", MINUTE), Ok(Claim::InFlight));
}

/// The deduplicator's verdicts against a model of it written plainly (owned keys in a map
/// and a queue, as the implementation stood before its table of entry numbers), on random
/// sequences of calls, and a clock that moves by whole seconds: what each call returns and
/// how many keys are remembered after it. Few keys (two of which run together to the same
/// text) with small capacities and TTLs (zero included) reach every branch; many keys with
/// capacities in the hundreds make the table grow and, under `forget` and eviction, rehash
/// in place. Pairs that share a hash are the unit test's (`src/patterns/dedupe.rs`).
mod against_a_model {
    use super::*;
    use proptest::prelude::*;
    use std::collections::{HashMap, VecDeque};

    const FEW: [(&str, &str); 6] = [
        ("/a", "b"),
        ("/ab", ""),
        ("/a", "bc"),
        ("", "/ab"),
        ("/x", "1"),
        ("/x", "2"),
    ];

    #[derive(Debug, Clone)]
    enum Call {
        Check(usize),
        Claim(usize, Option<u64>),
        Commit(usize),
        Forget(usize),
        Wait(u64),
    }

    #[derive(Debug, PartialEq)]
    enum Answer {
        Delivery(Delivery),
        Claim(Claim),
        Done,
    }

    #[derive(Clone, Copy, PartialEq)]
    enum Held {
        Until(Option<u64>),
        Committed,
    }

    /// The contract, kept as plainly as it reads: keys queued in arrival order with the second
    /// they arrived, the live ones in a map; a forgotten key's queue entry stays until it
    /// reaches the front, and the queue is what `capacity` bounds.
    struct Model {
        capacity: usize,
        ttl: u64,
        queue: VecDeque<(usize, u64, u64)>,
        live: HashMap<usize, (u64, Held)>,
        next: u64,
    }

    impl Model {
        fn pop_front(&mut self) {
            if let Some((key, seq, _)) = self.queue.pop_front()
                && self.live.get(&key).map(|live| live.0) == Some(seq)
            {
                self.live.remove(&key);
            }
        }

        fn expire(&mut self, now: u64) {
            while self
                .queue
                .front()
                .is_some_and(|&(_, _, at)| now - at >= self.ttl)
            {
                self.pop_front();
            }
        }

        fn remember(&mut self, key: usize, now: u64, held: Held) {
            while self.queue.len() >= self.capacity {
                self.pop_front();
            }
            self.queue.push_back((key, self.next, now));
            self.live.insert(key, (self.next, held));
            self.next += 1;
        }

        fn call(&mut self, call: &Call, now: u64) -> Answer {
            match *call {
                Call::Check(key) => {
                    self.expire(now);
                    if self.live.contains_key(&key) {
                        return Answer::Delivery(Delivery::Duplicate);
                    }
                    self.remember(key, now, Held::Committed);
                    Answer::Delivery(Delivery::New)
                }
                Call::Claim(key, lease) => {
                    self.expire(now);
                    let taken = Held::Until(lease.map(|lease| now + lease));
                    match self.live.get_mut(&key) {
                        Some((_, Held::Committed)) => Answer::Claim(Claim::Done),
                        Some((_, Held::Until(until))) if until.is_none_or(|u| u > now) => {
                            Answer::Claim(Claim::InFlight)
                        }
                        Some((_, held)) => {
                            *held = taken;
                            Answer::Claim(Claim::Claimed)
                        }
                        None => {
                            self.remember(key, now, taken);
                            Answer::Claim(Claim::Claimed)
                        }
                    }
                }
                Call::Commit(key) => {
                    self.expire(now);
                    match self.live.get_mut(&key) {
                        Some((_, held)) => *held = Held::Committed,
                        None => self.remember(key, now, Held::Committed),
                    }
                    Answer::Done
                }
                Call::Forget(key) => {
                    self.live.remove(&key);
                    Answer::Done
                }
                Call::Wait(_) => Answer::Done,
            }
        }
    }

    /// Key `n`: one of [`FEW`], or a pair of its own spread over seven sources.
    fn pair(key: usize) -> (String, String) {
        match FEW.get(key) {
            Some(&(source, id)) => (source.to_owned(), id.to_owned()),
            None => (format!("/many/{}", key % 7), key.to_string()),
        }
    }

    fn call(keys: usize) -> impl Strategy<Value = Call> {
        let key = 0..keys;
        prop_oneof![
            3 => key.clone().prop_map(Call::Check),
            2 => (key.clone(), prop::option::weighted(0.8, 0..4_u64)).prop_map(|(k, l)| Call::Claim(k, l)),
            1 => key.clone().prop_map(Call::Commit),
            1 => key.prop_map(Call::Forget),
            2 => (0..4_u64).prop_map(Call::Wait),
        ]
    }

    fn run(capacity: usize, ttl: u64, calls: &[Call]) -> Result<(), TestCaseError> {
        let time = Manual::new();
        let seen =
            InMemoryDeduplicator::with_clock(capacity, Duration::from_secs(ttl), time.clock());
        let mut model = Model {
            capacity,
            ttl,
            queue: VecDeque::new(),
            live: HashMap::new(),
            next: 0,
        };
        let mut now = 0;
        for (step, call) in calls.iter().enumerate() {
            let expected = model.call(call, now);
            let got = match *call {
                Call::Check(key) => {
                    let (source, id) = pair(key);
                    Answer::Delivery(seen.check(&source, &id).unwrap())
                }
                Call::Claim(key, lease) => {
                    let (source, id) = pair(key);
                    let lease = lease.map_or(Duration::MAX, Duration::from_secs);
                    Answer::Claim(seen.claim(&source, &id, lease).unwrap())
                }
                Call::Commit(key) => {
                    let (source, id) = pair(key);
                    seen.commit(&source, &id).unwrap();
                    Answer::Done
                }
                Call::Forget(key) => {
                    let (source, id) = pair(key);
                    seen.forget(&source, &id).unwrap();
                    Answer::Done
                }
                Call::Wait(seconds) => {
                    time.advance(Duration::from_secs(seconds));
                    now += seconds;
                    Answer::Done
                }
            };
            prop_assert_eq!(&got, &expected, "step {}: {:?}", step, call);
            prop_assert_eq!(seen.len(), model.live.len(), "step {}: {:?}", step, call);
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

        #[test]
        fn few_keys_match_the_model(
            capacity in 1..6_usize,
            ttl in 0..8_u64,
            calls in prop::collection::vec(call(FEW.len()), 1..80),
        ) {
            run(capacity, ttl, &calls)?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        #[test]
        fn many_keys_match_the_model(
            capacity in 100..400_usize,
            ttl in 20..400_u64,
            calls in prop::collection::vec(call(1_500), 500..3_000),
        ) {
            run(capacity, ttl, &calls)?;
        }
    }
}
