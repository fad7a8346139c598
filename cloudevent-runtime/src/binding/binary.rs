//! Events to and from [`BinaryParts`], the content of a binary-mode message, and the
//! [`BindingEvent`] trait every binding is generic over.
//!
//! Receiving goes through the JSON event format on purpose: the parts are written as the
//! structured-mode document they stand for and parsed by the same strict parser, so a binary
//! message is held to exactly the rules a structured one is (required attributes, control
//! characters, `type` of a typed event, size limit).

use std::borrow::Cow;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde::ser::{SerializeMap, Serializer};
use serde_json::value::RawValue;

use super::{BinaryParts, BindingError};
use crate::format::json::AttributeView;
use crate::{
    AnyEvent, Batch, Binary, CloudEventData, Data, Event, ExtensionValue, ExtensionValueBuf,
    ExtensionVisitor,
};
use cloudevent_rules::Mode;

/// An event a binding can carry: [`AnyEvent`] and every typed [`Event<T>`].
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::BindingEvent;
///
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// let parts = event.to_binary().unwrap();
/// assert_eq!(parts.attribute("specversion"), Some("1.0"));
/// assert_eq!(AnyEvent::from_binary(parts).unwrap(), event);
/// ```
pub trait BindingEvent: Sized + crate::patterns::receipt::Receivable {
    /// The policy this type's readers enforce, and report refusals under: the CloudEvents
    /// 1.0.2 MUSTs for [`AnyEvent`], `T`'s profile for [`Event<T>`].
    fn policy() -> crate::Policy {
        AnyEvent::DEFAULT_POLICY
    }

    /// The event's `id`.
    fn id(&self) -> &str;

    /// The event's `source`.
    fn source(&self) -> &str;

    /// The event in the JSON event format (structured mode).
    ///
    /// # Errors
    /// A payload that cannot be serialized.
    fn to_structured(&self) -> Result<Vec<u8>, BindingError>;

    /// Parses the JSON event format (structured mode).
    ///
    /// # Errors
    /// Whatever makes the document not a valid event of this type.
    fn from_structured(bytes: &[u8]) -> Result<Self, BindingError>;

    /// The event as binary-mode parts.
    ///
    /// # Errors
    /// A payload that cannot be serialized.
    fn to_binary(&self) -> Result<BinaryParts, BindingError>;

    /// Reads binary-mode parts.
    ///
    /// # Errors
    /// Whatever makes the parts not a valid event of this type.
    fn from_binary(parts: BinaryParts) -> Result<Self, BindingError> {
        Self::from_binary_typed(parts, &[])
    }

    /// Reads binary-mode parts whose transport said the type of some extensions (AMQP's
    /// native boolean and long, CE AMQP binding 3.1.3.2): those come back typed.
    ///
    /// # Errors
    /// Whatever makes the parts not a valid event of this type.
    fn from_binary_typed(
        parts: BinaryParts,
        typed: &[(String, ExtensionValueBuf)],
    ) -> Result<Self, BindingError>;

    /// The event as an [`AnyEvent`] (for batches).
    ///
    /// # Errors
    /// A payload that cannot be serialized.
    fn to_any_event(&self) -> Result<AnyEvent, BindingError>;

    /// The event from an [`AnyEvent`] (for batches).
    ///
    /// # Errors
    /// A different `type`, or data that does not fit.
    fn from_any_event(event: AnyEvent) -> Result<Self, BindingError>;
}

impl BindingEvent for AnyEvent {
    fn id(&self) -> &str {
        AnyEvent::id(self)
    }

    fn source(&self) -> &str {
        AnyEvent::source(self)
    }

    fn to_structured(&self) -> Result<Vec<u8>, BindingError> {
        outgoing(self.to_vec())
    }

    fn from_structured(bytes: &[u8]) -> Result<Self, BindingError> {
        Ok(AnyEvent::from_slice(bytes)?)
    }

    fn to_binary(&self) -> Result<BinaryParts, BindingError> {
        outgoing_parts(parts_of(self))
    }

    fn from_binary_typed(
        parts: BinaryParts,
        typed: &[(String, ExtensionValueBuf)],
    ) -> Result<Self, BindingError> {
        let document = structured_document(&parts, &hints(typed))?;
        Ok(AnyEvent::from_slice(&document)?)
    }

    fn to_any_event(&self) -> Result<AnyEvent, BindingError> {
        Ok(self.clone())
    }

    fn from_any_event(event: AnyEvent) -> Result<Self, BindingError> {
        Ok(event)
    }
}

impl<T> BindingEvent for Event<T>
where
    T: CloudEventData + Serialize + DeserializeOwned,
{
    fn policy() -> crate::Policy {
        Event::<T>::POLICY
    }

    fn id(&self) -> &str {
        Event::id(self)
    }

    fn source(&self) -> &str {
        Event::source(self)
    }

    fn to_structured(&self) -> Result<Vec<u8>, BindingError> {
        outgoing(self.to_vec()?)
    }

    fn from_structured(bytes: &[u8]) -> Result<Self, BindingError> {
        Ok(Event::from_slice(bytes)?)
    }

    fn to_binary(&self) -> Result<BinaryParts, BindingError> {
        outgoing_parts(match typed_parts(self) {
            Some(parts) => parts,
            // Text and binary payloads, and values the format refuses, take the route through
            // the JSON event format, which probes the payload and reports the error.
            None => parts_of(&self.to_any()?),
        })
    }

    fn from_binary_typed(
        parts: BinaryParts,
        typed: &[(String, ExtensionValueBuf)],
    ) -> Result<Self, BindingError> {
        let mut hints = typed_extensions::<T>(&parts);
        hints.extend(self::hints(typed));
        let document = structured_document(&parts, &hints)?;
        Ok(Event::from_slice(&document)?)
    }

    fn to_any_event(&self) -> Result<AnyEvent, BindingError> {
        Ok(self.to_any()?)
    }

    fn from_any_event(event: AnyEvent) -> Result<Self, BindingError> {
        Ok(event.into_typed()?)
    }
}

impl BinaryParts {
    /// The JSON event format document these parts stand for: what a receiver parses, and
    /// what a validator can report on in full (every finding, not only the first). A JSON
    /// body goes in `data`, text under a text type in `data` as a string, anything else in
    /// `data_base64`.
    ///
    /// ```
    /// use cloudevent_runtime::{Profile, Validator};
    /// use cloudevent_runtime::binding::BinaryParts;
    ///
    /// let parts = BinaryParts {
    ///     attributes: vec![("specversion".into(), "1.0".into()), ("id".into(), "".into())],
    ///     datacontenttype: Some("text/plain".into()),
    ///     data: Some(b"hi".to_vec()),
    /// };
    /// let document = parts.to_structured_document().unwrap();
    /// assert_eq!(document, br#"{"specversion":"1.0","id":"","datacontenttype":"text/plain","data":"hi"}"#);
    /// let report = Validator::new(Profile::CloudEvents).validate_slice(&document);
    /// assert!(report.errors().count() >= 3); // empty id, no source, no type
    /// ```
    ///
    /// # Errors
    /// A JSON content type over a body that is not JSON.
    pub fn to_structured_document(&self) -> Result<Vec<u8>, BindingError> {
        structured_document(self, &[])
    }
}

/// The producer side refuses what every receiver would refuse: an event over 256 KiB
/// (INTG-STD-015 R-11) is a typed error before anything is sent.
fn outgoing(bytes: Vec<u8>) -> Result<Vec<u8>, BindingError> {
    if bytes.len() > crate::limits::MAX_EVENT_BYTES {
        return Err(BindingError::TooLarge {
            size: bytes.len(),
            limit: crate::limits::MAX_EVENT_BYTES,
        });
    }
    Ok(bytes)
}

/// [`outgoing`] for binary mode: the attributes as written (names and values) and the data.
fn outgoing_parts(parts: BinaryParts) -> Result<BinaryParts, BindingError> {
    let size = parts.data.as_ref().map_or(0, Vec::len)
        + parts.datacontenttype.as_ref().map_or(0, String::len)
        + parts
            .attributes
            .iter()
            .map(|(name, value)| name.len() + value.len())
            .sum::<usize>();
    if size > crate::limits::MAX_EVENT_BYTES {
        return Err(BindingError::TooLarge {
            size,
            limit: crate::limits::MAX_EVENT_BYTES,
        });
    }
    Ok(parts)
}

/// What a transport does with a copy of `datacontenttype` among its attribute headers.
#[cfg(any(
    feature = "http",
    feature = "kafka",
    feature = "amqp",
    feature = "mqtt"
))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ContentTypeCopy {
    /// HTTP: `datacontenttype` is `Content-Type` only; a `ce-datacontenttype` header is an
    /// error (CE HTTP binding 3.1.1).
    Refused,
    /// Kafka, AMQP, MQTT: a copy may stand in for a missing content type, and must agree
    /// with a present one.
    #[cfg_attr(
        not(any(feature = "kafka", feature = "amqp", feature = "mqtt")),
        allow(
            dead_code,
            reason = "only the Kafka, AMQP and MQTT readers take copies"
        )
    )]
    MustAgree,
}

#[cfg(any(
    feature = "http",
    feature = "kafka",
    feature = "amqp",
    feature = "mqtt"
))]
impl BinaryParts {
    /// The parts of a received binary-mode message before its attributes: the transport's
    /// content type and body. An empty body is no data in every binding, as HTTP's empty
    /// body is (so a Kafka record with an empty value and `application/json` has no data,
    /// where it used to be refused as JSON that does not parse).
    pub(crate) fn received(content_type: Option<&str>, body: Option<Vec<u8>>) -> Self {
        BinaryParts {
            attributes: Vec::new(),
            datacontenttype: content_type.map(str::to_owned),
            data: body.filter(|body| !body.is_empty()),
        }
    }

    /// Adds one attribute read from a transport header, the checks every binding shares: a
    /// header never carries `data` or `data_base64`, an attribute has one value, and a
    /// `datacontenttype` copy follows the transport's rule. Names are kept as written: a
    /// name the spec forbids (`ExtA`, `ext-a`, empty) reaches the policy's check and is
    /// refused there, never silently renamed.
    pub(crate) fn receive(
        &mut self,
        attribute: &str,
        header: &str,
        value: String,
        copy: ContentTypeCopy,
    ) -> Result<(), BindingError> {
        if cloudevent_rules::RESERVED_NAMES.contains(&attribute) {
            return Err(BindingError::DataHeader {
                attribute: attribute.to_owned(),
                header: header.to_owned(),
            });
        }
        if attribute == "datacontenttype" {
            return match (copy, &self.datacontenttype) {
                (ContentTypeCopy::Refused, _) => Err(BindingError::DataContentTypeHeader {
                    header: header.to_owned(),
                }),
                (ContentTypeCopy::MustAgree, Some(existing)) if *existing != value => {
                    Err(BindingError::DuplicateAttribute {
                        attribute: attribute.to_owned(),
                        header: header.to_owned(),
                    })
                }
                (ContentTypeCopy::MustAgree, Some(_)) => Ok(()),
                (ContentTypeCopy::MustAgree, None) => {
                    self.datacontenttype = Some(value);
                    Ok(())
                }
            };
        }
        if self.attribute(attribute).is_some() {
            return Err(BindingError::DuplicateAttribute {
                attribute: attribute.to_owned(),
                header: header.to_owned(),
            });
        }
        self.attributes.push((attribute.to_owned(), value));
        Ok(())
    }
}

/// Parses a JSON batch (CloudEvents JSON format §4, INTG-STD-015 R-10) into events of one kind.
///
/// # Errors
/// The batch is not valid, or an event is not of this type (the error names its index).
pub fn batch_from_slice<E: BindingEvent>(bytes: &[u8]) -> Result<Vec<E>, BindingError> {
    Batch::from_slice(bytes)?
        .into_events()
        .into_iter()
        .enumerate()
        .map(|(index, event)| {
            E::from_any_event(event).map_err(|error| match error {
                BindingError::Event(source) => BindingError::Event(crate::FormatError::InBatch {
                    index,
                    source: Box::new(source),
                }),
                other => other,
            })
        })
        .collect()
}

/// Writes events as a JSON batch.
///
/// # Errors
/// A payload that cannot be serialized.
pub fn batch_to_vec<E: BindingEvent>(events: &[E]) -> Result<Vec<u8>, BindingError> {
    let events = events
        .iter()
        .map(BindingEvent::to_any_event)
        .collect::<Result<Vec<_>, _>>()?;
    let bytes = Batch::from(events).to_vec();
    // Refused before sending, as every receiver would refuse it (R-10).
    if bytes.len() > crate::limits::MAX_BATCH_BYTES {
        return Err(BindingError::TooLarge {
            size: bytes.len(),
            limit: crate::limits::MAX_BATCH_BYTES,
        });
    }
    Ok(bytes)
}

/// The canonical string of an extension value (CloudEvents 1.0.2 "Type System").
///
/// ```
/// use cloudevent_runtime::ExtensionValue;
/// use cloudevent_runtime::binding::canonical_string;
///
/// assert_eq!(canonical_string(ExtensionValue::Integer(-5)), "-5");
/// assert_eq!(canonical_string(ExtensionValue::Boolean(true)), "true");
/// assert_eq!(canonical_string(ExtensionValue::Binary(b"hi")), "aGk=");
/// ```
pub fn canonical_string(value: ExtensionValue<'_>) -> Cow<'_, str> {
    crate::extension::canonical(value)
}

/// The parts of a typed event with a JSON payload, straight from the event: the payload is
/// serialized once as the body, where the route through [`AnyEvent`] wrote the whole event as
/// JSON and parsed it back with the strict reader. The same parts as [`parts_of`] gives
/// (extensions in name order), or `None` when that route must decide: a non-JSON payload, or
/// anything its strict reader refuses (an attribute that is empty or holds a control
/// character, an extension named like a core attribute or `data`, which the JSON route writes
/// as a duplicate member), whose error that route reports. An `Event<T>` can hold such values:
/// `AnyEvent`'s setters do not check, and `into_typed` keeps what they set.
fn typed_parts<T: CloudEventData + Serialize>(event: &Event<T>) -> Option<BinaryParts> {
    if !cloudevent_rules::is_json_media_type(event.datacontenttype()) {
        return None;
    }
    let view = AttributeView {
        specversion: Some("1.0"),
        id: Some(event.id()),
        source: Some(event.source()),
        ty: Some(T::TYPE),
        datacontenttype: Some(event.datacontenttype()),
        dataschema: event.dataschema(),
        subject: event.subject(),
        time: event.time().map(|t| t.as_str()),
        extensions: event.extensions(),
    };
    let found = Event::<T>::POLICY.check_envelope(&view.envelope(None), Mode::FirstError);
    if cloudevent_rules::has_error(&found) {
        return None;
    }
    let mut attributes = core_attributes(
        [
            ("id", Some(event.id())),
            ("source", Some(event.source())),
            ("type", Some(T::TYPE)),
            ("subject", event.subject()),
            ("time", event.time().map(|t| t.as_str())),
            ("dataschema", event.dataschema()),
        ],
        T::EXTENSIONS.len() + event.extensions().len(),
    );
    let core = attributes.len();
    let mut refused = false;
    // The view above checked the event's own extensions; the payload's are checked here.
    event.for_each_extension(|name, value| {
        if let ExtensionValue::String(text) = value {
            refused |= !cloudevent_rules::check_string_value(name, text).is_empty();
        }
        refused |= cloudevent_rules::CORE_ATTRIBUTES.contains(&name)
            || cloudevent_rules::RESERVED_NAMES.contains(&name);
        attributes.push((name.to_owned(), canonical_string(value).into_owned()));
    });
    if refused {
        return None;
    }
    attributes[core..].sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let data = serde_json::to_vec(event.data()).ok()?;
    Some(BinaryParts {
        attributes,
        datacontenttype: Some(event.datacontenttype().to_owned()),
        data: Some(data),
    })
}

/// `specversion` and the given attributes that are set, in binary mode's order, with room
/// for `extensions` more.
fn core_attributes(
    attributes: [(&'static str, Option<&str>); 6],
    extensions: usize,
) -> Vec<(String, String)> {
    let mut out = Vec::with_capacity(1 + attributes.len() + extensions);
    out.push(("specversion".to_owned(), "1.0".to_owned()));
    for (name, value) in attributes {
        if let Some(value) = value {
            out.push((name.to_owned(), value.to_owned()));
        }
    }
    out
}

fn parts_of(event: &AnyEvent) -> BinaryParts {
    let mut attributes = core_attributes(
        [
            ("id", Some(event.id())),
            ("source", Some(event.source())),
            ("type", Some(event.ty())),
            ("subject", event.subject()),
            ("time", event.time().map(|t| t.as_str())),
            ("dataschema", event.dataschema()),
        ],
        event.extensions().len(),
    );
    for (name, value) in event.extensions().iter() {
        attributes.push((
            name.to_owned(),
            canonical_string(value.as_value()).into_owned(),
        ));
    }
    let data = event.data().map(|data| match data {
        Data::Json(raw) => raw.get().as_bytes().to_vec(),
        Data::Text(text) => text.as_bytes().to_vec(),
        Data::Binary(bytes) => bytes.clone(),
    });
    // JSON data without a `datacontenttype` is `application/json` (CE-JSON 3.1); in binary
    // mode the content type is all a receiver has to tell JSON from bytes, so it is said.
    let datacontenttype = match (event.datacontenttype(), event.data()) {
        (Some(content_type), _) => Some(content_type.to_owned()),
        (None, Some(Data::Json(_))) => Some("application/json".to_owned()),
        (None, _) => None,
    };
    BinaryParts {
        attributes,
        datacontenttype,
        data,
    }
}

/// Typed values given by the transport, as document hints.
fn hints(typed: &[(String, ExtensionValueBuf)]) -> Vec<TypedExtension> {
    typed
        .iter()
        .filter_map(|(name, value)| {
            Some(TypedExtension {
                name: name.clone().into(),
                canonical: canonical_string(value.as_value()).into_owned(),
                json: serde_json::to_string(value).ok()?,
            })
        })
        .collect()
}

/// An extension with its typed value as JSON and as canonical string: the document writes
/// the typed JSON where the binary-mode string equals the canonical string.
struct TypedExtension {
    name: Cow<'static, str>,
    canonical: String,
    json: String,
}

/// The extensions `T` fills from its payload, read from the binary body, so that a header
/// such as `ce-priority: 5` comes back as the Integer the payload declares rather than as a
/// String (binary mode carries only canonical strings, §3.1.3.2).
fn typed_extensions<T: CloudEventData + DeserializeOwned>(
    parts: &BinaryParts,
) -> Vec<TypedExtension> {
    if T::EXTENSIONS.is_empty() {
        return Vec::new();
    }
    let Some(body) = parts.data.as_deref() else {
        return Vec::new();
    };
    // Only a JSON payload can be read here without the runtime's private leaf deserializers;
    // the derive's extension fields live in JSON payloads.
    let Ok(payload) = serde_json::from_slice::<T>(body) else {
        return Vec::new();
    };
    struct Collect(Vec<TypedExtension>);
    impl ExtensionVisitor for Collect {
        type Error = serde_json::Error;
        fn visit(
            &mut self,
            name: &'static str,
            value: ExtensionValue<'_>,
        ) -> Result<(), Self::Error> {
            self.0.push(TypedExtension {
                name: Cow::Borrowed(name),
                canonical: canonical_string(value).into_owned(),
                json: serde_json::to_string(&value)?,
            });
            Ok(())
        }
    }
    let mut collect = Collect(Vec::new());
    match payload.visit_extensions(&mut collect) {
        Ok(()) => collect.0,
        Err(_) => Vec::new(),
    }
}

/// How the body becomes `data` in the structured document.
enum DocumentData<'a> {
    Json(Box<RawValue>),
    Text(&'a str),
    Base64(String),
}

/// Writes the JSON event format document the parts stand for.
fn structured_document(
    parts: &BinaryParts,
    typed: &[TypedExtension],
) -> Result<Vec<u8>, BindingError> {
    // A message with no attribute header at all is not a binary-mode CloudEvent (a plain
    // `text/plain` POST): say so, rather than list the attributes it lacks.
    if parts.attributes.is_empty() {
        return Err(BindingError::NotCloudEvents {
            content_type: parts.datacontenttype.clone(),
        });
    }
    let data = match (&parts.data, parts.datacontenttype.as_deref()) {
        (None, _) => None,
        (Some(body), Some(content_type)) if cloudevent_rules::is_json_media_type(content_type) => {
            Some(json_data(body).ok_or_else(|| BindingError::DataNotJson {
                content_type: content_type.to_owned(),
            })?)
        }
        // No content type: JSON is implied (CE-JSON 3.1) when the body is JSON; anything
        // else can only be carried as bytes.
        (Some(body), None) => Some(
            json_data(body)
                .unwrap_or_else(|| DocumentData::Base64(Binary::new(body.clone()).to_base64())),
        ),
        (Some(body), Some(content_type)) => Some(match std::str::from_utf8(body) {
            Ok(text) if is_text_media_type(content_type) => DocumentData::Text(text),
            _ => DocumentData::Base64(Binary::new(body.clone()).to_base64()),
        }),
    };
    let mut out = Vec::with_capacity(256 + parts.data.as_ref().map_or(0, Vec::len));
    let mut serializer = serde_json::Serializer::new(&mut out);
    let result = (|| {
        let mut map = serializer.serialize_map(None)?;
        for (name, value) in &parts.attributes {
            match typed
                .iter()
                .find(|t| t.name == name.as_str() && t.canonical == *value)
            {
                Some(typed) => {
                    map.serialize_entry(name, &RawJson(&typed.json))?;
                }
                None => map.serialize_entry(name, value)?,
            }
        }
        if let Some(content_type) = &parts.datacontenttype {
            map.serialize_entry("datacontenttype", content_type)?;
        }
        match &data {
            None => {}
            Some(DocumentData::Json(raw)) => map.serialize_entry("data", raw)?,
            Some(DocumentData::Text(text)) => map.serialize_entry("data", text)?,
            Some(DocumentData::Base64(text)) => map.serialize_entry("data_base64", text)?,
        }
        map.end()
    })();
    result.map_err(|e| BindingError::Event(crate::FormatError::Json(e)))?;
    Ok(out)
}

fn json_data(body: &[u8]) -> Option<DocumentData<'static>> {
    let text = std::str::from_utf8(body).ok()?;
    RawValue::from_string(text.to_owned())
        .ok()
        .map(DocumentData::Json)
}

/// `text/*`, or any type with a `charset` parameter: data that is text and can travel as a
/// JSON string (CE-JSON 3.1); anything else travels as `data_base64`.
fn is_text_media_type(content_type: &str) -> bool {
    let lower = content_type.to_ascii_lowercase();
    lower.trim_start().starts_with("text/") || lower.contains("charset=")
}

/// Already-serialized JSON, written as is.
struct RawJson<'a>(&'a str);

impl Serialize for RawJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match RawValue::from_string(self.0.to_owned()) {
            Ok(raw) => raw.serialize(serializer),
            Err(e) => Err(serde::ser::Error::custom(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(attributes: &[(&str, &str)], content_type: Option<&str>, body: &[u8]) -> BinaryParts {
        BinaryParts {
            attributes: attributes
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
            datacontenttype: content_type.map(str::to_owned),
            data: (!body.is_empty()).then(|| body.to_vec()),
        }
    }

    const REQUIRED: [(&str, &str); 4] = [
        ("specversion", "1.0"),
        ("id", "1"),
        ("source", "/s"),
        ("type", "com.example.order.created"),
    ];

    #[test]
    fn body_becomes_json_text_or_bytes_by_content_type() {
        let any = AnyEvent::from_binary(parts(&REQUIRED, Some("application/json"), b"{\"a\":1}"))
            .unwrap();
        assert_eq!(any.data(), Some(&Data::json("{\"a\":1}").unwrap()));
        let any = AnyEvent::from_binary(parts(&REQUIRED, Some("text/plain"), b"hi")).unwrap();
        assert_eq!(any.data(), Some(&Data::Text("hi".into())));
        let any = AnyEvent::from_binary(parts(
            &REQUIRED,
            Some("application/octet-stream"),
            b"\x00\xff",
        ))
        .unwrap();
        assert_eq!(any.data(), Some(&Data::Binary(vec![0, 0xff])));
        let any = AnyEvent::from_binary(parts(&REQUIRED, None, b"[1]")).unwrap();
        assert_eq!(any.data(), Some(&Data::json("[1]").unwrap()));
    }

    #[test]
    fn json_content_type_with_non_json_body_is_an_error() {
        let err =
            AnyEvent::from_binary(parts(&REQUIRED, Some("application/json"), b"nope")).unwrap_err();
        assert!(matches!(err, BindingError::DataNotJson { .. }), "{err}");
    }

    #[test]
    fn missing_or_wrong_specversion_is_rejected() {
        assert!(AnyEvent::from_binary(parts(&REQUIRED[1..], None, b"")).is_err());
        let mut wrong = REQUIRED;
        wrong[0] = ("specversion", "0.3");
        assert!(AnyEvent::from_binary(parts(&wrong, None, b"")).is_err());
    }

    #[test]
    fn extensions_round_trip_as_canonical_strings() {
        let mut event = AnyEvent::new("1", "/s", "com.example.order.created");
        event.extensions_mut().insert("priority", 5);
        event.extensions_mut().insert("flag", true);
        let parts = event.to_binary().unwrap();
        assert_eq!(parts.attribute("priority"), Some("5"));
        assert_eq!(parts.attribute("flag"), Some("true"));
        // A receiver without a schema sees the canonical strings (§3.1.3.2).
        let back = AnyEvent::from_binary(parts).unwrap();
        assert_eq!(
            back.extension("priority").and_then(|v| v.as_str()),
            Some("5")
        );
    }
}
