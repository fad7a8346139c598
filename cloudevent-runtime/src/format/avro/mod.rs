//! The CloudEvents Avro event format 1.0.2 (`application/cloudevents+avro`), behind the
//! `avro` feature.
//!
//! One event is one Avro datum of the format's record schema ([`SCHEMA`], transcribed from
//! the CloudEvents specification, `cloudevents/formats/avro-format.md` §2.4 and its
//! `cloudevents.avsc`): an `attribute` map whose values are a union of `null`, `boolean`,
//! `int`, `string` and `bytes`, holding every context attribute (`specversion` included),
//! and a `data` union. The datum is written without a container file or a schema
//! fingerprint: the schema is fixed by the media type. The format defines no batch.
//!
//! How `data` travels (CE-Avro 3):
//!
//! | event data | Avro `data` |
//! |---|---|
//! | none | `null` |
//! | bytes ([`Data::Binary`](crate::Data::Binary), `data_base64` in JSON) | `bytes` |
//! | text under a non-JSON `datacontenttype` | `string` |
//! | JSON under a JSON `datacontenttype` | `string` holding the JSON text |
//! | JSON without a `datacontenttype` | the schema's JSON representation: `boolean`, `double`, `string`, a map of members, an array of `CloudEventData` records |
//!
//! The JSON representation holds numbers as doubles, arrays only of objects and, below the
//! first level, objects only of objects; other JSON without a `datacontenttype` is refused
//! by the writer (set `application/json` and it travels as text). An Avro `null` is no
//! data, so a JSON `null` payload without a `datacontenttype` comes back as none.
//! Extension values of type URI, URI-reference and Timestamp are Avro strings, as in JSON.
//!
//! The reader is as strict as the JSON reader, and is the same reader: the decoded members
//! go through the JSON reader's visitor and the policy's one envelope check. On top of it:
//! input over [`limits::MAX_EVENT_BYTES`] is refused before decoding (INTG-STD-015 R-11); a
//! truncated datum, trailing bytes, an unknown union branch, a length or count that the
//! input cannot hold (no allocation follows a forged length), an `int` outside 32 bits and
//! data nesting deeper than 100 levels are errors naming the field and `CE-Avro 2.4`,
//! `CE-Avro 3` or `CE 1.0.2 type system`.
//!
//! Not implemented: the Avro *compact* format (`application/cloudevents+avro-compact`). In
//! the CloudEvents specification it is still `1.0.3-wip`, in no released version; it was
//! renamed from the "turbo" draft and moved out of the working drafts recently; its schema
//! gives the `bytes`/`null` data union the default `"null"` (a string, so a default of the
//! four bytes `null`), and its `time` is `timestamp-micros`, which cannot carry the
//! nanoseconds an RFC 3339 `time` may hold. Worth adding once a release fixes it.
//!
//! [`Validator::validate_avro`](crate::Validator::validate_avro) runs the same reader
//! collecting every finding, as `validate_slice` does for JSON.
//!
//! The codec is written for this one schema rather than on the `apache-avro` crate, whose
//! generic reader keeps maps in a `HashMap` (a repeated attribute would vanish and the order
//! that decides the first error would be random) and recurses without a depth limit (the
//! schema's recursive `CloudEventData` record overflows the stack within 256 KiB). The
//! tests hold it to `apache-avro` and to Python's `fastavro` on the same schema.
//!
//! ```
//! use cloudevent_runtime::{AnyEvent, avro};
//!
//! let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
//! event.extensions_mut().insert("hops", 2);
//! let bytes = avro::encode(&event).unwrap();
//! let back = avro::decode(&bytes, &AnyEvent::DEFAULT_POLICY).unwrap();
//! assert_eq!(back, event);
//! ```

use serde::de::DeserializeOwned;

use crate::any::AnyEvent;
use crate::error::{BuildError, FormatError};
use crate::event::{Event, TypedData};
use crate::format::RawData;
use crate::{CloudEventData, Policy, limits};

mod data;
pub(crate) mod record;
mod typed;
mod wire;

/// The media type of one event in the Avro format (CE-Avro 4).
pub const MEDIA_TYPE: &str = "application/cloudevents+avro";

/// The format's record schema (CE-Avro 2.4), as Avro schema JSON: what a peer compiles to
/// read and write these bytes.
///
/// ```
/// assert!(cloudevent_runtime::avro::SCHEMA.contains(r#""name": "CloudEventData""#));
/// ```
pub const SCHEMA: &str = include_str!("cloudevents.avsc");

/// Writes one event as an Avro datum of [`SCHEMA`].
///
/// # Errors
/// Only for JSON data without a `datacontenttype` that the schema's JSON representation
/// cannot hold (`CE-Avro 3`): an array of non-objects, an integer beyond 2^53, ...
///
/// ```
/// use cloudevent_runtime::{AnyEvent, avro};
/// let event = AnyEvent::new("1", "/orders", "com.example.order.created");
/// assert_eq!(avro::encode(&event).unwrap()[0], 8); // four attributes, zig-zag encoded
/// ```
pub fn encode(event: &AnyEvent) -> Result<Vec<u8>, FormatError> {
    record::write(event).map_err(FormatError::Invalid)
}

/// Reads one event from an Avro datum of [`SCHEMA`] under `policy`, stopping at the first
/// error; input over [`limits::MAX_EVENT_BYTES`] is refused before decoding.
///
/// # Errors
/// See the [module documentation](self) and [`FormatError`].
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Policy, Profile, avro};
///
/// let event = AnyEvent::new("1", "https://localhost:8080/orders", "com.example.order.created");
/// let bytes = avro::encode(&event).unwrap();
/// assert!(avro::decode(&bytes, &AnyEvent::DEFAULT_POLICY).is_ok());
/// let err = avro::decode(&bytes, &Policy::new(Profile::IntgStd015)).unwrap_err();
/// assert_eq!(err.attribute(), Some("source"));
/// let err = avro::decode(&bytes[..bytes.len() - 1], &AnyEvent::DEFAULT_POLICY).unwrap_err();
/// assert_eq!(err.rule().map(|r| r.as_str()), Some("CE-Avro 2.4"));
/// ```
pub fn decode(bytes: &[u8], policy: &Policy) -> Result<AnyEvent, FormatError> {
    check_size(bytes)?;
    let record = record::parse(bytes).map_err(FormatError::Invalid)?;
    let mut quoted = None;
    let (envelope, data) = record::read(&record, &mut quoted, RawData::default(), None, policy)?;
    Ok(AnyEvent::from_envelope(envelope, data))
}

fn check_size(bytes: &[u8]) -> Result<(), FormatError> {
    if bytes.len() > limits::MAX_EVENT_BYTES {
        return Err(FormatError::TooLarge {
            what: "event",
            found: bytes.len(),
            limit: limits::MAX_EVENT_BYTES,
            rule: cloudevent_rules::rule::INTG_R11,
        });
    }
    Ok(())
}

impl AnyEvent {
    /// Reads one event in the Avro format ([`avro::decode`](decode)) under
    /// [`AnyEvent::DEFAULT_POLICY`].
    ///
    /// # Errors
    /// See [`FormatError`].
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let event = AnyEvent::new("1", "/orders", "com.example.order.created");
    /// assert_eq!(AnyEvent::from_avro(&event.to_avro().unwrap()).unwrap(), event);
    /// ```
    pub fn from_avro(bytes: &[u8]) -> Result<Self, FormatError> {
        decode(bytes, &Self::DEFAULT_POLICY)
    }

    /// Reads one event in the Avro format under `policy`.
    ///
    /// # Errors
    /// See [`FormatError`].
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Policy, Profile};
    /// let event = AnyEvent::new("1", "/orders", "com.example.Order.created");
    /// let err = AnyEvent::from_avro_with(&event.to_avro().unwrap(), &Policy::new(Profile::IntgStd015))
    ///     .unwrap_err();
    /// assert_eq!(err.attribute(), Some("type"));
    /// ```
    pub fn from_avro_with(bytes: &[u8], policy: &Policy) -> Result<Self, FormatError> {
        decode(bytes, policy)
    }

    /// The event in the Avro format ([`avro::encode`](encode)).
    ///
    /// # Errors
    /// JSON data without a `datacontenttype` that the schema cannot represent (`CE-Avro 3`).
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/s",
    ///     "type":"com.example.order.created","data":{"n":1,"order":{"id":"o-1"}}}"#).unwrap();
    /// assert_eq!(AnyEvent::from_avro(&event.to_avro().unwrap()).unwrap(), event);
    /// let list = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/s",
    ///     "type":"com.example.order.created","data":[1,2]}"#).unwrap();
    /// assert_eq!(list.to_avro().unwrap_err().rule().map(|r| r.as_str()), Some("CE-Avro 3"));
    /// ```
    pub fn to_avro(&self) -> Result<Vec<u8>, FormatError> {
        encode(self)
    }
}

impl<T: CloudEventData> Event<T> {
    /// Reads an event of type `T` in the Avro format under `T`'s policy
    /// ([`Event::<T>::POLICY`](Event::POLICY)); another `type` is refused before `data` is
    /// read. JSON data (a string under a JSON `datacontenttype`, or the schema's JSON
    /// representation) is read into `T` with serde; text and bytes as `from_slice` reads them.
    ///
    /// # Errors
    /// See [`FormatError`].
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String, #[cloudevent(extension)] region: String }
    /// let order = OrderCreated { order_id: "order-1".into(), region: "eu".into() };
    /// let bytes = Event::new(order).to_avro().unwrap();
    /// let event = Event::<OrderCreated>::from_avro(&bytes).unwrap();
    /// assert_eq!(event.data().order_id, "order-1");
    /// ```
    pub fn from_avro(bytes: &[u8]) -> Result<Self, FormatError>
    where
        T: DeserializeOwned,
    {
        check_size(bytes)?;
        let record = record::parse(bytes).map_err(FormatError::Invalid)?;
        let mut quoted = None;
        let (envelope, data) = record::read(
            &record,
            &mut quoted,
            TypedData::<T>::default(),
            Some(crate::format::json::Expected::of::<T>()),
            &Self::POLICY,
        )?;
        Event::from_envelope(envelope, data).map_err(FormatError::Invalid)
    }

    /// The event in the Avro format: a JSON payload as a string under its JSON
    /// `datacontenttype`, text as a string, bytes as bytes; the event
    /// [`avro::encode`](encode) writes for [`Event::to_any`], without building the
    /// `AnyEvent` (extensions in the order `Event<T>` writes them).
    ///
    /// # Errors
    /// When the payload cannot be serialized (see [`Event::to_vec`]).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// # struct Ping { n: u32 }
    /// let bytes = Event::new(Ping { n: 7 }).to_avro().unwrap();
    /// assert_eq!(Event::<Ping>::from_avro(&bytes).unwrap().data(), &Ping { n: 7 });
    /// ```
    pub fn to_avro(&self) -> Result<Vec<u8>, BuildError>
    where
        T: serde::Serialize,
    {
        typed::write(self).map_err(|error| BuildError::Payload(error.0))
    }
}

#[cfg(test)]
mod tests;
