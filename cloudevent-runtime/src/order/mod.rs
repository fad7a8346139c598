//! Order per (source, partitionkey): stamping `sequence`/`sequencetype` on the producer side
//! (the CloudEvents Sequence extension, carried by the NL GOV profile), and putting events
//! back in that order on the consumer side.
//!
//! INTG-STD-015 R-10: "Consumers MUST NOT assume ordering unless events share the same
//! partitionkey and include sequence values". So a producer that wants its events ordered
//! sets `partitionkey` (R-13 also makes it the Kafka key, one partition per key) and stamps a
//! `sequence`. Under `sequencetype: Integer` the value is a string-encoded i32 that starts at
//! `1`, grows by one each event and wraps from 2147483647 to -2147483648; the rules crate
//! checks that value at every door (`CE sequence`).
//!
//! - [`Sequencer`] stamps the next number of the event's (source, partitionkey) group; per
//!   source when the event has no `partitionkey`. The counters live in a [`SequenceStore`]:
//!   [`FileSequenceStore`] (a local append-only log, crash-safe: a restart continues with no
//!   gap and no reuse) or, behind feature `nats`, [`JetStreamSequenceStore`] (a JetStream
//!   key-value bucket, compare-and-set on the entry's revision, so producer replicas sharing a
//!   key never issue one number twice). A store that fails returns a [`SequenceError`] and
//!   the event is not stamped: nothing is sent with a number the store did not record.
//!
//! ```
//! use cloudevent_runtime::AnyEvent;
//! use cloudevent_runtime::Attributes as _;
//! use cloudevent_runtime::order::{FileSequenceStore, Sequencer};
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! let sequencer = Sequencer::new(FileSequenceStore::open(dir.path().join("sequence.log"))?);
//! let mut event = AnyEvent::new("01J0A", "https://orders.example.com", "com.example.order.created");
//! assert_eq!(sequencer.stamp(&mut event).await?, 1);
//! assert_eq!(event.extension_value("sequence").unwrap().as_str(), Some("1"));
//! assert_eq!(event.extension_value("sequencetype").unwrap().as_str(), Some("Integer"));
//! # Ok(()) }
//! ```

use std::future::Future;

use crate::attributes::Attributes;
use crate::error::BuildError;
use crate::extension::ExtensionValueBuf;

mod file;
pub use file::FileSequenceStore;

mod stage;
pub use stage::{DEFAULT_MAX_GROUPS, DEFAULT_MAX_HELD_TOTAL, Ordered, OrderingStage};

#[cfg(feature = "nats")]
mod nats;
#[cfg(feature = "nats")]
#[cfg_attr(docsrs, doc(cfg(feature = "nats")))]
pub use nats::JetStreamSequenceStore;

pub use cloudevent_rules::SEQUENCE_TYPE_INTEGER;

/// Why a number could not be issued; the event is left unstamped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SequenceError {
    /// The store's file could not be read, written or synced.
    #[error("sequence store {path}: {source}")]
    Io {
        /// The store's file.
        path: std::path::PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The store holds something that is not a counter (a hand-edited file, another
    /// program's key); nothing is issued for that key rather than a guess.
    #[error("sequence store: {0}")]
    Corrupt(String),
    /// The store is unreachable or refused the operation (a NATS outage).
    #[error("sequence store unavailable: {0}")]
    Unavailable(Box<dyn std::error::Error + Send + Sync>),
    /// Other replicas kept winning the compare-and-set on the key for every attempt.
    #[error("sequence store: lost the compare-and-set race {attempts} times in a row")]
    Contended {
        /// How many attempts were made.
        attempts: u32,
    },
    /// The event refused the stamp (its profile rejected the attribute).
    #[error(transparent)]
    Refused(#[from] BuildError),
}

/// Where a [`Sequencer`]'s counters live: one counter per (source, partitionkey) group.
///
/// `reserve` records the group's next number durably and only then returns it, so a number
/// returned is never returned again (not after a crash, not to another replica sharing the
/// store), and a number not returned was not recorded (no gap). The sequence starts at `1`
/// and wraps from `i32::MAX` to `i32::MIN` (the Sequence extension's `Integer`).
///
/// ```
/// use std::collections::HashMap;
/// use std::sync::Mutex;
/// use cloudevent_runtime::order::{SequenceError, SequenceStore};
///
/// /// In memory, for illustration: numbers restart after a restart.
/// #[derive(Default)]
/// struct Counters(Mutex<HashMap<(String, Option<String>), i32>>);
///
/// impl SequenceStore for Counters {
///     async fn reserve(&self, source: &str, partitionkey: Option<&str>) -> Result<i32, SequenceError> {
///         let mut counters = self.0.lock().unwrap();
///         let last = counters.entry((source.into(), partitionkey.map(Into::into))).or_insert(0);
///         *last = last.wrapping_add(1);
///         Ok(*last)
///     }
/// }
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// let counters = Counters::default();
/// assert_eq!(counters.reserve("/orders", None).await.unwrap(), 1);
/// assert_eq!(counters.reserve("/orders", None).await.unwrap(), 2);
/// assert_eq!(counters.reserve("/orders", Some("o-1")).await.unwrap(), 1);
/// # }
/// ```
pub trait SequenceStore {
    /// Records and returns the next number of the group (`1` for a new group).
    ///
    /// # Errors
    /// When the store cannot record it; then no number was issued.
    fn reserve(
        &self,
        source: &str,
        partitionkey: Option<&str>,
    ) -> impl Future<Output = Result<i32, SequenceError>> + Send;
}

impl<S: SequenceStore + Sync + ?Sized> SequenceStore for &S {
    fn reserve(
        &self,
        source: &str,
        partitionkey: Option<&str>,
    ) -> impl Future<Output = Result<i32, SequenceError>> + Send {
        (**self).reserve(source, partitionkey)
    }
}

impl<S: SequenceStore + Send + Sync + ?Sized> SequenceStore for std::sync::Arc<S> {
    fn reserve(
        &self,
        source: &str,
        partitionkey: Option<&str>,
    ) -> impl Future<Output = Result<i32, SequenceError>> + Send {
        (**self).reserve(source, partitionkey)
    }
}

/// Stamps `sequence` and `sequencetype: Integer` on events, per (source, partitionkey),
/// through a [`SequenceStore`]. Works on anything with [`Attributes`]: an
/// [`Event<T>`](crate::Event) from `Event::new`/the builder, or an
/// [`AnyEvent`](crate::AnyEvent), before it goes to any sender.
///
/// ```
/// # use cloudevent_runtime::{CloudEvent, Event};
/// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
/// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
/// # struct OrderCreated { #[cloudevent(subject)] order_id: String }
/// use cloudevent_runtime::order::{FileSequenceStore, Sequencer};
///
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let dir = tempfile::tempdir()?;
/// let sequencer = Sequencer::new(FileSequenceStore::open(dir.path().join("seq.log"))?);
/// let order = |id: &str| OrderCreated { order_id: id.into() };
/// let mut first = Event::new(order("o-1")).with_extension("partitionkey", "o-1")?;
/// let mut second = Event::new(order("o-1")).with_extension("partitionkey", "o-1")?;
/// let mut other = Event::new(order("o-2")).with_extension("partitionkey", "o-2")?;
/// assert_eq!(sequencer.stamp(&mut first).await?, 1);
/// assert_eq!(sequencer.stamp(&mut second).await?, 2);
/// assert_eq!(sequencer.stamp(&mut other).await?, 1); // another key, another count
/// assert_eq!(second.extension("sequence"), Some("2".into()));
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Sequencer<S> {
    store: S,
}

impl<S: SequenceStore> Sequencer<S> {
    /// A sequencer over `store`.
    pub fn new(store: S) -> Self {
        Sequencer { store }
    }

    /// Reserves the next number of the event's group and writes it as `sequence` (with
    /// `sequencetype: Integer`); returns the number.
    ///
    /// # Errors
    /// The store's [`SequenceError`], the event unchanged.
    pub async fn stamp<E: Attributes + ?Sized>(&self, event: &mut E) -> Result<i32, SequenceError> {
        let partitionkey = match event.extension_value("partitionkey") {
            Some(value) => value.as_str().map(str::to_owned),
            None => None,
        };
        let number = self
            .store
            .reserve(event.source(), partitionkey.as_deref())
            .await?;
        event.set_extension(
            "sequencetype",
            ExtensionValueBuf::String(SEQUENCE_TYPE_INTEGER.to_owned()),
        )?;
        event.set_extension("sequence", ExtensionValueBuf::String(number.to_string()))?;
        Ok(number)
    }
}

/// The number after `last`, with the Integer sequence's wrap from `i32::MAX` to `i32::MIN`;
/// `None` (a new group) is followed by `1`.
pub(crate) fn next_after(last: Option<i32>) -> i32 {
    last.map_or(1, cloudevent_rules::SequenceValue::successor)
}

/// One text for a (source, partitionkey) group, usable as a file record or a JetStream KV
/// key (`[-_=.a-zA-Z0-9]`): the source's length first, so `("ab", "c")` and `("a", "bc")`
/// differ, and without a partitionkey a different shape from any with one.
pub(crate) fn group_key(source: &str, partitionkey: Option<&str>) -> String {
    use base64::Engine as _;
    let mut raw = Vec::with_capacity(source.len() + partitionkey.map_or(0, str::len) + 12);
    raw.extend_from_slice(source.len().to_string().as_bytes());
    raw.push(b':');
    raw.extend_from_slice(source.as_bytes());
    if let Some(key) = partitionkey {
        raw.push(b'|');
        raw.extend_from_slice(key.as_bytes());
    }
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_starts_at_one_and_wraps() {
        assert_eq!(next_after(None), 1);
        assert_eq!(next_after(Some(1)), 2);
        assert_eq!(next_after(Some(i32::MAX)), i32::MIN);
        assert_eq!(next_after(Some(-1)), 0);
    }

    #[test]
    fn group_keys_separate_source_and_partitionkey() {
        assert_ne!(group_key("ab", Some("c")), group_key("a", Some("bc")));
        assert_ne!(group_key("a", None), group_key("a", Some("")));
        assert!(
            group_key("https://x.example/a b", Some("é"))
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
    }
}
