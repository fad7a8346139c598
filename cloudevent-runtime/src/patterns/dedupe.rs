//! Consumer-side idempotency (ADR-0003): recognise a redelivered event by its `(source, id)`.
//!
//! At-least-once transports (NATS JetStream, Kafka, HTTP with retries) deliver some events
//! twice. ADR-0003 gives every emission a new `id` and asks consumers to deduplicate on it;
//! `id` is only unique within its `source` (CE 1.0.2), so the key is the pair.
//!
//! [`Deduplicator`] is the seam: [`InMemoryDeduplicator`] serves one process with bounded
//! memory (capacity and TTL); a consumer group that scales out backs the trait with a shared
//! store: [`JetStreamDeduplicator`] (feature `nats`: an atomic create in a JetStream
//! key-value bucket whose `max_age` is the window), [`RedisDeduplicator`] (feature `redis`:
//! `SET NX PX`), or another (a database unique key).
//!
//! ```
//! use std::time::Duration;
//! use cloudevent_runtime::dedupe::{Deduplicator, Delivery, InMemoryDeduplicator};
//!
//! let seen = InMemoryDeduplicator::new(10_000, Duration::from_secs(3600));
//! assert_eq!(seen.check("https://orders.example.com", "01J0A"), Ok(Delivery::New));
//! assert_eq!(seen.check("https://orders.example.com", "01J0A"), Ok(Delivery::Duplicate));
//! // The same id from another source is another event.
//! assert_eq!(seen.check("https://billing.example.com", "01J0A"), Ok(Delivery::New));
//! ```

use std::collections::VecDeque;
use std::convert::Infallible;
use std::hash::{BuildHasher, RandomState};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use hashbrown::HashTable;

use crate::patterns::receipt::Receivable;

#[cfg(feature = "nats")]
mod nats;
#[cfg(feature = "nats")]
pub(crate) use nats::kv_key;
#[cfg(feature = "nats")]
#[cfg_attr(docsrs, doc(cfg(feature = "nats")))]
pub use nats::{JetStreamDeduplicator, StoreError};

#[cfg(feature = "redis")]
mod redis;
#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub use self::redis::RedisDeduplicator;

/// Whether an event was seen before.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Delivery {
    /// First delivery within the deduplication window: process it.
    New,
    /// Seen before within the window: acknowledge it without processing it again.
    Duplicate,
}

/// What [`Deduplicator::claim`] found: whether this consumer takes the event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Claim {
    /// This consumer holds the event for the lease: run the effect, then
    /// [`commit`](Deduplicator::commit) (or [`forget`](Deduplicator::forget) on failure).
    /// Also the answer when an earlier holder's lease ran out without a commit (it was
    /// killed): its event is taken over.
    Claimed,
    /// Another consumer holds a live lease: do not run the effect and do not acknowledge;
    /// let the transport deliver it again later (after the lease, the holder has committed
    /// or the event can be claimed).
    InFlight,
    /// Committed within the window: acknowledge without running the effect.
    Done,
}

/// Remembers which events a consumer has received, keyed on `(source, id)` (ADR-0003).
///
/// Methods take `&self` so one deduplicator can be shared between tasks (`Arc`); an
/// implementation over a shared store reports that store's failures as [`Self::Error`].
///
/// Two ways to use it:
///
/// - [`claim`](Self::claim) with a lease, run the effect, [`commit`](Self::commit): a
///   consumer killed between the claim and the effect loses only its lease, and the
///   redelivery is claimed again once the lease has run out, so the effect is neither lost
///   nor doubled (as long as an effect takes less than its lease).
/// - [`check`](Self::check): claim and commit at once (one round trip), for effects that may
///   be lost when the consumer dies before they happen.
///
/// A handler that fails after a claim (or after [`check`](Self::check) said
/// [`Delivery::New`]) should call [`forget`](Self::forget), so the transport's redelivery is
/// processed at once rather than dropped or held until the lease ends.
///
/// ```
/// use std::collections::HashSet;
/// use std::convert::Infallible;
/// use std::sync::Mutex;
/// use std::time::Duration;
/// use cloudevent_runtime::dedupe::{Claim, Deduplicator, Delivery};
///
/// /// Unbounded, for illustration only: a real one bounds memory or lives in a shared store.
/// struct Everything(Mutex<HashSet<(String, String)>>);
///
/// impl Deduplicator for Everything {
///     type Error = Infallible;
///     // No leases: a claim is a commit (an effect can be lost, never doubled).
///     fn claim(&self, source: &str, id: &str, _lease: Duration) -> Result<Claim, Infallible> {
///         let new = self.0.lock().unwrap().insert((source.into(), id.into()));
///         Ok(if new { Claim::Claimed } else { Claim::Done })
///     }
///     fn commit(&self, _source: &str, _id: &str) -> Result<(), Infallible> {
///         Ok(())
///     }
///     fn forget(&self, source: &str, id: &str) -> Result<(), Infallible> {
///         self.0.lock().unwrap().remove(&(source.into(), id.into()));
///         Ok(())
///     }
/// }
///
/// let seen = Everything(Mutex::default());
/// assert_eq!(seen.claim("/a", "1", Duration::from_secs(30)), Ok(Claim::Claimed));
/// assert_eq!(seen.claim("/a", "1", Duration::from_secs(30)), Ok(Claim::Done));
/// assert_eq!(seen.check("/a", "2"), Ok(Delivery::New));
/// assert_eq!(seen.check("/a", "2"), Ok(Delivery::Duplicate));
/// ```
pub trait Deduplicator {
    /// A shared store's failure; [`Infallible`] in memory.
    type Error;

    /// Takes `(source, id)` for `lease` unless it is committed or another consumer's lease
    /// on it is still live; an expired lease is taken over.
    ///
    /// ```
    /// use std::time::Duration;
    /// use cloudevent_runtime::dedupe::{Claim, Deduplicator, InMemoryDeduplicator};
    ///
    /// let seen = InMemoryDeduplicator::new(100, Duration::from_secs(3600));
    /// let lease = Duration::from_secs(30);
    /// assert_eq!(seen.claim("/orders", "01J0A", lease), Ok(Claim::Claimed));
    /// // A second replica gets the redelivery while the first one works on it.
    /// assert_eq!(seen.claim("/orders", "01J0A", lease), Ok(Claim::InFlight));
    /// seen.commit("/orders", "01J0A").unwrap(); // after the effect
    /// assert_eq!(seen.claim("/orders", "01J0A", lease), Ok(Claim::Done));
    /// ```
    ///
    /// # Errors
    /// When the backing store fails; the caller runs no effect and lets the event come again.
    fn claim(&self, source: &str, id: &str, lease: Duration) -> Result<Claim, Self::Error>;

    /// Marks a claimed `(source, id)` done for the deduplication window: its effect happened.
    ///
    /// # Errors
    /// When the backing store fails (the lease then runs out and the event may be processed
    /// again: retry the commit).
    fn commit(&self, source: &str, id: &str) -> Result<(), Self::Error>;

    /// Records `(source, id)` as done and says whether it was already recorded (claimed or
    /// done): [`claim`](Self::claim) and [`commit`](Self::commit) in one step.
    ///
    /// # Errors
    /// When the backing store fails; the caller decides whether to process or retry.
    fn check(&self, source: &str, id: &str) -> Result<Delivery, Self::Error> {
        match self.claim(source, id, Duration::MAX)? {
            Claim::Claimed => {
                self.commit(source, id)?;
                Ok(Delivery::New)
            }
            Claim::InFlight | Claim::Done => Ok(Delivery::Duplicate),
        }
    }

    /// Removes `(source, id)`, so its next delivery counts as [`Delivery::New`].
    ///
    /// # Errors
    /// When the backing store fails.
    fn forget(&self, source: &str, id: &str) -> Result<(), Self::Error>;

    /// [`check`](Self::check) on a received event's `source` and `id`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use cloudevent_runtime::AnyEvent;
    /// use cloudevent_runtime::dedupe::{Deduplicator, Delivery, InMemoryDeduplicator};
    ///
    /// let seen = InMemoryDeduplicator::new(100, Duration::from_secs(60));
    /// let event = AnyEvent::new("01J0A", "/orders", "com.example.order.created");
    /// assert_eq!(seen.check_event(&event).unwrap(), Delivery::New);
    /// assert_eq!(seen.check_event(&event).unwrap(), Delivery::Duplicate);
    /// ```
    ///
    /// # Errors
    /// When the backing store fails.
    fn check_event<E: Receivable + ?Sized>(&self, event: &E) -> Result<Delivery, Self::Error>
    where
        Self: Sized,
    {
        let receipt = event.receipt();
        self.check(receipt.source, receipt.id)
    }
}

impl<D: Deduplicator + ?Sized> Deduplicator for &D {
    type Error = D::Error;

    fn claim(&self, source: &str, id: &str, lease: Duration) -> Result<Claim, Self::Error> {
        (**self).claim(source, id, lease)
    }

    fn commit(&self, source: &str, id: &str) -> Result<(), Self::Error> {
        (**self).commit(source, id)
    }

    fn check(&self, source: &str, id: &str) -> Result<Delivery, Self::Error> {
        (**self).check(source, id)
    }

    fn forget(&self, source: &str, id: &str) -> Result<(), Self::Error> {
        (**self).forget(source, id)
    }
}

impl<D: Deduplicator + ?Sized> Deduplicator for Arc<D> {
    type Error = D::Error;

    fn claim(&self, source: &str, id: &str, lease: Duration) -> Result<Claim, Self::Error> {
        (**self).claim(source, id, lease)
    }

    fn commit(&self, source: &str, id: &str) -> Result<(), Self::Error> {
        (**self).commit(source, id)
    }

    fn check(&self, source: &str, id: &str) -> Result<Delivery, Self::Error> {
        (**self).check(source, id)
    }

    fn forget(&self, source: &str, id: &str) -> Result<(), Self::Error> {
        (**self).forget(source, id)
    }
}

/// Where [`InMemoryDeduplicator`] reads the time; injected so tests control expiry.
///
/// Any `Fn() -> Instant` is a clock.
///
/// ```
/// use std::time::Instant;
/// use cloudevent_runtime::dedupe::{Clock, MonotonicClock};
///
/// let before = Instant::now();
/// assert!(MonotonicClock.now() >= before);
/// let fixed = move || before;
/// assert_eq!(fixed.now(), before);
/// ```
pub trait Clock {
    /// The current instant; must never go backwards.
    fn now(&self) -> Instant;
}

/// The process's monotonic clock ([`Instant::now`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct MonotonicClock;

impl Clock for MonotonicClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

impl<F: Fn() -> Instant> Clock for F {
    fn now(&self) -> Instant {
        self()
    }
}

/// A bounded, in-process [`Deduplicator`]: remembers at most `capacity` keys, each for `ttl`
/// after its first delivery, evicting the oldest first when full. `check` and `forget` are
/// O(1) (amortised).
///
/// The window counts from the first delivery: a redelivery does not extend it, so a key that
/// keeps coming back is still forgotten after `ttl`.
///
/// A remembered key takes about 85 to 150 bytes beside the text of its source and id,
/// depending on where the queue and the table are in their growth (159 bytes in all for a
/// 33-byte source and a ULID id, measured with a million keys): `capacity`, with the length
/// of the sources and ids it is given, bounds the memory.
///
/// ```
/// use std::cell::Cell;
/// use std::time::{Duration, Instant};
/// use cloudevent_runtime::dedupe::{Deduplicator, Delivery, InMemoryDeduplicator};
///
/// let start = Instant::now();
/// let elapsed = Cell::new(Duration::ZERO);
/// let seen = InMemoryDeduplicator::with_clock(100, Duration::from_secs(60), || start + elapsed.get());
///
/// assert_eq!(seen.check("/orders", "1"), Ok(Delivery::New));
/// elapsed.set(Duration::from_secs(59));
/// assert_eq!(seen.check("/orders", "1"), Ok(Delivery::Duplicate));
/// elapsed.set(Duration::from_secs(60));
/// assert_eq!(seen.check("/orders", "1"), Ok(Delivery::New));
/// ```
#[derive(Debug)]
pub struct InMemoryDeduplicator<C = MonotonicClock> {
    capacity: usize,
    ttl: Duration,
    clock: C,
    state: Mutex<State>,
}

/// Entries in arrival order (which is also expiry order, the TTL being one for all), each
/// numbered as it arrives, and a table of the live keys: each holds its entry's number, found
/// by the pair's hash, the entry holding the text. `forget` only removes the table's number;
/// the stale entry is skipped when it reaches the front. The queue, not the table, is held to
/// `capacity`, so memory stays bounded even under many `forget`s.
///
/// A table slot is 8 bytes (a key's text and times live once, in its entry) and a new key is
/// one allocation (its text): at 100,000 keys a lookup probes a table of about 1 MiB, where a
/// map holding the keys themselves spread 8 MiB, and reads an entry only for a slot whose
/// hash bits match, the key's own on a hit (issue 40, JetStream consume).
#[derive(Debug, Default)]
struct State {
    live: HashTable<u64>,
    order: VecDeque<Entry>,
    /// The number of `order`'s front entry.
    first: u64,
    /// Hashes a `(source, id)` pair, with keys of its own (as a `HashMap`'s default hasher):
    /// the table finds a pair by this hash, so a pair sent to collide is as unlikely to as in
    /// a `HashMap`.
    hasher: RandomState,
}

/// A remembered `(source, id)`: when it first arrived, whether it is committed or claimed,
/// the pair's hash, and the source then the id in one string with where the source ends.
#[derive(Debug)]
struct Entry {
    at: Instant,
    held: Held,
    hash: u64,
    source_len: usize,
    text: Box<str>,
}

impl Entry {
    /// Whether this entry is the pair's: the hash picks candidates, the text decides (where
    /// the source ends included, so `("/a", "b")` is not `("/ab", "")`).
    fn is(&self, pair: &Pair<'_>) -> bool {
        self.hash == pair.hash
            && self.source_len == pair.source.len()
            && self.text.get(..self.source_len) == Some(pair.source)
            && self.text.get(self.source_len..) == Some(pair.id)
    }
}

/// The pair a call asks about, hashed.
struct Pair<'a> {
    hash: u64,
    source: &'a str,
    id: &'a str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Held {
    /// Claimed until then; `None`: a lease too long for the clock, never running out.
    Until(Option<Instant>),
    Committed,
}

/// The entry numbered `seq`, if it is still queued.
fn queued(order: &VecDeque<Entry>, first: u64, seq: u64) -> Option<&Entry> {
    let index = usize::try_from(seq.checked_sub(first)?).ok()?;
    order.get(index)
}

impl State {
    /// The pair a call asks about, hashed.
    fn pair<'a>(&self, source: &'a str, id: &'a str) -> Pair<'a> {
        Pair {
            hash: self.hasher.hash_one((source, id)),
            source,
            id,
        }
    }

    /// The live entry of the pair.
    fn live_mut(&mut self, pair: &Pair<'_>) -> Option<&mut Entry> {
        let State {
            live, order, first, ..
        } = self;
        let seq = *live.find(pair.hash, |&seq| {
            queued(order, *first, seq).is_some_and(|entry| entry.is(pair))
        })?;
        let index = usize::try_from(seq.checked_sub(*first)?).ok()?;
        order.get_mut(index)
    }

    /// Queues the pair as a new entry and makes it the pair's live one.
    fn push(&mut self, now: Instant, pair: &Pair<'_>, held: Held) {
        let seq = self.first + self.order.len() as u64;
        let mut text = String::with_capacity(pair.source.len() + pair.id.len());
        text.push_str(pair.source);
        text.push_str(pair.id);
        self.order.push_back(Entry {
            at: now,
            held,
            hash: pair.hash,
            source_len: pair.source.len(),
            text: text.into_boxed_str(),
        });
        let State {
            live, order, first, ..
        } = self;
        // Every number in the table is a queued entry's (`pop_front` takes an entry's number
        // out as it drops the entry), so the rehash reads each slot's hash from its entry.
        live.insert_unique(pair.hash, seq, |&seq| {
            let entry = queued(order, *first, seq);
            debug_assert!(entry.is_some(), "the table names entry {seq}, not queued");
            entry.map_or(0, |entry| entry.hash)
        });
    }

    /// Drops the front entry, and its key when that entry is the key's live one.
    fn pop_front(&mut self) {
        if let Some(entry) = self.order.pop_front() {
            let seq = self.first;
            self.first += 1;
            if let Ok(live) = self.live.find_entry(entry.hash, |&live| live == seq) {
                live.remove();
            }
        }
    }

    /// Forgets the pair: its entry stays queued, stale, until it reaches the front.
    fn forget(&mut self, pair: &Pair<'_>) {
        let State {
            live, order, first, ..
        } = self;
        if let Ok(found) = live.find_entry(pair.hash, |&seq| {
            queued(order, *first, seq).is_some_and(|entry| entry.is(pair))
        }) {
            found.remove();
        }
    }
}

impl InMemoryDeduplicator<MonotonicClock> {
    /// Remembers up to `capacity` events (at least one) for `ttl` each.
    ///
    /// ```
    /// use std::time::Duration;
    /// use cloudevent_runtime::dedupe::InMemoryDeduplicator;
    ///
    /// let seen = InMemoryDeduplicator::new(50_000, Duration::from_secs(24 * 3600));
    /// assert!(seen.is_empty());
    /// ```
    pub fn new(capacity: usize, ttl: Duration) -> Self {
        InMemoryDeduplicator::with_clock(capacity, ttl, MonotonicClock)
    }
}

impl<C: Clock> InMemoryDeduplicator<C> {
    /// [`InMemoryDeduplicator::new`] reading the time from `clock`.
    pub fn with_clock(capacity: usize, ttl: Duration, clock: C) -> Self {
        InMemoryDeduplicator {
            capacity: capacity.max(1),
            ttl,
            clock,
            state: Mutex::new(State::default()),
        }
    }

    /// How many keys are remembered now (expired ones may linger until the next `check`).
    pub fn len(&self) -> usize {
        self.state().live.len()
    }

    /// Whether no key is remembered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere while holding the lock leaves the state consistent (every
        // mutation below completes or does not start), so a poisoned lock is still usable.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// One string for the pair: the source's length first, so `("ab", "c")` and `("a", "bc")`
/// differ. The shared stores (NATS KV, Redis) name their entries with it.
#[cfg(any(test, feature = "nats", feature = "redis"))]
fn key(source: &str, id: &str) -> String {
    let mut key = String::new();
    key.push_str(itoa::Buffer::new().format(source.len()));
    key.push(':');
    key.push_str(source);
    key.push_str(id);
    key
}

impl<C: Clock> InMemoryDeduplicator<C> {
    /// Drops the keys past the window; returns the now it read and the locked state.
    fn expired_dropped(&self) -> (Instant, MutexGuard<'_, State>) {
        let now = self.clock.now();
        let mut state = self.state();
        while state
            .order
            .front()
            .is_some_and(|entry| now.saturating_duration_since(entry.at) >= self.ttl)
        {
            state.pop_front();
        }
        (now, state)
    }

    /// Remembers the pair, claimed or committed.
    fn remember(&self, state: &mut State, now: Instant, pair: &Pair<'_>, held: Held) {
        while state.order.len() >= self.capacity {
            state.pop_front();
        }
        state.push(now, pair, held);
    }
}

impl<C: Clock> Deduplicator for InMemoryDeduplicator<C> {
    type Error = Infallible;

    fn claim(&self, source: &str, id: &str, lease: Duration) -> Result<Claim, Infallible> {
        let (now, mut guard) = self.expired_dropped();
        let state = &mut *guard;
        let taken = Held::Until(now.checked_add(lease));
        let pair = state.pair(source, id);
        match state.live_mut(&pair) {
            Some(Entry {
                held: Held::Committed,
                ..
            }) => Ok(Claim::Done),
            Some(Entry {
                held: Held::Until(until),
                ..
            }) if until.is_none_or(|until| until > now) => Ok(Claim::InFlight),
            // The holder's lease ran out without a commit: taken over, in the same window.
            Some(entry) => {
                entry.held = taken;
                Ok(Claim::Claimed)
            }
            None => {
                self.remember(state, now, &pair, taken);
                Ok(Claim::Claimed)
            }
        }
    }

    fn commit(&self, source: &str, id: &str) -> Result<(), Infallible> {
        let (now, mut guard) = self.expired_dropped();
        let state = &mut *guard;
        let pair = state.pair(source, id);
        match state.live_mut(&pair) {
            Some(entry) => entry.held = Held::Committed,
            None => self.remember(state, now, &pair, Held::Committed),
        }
        Ok(())
    }

    fn check(&self, source: &str, id: &str) -> Result<Delivery, Infallible> {
        let (now, mut guard) = self.expired_dropped();
        let state = &mut *guard;
        let pair = state.pair(source, id);
        if state.live_mut(&pair).is_some() {
            return Ok(Delivery::Duplicate);
        }
        self.remember(state, now, &pair, Held::Committed);
        Ok(Delivery::New)
    }

    fn forget(&self, source: &str, id: &str) -> Result<(), Infallible> {
        let mut guard = self.state();
        let state = &mut *guard;
        let pair = state.pair(source, id);
        state.forget(&pair);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hash only picks candidates: two pairs that share it, and even the text of source
    /// and id run together, are still told apart by where the source ends.
    #[test]
    fn pairs_with_one_hash_are_told_apart_by_their_text() {
        let pair = |source, id| Pair {
            hash: 7,
            source,
            id,
        };
        let now = Instant::now();
        let mut state = State::default();
        state.push(now, &pair("/a", "b"), Held::Committed);
        assert!(state.live_mut(&pair("/a", "b")).is_some());
        assert!(state.live_mut(&pair("/ab", "")).is_none());
        assert!(state.live_mut(&pair("", "/ab")).is_none());
        // Both live at once, each found as itself, and forgetting one keeps the other.
        state.push(now, &pair("/ab", ""), Held::Until(None));
        assert_eq!(
            state.live_mut(&pair("/a", "b")).map(|e| e.held),
            Some(Held::Committed)
        );
        assert_eq!(
            state.live_mut(&pair("/ab", "")).map(|e| e.held),
            Some(Held::Until(None))
        );
        state.forget(&pair("/a", "b"));
        assert!(state.live_mut(&pair("/a", "b")).is_none());
        assert!(state.live_mut(&pair("/ab", "")).is_some());
        // The forgotten entry leaves the queue without taking the other's slot with it.
        state.pop_front();
        assert!(state.live_mut(&pair("/ab", "")).is_some());
        state.pop_front();
        assert!(state.live_mut(&pair("/ab", "")).is_none());
        assert!(state.live.is_empty() && state.order.is_empty());
    }

    #[test]
    fn key_separates_source_from_id() {
        assert_ne!(key("ab", "c"), key("a", "bc"));
        assert_ne!(key("1:", "x"), key("", "1:x"));
        assert_eq!(key("/orders", "01J0A"), "7:/orders01J0A");
    }
}
