//! The JSON batch format (CE-JSON 4, INTG-STD-015 R-10): a JSON array of complete events.

use std::io::Read;

use cloudevent_rules::rule;
use serde::Serialize;

use super::read_bounded;
use crate::any::AnyEvent;
use crate::error::FormatError;
use crate::limits;

/// The batch media type (R-10).
///
/// ```
/// assert!(cloudevent_runtime::BATCH_CONTENT_TYPE.starts_with("application/cloudevents-batch+json"));
/// ```
pub const BATCH_CONTENT_TYPE: &str = "application/cloudevents-batch+json; charset=utf-8";

/// Events received or sent together.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Attributes, Batch};
///
/// let batch = Batch::from_slice(b"[]").unwrap();
/// assert!(batch.is_empty());
///
/// let batch = Batch::from(vec![AnyEvent::new("1", "/s", "com.example.order.created")]);
/// let again = Batch::from_slice(&batch.to_vec()).unwrap();
/// assert_eq!(again[0].id(), "1");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Batch {
    events: Vec<AnyEvent>,
}

/// Why a document is not a batch: JSON that is not an array breaks the batch format (CE-JSON
/// 4), text that is not JSON at all the event format's first rule (INTG-STD-015 R-7). The
/// strict reader and the validator both call this, so they cite the same rule.
pub(crate) fn not_a_batch(error: &serde_json::Error) -> cloudevent_rules::Violation {
    if let Some(violation) = super::json::string_violation(error) {
        return violation;
    }
    match error.classify() {
        serde_json::error::Category::Data => cloudevent_rules::Violation::error(
            rule::CE_JSON_4,
            "batch",
            "",
            format!("is not a JSON array of events: {error}"),
        ),
        _ => cloudevent_rules::Violation::error(
            rule::INTG_R7,
            "batch",
            "",
            format!("is not JSON: {error}"),
        ),
    }
}

impl Batch {
    /// Parses a batch, refusing more than [`limits::MAX_BATCH_BYTES`] before reading
    /// (R-10). Each event is parsed on its own, with the 256 KiB event limit (R-11).
    ///
    /// ```
    /// use cloudevent_runtime::{Batch, FormatError};
    ///
    /// let err = Batch::from_slice(br#"[{"specversion":"1.0","id":"1","source":"/s","type":"t"}, {}]"#)
    ///     .unwrap_err();
    /// assert!(matches!(err, FormatError::InBatch { index: 1, .. }));
    /// ```
    ///
    /// # Errors
    /// [`FormatError::InBatch`] names the first invalid event's index.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, FormatError> {
        Self::decode_with::<super::Json>(bytes, &AnyEvent::DEFAULT_POLICY)
    }

    /// Reads a batch of at most [`limits::MAX_BATCH_BYTES`] (bounded reading).
    ///
    /// # Errors
    /// See [`Batch::from_slice`].
    ///
    /// ```
    /// use cloudevent_runtime::Batch;
    /// assert!(Batch::from_reader(&b"[]"[..]).unwrap().is_empty());
    /// assert!(Batch::from_reader(std::io::repeat(b' ')).is_err()); // stops at 1 MiB
    /// ```
    pub fn from_reader(reader: impl Read) -> Result<Self, FormatError> {
        let bytes = read_bounded(reader, limits::MAX_BATCH_BYTES, "batch", rule::INTG_R10)?;
        Self::from_slice(&bytes)
    }

    /// The batch in the JSON batch format.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Batch};
    /// let batch = Batch::from(vec![AnyEvent::new("1", "/s", "com.example.order.created")]);
    /// assert!(batch.to_vec().starts_with(b"[{"));
    /// assert_eq!(Batch::default().to_vec(), b"[]");
    /// ```
    pub fn to_vec(&self) -> Vec<u8> {
        serde_json::to_vec(self)
            .expect("a batch of AnyEvents always serializes to a Vec (see AnyEvent::to_vec)")
    }

    /// The length of [`Batch::to_vec`] in bytes, counted as the batch is written into
    /// nothing: no buffer of the batch's size is allocated. What the batch size limit (R-10)
    /// measures for a batch built in memory.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Batch};
    /// let batch = Batch::from(vec![AnyEvent::new("1", "/s", "com.example.order.created")]);
    /// assert_eq!(batch.serialized_len(), batch.to_vec().len());
    /// assert_eq!(Batch::default().serialized_len(), 2);
    /// ```
    pub fn serialized_len(&self) -> usize {
        let mut counter = ByteCounter(0);
        serde_json::to_writer(&mut counter, self).expect(
            "a batch of AnyEvents always serializes (see AnyEvent::to_vec) and counting bytes never fails",
        );
        counter.0
    }

    /// Adds an event.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Batch};
    /// let mut batch = Batch::default();
    /// batch.push(AnyEvent::new("1", "/s", "com.example.order.created"));
    /// assert_eq!(batch.len(), 1);
    /// ```
    pub fn push(&mut self, event: AnyEvent) {
        self.events.push(event);
    }
}

/// A writer that only counts the bytes written to it.
struct ByteCounter(usize);

impl std::io::Write for ByteCounter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl From<Vec<AnyEvent>> for Batch {
    fn from(events: Vec<AnyEvent>) -> Self {
        Batch { events }
    }
}

impl Serialize for Batch {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.events.serialize(serializer)
    }
}

/// The events, in batch order (which promises no delivery order, R-10): a batch reads as
/// a slice (`len`, `is_empty`, `iter`, indexing).
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Attributes, Batch};
/// let batch = Batch::from(vec![AnyEvent::new("1", "/s", "com.example.order.created")]);
/// assert_eq!(batch[0].id(), "1");
/// assert_eq!(batch.len(), 1);
/// assert!(!batch.is_empty());
/// assert!(Batch::from_slice(b"[]").unwrap().is_empty());
/// ```
impl std::ops::Deref for Batch {
    type Target = [AnyEvent];

    fn deref(&self) -> &[AnyEvent] {
        &self.events
    }
}

/// The events, owned.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Batch};
/// let batch = Batch::from(vec![AnyEvent::new("1", "/s", "com.example.order.created")]);
/// assert_eq!(Vec::from(batch).len(), 1);
/// ```
impl From<Batch> for Vec<AnyEvent> {
    fn from(batch: Batch) -> Self {
        batch.events
    }
}

impl IntoIterator for Batch {
    type Item = AnyEvent;
    type IntoIter = std::vec::IntoIter<AnyEvent>;

    fn into_iter(self) -> Self::IntoIter {
        self.events.into_iter()
    }
}
