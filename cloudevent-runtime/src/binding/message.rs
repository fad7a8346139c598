//! The one receive path every transport shares: a received message seen through
//! [`IncomingMessage`] (its content type, its attribute headers as the transport spelled
//! them, its body) and [`receive`], which decides the content mode, collects the attributes
//! with the checks every binding makes (a header never carries `data` or `data_base64`, an
//! attribute has one value, a `datacontenttype` copy follows the transport's rule), refuses a
//! message that is no CloudEvent, and hands the event to the structured, batch or binary
//! reader. A transport only says how its headers are named, prefixed and encoded.

use std::borrow::Cow;

use super::format::{self, StructuredFormat};
use super::parts::PartsRef;
use super::{BindingError, BindingEvent, ContentMode, Detected};
use crate::ExtensionValueBuf;

/// Events received in one message.
#[cfg(feature = "http")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received<E> {
    /// One event (binary or structured mode).
    Event(E),
    /// A batch (batched mode); possibly empty.
    Batch(Vec<E>),
}

/// What a transport does with a copy of `datacontenttype` among its attribute headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ContentTypeCopy {
    /// HTTP: `datacontenttype` is `Content-Type` only; a `ce-datacontenttype` header is an
    /// error (CE HTTP binding 3.1.1).
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "only the HTTP binding refuses the copy")
    )]
    Refused,
    /// Kafka, AMQP, MQTT: a copy may stand in for a missing content type, and must agree
    /// with a present one.
    #[cfg_attr(
        not(any(
            feature = "kafka",
            feature = "amqp",
            feature = "mqtt",
            feature = "nats"
        )),
        allow(
            dead_code,
            reason = "only the HTTP binding is enabled, which refuses the copy"
        )
    )]
    MustAgree,
}

/// The content-mode rules of one binding (CE HTTP, Kafka, AMQP, MQTT, NATS bindings §3).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Modes {
    /// What a message without a content type carries: binary mode (HTTP, Kafka, AMQP,
    /// MQTT 5), or the JSON event format (MQTT 3.1.1); NATS and MQTT 5 choose per message
    /// (binary when it carries attribute headers, else the JSON format).
    pub(crate) without_content_type: ContentMode,
    /// `Some(what the binding takes)` for a binding with structured mode only (none today:
    /// NATS was, until its binary mode; MQTT 3.1.1 has no content type to name another): any
    /// other mode is unexpected there.
    pub(crate) structured_only: Option<&'static str>,
    /// Whether the binding has batched mode (HTTP only; elsewhere the batch media type is a
    /// format the binding does not carry).
    pub(crate) batch: bool,
    /// The rule for a `datacontenttype` attribute header.
    pub(crate) content_type_copy: ContentTypeCopy,
    /// The binding's section that puts the data in the message body, as messages cite it
    /// (`CE AMQP binding 3.1.2`): a refusal names the transport's own spec, not HTTP's.
    pub(crate) data_section: &'static str,
}

/// One attribute as a transport carried it.
pub(crate) struct Header<'m> {
    /// The attribute name, without the transport's prefix, as written: a name the spec
    /// forbids (`ExtA`, `ext-a`, empty) reaches the policy's check and is refused there,
    /// never silently renamed.
    pub(crate) attribute: &'m str,
    /// The header or property carrying it, for messages.
    pub(crate) header: &'m str,
    /// The value as the canonical string (CloudEvents 1.0.2 "Type System").
    pub(crate) value: Cow<'m, str>,
    /// The value's type, where the transport says it (AMQP's boolean, long, binary).
    pub(crate) typed: Option<ExtensionValueBuf>,
}

/// A received message as the binding layer reads it.
pub(crate) trait IncomingMessage {
    /// Whether [`IncomingMessage::attributes`] gives the values of one attribute one after
    /// the other (HTTP's `HeaderMap`): then an attribute given twice is the previous one,
    /// and [`receive_header`] compares with it alone, not with every attribute before.
    const GROUPED_NAMES: bool = false;

    /// The binding's content-mode rules.
    fn modes(&self) -> Modes;

    /// The content type, as text.
    ///
    /// # Errors
    /// A content type the transport cannot give as text.
    fn content_type(&self) -> Result<Option<&str>, BindingError>;

    /// The CloudEvents attribute headers, in the message's order; the others are skipped.
    fn attributes(&self) -> impl Iterator<Item = Result<Header<'_>, BindingError>>;

    /// The body; `None` for a message without one.
    fn body(&self) -> Option<&[u8]>;
}

/// The content mode a message names.
///
/// # Errors
/// A CloudEvents format other than JSON, a mode the binding does not have, or a content
/// type that is not text.
#[cfg(feature = "http")]
pub(crate) fn content_mode<M: IncomingMessage>(message: &M) -> Result<ContentMode, BindingError> {
    mode_and_format(message).map(|(mode, _)| mode)
}

/// The content mode a message names, and the event format of a structured or batched
/// message: the one its content type names, JSON when it has none (NATS, MQTT 3.1.1 carry the
/// JSON format without a content type). The content type is parsed once for both.
fn mode_and_format<M: IncomingMessage>(
    message: &M,
) -> Result<(ContentMode, StructuredFormat), BindingError> {
    let modes = message.modes();
    let content_type = message.content_type()?;
    let (detected, format) = match content_type {
        None => (Detected::Mode(modes.without_content_type), None),
        Some(_) => ContentMode::detect_format(content_type),
    };
    let format = format.unwrap_or(StructuredFormat::Json);
    let unsupported = || BindingError::UnsupportedFormat {
        content_type: content_type.unwrap_or_default().to_owned(),
    };
    match detected {
        Detected::Mode(ContentMode::Structured) => Ok((ContentMode::Structured, format)),
        Detected::UnsupportedFormat => Err(unsupported()),
        Detected::Mode(mode) => match modes.structured_only {
            Some(expected) => Err(BindingError::UnexpectedMode {
                expected,
                found: if mode == ContentMode::Batch {
                    "batched mode"
                } else {
                    "binary mode"
                },
                content_type: content_type.unwrap_or_default().to_owned(),
            }),
            None if mode == ContentMode::Batch && !modes.batch => Err(unsupported()),
            None => Ok((mode, format)),
        },
    }
}

/// Reads whatever the message carries, in the mode its content type names.
///
/// # Errors
/// A mode the binding does not have, a bad header, no CloudEvent at all, or an invalid
/// event.
#[cfg(feature = "http")]
pub(crate) fn receive<E: BindingEvent, M: IncomingMessage>(
    message: &M,
) -> Result<Received<E>, BindingError> {
    match mode_and_format(message)? {
        (ContentMode::Structured, format) => {
            format::event_from(format, body(message)).map(Received::Event)
        }
        (ContentMode::Batch, format) => {
            format::batch_from(format, body(message)).map(Received::Batch)
        }
        (ContentMode::Binary, _) => binary_event(message).map(Received::Event),
    }
}

/// Reads one event; a batch is refused before its body is read.
///
/// # Errors
/// A mode the binding does not have, a batch, a bad header, no CloudEvent at all, or an
/// invalid event.
pub(crate) fn receive_event<E: BindingEvent, M: IncomingMessage>(
    message: &M,
) -> Result<E, BindingError> {
    match mode_and_format(message)? {
        (ContentMode::Structured, format) => format::event_from(format, body(message)),
        (ContentMode::Binary, _) => binary_event(message),
        (ContentMode::Batch, _) => Err(unexpected(message, "one event", "a batch")?),
    }
}

/// Reads a batch; one event is refused before its body is read.
///
/// # Errors
/// A mode the binding does not have, one event, or an invalid batch.
#[cfg(feature = "axum")]
pub(crate) fn receive_batch<E: BindingEvent, M: IncomingMessage>(
    message: &M,
) -> Result<Vec<E>, BindingError> {
    match mode_and_format(message)? {
        (ContentMode::Batch, format) => format::batch_from(format, body(message)),
        (ContentMode::Structured, _) => {
            Err(unexpected(message, "a batch", "a structured-mode event")?)
        }
        (ContentMode::Binary, _) => Err(unexpected(message, "a batch", "a binary-mode event")?),
    }
}

fn body<M: IncomingMessage>(message: &M) -> &[u8] {
    message.body().unwrap_or_default()
}

/// The caller takes another mode than the message's.
fn unexpected<M: IncomingMessage>(
    message: &M,
    expected: &'static str,
    found: &'static str,
) -> Result<BindingError, BindingError> {
    Ok(BindingError::UnexpectedMode {
        expected,
        found,
        content_type: message.content_type()?.unwrap_or_default().to_owned(),
    })
}

/// A binary-mode event, read from parts borrowed from the message. The parts' reader refuses
/// a message with no attribute header at all as no CloudEvent (415 at HTTP), whichever event
/// type reads it.
fn binary_event<E: BindingEvent, M: IncomingMessage>(message: &M) -> Result<E, BindingError> {
    let (parts, typed) = binary_parts(message)?;
    E::from_binary_borrowed(
        &parts.attributes,
        parts.datacontenttype.as_deref(),
        parts.data,
        &typed,
    )
}

/// The message as a JSON document for a validator: the structured event or the batch as
/// sent, or the document a binary-mode message stands for.
///
/// # Errors
/// See [`content_mode`] and [`binary_parts`]; no CloudEvent at all.
#[cfg(any(
    feature = "http",
    feature = "kafka",
    feature = "amqp",
    feature = "mqtt",
    feature = "nats"
))]
pub(crate) fn structured_document<M: IncomingMessage>(
    message: &M,
) -> Result<(ContentMode, Vec<u8>), BindingError> {
    let (mode, format) = mode_and_format(message)?;
    let document = match (mode, format) {
        (ContentMode::Structured | ContentMode::Batch, StructuredFormat::Json) => {
            message.body().unwrap_or_default().to_vec()
        }
        // Another format is read (to its first error) and handed on as the JSON document
        // the validator reports on.
        #[cfg(any(feature = "protobuf", feature = "avro"))]
        (ContentMode::Structured | ContentMode::Batch, other) => {
            format::json_document(other, mode == ContentMode::Batch, body(message))?
        }
        (ContentMode::Binary, _) => {
            let (parts, typed) = binary_parts(message)?;
            super::parts::structured_document(&parts, &super::parts::hints(&typed))?
        }
    };
    Ok((mode, document))
}

/// The full report on a message [`receive_event`] refused with `refusal` under `E`'s policy
/// (issue 41): every finding of the validator's read of the message's document (what
/// [`structured_document`] gives: the structured event as sent, or the document a
/// binary-mode message stands for), with the event's id and attributes, then the typed
/// reader's refusal when it is not among them (the event type `E` takes, its payload). A
/// message refused before any event is read (a bad header, a batch, no CloudEvent) reports
/// that refusal alone. Every rule it cites is the one `E`'s profile names
/// ([`BindingError::violation_under`]). The transports' `report_refusal` functions call it;
/// the HTTP binding's own (`binding::http::report_refusal`) also lists the warnings of a
/// literal header reading.
#[cfg(any(
    feature = "kafka",
    feature = "amqp",
    feature = "mqtt",
    feature = "nats"
))]
pub(crate) fn report_refusal<E: BindingEvent, M: IncomingMessage>(
    message: &M,
    refusal: &BindingError,
) -> crate::ValidationReport {
    use crate::Validate as _;
    let policy = E::policy();
    let refused = refusal.violation_under(&policy);
    match structured_document(message) {
        Ok((ContentMode::Structured | ContentMode::Binary, document)) => {
            let mut report = crate::Validator::new(policy).validate_bytes::<crate::Json>(&document);
            report.list_refusal(refused);
            report
        }
        _ => crate::ValidationReport::refused(policy.profile(), vec![refused]),
    }
}

/// The binary-mode parts of a message, borrowed from it (a header value is copied only when
/// the transport had to decode it), and the typed values its transport gave: an empty body
/// is no data in every binding (as HTTP's empty body is), and every attribute header passes
/// [`receive_header`].
///
/// # Errors
/// A header the transport cannot decode, a `data` or `data_base64` header, an attribute
/// twice, a `datacontenttype` copy the binding refuses or that disagrees.
pub(crate) fn binary_parts<M: IncomingMessage>(
    message: &M,
) -> Result<(PartsRef<'_>, Vec<(String, ExtensionValueBuf)>), BindingError> {
    let modes = message.modes();
    let mut datacontenttype = message.content_type()?.map(Cow::Borrowed);
    // Room for the attributes of nearly every event at once: growing from empty took three
    // allocations and two copies (5 % of an HTTP binary decode in the profile).
    let mut attributes = Vec::with_capacity(16);
    let mut typed = Vec::new();
    for header in message.attributes() {
        let header = header?;
        if let Some(value) = header.typed {
            typed.push((header.attribute.to_owned(), value));
        }
        receive_header(
            &mut attributes,
            &mut datacontenttype,
            header.attribute,
            header.header,
            header.value,
            modes,
            M::GROUPED_NAMES,
        )?;
    }
    let parts = PartsRef {
        attributes: Cow::Owned(attributes),
        datacontenttype,
        data: message.body().filter(|body| !body.is_empty()),
    };
    Ok((parts, typed))
}

/// Adds one attribute read from a transport header, the checks every binding shares: a
/// header never carries `data` or `data_base64` (CE 1.0.2 naming), an attribute has one
/// value (INTG-STD-015 R-8), and a `datacontenttype` copy follows the transport's rule.
// Inlined into the header walk, its one caller: as a call of its own, its seven arguments
// and the value moved through memory cost an HTTP binary decode about 3 % (issue 40).
#[inline(always)]
fn receive_header<'m>(
    attributes: &mut Vec<(&'m str, Cow<'m, str>)>,
    datacontenttype: &mut Option<Cow<'m, str>>,
    attribute: &'m str,
    header: &str,
    value: Cow<'m, str>,
    modes: Modes,
    grouped: bool,
) -> Result<(), BindingError> {
    if super::may_be_data_name(attribute) {
        if cloudevent_rules::RESERVED_NAMES.contains(&attribute) {
            return Err(data_header(attribute, header, modes));
        }
        if attribute == "datacontenttype" {
            return content_type_copy(datacontenttype, header, value, modes);
        }
    }
    let repeated = if grouped {
        attributes
            .last()
            .is_some_and(|(name, _)| *name == attribute)
    } else {
        attributes.iter().any(|(name, _)| *name == attribute)
    };
    if repeated {
        return Err(duplicate(attribute, header));
    }
    attributes.push((attribute, value));
    Ok(())
}

/// A `data` or `data_base64` header.
#[cold]
#[inline(never)]
fn data_header(attribute: &str, header: &str, modes: Modes) -> BindingError {
    BindingError::DataHeader {
        attribute: attribute.to_owned(),
        header: header.to_owned(),
        binding: modes.data_section,
    }
}

/// An attribute given twice.
#[cold]
#[inline(never)]
fn duplicate(attribute: &str, header: &str) -> BindingError {
    BindingError::DuplicateAttribute {
        attribute: attribute.to_owned(),
        header: header.to_owned(),
    }
}

/// A `datacontenttype` copy among the attribute headers, under the transport's rule; out of
/// line, as HTTP refuses it and the other bindings seldom see one.
#[cold]
#[inline(never)]
fn content_type_copy<'m>(
    datacontenttype: &mut Option<Cow<'m, str>>,
    header: &str,
    value: Cow<'m, str>,
    modes: Modes,
) -> Result<(), BindingError> {
    match (modes.content_type_copy, &*datacontenttype) {
        (ContentTypeCopy::Refused, _) => Err(BindingError::DataContentTypeHeader {
            header: header.to_owned(),
        }),
        (ContentTypeCopy::MustAgree, Some(existing)) if *existing != value => {
            Err(duplicate("datacontenttype", header))
        }
        (ContentTypeCopy::MustAgree, Some(_)) => Ok(()),
        (ContentTypeCopy::MustAgree, None) => {
            *datacontenttype = Some(value);
            Ok(())
        }
    }
}
