//! [`AnyEvent`]: an event of any type, for gateways and intermediaries.

use serde_json::value::RawValue;

use crate::extension::{ExtensionValueBuf, Extensions};
use crate::value::Timestamp;

/// An event's payload as it was received: raw JSON text, text, or bytes.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Data};
///
/// let event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/s",
///     "type":"com.example.order.created","datacontenttype":"text/plain","data":"hello"}"#)
///     .unwrap();
/// assert_eq!(event.data(), Some(&Data::Text("hello".into())));
/// ```
#[derive(Debug, Clone)]
pub enum Data {
    /// JSON under a JSON `datacontenttype` (or none): the member's text exactly as received,
    /// `null` included (an explicit null payload, distinct from no `data` member).
    Json(Box<RawValue>),
    /// A string under a non-JSON `datacontenttype` (CE-JSON 3.1: "an encoded content string").
    Text(String),
    /// The decoded `data_base64`.
    Binary(Vec<u8>),
}

impl PartialEq for Data {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Data::Json(a), Data::Json(b)) => a.get() == b.get(),
            (Data::Text(a), Data::Text(b)) => a == b,
            (Data::Binary(a), Data::Binary(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Data {}

impl Data {
    /// Raw JSON text as data.
    ///
    /// # Errors
    /// When the text is not one JSON value.
    ///
    /// ```
    /// use cloudevent_runtime::Data;
    /// assert!(matches!(Data::json(r#"{"a":1}"#), Ok(Data::Json(_))));
    /// assert!(Data::json("{").is_err());
    /// ```
    pub fn json(text: impl Into<String>) -> Result<Self, serde_json::Error> {
        RawValue::from_string(text.into()).map(Data::Json)
    }

    /// The payload's size in bytes as carried (JSON text, text, or decoded bytes): what the
    /// data size rule measures.
    pub(crate) fn len(&self) -> usize {
        match self {
            Data::Json(raw) => raw.get().len(),
            Data::Text(text) => text.len(),
            Data::Binary(bytes) => bytes.len(),
        }
    }
}

/// An event of any type with every attribute, its extensions and its raw data.
///
/// Unrecognised extensions are kept and written back unchanged, so an intermediary forwards
/// them (INTG-STD-015 R-6, consumer enforcement).
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Attributes};
///
/// let input = br#"{"specversion":"1.0","id":"01HZX3KQVB8E72GQJHF5RM6YWN",
///     "source":"https://orders.example.com/checkout","type":"com.example.order.created",
///     "comexampleflag":true,"data":{"orderId":"order-8842"}}"#;
/// let event = AnyEvent::from_slice(input).unwrap();
/// assert_eq!(event.ty(), "com.example.order.created");
/// assert_eq!(event.extensions().get("comexampleflag").map(|v| v.as_value()),
///            Some(cloudevent_runtime::ExtensionValue::Boolean(true)));
///
/// let again = AnyEvent::from_slice(&event.to_vec()).unwrap();
/// assert_eq!(again, event);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnyEvent {
    pub(crate) id: String,
    pub(crate) source: String,
    pub(crate) ty: String,
    pub(crate) datacontenttype: Option<String>,
    pub(crate) dataschema: Option<String>,
    pub(crate) subject: Option<String>,
    pub(crate) time: Option<Timestamp>,
    pub(crate) extensions: Extensions,
    pub(crate) data: Option<Data>,
    /// The type URL of data that arrived as (or is to be written as) a Protobuf message in
    /// the Protobuf format's `proto_data` (a `google.protobuf.Any`); `data` holds the
    /// message's bytes as [`Data::Binary`]. Other formats write it as `dataschema`
    /// ([`AnyEvent::written_dataschema`]).
    pub(crate) protobuf_type_url: Option<String>,
}

impl AnyEvent {
    /// An event with the required attributes and nothing else; the validator checks them.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Attributes};
    ///
    /// let event = AnyEvent::new("1", "/orders", "com.example.order.created");
    /// assert_eq!(event.id(), "1");
    /// assert_eq!(event.data(), None);
    /// ```
    pub fn new(id: impl Into<String>, source: impl Into<String>, ty: impl Into<String>) -> Self {
        AnyEvent {
            id: id.into(),
            source: source.into(),
            ty: ty.into(),
            datacontenttype: None,
            dataschema: None,
            subject: None,
            time: None,
            extensions: Extensions::default(),
            data: None,
            protobuf_type_url: None,
        }
    }

    /// All extensions.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","region":"eu","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.extensions().len(), 1);
    /// ```
    pub fn extensions(&self) -> &Extensions {
        &self.extensions
    }

    /// The extensions, to add, change or remove some before re-emitting.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
    /// event.extensions_mut().insert("hop", 2);
    /// assert!(event.extensions().contains("hop"));
    /// ```
    pub fn extensions_mut(&mut self) -> &mut Extensions {
        &mut self.extensions
    }

    /// The payload, `None` when the event has no `data` / `data_base64` member.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","region":"eu","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.data(), Some(&cloudevent_runtime::Data::json(r#"{"n":1}"#).unwrap()));
    /// ```
    pub fn data(&self) -> Option<&Data> {
        self.data.as_ref()
    }

    /// Takes the payload out.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","region":"eu","data":{"n":1}}"#).unwrap();
    /// let mut event = event;
    /// assert!(event.take_data().is_some());
    /// assert_eq!(event.data(), None);
    /// ```
    pub fn take_data(&mut self) -> Option<Data> {
        self.protobuf_type_url = None;
        self.data.take()
    }

    /// Sets `id` (a re-emission gets a new one, ADR-0003).
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Attributes};
    /// let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
    /// event.set_id("2");
    /// assert_eq!(event.id(), "2");
    /// ```
    pub fn set_id(&mut self, id: impl Into<String>) {
        self.id = id.into();
    }

    /// Sets `source`.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Attributes};
    /// let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
    /// event.set_source("/orders/eu");
    /// assert_eq!(event.source(), "/orders/eu");
    /// ```
    pub fn set_source(&mut self, source: impl Into<String>) {
        self.source = source.into();
    }

    /// Sets `type`.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Attributes};
    /// let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
    /// event.set_ty("com.example.order.updated");
    /// assert_eq!(event.ty(), "com.example.order.updated");
    /// ```
    pub fn set_ty(&mut self, ty: impl Into<String>) {
        self.ty = ty.into();
    }

    /// Sets or clears `datacontenttype`.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Attributes};
    /// let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
    /// event.set_datacontenttype(Some("text/plain".into()));
    /// assert_eq!(event.datacontenttype(), Some("text/plain"));
    /// ```
    pub fn set_datacontenttype(&mut self, value: Option<String>) {
        self.datacontenttype = value;
    }

    /// Sets or clears `dataschema`.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Attributes};
    /// let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
    /// event.set_dataschema(Some("https://schemas.example.com/orders/v1.json".into()));
    /// assert!(event.dataschema().is_some());
    /// ```
    pub fn set_dataschema(&mut self, value: Option<String>) {
        self.dataschema = value;
    }

    /// `dataschema` as a format without `proto_data` writes it (JSON, Avro, every binding's
    /// binary mode): data that is a Protobuf message travels there as bytes, and its type
    /// URL, which the Protobuf format asks producers to put in `dataschema` (CE Protobuf
    /// format 3), takes that attribute in its absolute form: `https:` before a type URL
    /// without a scheme, the scheme Protobuf's `Any` assumes (`type.googleapis.com/x.Y` ->
    /// `https://type.googleapis.com/x.Y`; prost's `/x.Y`, an empty host, -> `https:/x.Y`),
    /// so a receiver still finds the message's full name as the last path segment and every
    /// reader accepts the value. A `dataschema` the producer set to anything else is
    /// written as set.
    pub(crate) fn written_dataschema(&self) -> Option<std::borrow::Cow<'_, str>> {
        use std::borrow::Cow;
        match (
            self.dataschema.as_deref(),
            self.protobuf_type_url.as_deref(),
        ) {
            (Some(schema), Some(url)) if schema != url => Some(Cow::Borrowed(schema)),
            (_, Some(url)) if url.contains("://") => Some(Cow::Borrowed(url)),
            (_, Some(url)) if url.starts_with('/') => Some(Cow::Owned(format!("https:{url}"))),
            (_, Some(url)) => Some(Cow::Owned(format!("https://{url}"))),
            (schema, None) => schema.map(Cow::Borrowed),
        }
    }

    /// Sets or clears `subject`.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Attributes};
    /// let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
    /// event.set_subject(Some("order-1".into()));
    /// assert_eq!(event.subject(), Some("order-1"));
    /// ```
    pub fn set_subject(&mut self, value: Option<String>) {
        self.subject = value;
    }

    /// Sets or clears `time`.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Attributes};
    /// let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
    /// event.set_time(Some(cloudevent_runtime::Timestamp::now()));
    /// assert!(event.time().is_some());
    /// ```
    pub fn set_time(&mut self, value: Option<Timestamp>) {
        self.time = value;
    }

    /// Sets or clears the payload.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
    /// event.set_data(Some(cloudevent_runtime::Data::Text("hi".into())));
    /// assert!(String::from_utf8(event.to_vec()).unwrap().ends_with(r#""data":"hi"}"#));
    /// ```
    pub fn set_data(&mut self, data: Option<Data>) {
        self.protobuf_type_url = None;
        self.data = data;
    }
}

impl crate::attributes::Attributes for AnyEvent {
    fn id(&self) -> &str {
        &self.id
    }

    fn source(&self) -> &str {
        &self.source
    }

    fn ty(&self) -> &str {
        &self.ty
    }

    fn subject(&self) -> Option<&str> {
        self.subject.as_deref()
    }

    fn time(&self) -> Option<&Timestamp> {
        self.time.as_ref()
    }

    fn datacontenttype(&self) -> Option<&str> {
        self.datacontenttype.as_deref()
    }

    fn dataschema(&self) -> Option<&str> {
        self.dataschema.as_deref()
    }

    fn extension_value(&self, name: &str) -> Option<std::borrow::Cow<'_, ExtensionValueBuf>> {
        self.extensions.get(name).map(std::borrow::Cow::Borrowed)
    }

    fn set_extension(
        &mut self,
        name: &str,
        value: ExtensionValueBuf,
    ) -> Result<(), crate::error::BuildError> {
        self.extensions_mut().insert(name, value);
        Ok(())
    }
}
