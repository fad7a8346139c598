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
