//! The event formats: one sealed trait, [`EventFormat`], and one implementation a format:
//! [`Json`] (CloudEvents JSON Event Format 1.0.2, with its batch format), `Protobuf`
//! (feature `protobuf`) and `Avro` (feature `avro`).
//!
//! Every door is written once here, generic over the format: [`AnyEvent::decode`],
//! [`AnyEvent::decode_with`], [`AnyEvent::encode`], [`Event::decode`], [`Event::encode`],
//! [`Batch::decode`], [`Batch::decode_with`], [`Batch::encode`] and the validator's
//! [`Validator::validate_bytes`](crate::Validate::validate_bytes). The size limits are
//! checked in the door, before a format sees a byte; a format only reads into the shared
//! reader (the JSON reader's `EventSeed` and its policy check) and writes. Adding a format is one
//! folder holding one `impl EventFormat`, and one variant of the bindings' run-time
//! selector, `binding::StructuredFormat`.
//!
//! `from_slice` and `to_vec` stay as the JSON shortcuts.

use std::io::Read;

use cloudevent_rules::{Policy, Profile, Violation, rule};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::any::{AnyEvent, Data};
use crate::error::{BuildError, FormatError};
use crate::{CloudEventData, Event, limits};

mod any;
pub(crate) use any::Fields;
#[cfg(feature = "avro")]
pub mod avro;
pub(crate) mod batch;
pub(crate) mod json;
mod json_format;
// Used by the registry's differential tests only.
#[cfg(all(test, feature = "registry"))]
pub(crate) use json_format::WALK_IN_READER;
pub(crate) use json_format::walks_members_in_reader;
#[cfg(feature = "protobuf")]
pub mod protobuf;
mod typed;

pub(crate) use any::RawData;
use batch::Batch;
pub use json_format::Json;
pub(crate) use typed::TypedData;

/// The crate-private half of [`EventFormat`]: what a format does, in the crate's own types.
/// Being private, it seals the trait (no format outside this crate) and keeps these
/// functions out of the public API.
#[allow(
    private_interfaces,
    private_bounds,
    reason = "the sealed trait is unnameable outside the crate, so the batch memo and report types it names never leave it"
)]
pub(crate) mod sealed {
    use super::*;

    pub trait Format {
        /// Reads one event, whose size the door checked, stopping at the first error of the
        /// format or of `policy`; `memo` is a batch's memory of what the previous event
        /// passed with (`json::BatchMemo`).
        fn read_any(
            bytes: &[u8],
            policy: &Policy,
            memo: Option<&mut json::BatchMemo>,
        ) -> Result<AnyEvent, FormatError>;

        /// Reads one event of type `T` under `Event::<T>::POLICY`, refusing another `type`
        /// before the policy runs (`json::Expected::of::<T>()`).
        fn read_typed<T: CloudEventData + DeserializeOwned>(
            bytes: &[u8],
        ) -> Result<Event<T>, FormatError>;

        /// Writes one event.
        fn write_any(event: &AnyEvent) -> Result<Vec<u8>, FormatError>;

        /// Writes one typed event (a format may write it without building an `AnyEvent`).
        fn write_typed<T: CloudEventData + Serialize>(
            event: &Event<T>,
        ) -> Result<Vec<u8>, BuildError>;

        /// Hands `each` the events of a batch in order, each still encoded, as they are
        /// found, until `each` returns `false`; the rest of the batch is then only checked
        /// and counted. The number of events, or why the input is not a batch (checked
        /// whole, so a batch broken after its first event is still refused as a batch);
        /// `None` for a format without a batch. No list of the events is built: a batch of
        /// 349,000 `{}` once took 8 MB of slices before its first event was read.
        fn each_in_batch<'a>(
            bytes: &'a [u8],
            each: &mut dyn FnMut(&'a [u8]) -> bool,
        ) -> Option<Result<usize, Box<Violation>>>;

        /// Writes a batch; `None` for a format without a batch.
        fn write_batch(events: &[AnyEvent]) -> Option<Result<Vec<u8>, FormatError>>;

        /// The validator's read of one event, whose size the door checked: the same reader,
        /// collecting every finding instead of stopping, with the data it read (for the
        /// registry's schema check), and where the findings of the walk for members named
        /// twice in JSON `data` (RFC 8259 4) go in the report when the reader left that walk
        /// to the validator (`None`: walked already, or no JSON `data`).
        fn validate<R: Report>(bytes: &[u8], policy: &Policy) -> (R, Option<Data>, Option<usize>);
    }
}

/// What the validator's read of one event produces: a report on the attributes read, or on
/// input that could not be read as an event. Implemented by the validator's
/// `ValidationReport`, so the formats do not depend on the validator.
pub(crate) trait Report {
    /// A report on an event whose attributes could be read, with every finding.
    fn read(
        profile: Profile,
        view: &cloudevent_rules::Envelope<'_>,
        findings: Vec<Violation>,
    ) -> Self;
    /// A report on input that could not be read as an event at all.
    fn refused(profile: Profile, findings: Vec<Violation>) -> Self;
    /// The type URL of data the Protobuf format read from `proto_data`, for a read that
    /// keeps the event (the axum gateway's); a report alone has no use for it.
    #[cfg_attr(
        not(feature = "protobuf"),
        allow(dead_code, reason = "only the Protobuf format reads a type URL")
    )]
    fn protobuf_type_url(&mut self, _url: Option<String>) {}
}

/// A CloudEvents event format: its media types, and (crate-private, through its sealed
/// supertrait) how it reads and writes. Implemented by [`Json`], `Protobuf` (feature
/// `protobuf`) and `Avro` (feature `avro`); the trait is sealed.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, EventFormat, Json};
///
/// fn round_trip<F: EventFormat>(event: &AnyEvent) -> AnyEvent {
///     AnyEvent::decode::<F>(&event.encode::<F>().unwrap()).unwrap()
/// }
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// assert_eq!(round_trip::<Json>(&event), event);
/// assert_eq!(Json::MEDIA_TYPE, "application/cloudevents+json");
/// assert_eq!(Json::BATCH_MEDIA_TYPE, Some("application/cloudevents-batch+json"));
/// ```
pub trait EventFormat: sealed::Format {
    /// The media type of one event, without parameters.
    const MEDIA_TYPE: &'static str;
    /// The content type a sender sets for one event (JSON with its `charset`).
    const CONTENT_TYPE: &'static str;
    /// The media type of a batch, without parameters; `None` for a format whose
    /// specification defines no batch.
    const BATCH_MEDIA_TYPE: Option<&'static str>;
    /// The content type a sender sets for a batch; `None` without a batch format.
    const BATCH_CONTENT_TYPE: Option<&'static str>;
}

/// Reads a [`dispatch!`](crate::dispatch) enum, or any type built from an [`AnyEvent`]
/// (`TryFrom<AnyEvent>`), from one event in any format: [`AnyEvent::decode`] (the size limit,
/// the format's rules and the policy check), then the type's `TryFrom<AnyEvent>` (the event
/// type picks the variant; a Protobuf payload is read from `proto_data`). Generated
/// registries' `RegistryEvent` read every format with it.
///
/// ```
/// use cloudevent_runtime::{Attributes, dispatch, AnyEvent, CloudEvent, Event, FromFormat, Json};
///
/// #[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
/// #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
/// struct OrderCreated { #[cloudevent(subject)] order_id: String }
///
/// dispatch! { enum Inbox { Created(OrderCreated) } }
///
/// let bytes = Event::new(OrderCreated { order_id: "order-1".into() }).encode::<Json>().unwrap();
/// match Inbox::decode::<Json>(&bytes).unwrap() {
///     Inbox::Created(event) => assert_eq!(event.data().order_id, "order-1"),
///     Inbox::Other(any) => panic!("not dispatched: {}", any.ty()),
/// }
/// let other = AnyEvent::new("2", "https://orders.example.com", "com.example.order.shipped");
/// assert!(matches!(Inbox::decode::<Json>(&other.to_vec()), Ok(Inbox::Other(_))));
/// assert!(Inbox::decode::<Json>(b"[").is_err());
/// ```
pub trait FromFormat: Sized {
    /// Reads one event in the format `F` as `Self`.
    ///
    /// # Errors
    /// What [`AnyEvent::decode`] refuses, then what `Self`'s `TryFrom<AnyEvent>` refuses (a
    /// payload that does not read as its variant's type).
    fn decode<F: EventFormat>(bytes: &[u8]) -> Result<Self, FormatError>;
}

impl<T> FromFormat for T
where
    T: TryFrom<AnyEvent, Error = FormatError>,
{
    fn decode<F: EventFormat>(bytes: &[u8]) -> Result<Self, FormatError> {
        T::try_from(AnyEvent::decode::<F>(bytes)?)
    }
}

/// The event size limit (INTG-STD-015 R-11), checked by every door before a format reads.
pub(crate) fn check_event_size(bytes: &[u8]) -> Result<(), FormatError> {
    if bytes.len() > limits::MAX_EVENT_BYTES {
        return Err(FormatError::TooLarge {
            what: "event",
            found: bytes.len(),
            limit: limits::MAX_EVENT_BYTES,
            rule: rule::INTG_R11,
        });
    }
    Ok(())
}

/// The refusal of a batch in a format that defines none (the Avro format): INTG-STD-015
/// R-10 names the batch formats a producer may send, and this format has none.
pub(crate) fn no_batch<F: EventFormat>() -> Violation {
    Violation::error(
        rule::INTG_R10,
        "batch",
        F::MEDIA_TYPE,
        "this event format defines no batch format; send the events one by one",
    )
}

impl AnyEvent {
    /// Reads one event in the format `F` under [`AnyEvent::DEFAULT_POLICY`], refusing more
    /// than [`limits::MAX_EVENT_BYTES`] before reading (INTG-STD-015 R-11).
    ///
    /// # Errors
    /// The first thing that makes the input not a valid event, naming the attribute and the
    /// rule: see [`FormatError`].
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Attributes, Json};
    /// let event = AnyEvent::decode::<Json>(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created"}"#).unwrap();
    /// assert_eq!(event.id(), "1");
    /// assert!(AnyEvent::decode::<Json>(br#"{"specversion":"1.0"}"#).is_err());
    /// ```
    pub fn decode<F: EventFormat>(bytes: &[u8]) -> Result<Self, FormatError> {
        Self::decode_with::<F>(bytes, &Self::DEFAULT_POLICY)
    }

    /// Reads one event in the format `F` under a policy: the same reader, stopping at the
    /// first error the policy finds (its rule ids, its severities).
    ///
    /// # Errors
    /// See [`AnyEvent::decode`].
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Json, Policy, Profile};
    /// let json = br#"{"specversion":"1.0","id":"1","source":"https://localhost:8080/orders",
    ///     "type":"com.example.order.created"}"#;
    /// assert!(AnyEvent::decode::<Json>(json).is_ok());
    /// let err = AnyEvent::decode_with::<Json>(json, &Policy::new(Profile::IntgStd015)).unwrap_err();
    /// assert_eq!(err.attribute(), Some("source"));
    /// ```
    pub fn decode_with<F: EventFormat>(bytes: &[u8], policy: &Policy) -> Result<Self, FormatError> {
        check_event_size(bytes)?;
        F::read_any(bytes, policy, None)
    }

    /// The event in the format `F`.
    ///
    /// # Errors
    /// An event the format cannot carry (Avro: JSON data without a `datacontenttype` that
    /// its schema's JSON representation cannot hold, `CE-Avro 3`).
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Json};
    /// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
    /// assert_eq!(event.encode::<Json>().unwrap(), event.to_vec());
    /// ```
    pub fn encode<F: EventFormat>(&self) -> Result<Vec<u8>, FormatError> {
        F::write_any(self)
    }
}

impl<T: CloudEventData> Event<T> {
    /// Reads an event of type `T` in the format `F` under [`Event::POLICY`], refusing more
    /// than [`limits::MAX_EVENT_BYTES`] before reading. Another `type` is refused before the
    /// policy runs; the data is read into `T` with serde (for a payload that is itself a
    /// Protobuf message, see `protobuf::decode_message`).
    ///
    /// # Errors
    /// See [`FormatError`]; a different `type` names both.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event, Json};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String }
    /// let event = Event::new(OrderCreated { order_id: "order-1".into() });
    /// let back = Event::<OrderCreated>::decode::<Json>(&event.encode::<Json>().unwrap()).unwrap();
    /// assert_eq!(back, event);
    /// let err = Event::<OrderCreated>::decode::<Json>(br#"{"specversion":"1.0"}"#).unwrap_err();
    /// assert_eq!(err.attribute(), Some("id"));
    /// ```
    pub fn decode<F: EventFormat>(bytes: &[u8]) -> Result<Self, FormatError>
    where
        T: DeserializeOwned,
    {
        check_event_size(bytes)?;
        F::read_typed::<T>(bytes)
    }

    /// The event in the format `F`, its serde payload as the format's data.
    ///
    /// # Errors
    /// When the payload cannot be serialized (see [`Event::to_vec`]).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event, Json};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping { n: u32 }
    /// let event = Event::new(Ping { n: 7 });
    /// assert_eq!(event.encode::<Json>().unwrap(), event.to_vec().unwrap());
    /// ```
    pub fn encode<F: EventFormat>(&self) -> Result<Vec<u8>, BuildError>
    where
        T: Serialize,
    {
        F::write_typed(self)
    }
}

impl Batch {
    /// Reads a batch in `F`'s batch format under [`AnyEvent::DEFAULT_POLICY`].
    ///
    /// # Errors
    /// See [`Batch::decode_with`].
    ///
    /// ```
    /// use cloudevent_runtime::{Batch, Json};
    /// assert!(Batch::decode::<Json>(b"[]").unwrap().is_empty());
    /// ```
    pub fn decode<F: EventFormat>(bytes: &[u8]) -> Result<Self, FormatError> {
        Self::decode_with::<F>(bytes, &AnyEvent::DEFAULT_POLICY)
    }

    /// Reads a batch in `F`'s batch format under a policy, refusing more than
    /// [`limits::MAX_BATCH_BYTES`] before reading (R-10). Each event is read as
    /// [`AnyEvent::decode_with`] reads it, with the 256 KiB event limit (R-11).
    ///
    /// # Errors
    /// [`FormatError::InBatch`] names the first invalid event's index; a format without a
    /// batch format (Avro) refuses every batch.
    ///
    /// ```
    /// use cloudevent_runtime::{Batch, FormatError, Json, Policy, Profile};
    ///
    /// let json = br#"[{"specversion":"1.0","id":"1","source":"https://localhost:8080/x",
    ///     "type":"com.example.order.created"}]"#;
    /// assert!(Batch::decode::<Json>(json).is_ok());
    /// let err = Batch::decode_with::<Json>(json, &Policy::new(Profile::IntgStd015)).unwrap_err();
    /// assert!(matches!(err, FormatError::InBatch { index: 0, .. }));
    /// ```
    pub fn decode_with<F: EventFormat>(bytes: &[u8], policy: &Policy) -> Result<Self, FormatError> {
        if bytes.len() > limits::MAX_BATCH_BYTES {
            return Err(FormatError::TooLarge {
                what: "batch",
                found: bytes.len(),
                limit: limits::MAX_BATCH_BYTES,
                rule: rule::INTG_R10,
            });
        }
        // Events of one batch mostly share `source`, `type` and `dataschema`: what passed
        // once under this policy is not checked again (see `json::BatchMemo`).
        let mut memo = json::BatchMemo::default();
        // Grown as events are read: reading stops at the first invalid one, so a hostile
        // batch of 349,000 `{}` reserves nothing for events it never reads
        // (`tests/tests/hostile_input.rs`).
        let mut events = Vec::new();
        let mut failed = None;
        let scanned = F::each_in_batch(bytes, &mut |element| {
            let event = check_event_size(element)
                .and_then(|()| F::read_any(element, policy, Some(&mut memo)));
            match event {
                Ok(event) => {
                    events.push(event);
                    true
                }
                Err(error) => {
                    failed = Some(FormatError::InBatch {
                        index: events.len(),
                        source: Box::new(error),
                    });
                    false
                }
            }
        })
        .unwrap_or_else(|| Err(Box::new(no_batch::<F>())));
        // A batch that is not one (broken after its first invalid event too) is refused as
        // such, as when the whole batch was split first.
        scanned.map_err(FormatError::Invalid)?;
        if let Some(error) = failed {
            return Err(error);
        }
        Ok(Batch::from(events))
    }

    /// The batch in `F`'s batch format.
    ///
    /// # Errors
    /// A format without a batch format (Avro); an event the format cannot carry.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Batch, Json};
    /// let batch = Batch::from(vec![AnyEvent::new("1", "/s", "com.example.order.created")]);
    /// assert_eq!(batch.encode::<Json>().unwrap(), batch.to_vec());
    /// ```
    pub fn encode<F: EventFormat>(&self) -> Result<Vec<u8>, FormatError> {
        F::write_batch(self).unwrap_or_else(|| Err(no_batch::<F>().into()))
    }
}

/// Reads at most `limit` bytes, failing when there are more.
pub(crate) fn read_bounded(
    reader: impl Read,
    limit: usize,
    what: &'static str,
    rule: cloudevent_rules::RuleId,
) -> Result<Vec<u8>, FormatError> {
    let mut bytes = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    reader.take(cap).read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        return Err(FormatError::TooLarge {
            what,
            found: bytes.len(),
            limit,
            rule,
        });
    }
    Ok(bytes)
}
