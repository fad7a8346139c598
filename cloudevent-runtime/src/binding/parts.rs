//! Binary-mode parts read into an event, and the JSON document they stand for.
//!
//! One set of rules, two readers over it: the parts are read straight into the event's slots
//! by the JSON reader's own visitor ([`crate::format::json::read_event`]), fed the members of
//! the structured-mode document the parts stand for, in that document's order, without the
//! document being written or parsed. The verdict is the JSON reader's, rule for rule: the
//! same policy check, the same per-value checks, the same size limit (computed on the
//! document's length), the same first error. [`BinaryParts::to_structured_document`] writes
//! that document for a validator that lists every finding; a differential property test and
//! a fuzz target (`fuzz/fuzz_targets/binary_differential.rs`) hold the two paths together.

use std::borrow::Cow;

use serde::de::value::{BorrowedBytesDeserializer, BorrowedStrDeserializer, MapAccessDeserializer};
use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess};
use serde_json::value::RawValue;

use super::{BinaryParts, BindingError, canonical_string};
use crate::format::RawData;
use crate::format::json::{self, DataSlot, Envelope};
use crate::{
    AnyEvent, CloudEventData, Event, ExtensionValue, ExtensionValueBuf, ExtensionVisitor,
    FormatError, Policy,
};

/// Binary-mode parts as a transport's message holds them, borrowed from it: what
/// [`BinaryParts`] owns, without a copy of every header name and value and of the body (a
/// receiver reads the event straight from the message; the owned parts are the public form).
#[derive(Debug, Clone, Default)]
pub(crate) struct PartsRef<'a> {
    /// `(name, canonical string value)`, names without any transport prefix.
    pub(crate) attributes: Cow<'a, [(&'a str, Cow<'a, str>)]>,
    /// The `datacontenttype` attribute.
    pub(crate) datacontenttype: Option<Cow<'a, str>>,
    /// The data bytes; `None` for an event without data.
    pub(crate) data: Option<&'a [u8]>,
}

impl<'a> PartsRef<'a> {
    /// Parts borrowing a message's attributes, content type and body.
    pub(crate) fn new(
        attributes: &'a [(&'a str, Cow<'a, str>)],
        datacontenttype: Option<&'a str>,
        data: Option<&'a [u8]>,
    ) -> Self {
        PartsRef {
            attributes: Cow::Borrowed(attributes),
            datacontenttype: datacontenttype.map(Cow::Borrowed),
            data,
        }
    }

    /// The value of an attribute, by name.
    pub(crate) fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_ref())
    }

    /// The owned parts.
    #[cfg(feature = "http")]
    pub(crate) fn into_owned(self) -> BinaryParts {
        BinaryParts {
            attributes: self
                .attributes
                .iter()
                .map(|(name, value)| ((*name).to_owned(), value.to_string()))
                .collect(),
            datacontenttype: self.datacontenttype.map(Cow::into_owned),
            data: self.data.map(<[u8]>::to_vec),
        }
    }
}

impl BinaryParts {
    /// The parts, borrowed.
    pub(crate) fn borrowed(&self) -> PartsRef<'_> {
        PartsRef {
            attributes: Cow::Owned(
                self.attributes
                    .iter()
                    .map(|(name, value)| (name.as_str(), Cow::Borrowed(value.as_str())))
                    .collect(),
            ),
            datacontenttype: self.datacontenttype.as_deref().map(Cow::Borrowed),
            data: self.data.as_deref(),
        }
    }
}

/// Reads parts into an [`AnyEvent`] under [`AnyEvent::DEFAULT_POLICY`].
pub(crate) fn read_any(
    parts: &PartsRef<'_>,
    typed: &[(String, ExtensionValueBuf)],
) -> Result<AnyEvent, BindingError> {
    let hints = hints(typed);
    let mut envelope = Envelope::default();
    let data = read(
        parts,
        &hints,
        &mut envelope,
        RawData::default(),
        None,
        &AnyEvent::DEFAULT_POLICY,
    )?;
    Ok(AnyEvent::from_envelope(envelope, data))
}

/// Reads parts into an [`Event<T>`] under `T`'s policy. The extensions `T` fills from its
/// payload come back typed (a header `5` is the Integer the payload declares).
pub(crate) fn read_typed<T>(
    parts: &PartsRef<'_>,
    typed: &[(String, ExtensionValueBuf)],
) -> Result<Event<T>, BindingError>
where
    T: CloudEventData + DeserializeOwned,
{
    // The payload's typed extensions are read from the body only when they can matter: an
    // attribute named like one, whose value the payload holds as another type than String.
    // Reading first without them saves a parse of the payload; the rare event they change is
    // read again with them.
    let named = parts
        .attributes
        .iter()
        .any(|(name, _)| T::EXTENSIONS.contains(name));
    if typed.is_empty()
        && let Some(event) = read_typed_direct::<T>(parts, named)
    {
        return Ok(event);
    }
    read_typed_general(parts, typed, named)
}

/// [`read_typed`] through the JSON reader's visitor: every message the direct reading gives
/// up on, and every refusal.
#[cold]
#[inline(never)]
fn read_typed_general<T>(
    parts: &PartsRef<'_>,
    typed: &[(String, ExtensionValueBuf)],
    named: bool,
) -> Result<Event<T>, BindingError>
where
    T: CloudEventData + DeserializeOwned,
{
    if !named || !typed.is_empty() {
        return read_typed_with::<T>(parts, typed, !named);
    }
    match read_typed_with::<T>(parts, typed, true) {
        Ok(event) if payload_hints_are_strings(&event, parts) => Ok(event),
        _ => read_typed_with::<T>(parts, typed, false),
    }
}

/// The usual message, read without the JSON reader's map between the parts and its visitor
/// (issue 40): JSON data under a JSON `datacontenttype` (or no data), no typed values from
/// the transport, an event [`read_typed`] reads without the payload's hints. The members are
/// the ones [`read`] hands the visitor, in its order, through the visitor's own steps
/// ([`json::read_strings`]), so the event is the one [`read_typed`] reads. `None` for
/// anything else and for every refusal: the caller then reads the parts the general way,
/// which gives the verdict, so no error is made here.
fn read_typed_direct<T>(parts: &PartsRef<'_>, named: bool) -> Option<Event<T>>
where
    T: CloudEventData + DeserializeOwned,
{
    if parts.attributes.is_empty() {
        return None;
    }
    let data = match unchecked_body_data(parts).ok()? {
        None => None,
        // Without a `datacontenttype` the document's `data` comes before the content type
        // is known, and the visitor keeps it raw until the end: that route reads it.
        Some(BodyData::Json(text)) if parts.datacontenttype.is_some() => Some(text),
        Some(_) => return None,
    };
    let body = data.map(BodyData::Json);
    if document_len_bound(parts, &[], body.as_ref()) > crate::limits::MAX_EVENT_BYTES {
        return None;
    }
    let value = match data {
        Some(text) => {
            let mut deserializer = serde_json::Deserializer::from_str(text);
            let value = <T as serde::Deserialize>::deserialize(&mut deserializer).ok()?;
            deserializer.end().ok()?;
            Some(value)
        }
        None => None,
    };
    let has_data = value.is_some();
    let mut envelope = Envelope::default();
    let mut held = json::Held::new(T::EXTENSIONS);
    let data = json::read_strings(
        parts
            .attributes
            .iter()
            .map(|(name, value)| (*name, value.as_ref())),
        parts.datacontenttype.as_deref(),
        crate::format::TypedData::<T, false>::holding(value),
        has_data,
        &mut envelope,
        &mut held,
        Some(json::Expected::of::<T>()),
        &Event::<T>::POLICY,
    )?;
    let mut strings_held = false;
    if named {
        let written;
        (written, strings_held) = payload_writes_back(&data, &held, parts)?;
        // A held extension the payload does not fill is the envelope's own after all.
        for (at, (name, value)) in held.as_slice().iter().enumerate() {
            if written & (1 << at) == 0 {
                envelope.extensions.try_insert_new(
                    (*name).to_owned(),
                    ExtensionValueBuf::String((*value).to_owned()),
                );
            }
        }
    }
    // The slot left the payload's Strings to this check (`TypedData`'s `PAYLOAD_STRINGS`).
    // A subject and String extensions the envelope carries as they are, byte for byte,
    // passed the same String rule (`check_string_value`, a function of the text alone) in
    // the envelope check just now: only what the payload's schema says is left to ask.
    let envelope_carries_strings = strings_held
        && data
            .subject()
            .is_none_or(|subject| envelope.subject.as_deref() == Some(subject));
    let found = if envelope_carries_strings {
        data.check_data()
    } else {
        crate::event::payload_string_violation(&data)
    };
    if found.is_some() {
        return None;
    }
    Event::from_envelope(envelope, data).ok()
}

/// Reads parts into an [`Event<T>`], with the payload's typed extensions as hints unless
/// `without_payload_hints`.
fn read_typed_with<T>(
    parts: &PartsRef<'_>,
    typed: &[(String, ExtensionValueBuf)],
    without_payload_hints: bool,
) -> Result<Event<T>, BindingError>
where
    T: CloudEventData + DeserializeOwned,
{
    let mut hints = if without_payload_hints {
        Vec::new()
    } else {
        python_booleans(parts, typed_extensions::<T>(parts), &Event::<T>::POLICY)?
    };
    hints.extend(self::hints(typed));
    let mut envelope = Envelope::default();
    let data = read(
        parts,
        &hints,
        &mut envelope,
        crate::format::TypedData::<T>::default(),
        Some(json::Expected::of::<T>()),
        &Event::<T>::POLICY,
    )
    .map_err(|error| match error {
        BindingError::Event(error) => {
            BindingError::Event(with_data_pointer::<T>(parts, &hints, error))
        }
        error => error,
    })?;
    Ok(Event::from_envelope(envelope, data).map_err(FormatError::Invalid)?)
}

/// Data read in place is not tracked: the member of `data` that did not fit `T` is named now,
/// found where the read found `data`: in the body, or, for parts read through their document
/// ([`reads_through_document`]), in that document (whose first `data` member may be another).
fn with_data_pointer<T: CloudEventData + DeserializeOwned>(
    parts: &PartsRef<'_>,
    hints: &[TypedExtension],
    error: FormatError,
) -> FormatError {
    match unchecked_body_data(parts) {
        Ok(data) if reads_through_document(parts) => {
            match write_document(parts, hints, data.as_ref()) {
                Ok(document) => crate::event::with_data_pointer::<T>(&document, error),
                Err(_) => error,
            }
        }
        Ok(Some(BodyData::Json(text))) => crate::event::with_data_pointer_in::<T>(text, error),
        _ => error,
    }
}

/// Parts no transport produces (the message layer refuses an attribute named `data` or
/// `data_base64` and keeps `datacontenttype` apart) are read through the document itself,
/// whose member order then decides which of two values a reader sees first.
fn reads_through_document(parts: &PartsRef<'_>) -> bool {
    parts.attributes.iter().any(|(name, _)| {
        super::may_be_data_name(name)
            && (*name == "datacontenttype" || cloudevent_rules::RESERVED_NAMES.contains(name))
    })
}

/// The one read: what the document route refuses before parsing (no attribute at all, a
/// JSON content type over a body that is not JSON, a document over the size limit) in its
/// order, then the JSON reader's visitor over the document's members. The attributes go
/// into `envelope` (see `json::EventSeed`).
fn read<'a, 'p: 'a, S: DataSlot<'a>>(
    parts: &'a PartsRef<'p>,
    hints: &'a [TypedExtension],
    envelope: &mut Envelope<'a>,
    slot: S,
    expected_type: Option<json::Expected>,
    policy: &Policy,
) -> Result<S::Data, BindingError> {
    not_cloud_events(parts)?;
    let data = unchecked_body_data(parts)?;
    if reads_through_document(parts) {
        if let Some(data) = data {
            checked_json(parts, data)?;
        }
        let document = write_document(parts, hints, data.as_ref())?;
        return Ok(read_document(
            document,
            envelope,
            slot,
            expected_type,
            policy,
        )?);
    }
    // Data that is not JSON under a JSON content type is refused before anything else (the
    // document could not be written); the reader's error stands only for JSON data.
    let checked = |error: BindingError| match data {
        Some(data) => checked_json(parts, data).and(Err(error)),
        None => Err(error),
    };
    // The exact length is needed only near the limit: below it, a bound from the byte
    // lengths alone gives the same verdict without measuring every value's escapes.
    if document_len_bound(parts, hints, data.as_ref()) > crate::limits::MAX_EVENT_BYTES {
        let size = document_len(parts, hints, data.as_ref());
        if size > crate::limits::MAX_EVENT_BYTES {
            return checked(too_large(size).into());
        }
    }
    let members = Members {
        attributes: parts.attributes.iter(),
        hints,
        datacontenttype: parts.datacontenttype.as_deref(),
        data,
        value: None,
    };
    json::read_event(
        MapAccessDeserializer::new(members),
        envelope,
        slot,
        expected_type,
        policy,
    )
    .or_else(|error| checked(error.into()))
}

/// The fallback for malformed parts: the document, parsed by the JSON reader. The envelope
/// borrows nothing from the document: every attribute it keeps is made owned, so the
/// document can go.
fn read_document<'a, S: DataSlot<'a>>(
    document: Vec<u8>,
    envelope: &mut Envelope<'a>,
    slot: S,
    expected_type: Option<json::Expected>,
    policy: &Policy,
) -> Result<S::Data, FormatError> {
    if document.len() > crate::limits::MAX_EVENT_BYTES {
        return Err(too_large(document.len()));
    }
    let mut deserializer = serde_json::Deserializer::from_reader(document.as_slice());
    json::read_event(&mut deserializer, envelope, slot, expected_type, policy)
}

fn too_large(found: usize) -> FormatError {
    FormatError::TooLarge {
        what: "event",
        found,
        limit: crate::limits::MAX_EVENT_BYTES,
        rule: cloudevent_rules::rule::INTG_R11,
    }
}

/// A message with no attribute header at all is not a binary-mode CloudEvent (a plain
/// `text/plain` POST): say so, rather than list the attributes it lacks (INTG-STD-015 R-8).
pub(super) fn not_cloud_events(parts: &PartsRef<'_>) -> Result<(), BindingError> {
    if parts.attributes.is_empty() {
        return Err(BindingError::NotCloudEvents {
            content_type: parts.datacontenttype.as_deref().map(str::to_owned),
        });
    }
    Ok(())
}

/// What the body is in the document: JSON under a JSON content type (or none, when it
/// parses), text under a text type, bytes otherwise (CE-JSON 3.1).
#[derive(Clone, Copy)]
enum BodyData<'a> {
    /// The JSON text without the whitespace around it.
    Json(&'a str),
    Text(&'a str),
    Bytes(&'a [u8]),
}

/// # Errors
/// A JSON content type over a body that is not JSON (CE-JSON 3.1).
fn body_data<'a>(parts: &'a PartsRef<'_>) -> Result<Option<BodyData<'a>>, BindingError> {
    let data = unchecked_body_data(parts)?;
    if let Some(data) = data {
        checked_json(parts, data)?;
    }
    Ok(data)
}

/// [`body_data`] without parsing a body under a JSON content type: the reader parses it
/// anyway, and only a failed read needs to know whether it was JSON ([`checked_json`]).
///
/// # Errors
/// A JSON content type over a body that is not UTF-8.
fn unchecked_body_data<'a>(parts: &'a PartsRef<'_>) -> Result<Option<BodyData<'a>>, BindingError> {
    let Some(body) = parts.data else {
        return Ok(None);
    };
    Ok(Some(match parts.datacontenttype.as_deref() {
        Some(content_type) if cloudevent_rules::is_json_media_type(content_type) => {
            let text = std::str::from_utf8(body).map_err(|_| not_json(content_type))?;
            // JSON's whitespace (RFC 8259 section 2), which serde_json trims too.
            BodyData::Json(trim_json_whitespace(text))
        }
        // No content type: JSON is implied (CE-JSON 3.1) when the body is JSON; anything
        // else can only be carried as bytes.
        None => json_body(body).unwrap_or(BodyData::Bytes(body)),
        Some(content_type) => match std::str::from_utf8(body) {
            Ok(text) if is_text_media_type(content_type) => BodyData::Text(text),
            _ => BodyData::Bytes(body),
        },
    }))
}

/// `text` without JSON's whitespace around it (RFC 8259 section 2), which serde_json trims
/// too; the ends are looked at first, since a body seldom has any.
fn trim_json_whitespace(text: &str) -> &str {
    let blank = |byte: Option<&u8>| matches!(byte, Some(b' ' | b'\t' | b'\n' | b'\r'));
    let bytes = text.as_bytes();
    if blank(bytes.first()) || blank(bytes.last()) {
        text.trim_matches([' ', '\t', '\n', '\r'])
    } else {
        text
    }
}

/// The body as one JSON value, without the whitespace around it.
fn json_body(body: &[u8]) -> Option<BodyData<'_>> {
    let text = std::str::from_utf8(body).ok()?;
    serde_json::from_str::<&RawValue>(text)
        .ok()
        .map(|raw| BodyData::Json(raw.get()))
}

/// Refuses JSON data that does not parse as JSON (CE-JSON 3.1).
fn checked_json(parts: &PartsRef<'_>, data: BodyData<'_>) -> Result<(), BindingError> {
    match data {
        BodyData::Json(text) if serde_json::from_str::<&RawValue>(text).is_err() => Err(not_json(
            parts.datacontenttype.as_deref().unwrap_or_default(),
        )),
        _ => Ok(()),
    }
}

fn not_json(content_type: &str) -> BindingError {
    BindingError::DataNotJson {
        content_type: content_type.to_owned(),
    }
}

/// `text/*`, or any type with a `charset` parameter: data that is text and can travel as a
/// JSON string (CE-JSON 3.1); anything else travels as `data_base64`.
fn is_text_media_type(content_type: &str) -> bool {
    let lower = content_type.to_ascii_lowercase();
    lower.trim_start().starts_with("text/") || lower.contains("charset=")
}

/// An extension with its typed value as JSON and as canonical string: where the binary-mode
/// string equals the canonical string, the document holds the typed JSON.
pub(super) struct TypedExtension {
    name: Cow<'static, str>,
    canonical: String,
    json: String,
}

/// The typed JSON that stands for an attribute's string, if any.
fn hint<'h>(hints: &'h [TypedExtension], name: &str, value: &str) -> Option<&'h str> {
    hints
        .iter()
        .find(|t| t.name == name && t.canonical == value)
        .map(|t| t.json.as_str())
}

/// Typed values given by the transport (AMQP's boolean and long, CE AMQP binding 3.1.3.2).
pub(super) fn hints(typed: &[(String, ExtensionValueBuf)]) -> Vec<TypedExtension> {
    typed
        .iter()
        .map(|(name, value)| TypedExtension {
            name: name.clone().into(),
            canonical: canonical_string(value.as_value()).into_owned(),
            json: serde_json::to_string(value)
                .expect("an extension value (a JSON scalar or base64 text) always serializes"),
        })
        .collect()
}

/// The extensions `T` fills from its payload, read from the binary body, so that a header
/// such as `ce-priority: 5` comes back as the Integer the payload declares rather than as a
/// String (binary mode carries only canonical strings, §3.1.3.2).
fn typed_extensions<T: CloudEventData + DeserializeOwned>(
    parts: &PartsRef<'_>,
) -> Vec<TypedExtension> {
    if T::EXTENSIONS.is_empty() {
        return Vec::new();
    }
    let Some(body) = parts.data else {
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
                json: serde_json::to_string(&crate::extension::JsonValue(value))?,
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

/// The payload's typed extensions, plus, for a Boolean the header spells as Python does
/// (`True`, `False`), that spelling standing for the payload's value when the policy tolerates
/// it (`Policy::literal_header`, the one verdict; the warning is logged, as the typed readers
/// have no report). Otherwise a header that is no Boolean text (`True`, `TRUE`, `yes`) is
/// refused as the registry validator refuses it (`check_declared_extension`: CE 1.0.2 type
/// system); `false` against a payload's `true` stays a disagreement.
fn python_booleans(
    parts: &PartsRef<'_>,
    mut hints: Vec<TypedExtension>,
    policy: &crate::Policy,
) -> Result<Vec<TypedExtension>, BindingError> {
    let literals = super::percent::Literals::default();
    let mut aliases = Vec::new();
    for hint in &hints {
        let Some(value) = parts.attribute(&hint.name) else {
            continue;
        };
        let python = match hint.json.as_str() {
            "true" => "True",
            "false" => "False",
            _ => continue,
        };
        if value == hint.canonical {
            continue;
        }
        let tolerated = if value == python {
            policy.literal_header(
                cloudevent_rules::LiteralHeader::PythonBoolean,
                &hint.name,
                value,
            )
        } else {
            Err(None)
        };
        match tolerated {
            Ok(warning) => {
                literals.push(warning);
                aliases.push(TypedExtension {
                    name: hint.name.clone(),
                    canonical: python.to_owned(),
                    json: hint.json.clone(),
                });
            }
            Err(_) => {
                if let Some(violation) = cloudevent_rules::check_declared_extension(
                    &hint.name,
                    ExtensionValue::String(value),
                    cloudevent_rules::AttributeKind::Boolean,
                ) {
                    return Err(FormatError::Invalid(Box::new(violation)).into());
                }
            }
        }
    }
    literals.log();
    hints.extend(aliases);
    Ok(hints)
}

/// Whether every extension the payload holds that also came as an attribute of the same
/// canonical string is a String: then it read the same with or without the payload's hints.
fn payload_hints_are_strings<T: CloudEventData>(event: &Event<T>, parts: &PartsRef<'_>) -> bool {
    struct Check<'p, 'a>(&'p PartsRef<'a>);
    impl ExtensionVisitor for Check<'_, '_> {
        type Error = ();
        fn visit(&mut self, name: &'static str, value: ExtensionValue<'_>) -> Result<(), ()> {
            match value {
                ExtensionValue::String(_) => Ok(()),
                _ if self.0.attribute(name) == Some(&*canonical_string(value)) => Err(()),
                _ => Ok(()),
            }
        }
    }
    event.data().visit_extensions(&mut Check(parts)).is_ok()
}

/// [`payload_hints_are_strings`] for [`read_typed_direct`], which held the attributes named
/// like one of the payload's extensions aside ([`json::Held`]): each of those the payload
/// fills must be written back as a String of the same text (then the event is the one read
/// with them kept, which [`Event::assemble`] would have removed as the payload's own), and
/// every other extension the payload holds must pass [`payload_hints_are_strings`]'s test.
/// `None` when not; else the held extensions written back, bit `i` for the `i`-th, and
/// whether every String extension the payload holds is a held one written back.
fn payload_writes_back<T: CloudEventData>(
    data: &T,
    held: &json::Held<'_>,
    parts: &PartsRef<'_>,
) -> Option<(u32, bool)> {
    struct Check<'p, 'a, 'h> {
        parts: &'p PartsRef<'a>,
        held: &'p json::Held<'h>,
        /// The held extensions the payload wrote back, one bit each.
        written: u32,
        /// No String extension of the payload's was other than a held one.
        strings_held: bool,
    }
    impl ExtensionVisitor for Check<'_, '_, '_> {
        type Error = ();
        fn visit(&mut self, name: &'static str, value: ExtensionValue<'_>) -> Result<(), ()> {
            if let Some((at, text)) = self.held.get(name) {
                return match value {
                    ExtensionValue::String(written) if written == text => {
                        self.written |= 1 << at;
                        Ok(())
                    }
                    _ => Err(()),
                };
            }
            match value {
                ExtensionValue::String(_) => {
                    self.strings_held = false;
                    Ok(())
                }
                _ if self.parts.attribute(name) == Some(&*canonical_string(value)) => Err(()),
                _ => Ok(()),
            }
        }
    }
    let mut check = Check {
        parts,
        held,
        written: 0,
        strings_held: true,
    };
    data.visit_extensions(&mut check).ok()?;
    Some((check.written, check.strings_held))
}

/// One member's value as the visitor is handed it.
enum Value<'a> {
    /// A string, borrowed (a header value, the content type, a text body).
    Str(&'a str),
    /// JSON text, read by serde_json (a JSON body, a typed extension's value).
    Json(&'a str),
    /// The bytes of a body the document carries as `data_base64`.
    Bytes(&'a [u8]),
}

/// The members of the document the parts stand for, in its order: the attributes as the
/// transport gave them, `datacontenttype`, then `data` or `data_base64`.
struct Members<'a> {
    attributes: std::slice::Iter<'a, (&'a str, Cow<'a, str>)>,
    hints: &'a [TypedExtension],
    datacontenttype: Option<&'a str>,
    data: Option<BodyData<'a>>,
    /// The value of the member whose name was handed out last.
    value: Option<Value<'a>>,
}

impl<'a> MapAccess<'a> for Members<'a> {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'a>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        let (name, value) = if let Some((name, value)) = self.attributes.next() {
            let hinted = if self.hints.is_empty() {
                None
            } else {
                hint(self.hints, name, value)
            };
            let value = match hinted {
                Some(json) => Value::Json(json),
                None => Value::Str(value),
            };
            (*name, value)
        } else if let Some(content_type) = self.datacontenttype.take() {
            ("datacontenttype", Value::Str(content_type))
        } else if let Some(data) = self.data.take() {
            match data {
                BodyData::Json(text) => ("data", Value::Json(text)),
                BodyData::Text(text) => ("data", Value::Str(text)),
                BodyData::Bytes(bytes) => ("data_base64", Value::Bytes(bytes)),
            }
        } else {
            return Ok(None);
        };
        self.value = Some(value);
        seed.deserialize(BorrowedStrDeserializer::new(name))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        match self.value.take() {
            Some(Value::Str(text)) => seed.deserialize(BorrowedStrDeserializer::new(text)),
            Some(Value::Json(text)) => {
                let mut deserializer = serde_json::Deserializer::from_str(text);
                let value = seed.deserialize(&mut deserializer)?;
                deserializer.end()?;
                Ok(value)
            }
            Some(Value::Bytes(bytes)) => seed.deserialize(BorrowedBytesDeserializer::new(bytes)),
            None => Err(de::Error::custom(
                "a member's value was asked for before its name",
            )),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(
            self.attributes.len()
                + usize::from(self.datacontenttype.is_some())
                + usize::from(self.data.is_some()),
        )
    }
}

// The structured-mode document the parts stand for: its writer and its length.
mod document;
#[cfg(test)]
use document::json_string_len;
#[cfg(any(
    test,
    feature = "http",
    feature = "kafka",
    feature = "amqp",
    feature = "mqtt",
    feature = "nats"
))]
pub(super) use document::structured_document;
use document::{document_len, document_len_bound, write_document};

#[cfg(test)]
mod tests;
