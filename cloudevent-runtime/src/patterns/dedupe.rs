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

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::patterns::receipt::Receivable;

#[cfg(feature = "nats")]
mod nats;
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

impl Delivery {}

/// Remembers which events a consumer has received, keyed on `(source, id)` (ADR-0003).
///
/// Methods take `&self` so one deduplicator can be shared between tasks (`Arc`); an
/// implementation over a shared store reports that store's failures as [`Self::Error`].
///
/// A handler that fails after [`check`](Self::check) said [`Delivery::New`] should call
/// [`forget`](Self::forget), so the transport's redelivery is processed rather than dropped.
///
/// ```
/// use std::collections::HashSet;
/// use std::convert::Infallible;
/// use std::sync::Mutex;
/// use cloudevent_runtime::dedupe::{Deduplicator, Delivery};
///
/// /// Unbounded, for illustration only: a real one bounds memory or lives in a shared store.
/// struct Everything(Mutex<HashSet<(String, String)>>);
///
/// impl Deduplicator for Everything {
///     type Error = Infallible;
///     fn check(&self, source: &str, id: &str) -> Result<Delivery, Infallible> {
///         let new = self.0.lock().unwrap().insert((source.into(), id.into()));
///         Ok(if new { Delivery::New } else { Delivery::Duplicate })
///     }
///     fn forget(&self, source: &str, id: &str) -> Result<(), Infallible> {
///         self.0.lock().unwrap().remove(&(source.into(), id.into()));
///         Ok(())
///     }
/// }
///
/// let seen = Everything(Mutex::default());
/// assert_eq!(seen.check("/a", "1"), Ok(Delivery::New));
/// assert_eq!(seen.check("/a", "1"), Ok(Delivery::Duplicate));
/// ```
pub trait Deduplicator {
    /// A shared store's failure; [`Infallible`] in memory.
    type Error;

    /// Records `(source, id)` and says whether it was already recorded.
    ///
    /// # Errors
    /// When the backing store fails; the caller decides whether to process or retry.
    fn check(&self, source: &str, id: &str) -> Result<Delivery, Self::Error>;

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

    fn check(&self, source: &str, id: &str) -> Result<Delivery, Self::Error> {
        (**self).check(source, id)
    }

    fn forget(&self, source: &str, id: &str) -> Result<(), Self::Error> {
        (**self).forget(source, id)
    }
}

impl<D: Deduplicator + ?Sized> Deduplicator for Arc<D> {
    type Error = D::Error;

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

/// Keys in arrival order (which is also expiry order, the TTL being one for all) and a map
/// from key to the sequence number of its live queue entry. `forget` only removes the map
/// entry; the stale queue entry is skipped when it reaches the front. The queue, not the map,
/// is held to `capacity`, so memory stays bounded even under many `forget`s.
#[derive(Debug, Default)]
struct State {
    live: HashMap<Arc<str>, u64>,
    order: VecDeque<Entry>,
    next: u64,
}

#[derive(Debug)]
struct Entry {
    key: Arc<str>,
    seq: u64,
    at: Instant,
}

impl State {
    /// Drops the front entry, and its key when that entry is the key's live one.
    fn pop_front(&mut self) {
        if let Some(entry) = self.order.pop_front() {
            if self.live.get(&entry.key) == Some(&entry.seq) {
                self.live.remove(&entry.key);
            }
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
/// differ.
fn key(source: &str, id: &str) -> String {
    use std::fmt::Write as _;
    // One allocation of the final size: every delivery makes a key, and `format!` grows its
    // buffer as it goes.
    let mut key = String::with_capacity(20 + 1 + source.len() + id.len());
    let _ = write!(key, "{}:", source.len());
    key.push_str(source);
    key.push_str(id);
    key
}

impl<C: Clock> Deduplicator for InMemoryDeduplicator<C> {
    type Error = Infallible;

    fn check(&self, source: &str, id: &str) -> Result<Delivery, Infallible> {
        let now = self.clock.now();
        let key = key(source, id);
        let mut state = self.state();
        while state
            .order
            .front()
            .is_some_and(|entry| now.saturating_duration_since(entry.at) >= self.ttl)
        {
            state.pop_front();
        }
        if state.live.contains_key(key.as_str()) {
            return Ok(Delivery::Duplicate);
        }
        while state.order.len() >= self.capacity {
            state.pop_front();
        }
        let key: Arc<str> = Arc::from(key);
        let seq = state.next;
        state.next += 1;
        state.live.insert(Arc::clone(&key), seq);
        state.order.push_back(Entry { key, seq, at: now });
        Ok(Delivery::New)
    }

    fn forget(&self, source: &str, id: &str) -> Result<(), Infallible> {
        self.state().live.remove(key(source, id).as_str());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_separates_source_from_id() {
        assert_ne!(key("ab", "c"), key("a", "bc"));
        assert_ne!(key("1:", "x"), key("", "1:x"));
        assert_eq!(key("/orders", "01J0A"), "7:/orders01J0A");
    }
}
