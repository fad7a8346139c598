//! The consumer's ordering stage: events back in `sequence` order per (source, partitionkey).

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::time::{Duration, Instant};

use cloudevent_rules::{SequenceStep, SequenceValue};

use crate::attributes::Attributes;
use crate::patterns::dedupe::{Clock, MonotonicClock};

/// What the [`OrderingStage`] hands on, in the order to handle it.
#[derive(Debug, Clone, PartialEq)]
pub enum Ordered<E> {
    /// The next event of its group: handle it. Under `sequencetype: Integer` its number is
    /// the one after the last delivered (or after a [`Ordered::Gap`]); a group's first event
    /// starts it, wherever the stream starts. Without `Integer`, its `sequence` is greater
    /// than the last delivered one as strings (the only order the extension gives it).
    Deliver(E),
    /// A number at or below the last one delivered: a duplicate, a replay, or an event that
    /// came after its gap was reported. Not delivered in order; acknowledge or inspect it.
    Late(E),
    /// The buffer reached its bound (count or time) waiting for numbers that never came: they
    /// are given up on, and delivery resumes at `resumes_at` (the next [`Ordered::Deliver`] of
    /// the group).
    Gap {
        /// The group's `source`.
        source: String,
        /// The group's `partitionkey`, `None` for a group per source.
        partitionkey: Option<String>,
        /// The first missing number.
        first_missing: i32,
        /// How many consecutive numbers are missing (wrapping past `i32::MAX`).
        missing: u32,
        /// The number delivered next.
        resumes_at: i32,
    },
    /// No `sequence` (or one the rules refuse): nothing to order it by, passed on as it came.
    Unsequenced(E),
}

/// Puts events back in `sequence` order per (source, partitionkey) group: the CloudEvents
/// Sequence extension's `Integer` (contiguous from 1, wrapping from `i32::MAX` to `i32::MIN`);
/// without it, only string order is known (INTG-STD-015 R-10: no order is assumed without
/// `partitionkey` and `sequence`; the rules crate's `CE sequence` finding says so on read).
///
/// An event ahead of the next number waits in its group's buffer until the numbers before it
/// arrive; when a group holds more than `max_held` events, or its oldest has waited
/// `max_wait`, the missing numbers are reported as a [`Ordered::Gap`] and delivery resumes.
/// The buffer is bounded in count per group and in time; each group also keeps its next
/// number (a few bytes) for as long as the stage lives, so a replay is recognised.
///
/// Generic over the event: [`Event<T>`](crate::Event), [`AnyEvent`](crate::AnyEvent), a
/// binding's event, anything with [`Attributes`]; feed it from any reader's stream.
///
/// ```
/// use std::time::Duration;
/// use cloudevent_runtime::{AnyEvent, Attributes as _, ExtensionValueBuf};
/// use cloudevent_runtime::order::{Ordered, OrderingStage};
///
/// let event = |n: i32| {
///     let mut event = AnyEvent::new(format!("e{n}"), "/orders", "com.example.order.updated");
///     event.set_extension("partitionkey", "o-1".into()).unwrap();
///     event.set_extension("sequencetype", "Integer".into()).unwrap();
///     event.set_extension("sequence", n.to_string().into()).unwrap();
///     event
/// };
/// let mut stage = OrderingStage::new(64, Duration::from_secs(5));
/// let mut handled = Vec::new();
/// for n in [1, 3, 2, 2] {
///     for out in stage.push(event(n)) {
///         match out {
///             Ordered::Deliver(e) => handled.push(e.id().to_owned()),
///             Ordered::Late(e) => handled.push(format!("late {}", e.id())),
///             other => panic!("{other:?}"),
///         }
///     }
/// }
/// assert_eq!(handled, ["e1", "e2", "e3", "late e2"]);
/// ```
#[derive(Debug)]
pub struct OrderingStage<E, C = MonotonicClock> {
    max_held: usize,
    max_wait: Duration,
    clock: C,
    sources: HashMap<String, Partitions<E>>,
    ready: VecDeque<Ordered<E>>,
    held: usize,
    from_start: bool,
}

#[derive(Debug)]
struct Partitions<E> {
    unkeyed: Option<Group<E>>,
    keyed: HashMap<String, Group<E>>,
}

impl<E> Default for Partitions<E> {
    fn default() -> Self {
        Partitions {
            unkeyed: None,
            keyed: HashMap::new(),
        }
    }
}

#[derive(Debug)]
struct Group<E> {
    /// The next Integer number to deliver; `None` before the group's first Integer event.
    next: Option<i32>,
    /// The last string delivered without `Integer`.
    last_text: Option<String>,
    /// The number the keys of `held` count from (wrapping), so order survives the wrap.
    anchor: i32,
    held: BTreeMap<u32, Held<E>>,
    /// When the earliest-arrived event still held arrived.
    oldest: Option<Instant>,
}

#[derive(Debug)]
struct Held<E> {
    event: E,
    at: Instant,
}

impl<E> Default for Group<E> {
    fn default() -> Self {
        Group {
            next: None,
            last_text: None,
            anchor: 0,
            held: BTreeMap::new(),
            oldest: None,
        }
    }
}

impl<E: Attributes> OrderingStage<E, MonotonicClock> {
    /// A stage holding at most `max_held` events (at least one) per group, each for at most
    /// `max_wait`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use cloudevent_runtime::AnyEvent;
    /// use cloudevent_runtime::order::OrderingStage;
    ///
    /// let stage: OrderingStage<AnyEvent> = OrderingStage::new(1024, Duration::from_secs(30));
    /// assert_eq!(stage.held(), 0);
    /// ```
    pub fn new(max_held: usize, max_wait: Duration) -> Self {
        OrderingStage::with_clock(max_held, max_wait, MonotonicClock)
    }
}

impl<E: Attributes, C: Clock> OrderingStage<E, C> {
    /// [`OrderingStage::new`] reading the time from `clock` (tests control the wait).
    pub fn with_clock(max_held: usize, max_wait: Duration, clock: C) -> Self {
        OrderingStage {
            max_held: max_held.max(1),
            max_wait,
            clock,
            sources: HashMap::new(),
            ready: VecDeque::new(),
            held: 0,
            from_start: false,
        }
    }

    /// The stream starts at the beginning of every group: a group's first number is `1`, so
    /// an early `2` waits for `1` (in the bounds). Without it (the default) a group's first
    /// event starts it, as for a consumer that joins a stream already flowing.
    ///
    /// ```
    /// use std::time::Duration;
    /// use cloudevent_runtime::{AnyEvent, Attributes as _};
    /// use cloudevent_runtime::order::{Ordered, OrderingStage};
    ///
    /// let event = |n: i32| {
    ///     let mut event = AnyEvent::new(format!("e{n}"), "/orders", "com.example.order.updated");
    ///     event.set_extension("sequencetype", "Integer".into()).unwrap();
    ///     event.set_extension("sequence", n.to_string().into()).unwrap();
    ///     event
    /// };
    /// let mut stage = OrderingStage::new(64, Duration::from_secs(5)).from_start();
    /// assert_eq!(stage.push(event(2)).count(), 0);
    /// let out: Vec<_> = stage.push(event(1)).collect();
    /// assert!(matches!(&out[..], [Ordered::Deliver(a), Ordered::Deliver(b)] if a.id() == "e1" && b.id() == "e2"));
    /// ```
    #[must_use]
    pub fn from_start(mut self) -> Self {
        self.from_start = true;
        self
    }

    /// How many events wait in buffers now.
    pub fn held(&self) -> usize {
        self.held
    }

    /// Takes one event; yields what is ready now, in order: this event and those it
    /// releases, gaps reached by a bound, late events.
    pub fn push(&mut self, event: E) -> std::collections::vec_deque::Drain<'_, Ordered<E>> {
        let now = self.clock.now();
        let (max_held, max_wait) = (self.max_held, self.max_wait);
        let sequence = event
            .extension_value("sequence")
            .and_then(|v| v.as_str().map(str::to_owned));
        let Some(sequence) = sequence else {
            self.ready.push_back(Ordered::Unsequenced(event));
            return self.ready.drain(..);
        };
        let sequencetype = event
            .extension_value("sequencetype")
            .and_then(|v| v.as_str().map(str::to_owned));
        let value = match SequenceValue::read(&sequence, sequencetype.as_deref()) {
            Ok(value) => value,
            Err(_) => {
                self.ready.push_back(Ordered::Unsequenced(event));
                return self.ready.drain(..);
            }
        };
        let partitionkey = event
            .extension_value("partitionkey")
            .and_then(|v| v.as_str().map(str::to_owned));
        let partitions = match self.sources.get_mut(event.source()) {
            Some(partitions) => partitions,
            None => self.sources.entry(event.source().to_owned()).or_default(),
        };
        let from_start = self.from_start;
        let new_group = move || Group {
            next: from_start.then_some(1),
            ..Group::default()
        };
        let group = match &partitionkey {
            None => partitions.unkeyed.get_or_insert_with(new_group),
            // Looked up by `&str` first: an entry per event would copy the key every time.
            Some(key) if partitions.keyed.contains_key(key.as_str()) => {
                let Some(group) = partitions.keyed.get_mut(key.as_str()) else {
                    unreachable!("the key was just found")
                };
                group
            }
            Some(key) => partitions
                .keyed
                .entry(key.clone())
                .or_insert_with(new_group),
        };
        let ready = &mut self.ready;
        match value {
            SequenceValue::Lexicographic(text) => {
                if group.last_text.as_deref().is_some_and(|last| text <= last) {
                    ready.push_back(Ordered::Late(event));
                } else {
                    group.last_text = Some(text.to_owned());
                    ready.push_back(Ordered::Deliver(event));
                }
            }
            SequenceValue::Integer(number) => {
                let before = group.held.len();
                group.place(number, event, now, ready);
                if group.held.len() > max_held
                    || group
                        .oldest
                        .is_some_and(|at| now.duration_since(at) >= max_wait)
                {
                    group.give_up(now, max_held, max_wait, &partitionkey, ready);
                }
                self.held = self.held + group.held.len() - before;
            }
        }
        self.ready.drain(..)
    }

    /// Reports the gaps of every group whose oldest held event has waited `max_wait`, and
    /// delivers what follows them. Call it on a timer when events may stop arriving.
    ///
    /// ```
    /// use std::cell::Cell;
    /// use std::time::{Duration, Instant};
    /// use cloudevent_runtime::{AnyEvent, Attributes as _};
    /// use cloudevent_runtime::order::{Ordered, OrderingStage};
    ///
    /// let start = Instant::now();
    /// let elapsed = Cell::new(Duration::ZERO);
    /// let mut stage = OrderingStage::with_clock(64, Duration::from_secs(5), || start + elapsed.get());
    /// let event = |n: i32| {
    ///     let mut event = AnyEvent::new(format!("e{n}"), "/orders", "com.example.order.updated");
    ///     event.set_extension("sequencetype", "Integer".into()).unwrap();
    ///     event.set_extension("sequence", n.to_string().into()).unwrap();
    ///     event
    /// };
    /// assert_eq!(stage.push(event(1)).count(), 1);
    /// assert_eq!(stage.push(event(4)).count(), 0); // 2 and 3 may still come
    /// elapsed.set(Duration::from_secs(5));
    /// let out: Vec<_> = stage.expire().collect();
    /// assert!(matches!(out[0], Ordered::Gap { first_missing: 2, missing: 2, resumes_at: 4, .. }));
    /// assert!(matches!(&out[1], Ordered::Deliver(e) if e.id() == "e4"));
    /// ```
    pub fn expire(&mut self) -> std::collections::vec_deque::Drain<'_, Ordered<E>> {
        let (now, max_wait) = (self.clock.now(), self.max_wait);
        self.release_where(|group| {
            group
                .oldest
                .is_some_and(|at| now.duration_since(at) >= max_wait)
        });
        self.ready.drain(..)
    }

    /// Releases everything held, reporting each gap: the end of a finite stream.
    ///
    /// ```
    /// use std::time::Duration;
    /// use cloudevent_runtime::{AnyEvent, Attributes as _};
    /// use cloudevent_runtime::order::{Ordered, OrderingStage};
    ///
    /// let mut stage = OrderingStage::new(64, Duration::from_secs(60));
    /// for n in [7, 9] {
    ///     let mut event = AnyEvent::new(format!("e{n}"), "/orders", "com.example.order.updated");
    ///     event.set_extension("sequencetype", "Integer".into()).unwrap();
    ///     event.set_extension("sequence", n.to_string().into()).unwrap();
    ///     let _ = stage.push(event).count();
    /// }
    /// let out: Vec<_> = stage.flush().collect();
    /// assert!(matches!(out[0], Ordered::Gap { first_missing: 8, missing: 1, resumes_at: 9, .. }));
    /// assert_eq!(out.len(), 2);
    /// ```
    pub fn flush(&mut self) -> std::collections::vec_deque::Drain<'_, Ordered<E>> {
        self.release_where(|_| true);
        self.ready.drain(..)
    }

    /// Gives up on the gaps of the groups `due` picks (all at once: `max_held` 0, no wait).
    fn release_where(&mut self, due: impl Fn(&Group<E>) -> bool) {
        let ready = &mut self.ready;
        let mut released = 0;
        for (source, partitions) in &mut self.sources {
            let keyed = partitions
                .keyed
                .iter_mut()
                .map(|(key, group)| (Some(key.as_str()), group));
            let unkeyed = partitions.unkeyed.iter_mut().map(|group| (None, group));
            for (key, group) in unkeyed.chain(keyed) {
                if group.held.is_empty() || !due(group) {
                    continue;
                }
                let before = group.held.len();
                let key = key.map(str::to_owned);
                group.release_all(source, &key, ready);
                released += before - group.held.len();
            }
        }
        self.held -= released;
    }
}

impl<E: Attributes> Group<E> {
    /// Delivers, holds or refuses one Integer-numbered event.
    fn place(&mut self, number: i32, event: E, now: Instant, ready: &mut VecDeque<Ordered<E>>) {
        let Some(next) = self.next else {
            self.next = Some(SequenceValue::successor(number));
            ready.push_back(Ordered::Deliver(event));
            return;
        };
        // The half of the circle behind the next number is delivered already (or given up on).
        match SequenceValue::step(next, number) {
            SequenceStep::Behind { .. } => {
                ready.push_back(Ordered::Late(event));
                return;
            }
            SequenceStep::Next => {
                ready.push_back(Ordered::Deliver(event));
                self.next = Some(SequenceValue::successor(next));
                self.deliver_held(ready);
                return;
            }
            SequenceStep::Ahead { .. } => {}
        }
        if self.held.is_empty() {
            self.anchor = next;
        }
        let slot = SequenceValue::steps(self.anchor, number);
        if self.held.contains_key(&slot) {
            ready.push_back(Ordered::Late(event));
            return;
        }
        self.held.insert(slot, Held { event, at: now });
        self.oldest = Some(self.oldest.map_or(now, |oldest| oldest.min(now)));
    }

    /// Delivers the held events that now follow on without a hole.
    fn deliver_held(&mut self, ready: &mut VecDeque<Ordered<E>>) {
        let Some(mut next) = self.next else { return };
        let mut delivered = false;
        while let Some(entry) = self.held.first_entry() {
            if *entry.key() != SequenceValue::steps(self.anchor, next) {
                break;
            }
            ready.push_back(Ordered::Deliver(entry.remove().event));
            next = SequenceValue::successor(next);
            delivered = true;
        }
        self.next = Some(next);
        if delivered {
            self.oldest = self.held.values().map(|h| h.at).min();
        }
    }

    /// Reports the hole before the lowest held number and delivers from there.
    fn skip_to_first_held(
        &mut self,
        source: &str,
        partitionkey: &Option<String>,
        ready: &mut VecDeque<Ordered<E>>,
    ) {
        let (Some(next), Some((&slot, _))) = (self.next, self.held.first_key_value()) else {
            return;
        };
        let resumes_at = self.anchor.wrapping_add_unsigned(slot);
        ready.push_back(Ordered::Gap {
            source: source.to_owned(),
            partitionkey: partitionkey.clone(),
            first_missing: next,
            missing: SequenceValue::steps(next, resumes_at),
            resumes_at,
        });
        self.next = Some(resumes_at);
        self.deliver_held(ready);
    }

    /// Gives up on holes until the group is within its bounds again.
    fn give_up(
        &mut self,
        now: Instant,
        max_held: usize,
        max_wait: Duration,
        partitionkey: &Option<String>,
        ready: &mut VecDeque<Ordered<E>>,
    ) {
        while self.held.len() > max_held
            || self
                .oldest
                .is_some_and(|at| now.duration_since(at) >= max_wait)
        {
            let source = match self.held.first_key_value() {
                Some((_, held)) => held.event.source().to_owned(),
                None => break,
            };
            self.skip_to_first_held(&source, partitionkey, ready);
        }
    }

    fn release_all(
        &mut self,
        source: &str,
        partitionkey: &Option<String>,
        ready: &mut VecDeque<Ordered<E>>,
    ) {
        while !self.held.is_empty() {
            self.skip_to_first_held(source, partitionkey, ready);
        }
    }
}
