//! Events to and from [`BinaryParts`], the content of a binary-mode message, and the
//! [`BindingEvent`] trait every binding is generic over.
//!
//! Receiving reads the parts with the JSON reader's own rules (`parts.rs`), so a binary
//! message is held to exactly the rules a structured one is (required attributes, control
//! characters, `type` of a typed event, size limit).

use std::borrow::Cow;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::parts::PartsRef;
use super::{BinaryParts, BindingError};
use crate::attributes::Attributes;
use crate::format::EventFormat;
use crate::{
    AnyEvent, BuildError, CloudEventData, Data, Event, ExtensionValue, ExtensionValueBuf, Json,
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
pub trait BindingEvent: Sized + crate::Attributes {
    /// The policy this type's readers enforce, and report refusals under: the CloudEvents
    /// 1.0.2 MUSTs for [`AnyEvent`], `T`'s profile for [`Event<T>`].
    fn policy() -> crate::Policy {
        AnyEvent::DEFAULT_POLICY
    }

    /// The event in the JSON event format (structured mode), refused over the event size
    /// limit (R-11) before it is sent.
    ///
    /// # Errors
    /// A payload that cannot be serialized; an event over the size limit.
    fn to_structured(&self) -> Result<Vec<u8>, BindingError> {
        outgoing(self.write_format::<Json>()?)
    }

    /// Parses the JSON event format (structured mode).
    ///
    /// # Errors
    /// Whatever makes the document not a valid event of this type.
    fn from_structured(bytes: &[u8]) -> Result<Self, BindingError> {
        Self::read_format::<Json>(bytes)
    }

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

    /// Reads binary-mode parts borrowed from a received message (every binding's receive
    /// path): the same reading as [`BindingEvent::from_binary_typed`], without first copying
    /// every header and the body into [`BinaryParts`]. The default makes them owned and
    /// calls that method; not part of the stable API.
    ///
    /// # Errors
    /// Whatever makes the parts not a valid event of this type.
    #[doc(hidden)]
    fn from_binary_borrowed(
        attributes: &[(&str, Cow<'_, str>)],
        datacontenttype: Option<&str>,
        data: Option<&[u8]>,
        typed: &[(String, ExtensionValueBuf)],
    ) -> Result<Self, BindingError> {
        let parts = BinaryParts {
            attributes: attributes
                .iter()
                .map(|(name, value)| ((*name).to_owned(), value.to_string()))
                .collect(),
            datacontenttype: datacontenttype.map(str::to_owned),
            data: data.map(<[u8]>::to_vec),
        };
        Self::from_binary_typed(parts, typed)
    }

    /// Reads one event in the format `F` (structured mode): [`AnyEvent::decode`] or
    /// [`Event::decode`], the type's own door. Not part of the stable API.
    ///
    /// # Errors
    /// Whatever makes the bytes not a valid event of this type.
    #[doc(hidden)]
    fn read_format<F: EventFormat>(bytes: &[u8]) -> Result<Self, BindingError>;

    /// Writes the event in the format `F` (structured mode): [`AnyEvent::encode`] or
    /// [`Event::encode`]. Not part of the stable API.
    ///
    /// # Errors
    /// A payload that cannot be serialized; an event the format cannot carry.
    #[doc(hidden)]
    fn write_format<F: EventFormat>(&self) -> Result<Vec<u8>, BindingError>;

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
    fn to_binary(&self) -> Result<BinaryParts, BindingError> {
        outgoing_parts(parts_of(self))
    }

    fn from_binary_typed(
        parts: BinaryParts,
        typed: &[(String, ExtensionValueBuf)],
    ) -> Result<Self, BindingError> {
        super::parts::read_any(&parts.borrowed(), typed)
    }

    fn from_binary_borrowed(
        attributes: &[(&str, Cow<'_, str>)],
        datacontenttype: Option<&str>,
        data: Option<&[u8]>,
        typed: &[(String, ExtensionValueBuf)],
    ) -> Result<Self, BindingError> {
        super::parts::read_any(&PartsRef::new(attributes, datacontenttype, data), typed)
    }

    fn read_format<F: EventFormat>(bytes: &[u8]) -> Result<Self, BindingError> {
        Ok(AnyEvent::decode::<F>(bytes)?)
    }

    fn write_format<F: EventFormat>(&self) -> Result<Vec<u8>, BindingError> {
        Ok(self.encode::<F>()?)
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

    fn to_binary(&self) -> Result<BinaryParts, BindingError> {
        outgoing_parts(match typed_parts(self)? {
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
        super::parts::read_typed(&parts.borrowed(), typed)
    }

    fn from_binary_borrowed(
        attributes: &[(&str, Cow<'_, str>)],
        datacontenttype: Option<&str>,
        data: Option<&[u8]>,
        typed: &[(String, ExtensionValueBuf)],
    ) -> Result<Self, BindingError> {
        super::parts::read_typed(&PartsRef::new(attributes, datacontenttype, data), typed)
    }

    fn read_format<F: EventFormat>(bytes: &[u8]) -> Result<Self, BindingError> {
        Ok(Event::decode::<F>(bytes)?)
    }

    fn write_format<F: EventFormat>(&self) -> Result<Vec<u8>, BindingError> {
        Ok(self.encode::<F>()?)
    }

    fn to_any_event(&self) -> Result<AnyEvent, BindingError> {
        Ok(self.to_any()?)
    }

    fn from_any_event(event: AnyEvent) -> Result<Self, BindingError> {
        Ok(event.into_typed()?)
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

/// A batch's events as events of one kind; an event that is not of it is named by its index.
#[cfg(feature = "http")]
pub(crate) fn events_of<E: BindingEvent>(batch: crate::Batch) -> Result<Vec<E>, BindingError> {
    batch
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
/// (extensions in name order), an error when the payload does not serialize, or `None` when
/// that route must decide: a non-JSON payload, or anything its strict reader refuses (an
/// attribute that is empty or holds a control character, an extension named like a core
/// attribute or `data`, which the JSON route writes as a duplicate member), whose error that
/// route reports. An `Event<T>` can hold such values:
/// `AnyEvent`'s setters do not check, and `into_typed` keeps what they set.
fn typed_parts<T: CloudEventData + Serialize>(
    event: &Event<T>,
) -> Result<Option<BinaryParts>, BuildError> {
    if !cloudevent_rules::is_json_media_type(event.content_type()) {
        return Ok(None);
    }
    let view = cloudevent_rules::Envelope {
        specversion: Some("1.0"),
        id: Some(event.id()),
        source: Some(event.source()),
        ty: Some(T::TYPE),
        datacontenttype: Some(event.content_type()),
        dataschema: event.dataschema(),
        subject: event.subject(),
        time: event.time().map(|t| t.as_str()),
        extensions: event.extensions(),
        data: None,
        data_type_url: None,
    };
    let found = Event::<T>::POLICY.check_envelope_prechecked(
        &view,
        Mode::FirstError,
        &T::PRECHECKED.confirmed(T::PROFILE),
    );
    if cloudevent_rules::has_error(&found) {
        return Ok(None);
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
        return Ok(None);
    }
    attributes[core..].sort_unstable_by(|a, b| a.0.cmp(&b.0));
    // The same error `Event::to_vec` reports for this payload.
    let data = serde_json::to_vec(event.data()).map_err(|e| BuildError::Payload(e.to_string()))?;
    Ok(Some(BinaryParts {
        attributes,
        datacontenttype: Some(event.content_type().to_owned()),
        data: Some(data),
    }))
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
            ("dataschema", event.written_dataschema().as_deref()),
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
