//! The CloudEvents Protobuf event format and batch format 1.0 (feature `protobuf`), which
//! INTG-STD-015 R-16 allows by bilateral agreement: media types [`MEDIA_TYPE`] and
//! [`BATCH_MEDIA_TYPE`].
//!
//! An [`AnyEvent`] is a `CloudEvent` message: `id`, `source`, `specversion` and `type` are
//! fields; `datacontenttype`, `subject` (`ce_string`), `dataschema` (`ce_uri`), `time`
//! (`ce_timestamp`) and every extension, in its CloudEvents type, are entries of the
//! `attributes` map; [`Data::Binary`] is `binary_data`, [`Data::Text`] and [`Data::Json`]
//! (the JSON text) are `text_data`, and bytes with a type URL
//! ([`AnyEvent::set_protobuf_data`]) are `proto_data`. A [`Batch`] is a `CloudEventBatch`.
//!
//! Reading is as strict as the JSON reader and ends in the same policy check
//! ([`Policy::check_envelope`]): the size limit is checked before a byte is decoded
//! (INTG-STD-015 R-11, R-10 for a batch); an unknown field, a wrong wire type, a field or
//! attribute given twice, two data fields, an Integer outside i32, a Timestamp outside
//! 0001–9999 or truncated input is a [`FormatError`] naming the attribute and the rule.
//!
//! ```
//! use cloudevent_runtime::{AnyEvent, Data, protobuf};
//!
//! let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
//! event.set_datacontenttype(Some("text/plain".into()));
//! event.set_data(Some(Data::Text("hello".into())));
//! event.extensions_mut().insert("priority", 5);
//!
//! let bytes = event.to_protobuf();
//! assert_eq!(AnyEvent::from_protobuf(&bytes).unwrap(), event);
//! assert_eq!(protobuf::MEDIA_TYPE, "application/cloudevents+protobuf");
//! ```
//!
//! A typed event whose payload is a Protobuf message travels in `proto_data`: see
//! [`Event::to_protobuf_message`]. A serde payload travels as `text_data` (JSON) or
//! `binary_data`: see [`Event::to_protobuf`].

use cloudevent_rules::{Policy, Violation, rule};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::any::{AnyEvent, Data};
use crate::error::{BuildError, FormatError};
use crate::format::batch::Batch;
use crate::format::json;
use crate::{CloudEventData, Event, limits};

mod decode;
mod encode;
pub mod messages;
mod time;

/// The media type of one event in the Protobuf format (CE Protobuf format 4).
pub const MEDIA_TYPE: &str = "application/cloudevents+protobuf";

/// The media type of a batch in the Protobuf batch format (CE Protobuf format 5.2).
pub const BATCH_MEDIA_TYPE: &str = "application/cloudevents-batch+protobuf";

/// Writes one event in the Protobuf format: [`AnyEvent::to_protobuf`] as a function, the
/// shape every structured format of the bindings has.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, protobuf};
/// let event = AnyEvent::new("1", "/orders", "com.example.order.created");
/// assert_eq!(protobuf::decode(&protobuf::encode(&event), &AnyEvent::DEFAULT_POLICY).unwrap(), event);
/// ```
pub fn encode(event: &AnyEvent) -> Vec<u8> {
    event.to_protobuf()
}

/// Reads one event in the Protobuf format under a policy: [`AnyEvent::from_protobuf_with`]
/// as a function.
///
/// # Errors
/// See [`AnyEvent::from_protobuf`].
///
/// ```
/// use cloudevent_runtime::{AnyEvent, protobuf};
/// assert!(protobuf::decode(b"\x0a", &AnyEvent::DEFAULT_POLICY).is_err()); // truncated
/// ```
pub fn decode(bytes: &[u8], policy: &Policy) -> Result<AnyEvent, FormatError> {
    AnyEvent::from_protobuf_with(bytes, policy)
}

fn too_large(what: &'static str, found: usize, limit: usize) -> FormatError {
    FormatError::TooLarge {
        what,
        found,
        limit,
        rule: if what == "batch" {
            rule::INTG_R10
        } else {
            rule::INTG_R11
        },
    }
}

fn read_event(
    bytes: &[u8],
    policy: &Policy,
    expected_type: Option<json::Expected>,
    memo: Option<&mut json::BatchMemo>,
) -> Result<AnyEvent, FormatError> {
    if bytes.len() > limits::MAX_EVENT_BYTES {
        return Err(too_large("event", bytes.len(), limits::MAX_EVENT_BYTES));
    }
    decode::read_event(bytes, policy, expected_type, memo).map_err(FormatError::from)
}

impl AnyEvent {
    /// Reads one event in the Protobuf format under [`AnyEvent::DEFAULT_POLICY`], refusing
    /// more than [`limits::MAX_EVENT_BYTES`] before decoding (INTG-STD-015 R-11).
    ///
    /// # Errors
    /// The first thing that makes the input not a valid event, naming the attribute and the
    /// rule: `CE-Protobuf 1.0` for the wire (unknown field, wrong wire type, truncated),
    /// `INTG-STD-015 R-7` for an attribute or data given twice, `CE 1.0.2 type system` for
    /// values, and the policy's rules for the attributes.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    ///
    /// let bytes = AnyEvent::new("1", "/orders", "com.example.order.created").to_protobuf();
    /// assert_eq!(AnyEvent::from_protobuf(&bytes).unwrap().id(), "1");
    ///
    /// let mut unknown = bytes.clone();
    /// unknown.extend_from_slice(&[0x48, 0x01]); // field 9, a varint: not in the schema
    /// let err = AnyEvent::from_protobuf(&unknown).unwrap_err();
    /// assert_eq!(err.rule().map(|r| r.as_str()), Some("CE-Protobuf 1.0"));
    /// ```
    pub fn from_protobuf(bytes: &[u8]) -> Result<Self, FormatError> {
        read_event(bytes, &Self::DEFAULT_POLICY, None, None)
    }

    /// Reads one event in the Protobuf format under a policy, as
    /// [`AnyEvent::from_slice_with`] reads JSON.
    ///
    /// # Errors
    /// See [`AnyEvent::from_protobuf`].
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Policy, Profile};
    ///
    /// let event = AnyEvent::new("1", "https://localhost:8080/orders", "com.example.order.created");
    /// let bytes = event.to_protobuf();
    /// assert!(AnyEvent::from_protobuf(&bytes).is_ok());
    /// let err = AnyEvent::from_protobuf_with(&bytes, &Policy::new(Profile::IntgStd015)).unwrap_err();
    /// assert_eq!(err.attribute(), Some("source"));
    /// ```
    pub fn from_protobuf_with(bytes: &[u8], policy: &Policy) -> Result<Self, FormatError> {
        read_event(bytes, policy, None, None)
    }

    /// The event as a `CloudEvent` message.
    ///
    /// `time` is written as the instant it names: a time given with an offset reads back in
    /// UTC. Data that arrived in `proto_data` is written there again, with its type URL.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let event = AnyEvent::new("1", "/orders", "com.example.order.created");
    /// assert_eq!(&event.to_protobuf()[..5], b"\x0a\x011\x12\x07");
    /// ```
    pub fn to_protobuf(&self) -> Vec<u8> {
        let time = encode::time_of(self);
        let mut out = Vec::with_capacity(encode::event_len(self, time));
        encode::put_event(&mut out, self, time);
        out
    }

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
    /// as binary data and have no place for the type URL.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Data};
    /// let mut event = AnyEvent::new("1", "/orders", "com.example.order.created");
    /// event.set_protobuf_data("type.googleapis.com/example.Order", vec![8, 1]);
    /// let back = AnyEvent::from_protobuf(&event.to_protobuf()).unwrap();
    /// assert_eq!(back.data(), Some(&Data::Binary(vec![8, 1])));
    /// assert_eq!(back, event);
    /// ```
    pub fn set_protobuf_data(&mut self, type_url: impl Into<String>, bytes: Vec<u8>) {
        self.data = Some(Data::Binary(bytes));
        self.protobuf_type_url = Some(type_url.into());
    }
}

impl Batch {
    /// Reads a batch in the Protobuf batch format (a `CloudEventBatch`), refusing more than
    /// [`limits::MAX_BATCH_BYTES`] before decoding (R-10); each event is read as
    /// [`AnyEvent::from_protobuf`] reads it, with its own 256 KiB limit (R-11).
    ///
    /// # Errors
    /// [`FormatError::InBatch`] names the first invalid event's index.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Batch};
    /// let batch = Batch::from(vec![AnyEvent::new("1", "/s", "com.example.order.created")]);
    /// assert_eq!(Batch::from_protobuf(&batch.to_protobuf()).unwrap().len(), 1);
    /// assert!(Batch::from_protobuf(b"").unwrap().is_empty());
    /// ```
    pub fn from_protobuf(bytes: &[u8]) -> Result<Self, FormatError> {
        Self::from_protobuf_with(bytes, &AnyEvent::DEFAULT_POLICY)
    }

    /// [`Batch::from_protobuf`] under a policy.
    ///
    /// # Errors
    /// See [`Batch::from_protobuf`].
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Batch, FormatError, Policy, Profile};
    /// let batch = Batch::from(vec![AnyEvent::new("1", "https://localhost/x", "com.example.order.created")]);
    /// let err = Batch::from_protobuf_with(&batch.to_protobuf(), &Policy::new(Profile::IntgStd015));
    /// assert!(matches!(err, Err(FormatError::InBatch { index: 0, .. })));
    /// ```
    pub fn from_protobuf_with(bytes: &[u8], policy: &Policy) -> Result<Self, FormatError> {
        if bytes.len() > limits::MAX_BATCH_BYTES {
            return Err(too_large("batch", bytes.len(), limits::MAX_BATCH_BYTES));
        }
        // What one event passed with is not checked again for the next (`json::BatchMemo`).
        let mut memo = json::BatchMemo::default();
        let events = decode::read_batch(bytes)
            .map_err(FormatError::from)?
            .into_iter()
            .enumerate()
            .map(|(index, event)| {
                read_event(event, policy, None, Some(&mut memo)).map_err(|e| FormatError::InBatch {
                    index,
                    source: Box::new(e),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Batch::from(events))
    }

    /// The batch as a `CloudEventBatch` message.
    ///
    /// ```
    /// use cloudevent_runtime::Batch;
    /// assert!(Batch::default().to_protobuf().is_empty());
    /// ```
    pub fn to_protobuf(&self) -> Vec<u8> {
        let mut out = Vec::new();
        encode::put_batch(&mut out, self.events());
        out
    }
}

/// A payload that is itself a Protobuf message: an [`Event`] of it travels in `proto_data`,
/// a `google.protobuf.Any` whose type URL is the message's [`prost::Name::type_url`].
/// Implemented for every [`CloudEventData`] that is a `prost` message with a name.
///
/// ```
/// use cloudevent_runtime::{CloudEventData, Event, ExtensionVisitor, protobuf::ProtobufData};
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
///
/// fn carried_as_proto_data<T: ProtobufData>() {}
/// carried_as_proto_data::<OrderCreated>();
///
/// // Producer: the payload goes in `proto_data`.
/// let event = Event::new(OrderCreated { order_id: "order-1".into() });
/// let bytes = event.to_protobuf_message();
///
/// // Consumer: the policy check, the type, the type URL, then the payload, typed.
/// let back = Event::<OrderCreated>::from_protobuf_message(&bytes).unwrap();
/// assert_eq!(back.data().order_id, "order-1");
/// assert_eq!(back.subject(), Some("order-1"));
/// assert_eq!(back.id(), event.id());
/// ```
pub trait ProtobufData: CloudEventData + prost::Message + prost::Name + Default {}

/// Reads a [`dispatch!`](crate::dispatch) enum, or any type built from an [`AnyEvent`],
/// from one event in the Protobuf format: [`AnyEvent::from_protobuf`] (the size limit, the
/// format's rules and the policy check), then the type's `TryFrom<AnyEvent>` (the event type
/// picks the variant; a Protobuf payload is read from `proto_data`). Generated registries'
/// `RegistryEvent` read the Protobuf format with it.
///
/// ```
/// use cloudevent_runtime::{dispatch, AnyEvent, CloudEvent, Event};
/// use cloudevent_runtime::protobuf::FromProtobuf;
///
/// #[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
/// #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
/// struct OrderCreated { #[cloudevent(subject)] order_id: String }
///
/// dispatch! { enum Inbox { Created(OrderCreated) } }
///
/// let bytes = Event::new(OrderCreated { order_id: "order-1".into() }).to_protobuf().unwrap();
/// match Inbox::from_protobuf(&bytes).unwrap() {
///     Inbox::Created(event) => assert_eq!(event.data().order_id, "order-1"),
///     Inbox::Other(any) => panic!("not dispatched: {}", any.ty()),
/// }
///
/// let other = AnyEvent::new("2", "https://orders.example.com", "com.example.order.shipped");
/// assert!(matches!(Inbox::from_protobuf(&other.to_protobuf()), Ok(Inbox::Other(_))));
/// assert!(Inbox::from_protobuf(&[0xff]).is_err());
/// ```
pub trait FromProtobuf: Sized {
    /// Reads one event in the Protobuf format as `Self`.
    ///
    /// # Errors
    /// What [`AnyEvent::from_protobuf`] refuses, then what `Self`'s `TryFrom<AnyEvent>`
    /// refuses (a payload that does not read as its variant's type).
    fn from_protobuf(bytes: &[u8]) -> Result<Self, FormatError>;
}

impl<T> FromProtobuf for T
where
    T: TryFrom<AnyEvent, Error = FormatError>,
{
    fn from_protobuf(bytes: &[u8]) -> Result<Self, FormatError> {
        T::try_from(AnyEvent::from_protobuf(bytes)?)
    }
}

impl<T: CloudEventData + prost::Message + prost::Name + Default> ProtobufData for T {}

impl<T: CloudEventData> Event<T> {
    /// The event in the Protobuf format, its serde payload as data: JSON text in `text_data`
    /// under a JSON `datacontenttype`, bytes in `binary_data`, text in `text_data` (as
    /// [`Event::to_any`] holds it). For a payload that is a Protobuf message, see
    /// [`Event::to_protobuf_message`].
    ///
    /// # Errors
    /// When the payload cannot be serialized.
    ///
    /// ```
    /// use cloudevent_runtime::{CloudEvent, Event};
    ///
    /// #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// struct OrderCreated { #[cloudevent(subject)] order_id: String }
    ///
    /// let event = Event::new(OrderCreated { order_id: "order-1".into() });
    /// let bytes = event.to_protobuf().unwrap();
    /// let back = Event::<OrderCreated>::from_protobuf(&bytes).unwrap();
    /// assert_eq!(back, event);
    /// ```
    pub fn to_protobuf(&self) -> Result<Vec<u8>, BuildError>
    where
        T: Serialize,
    {
        Ok(self.to_any()?.to_protobuf())
    }

    /// Reads an event of this type in the Protobuf format under [`Event::POLICY`], its data
    /// read into `T` with serde (JSON text, text or bytes). Another `type` is refused before
    /// the policy runs, as the JSON reader refuses it.
    ///
    /// # Errors
    /// See [`AnyEvent::from_protobuf`]; a payload that does not fit `T`.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, CloudEvent, Event};
    ///
    /// #[derive(Debug, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// struct OrderCreated { order_id: String }
    ///
    /// let other = AnyEvent::new("1", "https://orders.example.com", "com.example.order.cancelled");
    /// let err = Event::<OrderCreated>::from_protobuf(&other.to_protobuf()).unwrap_err();
    /// assert_eq!(err.attribute(), Some("type"));
    /// ```
    pub fn from_protobuf(bytes: &[u8]) -> Result<Self, FormatError>
    where
        T: DeserializeOwned,
    {
        Event::from_any(read_event(
            bytes,
            &Self::POLICY,
            Some(json::Expected::of::<T>()),
            None,
        )?)
    }

    /// The event in the Protobuf format with its payload, a Protobuf message, in
    /// `proto_data` under the message's type URL (see [`ProtobufData`]).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEventData, Event, ExtensionVisitor};
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
    /// let bytes = Event::new(Ping { n: 7 }).to_protobuf_message();
    /// let any = cloudevent_runtime::AnyEvent::from_protobuf(&bytes).unwrap();
    /// assert_eq!(any.protobuf_type_url(), Some("/example.v1.Ping"));
    /// ```
    pub fn to_protobuf_message(&self) -> Vec<u8>
    where
        T: ProtobufData,
    {
        let mut any = AnyEvent::new(self.id(), self.source(), T::TYPE);
        any.datacontenttype = Some(self.datacontenttype().to_owned());
        any.dataschema = self.dataschema().map(str::to_owned);
        any.subject = self.subject().map(str::to_owned);
        any.time = self.time().cloned();
        self.for_each_extension(|name, value| {
            any.extensions.insert(name, value);
        });
        any.set_protobuf_data(T::type_url(), self.data().encode_to_vec());
        any.to_protobuf()
    }

    /// Reads an event of this type whose payload is a Protobuf message in `proto_data`:
    /// the policy check under [`Event::POLICY`], the `type`, the Any's type URL (its last
    /// segment must be `T`'s full name), then the message.
    ///
    /// # Errors
    /// See [`AnyEvent::from_protobuf`]; data that is not `proto_data` of `T`'s type.
    ///
    /// ```
    /// # use cloudevent_runtime::{AnyEvent, CloudEventData, Event, ExtensionVisitor};
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
    /// let mut any = AnyEvent::new("1", "https://health.example.com", "com.example.health.ping.sent");
    /// any.set_protobuf_data("type.googleapis.com/example.v1.Pong", vec![8, 7]);
    /// let err = Event::<Ping>::from_protobuf_message(&any.to_protobuf()).unwrap_err();
    /// assert_eq!(err.attribute(), Some("data"));
    /// ```
    pub fn from_protobuf_message(bytes: &[u8]) -> Result<Self, FormatError>
    where
        T: ProtobufData,
    {
        let any = read_event(bytes, &Self::POLICY, Some(json::Expected::of::<T>()), None)?;
        Self::from_any_protobuf(&any)
    }

    /// The typed event of an [`AnyEvent`] whose data is a `T` message: `proto_data` of `T`'s
    /// type (from the Protobuf format), or binary data under `T`'s Protobuf
    /// `datacontenttype` (from a format that has no place for the type URL, such as JSON's
    /// `data_base64`). What a [`dispatch!`](crate::dispatch) enum calls for a Protobuf
    /// payload. The `type` must be `T`'s.
    ///
    /// # Errors
    /// Another `type`; data that is not a `T` message (rule `CE-Protobuf 1.0`, attribute
    /// `data`).
    ///
    /// ```
    /// # use cloudevent_runtime::{AnyEvent, CloudEventData, Event, ExtensionVisitor};
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
    /// let event = Event::new(Ping { n: 7 });
    /// let any = AnyEvent::from_protobuf(&event.to_protobuf_message()).unwrap();
    /// assert_eq!(Event::<Ping>::from_any_protobuf(&any).unwrap().data().n, 7);
    /// // The same event in JSON: the message's bytes in `data_base64`.
    /// let json = serde_json::to_vec(&any).unwrap();
    /// let any = AnyEvent::from_slice(&json).unwrap();
    /// assert_eq!(Event::<Ping>::from_any_protobuf(&any).unwrap().data().n, 7);
    /// ```
    pub fn from_any_protobuf(any: &AnyEvent) -> Result<Self, FormatError>
    where
        T: ProtobufData,
    {
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
}

#[cfg(test)]
mod tests;
