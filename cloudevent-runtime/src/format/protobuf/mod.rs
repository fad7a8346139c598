//! The CloudEvents Protobuf event format and batch format 1.0 (feature `protobuf`), which
//! INTG-STD-015 R-16 allows by bilateral agreement: [`Protobuf`], media types [`MEDIA_TYPE`]
//! and [`BATCH_MEDIA_TYPE`].
//!
//! An [`AnyEvent`] is a `CloudEvent` message: `id`, `source`, `specversion` and `type` are
//! fields; `datacontenttype`, `subject` (`ce_string`), `dataschema` (`ce_uri`), `time`
//! (`ce_timestamp`) and every extension, in its CloudEvents type, are entries of the
//! `attributes` map; [`Data::Binary`] is `binary_data`, [`Data::Text`] and [`Data::Json`]
//! (the JSON text) are `text_data`, and bytes with a type URL
//! ([`AnyEvent::set_protobuf_data`]) are `proto_data`. A [`Batch`](crate::Batch) is a `CloudEventBatch`.
//!
//! Reading is as strict as the JSON reader and ends in the same policy check
//! ([`Policy::check_envelope`]): the size limit is checked before a byte is decoded
//! (INTG-STD-015 R-11, R-10 for a batch); an unknown field, a wrong wire type, a field or
//! attribute given twice, two data fields, an Integer outside i32, a Timestamp outside
//! 0001–9999 or truncated input is a [`FormatError`] naming the attribute and the rule:
//! `CE-Protobuf 1.0` for the wire, `INTG-STD-015 R-7` for an attribute or data given twice,
//! `CE 1.0.2 type system` for values, and the policy's rules for the attributes. The
//! validator ([`Validator::validate_bytes`](crate::Validate::validate_bytes)) reads with the
//! same reader and lists every finding.
//!
//! ```
//! use cloudevent_runtime::Validate;
//! use cloudevent_runtime::{AnyEvent, Batch, Data, Protobuf, protobuf};
//!
//! let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
//! event.set_datacontenttype(Some("text/plain".into()));
//! event.set_data(Some(Data::Text("hello".into())));
//! event.extensions_mut().insert("priority", 5);
//!
//! let bytes = event.encode::<Protobuf>().unwrap();
//! assert_eq!(AnyEvent::decode::<Protobuf>(&bytes).unwrap(), event);
//! assert_eq!(protobuf::MEDIA_TYPE, "application/cloudevents+protobuf");
//!
//! // Field 9, a varint, is not in the schema: skipped, as Protobuf's own rules skip it (a
//! // producer on a newer cloudevents.proto); the INTG-STD-015 validator lists it.
//! let mut unknown = bytes.clone();
//! unknown.extend_from_slice(&[0x48, 0x01]);
//! assert_eq!(AnyEvent::decode::<Protobuf>(&unknown).unwrap(), event);
//! let report = cloudevent_runtime::Validator::new(cloudevent_runtime::Profile::IntgStd015)
//!     .validate_bytes::<Protobuf>(&unknown);
//! assert!(report.warnings().any(|w| w.rule.as_str() == "CE-Protobuf 1.0"));
//!
//! let batch = Batch::from(vec![event]);
//! assert_eq!(Batch::decode::<Protobuf>(&batch.encode::<Protobuf>().unwrap()).unwrap(), batch);
//! ```
//!
//! `dataschema` holding the type URL of `proto_data`, as the format (3. Data) says a producer
//! SHOULD set it, is accepted for that event although it is no absolute URI (a warning under
//! INTG-STD-015, whose R-2 wants a versioned schema endpoint; the decision is
//! `cloudevent-rules`' `Envelope::data_type_url`). Written in any other format (JSON, Avro,
//! binary mode), the message travels as bytes and its type URL as an absolute `dataschema`
//! (`https://` before it, the scheme `Any` assumes), unless the event has another one:
//!
//! ```
//! use cloudevent_runtime::{AnyEvent, Attributes, Protobuf};
//!
//! let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
//! event.set_protobuf_data("type.googleapis.com/example.v1.Order", vec![8, 1]);
//! event.set_dataschema(Some("type.googleapis.com/example.v1.Order".into()));
//! let read = AnyEvent::decode::<Protobuf>(&event.encode::<Protobuf>().unwrap()).unwrap();
//! assert_eq!(read.dataschema(), Some("type.googleapis.com/example.v1.Order"));
//! let json = AnyEvent::from_slice(&read.to_vec()).unwrap();
//! assert_eq!(json.dataschema(), Some("https://type.googleapis.com/example.v1.Order"));
//! ```
//!
//! A serde payload travels as `text_data` (JSON) or `binary_data`
//! ([`Event::encode`]`::<Protobuf>`); a typed event whose payload is a Protobuf message
//! travels in `proto_data`: see [`ProtobufData`].

use cloudevent_rules::{Policy, Violation, rule};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::any::{AnyEvent, Data};
use crate::error::{BuildError, FormatError};
use crate::format::{EventFormat, Report, json, sealed};
use crate::{Attributes, CloudEventData, Event};

mod decode;
mod encode;
pub mod messages;
mod time;

/// The media type of one event in the Protobuf format (CE Protobuf format 4).
pub const MEDIA_TYPE: &str = "application/cloudevents+protobuf";

/// The media type of a batch in the Protobuf batch format (CE Protobuf format 5.2).
pub const BATCH_MEDIA_TYPE: &str = "application/cloudevents-batch+protobuf";

/// The CloudEvents Protobuf event format and batch format (see the [module
/// documentation](self)).
///
/// ```
/// use cloudevent_runtime::{AnyEvent, EventFormat, Policy, Profile, Protobuf};
///
/// let event = AnyEvent::new("1", "https://localhost:8080/orders", "com.example.order.created");
/// let bytes = event.encode::<Protobuf>().unwrap();
/// assert!(AnyEvent::decode::<Protobuf>(&bytes).is_ok());
/// let err = AnyEvent::decode_with::<Protobuf>(&bytes, &Policy::new(Profile::IntgStd015)).unwrap_err();
/// assert_eq!(err.attribute(), Some("source"));
/// assert_eq!(Protobuf::BATCH_MEDIA_TYPE, Some("application/cloudevents-batch+protobuf"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Protobuf;

impl EventFormat for Protobuf {
    const MEDIA_TYPE: &'static str = MEDIA_TYPE;
    const CONTENT_TYPE: &'static str = MEDIA_TYPE;
    const BATCH_MEDIA_TYPE: Option<&'static str> = Some(BATCH_MEDIA_TYPE);
    const BATCH_CONTENT_TYPE: Option<&'static str> = Some(BATCH_MEDIA_TYPE);
}

#[allow(
    private_interfaces,
    private_bounds,
    reason = "the sealed trait is unnameable outside the crate, so the batch memo and report types it names never leave it"
)]
impl sealed::Format for Protobuf {
    fn read_any(
        bytes: &[u8],
        policy: &Policy,
        memo: Option<&mut json::BatchMemo>,
    ) -> Result<AnyEvent, FormatError> {
        decode::read_event(bytes, policy, None, memo).map_err(FormatError::Invalid)
    }

    fn read_typed<T: CloudEventData + DeserializeOwned>(
        bytes: &[u8],
    ) -> Result<Event<T>, FormatError> {
        Event::from_any(read_typed_any::<T>(bytes)?)
    }

    fn write_any(event: &AnyEvent) -> Result<Vec<u8>, FormatError> {
        Ok(write(event))
    }

    fn write_typed<T: CloudEventData + Serialize>(event: &Event<T>) -> Result<Vec<u8>, BuildError> {
        Ok(write(&event.to_any()?))
    }

    fn each_in_batch<'a>(
        bytes: &'a [u8],
        each: &mut dyn FnMut(&'a [u8]) -> bool,
    ) -> Option<Result<usize, Box<Violation>>> {
        Some(decode::each_in_batch(bytes, each))
    }

    fn write_batch(events: &[AnyEvent]) -> Option<Result<Vec<u8>, FormatError>> {
        let mut out = Vec::new();
        encode::put_batch(&mut out, events);
        Some(Ok(out))
    }

    fn validate<R: Report>(bytes: &[u8], policy: &Policy) -> (R, Option<Data>, Option<usize>) {
        let (report, data) = decode::validate_event::<R>(bytes, policy);
        (report, data, None)
    }
}

impl AnyEvent {
    /// The type URL of data carried as a Protobuf message (`proto_data`), when it is.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let mut event = AnyEvent::new("1", "/orders", "com.example.order.created");
    /// assert_eq!(event.protobuf_type_url(), None);
    /// event.set_protobuf_data("type.googleapis.com/example.Order", vec![8, 1]);
    /// assert_eq!(event.protobuf_type_url(), Some("type.googleapis.com/example.Order"));
    /// ```
    pub fn protobuf_type_url(&self) -> Option<&str> {
        self.protobuf_type_url.as_deref()
    }

    /// Sets the data to a Protobuf message's bytes and its type URL: the Protobuf format
    /// writes them as `proto_data` (a `google.protobuf.Any`); other formats write the bytes
    /// as binary data and the type URL as `dataschema` when the event has no other (see
    /// the [module documentation](self)).
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Data, Protobuf};
    /// let mut event = AnyEvent::new("1", "/orders", "com.example.order.created");
    /// event.set_protobuf_data("type.googleapis.com/example.Order", vec![8, 1]);
    /// let back = AnyEvent::decode::<Protobuf>(&event.encode::<Protobuf>().unwrap()).unwrap();
    /// assert_eq!(back.data(), Some(&Data::Binary(vec![8, 1])));
    /// assert_eq!(back, event);
    /// ```
    pub fn set_protobuf_data(&mut self, type_url: impl Into<String>, bytes: Vec<u8>) {
        self.data = Some(Data::Binary(bytes));
        self.protobuf_type_url = Some(type_url.into());
    }
}

/// One event as a `CloudEvent` message. `time` is written as the instant it names: a time
/// given with an offset reads back in UTC. Data that arrived in `proto_data` is written
/// there again, with its type URL.
fn write(event: &AnyEvent) -> Vec<u8> {
    let time = encode::time_of(event);
    let mut out = Vec::with_capacity(encode::event_len(event, time));
    encode::put_event(&mut out, event, time);
    out
}

/// Reads one event of type `T` as an [`AnyEvent`], under `T`'s policy, refusing another
/// `type` before the policy runs; the size was checked by the caller's door.
fn read_typed_any<T: CloudEventData>(bytes: &[u8]) -> Result<AnyEvent, FormatError> {
    decode::read_event(
        bytes,
        &Event::<T>::POLICY,
        Some(json::Expected::of::<T>()),
        None,
    )
    .map_err(FormatError::Invalid)
}

/// A payload that is itself a Protobuf message: an [`Event`] of it travels in `proto_data`,
/// a `google.protobuf.Any` whose type URL is the message's [`prost::Name::type_url`]: the
/// Protobuf format's data hook, [`encode_message`], [`decode_message`] and
/// [`message_from_any`]. Implemented for every [`CloudEventData`] that is a `prost` message
/// with a name.
///
/// ```
/// # use cloudevent_runtime::Attributes;
/// use cloudevent_runtime::{CloudEventData, Event, ExtensionVisitor, protobuf::{self, ProtobufData}};
///
/// #[derive(Clone, PartialEq, prost::Message)]
/// struct OrderCreated {
///     #[prost(string, tag = "1")]
///     order_id: String,
/// }
/// impl prost::Name for OrderCreated {
///     const NAME: &'static str = "OrderCreated";
///     const PACKAGE: &'static str = "example.orders.v1";
///     fn type_url() -> String { "type.googleapis.com/example.orders.v1.OrderCreated".into() }
/// }
/// impl CloudEventData for OrderCreated {
///     const TYPE: &'static str = "com.example.order.created";
///     const DATASCHEMA: Option<&'static str> = None;
///     const SOURCE: Option<&'static str> = Some("https://orders.example.com");
///     const DATACONTENTTYPE: &'static str = "application/protobuf";
///     const EXTENSIONS: &'static [&'static str] = &[];
///     fn subject(&self) -> Option<&str> { Some(&self.order_id) }
///     fn visit_extensions<V: ExtensionVisitor>(&self, _: &mut V) -> Result<(), V::Error> { Ok(()) }
/// }
/// impl cloudevent_runtime::HasSource for OrderCreated {}
///
/// fn carried_as_proto_data<T: ProtobufData>() {}
/// carried_as_proto_data::<OrderCreated>();
///
/// // Producer: the payload goes in `proto_data`.
/// let event = Event::new(OrderCreated { order_id: "order-1".into() });
/// let bytes = protobuf::encode_message(&event);
///
/// // Consumer: the policy check, the type, the type URL, then the payload, typed.
/// let back = protobuf::decode_message::<OrderCreated>(&bytes).unwrap();
/// assert_eq!(back.data().order_id, "order-1");
/// assert_eq!(back.subject(), Some("order-1"));
/// assert_eq!(back.id(), event.id());
/// ```
pub trait ProtobufData: CloudEventData + prost::Message + prost::Name + Default {}

impl<T: CloudEventData + prost::Message + prost::Name + Default> ProtobufData for T {}

/// The event in the Protobuf format with its payload, a Protobuf message, in `proto_data`
/// under the message's type URL (see [`ProtobufData`]).
///
/// ```
/// # use cloudevent_runtime::{AnyEvent, CloudEventData, Event, ExtensionVisitor, Protobuf, protobuf};
/// # #[derive(Clone, PartialEq, prost::Message)]
/// # struct Ping { #[prost(uint32, tag = "1")] n: u32 }
/// # impl prost::Name for Ping { const NAME: &'static str = "Ping"; const PACKAGE: &'static str = "example.v1"; }
/// # impl CloudEventData for Ping {
/// #     const TYPE: &'static str = "com.example.health.ping.sent";
/// #     const DATASCHEMA: Option<&'static str> = None;
/// #     const SOURCE: Option<&'static str> = Some("https://health.example.com");
/// #     const DATACONTENTTYPE: &'static str = "application/protobuf";
/// #     const EXTENSIONS: &'static [&'static str] = &[];
/// #     fn subject(&self) -> Option<&str> { None }
/// #     fn visit_extensions<V: ExtensionVisitor>(&self, _: &mut V) -> Result<(), V::Error> { Ok(()) }
/// # }
/// # impl cloudevent_runtime::HasSource for Ping {}
/// let bytes = protobuf::encode_message(&Event::new(Ping { n: 7 }));
/// let any = AnyEvent::decode::<Protobuf>(&bytes).unwrap();
/// assert_eq!(any.protobuf_type_url(), Some("/example.v1.Ping"));
/// ```
pub fn encode_message<T: ProtobufData>(event: &Event<T>) -> Vec<u8> {
    let mut any = AnyEvent::new(event.id(), event.source(), T::TYPE);
    any.datacontenttype = Some(event.content_type().to_owned());
    any.dataschema = event.dataschema().map(str::to_owned);
    any.subject = event.subject().map(str::to_owned);
    any.time = event.time().cloned();
    event.for_each_extension(|name, value| {
        any.extensions.insert(name, value);
    });
    any.set_protobuf_data(T::type_url(), event.data().encode_to_vec());
    write(&any)
}

/// Reads an event of type `T` whose payload is a Protobuf message in `proto_data`: the size
/// limit, the format's rules, the policy check under [`Event::POLICY`], the `type`, the
/// Any's type URL (its last segment must be `T`'s full name), then the message.
///
/// # Errors
/// See [`AnyEvent::decode`]; data that is not `proto_data` of `T`'s type.
///
/// ```
/// # use cloudevent_runtime::{AnyEvent, CloudEventData, Event, ExtensionVisitor, Protobuf, protobuf};
/// # #[derive(Clone, PartialEq, prost::Message)]
/// # struct Ping { #[prost(uint32, tag = "1")] n: u32 }
/// # impl prost::Name for Ping { const NAME: &'static str = "Ping"; const PACKAGE: &'static str = "example.v1"; }
/// # impl CloudEventData for Ping {
/// #     const TYPE: &'static str = "com.example.health.ping.sent";
/// #     const DATASCHEMA: Option<&'static str> = None;
/// #     const SOURCE: Option<&'static str> = Some("https://health.example.com");
/// #     const DATACONTENTTYPE: &'static str = "application/protobuf";
/// #     const EXTENSIONS: &'static [&'static str] = &[];
/// #     fn subject(&self) -> Option<&str> { None }
/// #     fn visit_extensions<V: ExtensionVisitor>(&self, _: &mut V) -> Result<(), V::Error> { Ok(()) }
/// # }
/// # impl cloudevent_runtime::HasSource for Ping {}
/// let mut any = AnyEvent::new("1", "https://health.example.com", "com.example.health.ping.sent");
/// any.set_protobuf_data("type.googleapis.com/example.v1.Pong", vec![8, 7]);
/// let err = protobuf::decode_message::<Ping>(&any.encode::<Protobuf>().unwrap()).unwrap_err();
/// assert_eq!(err.attribute(), Some("data"));
/// let bytes = protobuf::encode_message(&Event::new(Ping { n: 7 }));
/// assert_eq!(protobuf::decode_message::<Ping>(&bytes).unwrap().data().n, 7);
/// ```
pub fn decode_message<T: ProtobufData>(bytes: &[u8]) -> Result<Event<T>, FormatError> {
    crate::format::check_event_size(bytes)?;
    message_from_any(&read_typed_any::<T>(bytes)?)
}

/// The typed event of an [`AnyEvent`] whose data is a `T` message: `proto_data` of `T`'s type
/// (from the Protobuf format), or binary data under `T`'s Protobuf `datacontenttype` (from a
/// format that has no place for the type URL, such as JSON's `data_base64`). What a
/// [`dispatch!`](crate::dispatch) enum calls for a Protobuf payload. The `type` must be `T`'s.
///
/// # Errors
/// Another `type`; data that is not a `T` message (rule `CE-Protobuf 1.0`, attribute
/// `data`).
///
/// ```
/// # use cloudevent_runtime::{AnyEvent, CloudEventData, Event, ExtensionVisitor, Protobuf, protobuf};
/// # #[derive(Clone, PartialEq, prost::Message)]
/// # struct Ping { #[prost(uint32, tag = "1")] n: u32 }
/// # impl prost::Name for Ping { const NAME: &'static str = "Ping"; const PACKAGE: &'static str = "example.v1"; }
/// # impl CloudEventData for Ping {
/// #     const TYPE: &'static str = "com.example.health.ping.sent";
/// #     const DATASCHEMA: Option<&'static str> = None;
/// #     const SOURCE: Option<&'static str> = Some("https://health.example.com");
/// #     const DATACONTENTTYPE: &'static str = "application/protobuf";
/// #     const EXTENSIONS: &'static [&'static str] = &[];
/// #     fn subject(&self) -> Option<&str> { None }
/// #     fn visit_extensions<V: ExtensionVisitor>(&self, _: &mut V) -> Result<(), V::Error> { Ok(()) }
/// # }
/// # impl cloudevent_runtime::HasSource for Ping {}
/// let event = Event::new(Ping { n: 7 });
/// let any = AnyEvent::decode::<Protobuf>(&protobuf::encode_message(&event)).unwrap();
/// assert_eq!(protobuf::message_from_any::<Ping>(&any).unwrap().data().n, 7);
/// // The same event in JSON: the message's bytes in `data_base64`.
/// let any = AnyEvent::from_slice(&any.to_vec()).unwrap();
/// assert_eq!(protobuf::message_from_any::<Ping>(&any).unwrap().data().n, 7);
/// ```
pub fn message_from_any<T: ProtobufData>(any: &AnyEvent) -> Result<Event<T>, FormatError> {
    let full_name = T::full_name();
    let named = |url: Option<&str>| match url {
        Some(url) => url.rsplit('/').next() == Some(full_name.as_str()),
        None => any.datacontenttype() == Some(T::DATACONTENTTYPE),
    };
    let payload = match (any.protobuf_type_url(), any.data()) {
        (url, Some(Data::Binary(bytes))) if named(url) => {
            T::decode(bytes.as_slice()).map_err(|error| {
                Violation::error(
                    rule::CE_PROTOBUF,
                    "data",
                    format!("{} bytes", bytes.len()),
                    format!("is not a `{full_name}` message: {error}"),
                )
            })?
        }
        (url, _) => {
            return Err(FormatError::from(
                Violation::error(
                    rule::CE_PROTOBUF,
                    "data",
                    url.unwrap_or_default(),
                    format!("is not proto_data holding a `{full_name}` message"),
                )
                .with_hint("read it as an `AnyEvent`, or as an `Event` of a serde payload"),
            ));
        }
    };
    Event::from_any_with_data(any, payload)
}

#[cfg(test)]
mod tests;
