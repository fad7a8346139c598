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
/// Each held event has a place counted from the number its group expects next (never from a
/// number fixed earlier), so a number behind that one is [`Ordered::Late`] however far the
/// group has moved, across the wrap too: the half-circle rule of
/// [`SequenceValue::step`](cloudevent_rules::SequenceValue::step), the one judgment
/// `cloudevent validate --sequence` makes too.
///
/// Everything the stage keeps is bounded:
///
/// - per group, `max_held` events, each for at most `max_wait` (then the gap is reported);
/// - over all groups, [`max_held_total`](Self::max_held_total) events (default
///   [`DEFAULT_MAX_HELD_TOTAL`]): past it the least recently used groups holding events give
///   up their gaps;
/// - [`max_groups`](Self::max_groups) groups (default [`DEFAULT_MAX_GROUPS`]): a group keeps
///   its next number, so a replay is recognised as late, until it is the least recently used
///   when a new group needs room; idle groups (nothing held) are forgotten first. A stream of
///   a million sources keeps at most that many groups.
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
    max_groups: usize,
    max_held_total: usize,
    clock: C,
    sources: HashMap<String, Partitions<E>>,
    ready: VecDeque<Ordered<E>>,
    held: usize,
    groups: usize,
    /// Counts pushes: a group's `used` is the count at its last push, so the least recently
    /// used groups are the ones with the lowest.
    pushes: u64,
    from_start: bool,
}

/// How many (source, partitionkey) groups a stage keeps by default
/// ([`OrderingStage::max_groups`]).
pub const DEFAULT_MAX_GROUPS: usize = 65_536;

/// How many events a stage holds at once by default, over all its groups
/// ([`OrderingStage::max_held_total`]).
pub const DEFAULT_MAX_HELD_TOTAL: usize = 65_536;

/// Past this position the keys of a group's buffer are rebased to 0. Positions grow by less
/// than 2^31 an event, so reaching it takes 2^31 events with the buffer never empty; `u64`
/// keys then still have room for any number ahead.
const REBASE_AT: u64 = 1 << 62;

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

impl<E> Partitions<E> {
    fn group(&self, partitionkey: Option<&str>) -> Option<&Group<E>> {
        match partitionkey {
            None => self.unkeyed.as_ref(),
            Some(key) => self.keyed.get(key),
        }
    }

    fn remove(&mut self, partitionkey: Option<&str>) -> Option<Group<E>> {
        match partitionkey {
            None => self.unkeyed.take(),
            Some(key) => self.keyed.remove(key),
        }
    }

    fn is_empty(&self) -> bool {
        self.unkeyed.is_none() && self.keyed.is_empty()
    }

    /// Every group with its partition key.
    fn iter(&self) -> impl Iterator<Item = (Option<&str>, &Group<E>)> {
        let unkeyed = self.unkeyed.iter().map(|group| (None, group));
        unkeyed.chain(
            self.keyed
                .iter()
                .map(|(key, group)| (Some(key.as_str()), group)),
        )
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = (Option<&str>, &mut Group<E>)> {
        let unkeyed = self.unkeyed.iter_mut().map(|group| (None, group));
        unkeyed.chain(
            self.keyed
                .iter_mut()
                .map(|(key, group)| (Some(key.as_str()), group)),
        )
    }
}

#[derive(Debug)]
struct Group<E> {
    /// The next Integer number to deliver; `None` before the group's first Integer event.
    next: Option<i32>,
    /// Where `next` stands on the line the keys of `held` count on: the numbers passed since
    /// the buffer was last empty. A held event's key is this position plus how far ahead of
    /// `next` it was when it came, so the keys keep the stage's order however far the group
    /// moves while it holds events (a key counted from a fixed number would wrap).
    passed: u64,
    /// The last string delivered without `Integer`.
    last_text: Option<String>,
    held: BTreeMap<u64, Held<E>>,
    /// When the earliest-arrived event still held arrived.
    oldest: Option<Instant>,
    /// The stage's push count when the group last took an event.
    used: u64,
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
            passed: 0,
            last_text: None,
            held: BTreeMap::new(),
            oldest: None,
            used: 0,
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
            max_groups: DEFAULT_MAX_GROUPS,
            max_held_total: DEFAULT_MAX_HELD_TOTAL.max(max_held),
            clock,
            sources: HashMap::new(),
            ready: VecDeque::new(),
            held: 0,
            groups: 0,
            pushes: 0,
            from_start: false,
        }
    }

    /// Keeps at most `groups` (source, partitionkey) groups (at least one; default
    /// [`DEFAULT_MAX_GROUPS`]). A new group past the cap makes the stage forget the least
    /// recently used groups, an eighth of the cap at a time (so a stream of new sources costs
    /// one sweep per eighth, not one per event): first the idle ones (nothing held), then, if
    /// every group holds events, the least recently used of those, whose gaps are reported
    /// and whose held events are delivered first. A forgotten group's next number is
    /// forgotten with it: its next event starts it again, as for a consumer that joins the
    /// stream (or at `1` under [`from_start`](Self::from_start)), so a replay of a number it
    /// had delivered is delivered again, not [`Ordered::Late`].
    ///
    /// ```
    /// use std::time::Duration;
    /// use cloudevent_runtime::{AnyEvent, Attributes as _};
    /// use cloudevent_runtime::order::{Ordered, OrderingStage};
    ///
    /// let event = |source: &str, n: i32| {
    ///     let mut event = AnyEvent::new(format!("{source}-{n}"), source, "com.example.order.updated");
    ///     event.set_extension("sequencetype", "Integer".into()).unwrap();
    ///     event.set_extension("sequence", n.to_string().into()).unwrap();
    ///     event
    /// };
    /// let mut stage = OrderingStage::new(64, Duration::from_secs(5)).max_groups(8);
    /// for source in 0..1000 {
    ///     let _ = stage.push(event(&format!("/s{source}"), 1)).count();
    /// }
    /// assert!(stage.groups() <= 8);
    /// // `/s0` was forgotten: its `1` starts it again instead of being late.
    /// assert!(matches!(stage.push(event("/s0", 1)).next(), Some(Ordered::Deliver(_))));
    /// ```
    #[must_use]
    pub fn max_groups(mut self, groups: usize) -> Self {
        self.max_groups = groups.max(1);
        self
    }

    /// Holds at most `events` events at once over all groups (at least one; default
    /// [`DEFAULT_MAX_HELD_TOTAL`], or `max_held` when that is more). Past it, the least
    /// recently used groups that hold events give up on their gaps ([`Ordered::Gap`], then
    /// what follows is delivered) until the stage holds at most seven eighths of the cap, so
    /// a flood of early events over many groups costs one sweep per eighth of the cap.
    ///
    /// ```
    /// use std::time::Duration;
    /// use cloudevent_runtime::{AnyEvent, Attributes as _};
    /// use cloudevent_runtime::order::{Ordered, OrderingStage};
    ///
    /// let event = |source: &str, n: i32| {
    ///     let mut event = AnyEvent::new(format!("{source}-{n}"), source, "com.example.order.updated");
    ///     event.set_extension("sequencetype", "Integer".into()).unwrap();
    ///     event.set_extension("sequence", n.to_string().into()).unwrap();
    ///     event
    /// };
    /// let mut stage = OrderingStage::new(64, Duration::from_secs(60))
    ///     .from_start()
    ///     .max_held_total(16);
    /// let mut gaps = 0;
    /// for source in 0..100 {
    ///     // Every group waits for its `1`.
    ///     for out in stage.push(event(&format!("/s{source}"), 2)) {
    ///         gaps += usize::from(matches!(out, Ordered::Gap { .. }));
    ///     }
    ///     assert!(stage.held() <= 16);
    /// }
    /// assert!(gaps > 0);
    /// ```
    #[must_use]
    pub fn max_held_total(mut self, events: usize) -> Self {
        self.max_held_total = events.max(1);
        self
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

    /// How many (source, partitionkey) groups the stage keeps now (see
    /// [`max_groups`](Self::max_groups)).
    ///
    /// ```
    /// use std::time::Duration;
    /// use cloudevent_runtime::AnyEvent;
    /// use cloudevent_runtime::order::OrderingStage;
    ///
    /// let stage: OrderingStage<AnyEvent> = OrderingStage::new(1024, Duration::from_secs(30));
    /// assert_eq!(stage.groups(), 0);
    /// ```
    pub fn groups(&self) -> usize {
        self.groups
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
        self.pushes += 1;
        if self.groups >= self.max_groups
            && self
                .sources
                .get(event.source())
                .and_then(|partitions| partitions.group(partitionkey.as_deref()))
                .is_none()
        {
            let keep = (self.max_groups - self.max_groups / 8).min(self.max_groups - 1);
            self.forget_groups(keep);
        }
        let partitions = match self.sources.get_mut(event.source()) {
            Some(partitions) => partitions,
            None => self.sources.entry(event.source().to_owned()).or_default(),
        };
        let from_start = self.from_start;
        let groups = &mut self.groups;
        let new_group = move || {
            *groups += 1;
            Group {
                next: from_start.then_some(1),
                ..Group::default()
            }
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
        group.used = self.pushes;
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
                    group.give_up(now, max_held, max_wait, partitionkey.as_deref(), ready);
                }
                self.held = self.held + group.held.len() - before;
                if self.held > self.max_held_total {
                    let keep = self.max_held_total - self.max_held_total / 8;
                    self.release_least_recent(keep);
                }
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
            for (key, group) in partitions.iter_mut() {
                if group.held.is_empty() || !due(group) {
                    continue;
                }
                released += group.release_all(source, key, ready);
            }
        }
        self.held -= released;
    }

    /// The groups in the order they are given up or forgotten: idle ones (nothing held) before
    /// those holding events, least recently used first; at most `count`, each named by its
    /// (source, partitionkey).
    fn least_recent(&self, count: usize, holding_only: bool) -> Vec<(String, Option<String>)> {
        let mut groups: Vec<(bool, u64, &str, Option<&str>)> = self
            .sources
            .iter()
            .flat_map(|(source, partitions)| {
                partitions.iter().map(move |(key, group)| {
                    (!group.held.is_empty(), group.used, source.as_str(), key)
                })
            })
            .filter(|(holding, ..)| *holding || !holding_only)
            .collect();
        let count = count.min(groups.len());
        if count == 0 {
            return Vec::new();
        }
        // Only the first `count` need sorting: a select, then a sort of those.
        let by_age = |g: &(bool, u64, &str, Option<&str>)| (g.0, g.1);
        groups.select_nth_unstable_by_key(count - 1, by_age);
        groups.truncate(count);
        groups.sort_unstable_by_key(by_age);
        groups
            .into_iter()
            .map(|(_, _, source, key)| (source.to_owned(), key.map(str::to_owned)))
            .collect()
    }

    /// Forgets the least recently used groups until `keep` are left (see
    /// [`max_groups`](Self::max_groups)); a group that holds events first gives up its gaps.
    fn forget_groups(&mut self, keep: usize) {
        let victims = self.least_recent(self.groups.saturating_sub(keep), false);
        for (source, key) in victims {
            let Some(partitions) = self.sources.get_mut(&source) else {
                continue;
            };
            if let Some(mut group) = partitions.remove(key.as_deref()) {
                self.held -= group.release_all(&source, key.as_deref(), &mut self.ready);
                self.groups -= 1;
            }
            if partitions.is_empty() {
                self.sources.remove(&source);
            }
        }
    }

    /// Gives up the gaps of the least recently used groups holding events until at most
    /// `keep` events are held (see [`max_held_total`](Self::max_held_total)).
    fn release_least_recent(&mut self, keep: usize) {
        let holding = self.least_recent(usize::MAX, true);
        for (source, key) in holding {
            if self.held <= keep {
                break;
            }
            let group = self
                .sources
                .get_mut(&source)
                .and_then(|partitions| match &key {
                    None => partitions.unkeyed.as_mut(),
                    Some(key) => partitions.keyed.get_mut(key),
                });
            if let Some(group) = group {
                self.held -= group.release_all(&source, key.as_deref(), &mut self.ready);
            }
        }
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
        // The one judgment `cloudevent validate --sequence` makes too: the half of the circle
        // behind the next number is delivered already (or given up on), the half from it on is
        // still to come.
        let missing = match SequenceValue::step(next, number) {
            SequenceStep::Behind { .. } => {
                ready.push_back(Ordered::Late(event));
                return;
            }
            SequenceStep::Next => {
                ready.push_back(Ordered::Deliver(event));
                self.advance(1);
                self.deliver_held(ready);
                return;
            }
            SequenceStep::Ahead { missing } => missing,
        };
        let slot = self.passed + u64::from(missing);
        if self.held.contains_key(&slot) {
            ready.push_back(Ordered::Late(event));
            return;
        }
        self.held.insert(slot, Held { event, at: now });
        self.oldest = Some(self.oldest.map_or(now, |oldest| oldest.min(now)));
    }

    /// Moves the next number `by` on, keeping its position on the buffer's line.
    fn advance(&mut self, by: u32) {
        self.next = self.next.map(|next| next.wrapping_add_unsigned(by));
        self.passed += u64::from(by);
    }

    /// Delivers the held events that now follow on without a hole.
    fn deliver_held(&mut self, ready: &mut VecDeque<Ordered<E>>) {
        let mut delivered = false;
        while let Some(entry) = self.held.first_entry() {
            if *entry.key() != self.passed {
                break;
            }
            ready.push_back(Ordered::Deliver(entry.remove().event));
            self.advance(1);
            delivered = true;
        }
        if self.held.is_empty() {
            self.passed = 0;
        } else if self.passed >= REBASE_AT {
            let passed = self.passed;
            self.held = std::mem::take(&mut self.held)
                .into_iter()
                .map(|(slot, held)| (slot - passed, held))
                .collect();
            self.passed = 0;
        }
        if delivered {
            self.oldest = self.held.values().map(|h| h.at).min();
        }
    }

    /// Reports the hole before the lowest held number and delivers from there.
    fn skip_to_first_held(
        &mut self,
        source: &str,
        partitionkey: Option<&str>,
        ready: &mut VecDeque<Ordered<E>>,
    ) {
        let (Some(next), Some((&slot, _))) = (self.next, self.held.first_key_value()) else {
            return;
        };
        // Every held key lies ahead of the position of `next` by less than half the circle:
        // it was ahead by less when it came, and the position only moves up to the lowest key.
        let missing = u32::try_from(slot - self.passed)
            .expect("a held event is less than half the circle ahead of the next number");
        let resumes_at = next.wrapping_add_unsigned(missing);
        ready.push_back(Ordered::Gap {
            source: source.to_owned(),
            partitionkey: partitionkey.map(str::to_owned),
            first_missing: next,
            missing,
            resumes_at,
        });
        self.advance(missing);
        self.deliver_held(ready);
    }

    /// Gives up on holes until the group is within its bounds again.
    fn give_up(
        &mut self,
        now: Instant,
        max_held: usize,
        max_wait: Duration,
        partitionkey: Option<&str>,
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

    /// Gives up on every hole; returns how many events were released.
    fn release_all(
        &mut self,
        source: &str,
        partitionkey: Option<&str>,
        ready: &mut VecDeque<Ordered<E>>,
    ) -> usize {
        let before = self.held.len();
        while !self.held.is_empty() {
            self.skip_to_first_held(source, partitionkey, ready);
        }
        before
    }
}
