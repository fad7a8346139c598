//! [`AnyEvent`]: an event of any type, for gateways and intermediaries.

use std::io::Read;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::value::RawValue;

use crate::data::CloudEventData;
use crate::error::FormatError;
use crate::event::Event;
use crate::extension::{ExtensionValueBuf, Extensions};
use crate::format::json::{self, ContentType, DataSlot, Findings, Stop};
use crate::limits;
use crate::trace::Traceable;
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
    /// assert_eq!(Data::json(r#"{"a":1}"#).unwrap().len(), 7);
    /// assert!(Data::json("{").is_err());
    /// ```
    pub fn json(text: impl Into<String>) -> Result<Self, serde_json::Error> {
        RawValue::from_string(text.into()).map(Data::Json)
    }

    /// The payload's size in bytes as carried (JSON text, text, or decoded bytes).
    ///
    /// ```
    /// use cloudevent_runtime::Data;
    /// assert_eq!(Data::Binary(vec![1, 2, 3]).len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        match self {
            Data::Json(raw) => raw.get().len(),
            Data::Text(text) => text.len(),
            Data::Binary(bytes) => bytes.len(),
        }
    }

    /// Whether the payload is empty.
    ///
    /// ```
    /// use cloudevent_runtime::Data;
    /// assert!(Data::Text(String::new()).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Keeps `data` raw for [`AnyEvent`].
#[derive(Default)]
pub(crate) struct RawData {
    json: Option<Box<RawValue>>,
    text: Option<String>,
    binary: Option<Vec<u8>>,
}

impl<'de> DataSlot<'de> for RawData {
    type Data = Option<Data>;

    fn data<A: MapAccess<'de>>(
        &mut self,
        map: &mut A,
        content_type: ContentType<'_>,
        findings: &mut Findings,
    ) -> Result<(), A::Error> {
        // Text is read as text directly when the content type is known to be non-JSON;
        // otherwise the raw member is kept and decided on at the end.
        match content_type {
            ContentType::Seen(content_type) if !json::is_json(content_type) => {
                match map.next_value::<json::JsonScalar<'de>>()? {
                    json::JsonScalar::Str(text) => self.text = Some(text.into_owned()),
                    json::JsonScalar::Null => {
                        self.json = RawValue::from_string("null".to_owned()).ok();
                    }
                    other => findings
                        .report(json::data_violation(non_text_data(
                            content_type.unwrap_or_default(),
                            other_type(&other),
                        )))
                        .map_err(|Stop| json::stop(findings))?,
                }
            }
            _ => self.json = Some(map.next_value::<Box<RawValue>>()?),
        }
        Ok(())
    }

    fn data_base64(&mut self, bytes: Vec<u8>, _findings: &mut Findings) -> Result<(), Stop> {
        self.binary = Some(bytes);
        Ok(())
    }

    fn finish(
        self,
        datacontenttype: Option<&str>,
        findings: &mut Findings,
    ) -> Result<Self::Data, Stop> {
        if let Some(text) = self.text {
            return Ok(Some(Data::Text(text)));
        }
        if let Some(raw) = self.json {
            if json::is_json(datacontenttype) || raw.get() == "null" {
                return Ok(Some(Data::Json(raw)));
            }
            // `data` came before a non-JSON `datacontenttype`: it must be a JSON string.
            return match serde_json::from_str::<String>(raw.get()) {
                Ok(text) => Ok(Some(Data::Text(text))),
                Err(_) => {
                    findings.report(json::data_violation(non_text_data(
                        datacontenttype.unwrap_or_default(),
                        "not a string",
                    )))?;
                    Ok(Some(Data::Json(raw)))
                }
            };
        }
        Ok(self.binary.map(Data::Binary))
    }
}

fn other_type(value: &json::JsonScalar<'_>) -> &'static str {
    match value {
        json::JsonScalar::Composite(kind) => kind,
        json::JsonScalar::Bool(_) => "a boolean",
        _ => "a number",
    }
}

fn non_text_data(content_type: &str, found: &str) -> String {
    format!(
        "is {found}, but datacontenttype `{content_type}` is not JSON, so `data` must be a string (CE-JSON 3.1)"
    )
}

/// An event of any type with every attribute, its extensions and its raw data.
///
/// Unrecognised extensions are kept and written back unchanged, so an intermediary forwards
/// them (INTG-STD-015 R-6, consumer enforcement).
///
/// ```
/// use cloudevent_runtime::AnyEvent;
///
/// let input = br#"{"specversion":"1.0","id":"01HZX3KQVB8E72GQJHF5RM6YWN",
///     "source":"https://orders.example.com/checkout","type":"com.example.order.created",
///     "comexampleflag":true,"data":{"orderId":"order-8842"}}"#;
/// let event = AnyEvent::from_slice(input).unwrap();
/// assert_eq!(event.ty(), "com.example.order.created");
/// assert_eq!(event.extension("comexampleflag").map(|v| v.as_value()),
///            Some(cloudevent_runtime::ExtensionValue::Boolean(true)));
///
/// let again = AnyEvent::from_slice(&event.to_vec()).unwrap();
/// assert_eq!(again, event);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnyEvent {
    id: String,
    source: String,
    ty: String,
    datacontenttype: Option<String>,
    dataschema: Option<String>,
    subject: Option<String>,
    time: Option<Timestamp>,
    extensions: Extensions,
    data: Option<Data>,
}

impl AnyEvent {
    /// An event with the required attributes and nothing else; the validator checks them.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
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
            extensions: Extensions::new(),
            data: None,
        }
    }

    /// Parses one event in the JSON format, refusing more than
    /// [`limits::MAX_EVENT_BYTES`] before reading anything (INTG-STD-015 R-11).
    ///
    /// # Errors
    /// The first thing that makes the input not a valid event: see [`FormatError`].
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","region":"eu","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.subject(), Some("order-1"));
    /// let err = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","id":"2"}"#).unwrap_err();
    /// assert_eq!(err.rule().map(|r| r.as_str()), Some("INTG-STD-015 R-7"));
    /// ```
    pub fn from_slice(bytes: &[u8]) -> Result<Self, FormatError> {
        Self::from_slice_with_limit(bytes, limits::MAX_EVENT_BYTES)
    }

    /// [`AnyEvent::from_slice`] with another size limit (a bilateral agreement, a test).
    ///
    /// # Errors
    /// See [`FormatError`].
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, FormatError};
    /// let json = br#"{"specversion":"1.0","id":"1","source":"/s","type":"com.example.order.created"}"#;
    /// assert!(AnyEvent::from_slice_with_limit(json, 1024).is_ok());
    /// assert!(matches!(AnyEvent::from_slice_with_limit(json, 10), Err(FormatError::TooLarge { .. })));
    /// ```
    pub fn from_slice_with_limit(bytes: &[u8], limit: usize) -> Result<Self, FormatError> {
        if bytes.len() > limit {
            return Err(FormatError::TooLarge {
                what: "event",
                found: bytes.len(),
                limit,
                rule: cloudevent_rules::rule::INTG_R11,
            });
        }
        let mut findings = Findings::strict();
        match json::parse_slice(bytes, RawData::default(), None, &mut findings) {
            Ok((envelope, data)) => Ok(AnyEvent::from_envelope(envelope, data)),
            Err(error) => Err(json::into_format_error(error, &mut findings)),
        }
    }

    /// Reads one event, at most `limit` bytes: the reader is not drained past the limit, so
    /// an oversized event costs no more than the limit (bounded reading, R-11).
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, FormatError};
    ///
    /// let big = vec![b' '; 1000];
    /// let err = AnyEvent::from_reader(&big[..], 100).unwrap_err();
    /// assert!(matches!(err, FormatError::TooLarge { found: 101, limit: 100, .. }));
    /// ```
    ///
    /// # Errors
    /// See [`FormatError`]; reading errors are [`FormatError::Io`].
    pub fn from_reader(reader: impl Read, limit: usize) -> Result<Self, FormatError> {
        let bytes = read_bounded(reader, limit, "event", cloudevent_rules::rule::INTG_R11)?;
        Self::from_slice_with_limit(&bytes, limit)
    }

    pub(crate) fn from_envelope(envelope: json::Envelope<'_>, data: Option<Data>) -> Self {
        let owned = |value: Option<std::borrow::Cow<'_, str>>| value.map(|v| v.into_owned());
        AnyEvent {
            id: owned(envelope.id).unwrap_or_default(),
            source: owned(envelope.source).unwrap_or_default(),
            ty: owned(envelope.ty).unwrap_or_default(),
            datacontenttype: owned(envelope.datacontenttype),
            dataschema: owned(envelope.dataschema),
            subject: owned(envelope.subject),
            time: owned(envelope.time).map(Timestamp::new_unchecked),
            extensions: envelope.extensions,
            data,
        }
    }

    /// The event in the JSON format.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
    /// event.extensions_mut().insert("region", "eu");
    /// assert_eq!(
    ///     String::from_utf8(event.to_vec()).unwrap(),
    ///     r#"{"specversion":"1.0","id":"1","source":"https://orders.example.com","type":"com.example.order.created","region":"eu"}"#
    /// );
    /// ```
    pub fn to_vec(&self) -> Vec<u8> {
        // Serializing these types to a Vec cannot fail: keys are strings, raw data is
        // valid JSON by construction.
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// The event as a typed [`Event<T>`], if its type is `T`'s.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, CloudEventData, Event, ExtensionVisitor};
    ///
    /// #[derive(serde::Deserialize)]
    /// struct Ping { n: u32 }
    /// impl CloudEventData for Ping {
    ///     const TYPE: &'static str = "com.example.health.ping.sent";
    ///     const DATASCHEMA: Option<&'static str> = None;
    ///     const SOURCE: Option<&'static str> = None;
    ///     const DATACONTENTTYPE: &'static str = "application/json";
    ///     const EXTENSIONS: &'static [&'static str] = &[];
    ///     fn subject(&self) -> Option<&str> { None }
    ///     fn visit_extensions<V: ExtensionVisitor>(&self, _: &mut V) -> Result<(), V::Error> { Ok(()) }
    /// }
    ///
    /// let any = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/s",
    ///     "type":"com.example.health.ping.sent","data":{"n":3}}"#).unwrap();
    /// let ping: Event<Ping> = any.into_typed().unwrap();
    /// assert_eq!(ping.data().n, 3);
    /// ```
    ///
    /// # Errors
    /// When the type differs (the error names both) or the data does not fit `T`.
    pub fn into_typed<T>(self) -> Result<Event<T>, FormatError>
    where
        T: CloudEventData + de::DeserializeOwned,
    {
        Event::from_any(self)
    }

    /// `id`.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","region":"eu","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.id(), "1");
    /// ```
    pub fn id(&self) -> &str {
        &self.id
    }

    /// `source`.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","region":"eu","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.source(), "/orders");
    /// ```
    pub fn source(&self) -> &str {
        &self.source
    }

    /// `type`.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","region":"eu","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.ty(), "com.example.order.created");
    /// ```
    pub fn ty(&self) -> &str {
        &self.ty
    }

    /// `datacontenttype`, as given (absent means `application/json` for `data`).
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","region":"eu","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.datacontenttype(), Some("application/json"));
    /// ```
    pub fn datacontenttype(&self) -> Option<&str> {
        self.datacontenttype.as_deref()
    }

    /// `dataschema`.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","region":"eu","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.dataschema(), Some("https://schemas.example.com/orders/v1.json"));
    /// ```
    pub fn dataschema(&self) -> Option<&str> {
        self.dataschema.as_deref()
    }

    /// `subject`.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","region":"eu","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.subject(), Some("order-1"));
    /// ```
    pub fn subject(&self) -> Option<&str> {
        self.subject.as_deref()
    }

    /// `time`.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","region":"eu","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.time().map(|t| t.as_str()), Some("2026-03-28T14:22:31Z"));
    /// ```
    pub fn time(&self) -> Option<&Timestamp> {
        self.time.as_ref()
    }

    /// One extension's value.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// let event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","region":"eu","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.extension("region").and_then(|v| v.as_str()), Some("eu"));
    /// ```
    pub fn extension(&self, name: &str) -> Option<&ExtensionValueBuf> {
        self.extensions.get(name)
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
        self.data.take()
    }

    /// Sets `id` (a re-emission gets a new one, ADR-0003).
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
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
    /// use cloudevent_runtime::AnyEvent;
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
    /// use cloudevent_runtime::AnyEvent;
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
    /// use cloudevent_runtime::AnyEvent;
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
    /// use cloudevent_runtime::AnyEvent;
    /// let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
    /// event.set_dataschema(Some("https://schemas.example.com/orders/v1.json".into()));
    /// assert!(event.dataschema().is_some());
    /// ```
    pub fn set_dataschema(&mut self, value: Option<String>) {
        self.dataschema = value;
    }

    /// Sets or clears `subject`.
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
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
    /// use cloudevent_runtime::AnyEvent;
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
        self.data = data;
    }

    /// The attributes as strings, for the validator.
    pub(crate) fn view(&self) -> json::AttributeView<'_> {
        json::AttributeView {
            specversion: Some("1.0"),
            id: Some(&self.id),
            source: Some(&self.source),
            ty: Some(&self.ty),
            datacontenttype: self.datacontenttype.as_deref(),
            dataschema: self.dataschema.as_deref(),
            subject: self.subject.as_deref(),
            time: self.time.as_ref().map(Timestamp::as_str),
            extensions: &self.extensions,
        }
    }
}

impl Traceable for AnyEvent {
    fn id(&self) -> &str {
        &self.id
    }

    fn extension_str(&self, name: &str) -> Option<std::borrow::Cow<'_, str>> {
        self.extensions
            .get_str(name)
            .map(std::borrow::Cow::Borrowed)
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

impl Serialize for AnyEvent {
    /// The JSON format, attributes in the same order as [`Event<T>`]: core, extensions, data.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("specversion", "1.0")?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("source", &self.source)?;
        map.serialize_entry("type", &self.ty)?;
        if let Some(value) = &self.datacontenttype {
            map.serialize_entry("datacontenttype", value)?;
        }
        if let Some(value) = &self.dataschema {
            map.serialize_entry("dataschema", value)?;
        }
        if let Some(value) = &self.subject {
            map.serialize_entry("subject", value)?;
        }
        if let Some(value) = &self.time {
            map.serialize_entry("time", value.as_str())?;
        }
        for (name, value) in &self.extensions {
            map.serialize_entry(name, value)?;
        }
        match &self.data {
            Some(Data::Json(raw)) => map.serialize_entry("data", raw)?,
            Some(Data::Text(text)) => map.serialize_entry("data", text)?,
            Some(Data::Binary(bytes)) => {
                map.serialize_entry("data_base64", &crate::payload::Base64Str(bytes))?
            }
            None => {}
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for AnyEvent {
    /// Strict, like [`AnyEvent::from_slice`] but without the size check; JSON only (raw
    /// `data` needs serde_json).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut findings = Findings::strict();
        let (envelope, data) = json::EventSeed {
            findings: &mut findings,
            slot: RawData::default(),
            expected_type: None,
        }
        .deserialize(deserializer)?;
        Ok(AnyEvent::from_envelope(envelope, data))
    }
}
