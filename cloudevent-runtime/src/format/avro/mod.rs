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
//! input over [`limits::MAX_EVENT_BYTES`](crate::limits::MAX_EVENT_BYTES) is refused before decoding (INTG-STD-015 R-11); a
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
//! [`Validator::validate_bytes`](crate::Validate::validate_bytes)`::<Avro>` runs the same
//! reader collecting every finding, as it does for JSON and Protobuf.
//!
//! The codec is written for this one schema rather than on the `apache-avro` crate, whose
//! generic reader keeps maps in a `HashMap` (a repeated attribute would vanish and the order
//! that decides the first error would be random) and recurses without a depth limit (the
//! schema's recursive `CloudEventData` record overflows the stack within 256 KiB). The
//! tests hold it to `apache-avro` and to Python's `fastavro` on the same schema.
//!
//! ```
//! use cloudevent_runtime::{AnyEvent, Avro, Batch};
//!
//! let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
//! event.extensions_mut().insert("hops", 2);
//! let bytes = event.encode::<Avro>().unwrap();
//! assert_eq!(bytes[0], 10); // five attributes, zig-zag encoded
//! let back = AnyEvent::decode::<Avro>(&bytes).unwrap();
//! assert_eq!(back, event);
//! // The format defines no batch.
//! assert!(Batch::from(vec![event]).encode::<Avro>().is_err());
//! ```

use cloudevent_rules::{Policy, Violation};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::CloudEventData;
use crate::any::{AnyEvent, Data};
use crate::error::{BuildError, FormatError};
use crate::event::Event;
use crate::format::TypedData;
use crate::format::json::{self, Findings};
use crate::format::{EventFormat, RawData, Report, sealed};

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

/// The CloudEvents Avro event format (see the [module documentation](self)): one datum of
/// [`SCHEMA`], without a container file. It defines no batch.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Avro, EventFormat, Policy, Profile};
///
/// let event = AnyEvent::new("1", "https://localhost:8080/orders", "com.example.order.created");
/// let bytes = event.encode::<Avro>().unwrap();
/// assert!(AnyEvent::decode::<Avro>(&bytes).is_ok());
/// let err = AnyEvent::decode_with::<Avro>(&bytes, &Policy::new(Profile::IntgStd015)).unwrap_err();
/// assert_eq!(err.attribute(), Some("source"));
/// let err = AnyEvent::decode::<Avro>(&bytes[..bytes.len() - 1]).unwrap_err();
/// assert_eq!(err.rule().map(|r| r.as_str()), Some("CE-Avro 2.4"));
/// assert_eq!(Avro::BATCH_MEDIA_TYPE, None);
///
/// // JSON data without a `datacontenttype` travels in the schema's JSON representation,
/// // which holds no array of numbers (`CE-Avro 3`).
/// let list = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/s",
///     "type":"com.example.order.created","data":[1,2]}"#).unwrap();
/// assert_eq!(list.encode::<Avro>().unwrap_err().rule().map(|r| r.as_str()), Some("CE-Avro 3"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Avro;

impl EventFormat for Avro {
    const MEDIA_TYPE: &'static str = MEDIA_TYPE;
    const CONTENT_TYPE: &'static str = MEDIA_TYPE;
    const BATCH_MEDIA_TYPE: Option<&'static str> = None;
    const BATCH_CONTENT_TYPE: Option<&'static str> = None;
}

#[allow(
    private_interfaces,
    private_bounds,
    reason = "the sealed trait is unnameable outside the crate, so the batch memo and report types it names never leave it"
)]
impl sealed::Format for Avro {
    fn read_any(
        bytes: &[u8],
        policy: &Policy,
        _memo: Option<&mut json::BatchMemo>,
    ) -> Result<AnyEvent, FormatError> {
        let record = record::parse(bytes).map_err(FormatError::Invalid)?;
        let mut quoted = None;
        let (envelope, data) =
            record::read(&record, &mut quoted, RawData::default(), None, policy)?;
        Ok(AnyEvent::from_envelope(envelope, data))
    }

    fn read_typed<T: CloudEventData + DeserializeOwned>(
        bytes: &[u8],
    ) -> Result<Event<T>, FormatError> {
        let record = record::parse(bytes).map_err(FormatError::Invalid)?;
        let mut quoted = None;
        let (envelope, data) = record::read(
            &record,
            &mut quoted,
            TypedData::<T>::default(),
            Some(json::Expected::of::<T>()),
            &Event::<T>::POLICY,
        )?;
        Event::from_envelope(envelope, data).map_err(FormatError::Invalid)
    }

    fn write_any(event: &AnyEvent) -> Result<Vec<u8>, FormatError> {
        record::write(event).map_err(FormatError::Invalid)
    }

    /// A typed event is written straight to the record by a serializer its own `Serialize`
    /// drives, without building the `AnyEvent` (extensions in the order `Event<T>` writes
    /// them): the bytes [`AnyEvent::encode`] writes for [`Event::to_any`].
    fn write_typed<T: CloudEventData + Serialize>(event: &Event<T>) -> Result<Vec<u8>, BuildError> {
        typed::write(event).map_err(|error| BuildError::Payload(error.0))
    }

    fn each_in_batch<'a>(
        _bytes: &'a [u8],
        _each: &mut dyn FnMut(&'a [u8]) -> bool,
    ) -> Option<Result<usize, Box<Violation>>> {
        None
    }

    fn write_batch(_events: &[AnyEvent]) -> Option<Result<Vec<u8>, FormatError>> {
        None
    }

    /// A datum that does not decode (truncated, a forged length, ...) is refused with the
    /// one structural finding; otherwise the Avro reader's checks and the policy's, every
    /// finding listed.
    fn validate<R: Report>(bytes: &[u8], policy: &Policy) -> (R, Option<Data>, Option<usize>) {
        let profile = policy.profile();
        let decoded = match record::parse(bytes) {
            Ok(decoded) => decoded,
            Err(violation) => return (R::refused(profile, vec![*violation]), None, None),
        };
        let mut findings = Findings::lenient();
        let mut quoted = None;
        match record::read_lenient(&decoded, &mut quoted, policy, &mut findings) {
            Some((envelope, data)) => (
                R::read(profile, &envelope.view(), findings.list),
                data,
                None,
            ),
            None => (R::refused(profile, findings.list), None, None),
        }
    }
}

#[cfg(test)]
mod tests;
