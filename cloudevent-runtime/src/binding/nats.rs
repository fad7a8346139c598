//! The CloudEvents NATS Protocol Binding on async-nats, in structured and binary mode, with
//! JetStream publishing and an at-least-once consumer that does each side effect once
//! (ADR-0003).
//!
//! - Structured mode (CE NATS binding 1.0.2 §3, 1.0.3-wip §3.2), the default
//!   ([`DEFAULT_MODE`]): the payload is the JSON event format, and the message also gets
//!   `Content-Type: application/cloudevents+json; charset=utf-8` (INTG-STD-015 R-7) so a
//!   reader can tell the format without parsing.
//! - Binary mode (CE NATS binding 1.0.3-wip §3.1, NATS 2.2+ message headers): every attribute,
//!   `datacontenttype` included, is a header named `ce-<name>` (§3.1.3.1) whose value is the
//!   canonical string percent-encoded as the HTTP binding does it (§3.1.3.2); the data is the
//!   payload (§3.1.1). No `Content-Type` header is written: the spec gives `datacontenttype`
//!   its own header, and a `Content-Type` of `application/cloudevents...` (an event carried
//!   as data) would make a reader take the message for structured mode.
//! - On receipt (§3): a `Content-Type` starting with `application/cloudevents`
//!   (case-insensitive) is structured mode; otherwise a message with `ce-` headers is binary
//!   mode. A message with neither is read as the JSON event format, as a NATS server before
//!   2.2 (no headers at all) and the 1.0.2 binding deliver it. Header names are
//!   case-insensitive (NATS ADR-4): `ce-ID` names `id`, and `ce-id` beside it is a duplicate.
//! - JetStream: [`publish_jetstream`] sets `Nats-Msg-Id` to the event `id`, so the server drops
//!   a second publish of the same event inside the stream's duplicate window; the returned
//!   ack says whether it was a duplicate.
//! - [`handle_once`] runs a handler for a JetStream message at most once per `(source, id)`
//!   with a [`Deduplicator`]: a redelivered event (the consumer
//!   died before its ack) is acknowledged without running the handler again.

use std::borrow::Cow;
use std::future::Future;
use std::str::FromStr;

use async_nats::jetstream;
use async_nats::jetstream::AckKind;
use async_nats::{HeaderMap, HeaderName, HeaderValue};
use bytes::Bytes;

use super::message::{self, ContentTypeCopy, Header, IncomingMessage, Modes};
use super::{BindingError, BindingEvent, ContentMode, percent};
use crate::patterns::dedupe::{Deduplicator, Delivery};

/// The header carrying the content type.
pub const CONTENT_TYPE: &str = "Content-Type";
/// The header prefix of binary mode (CE NATS binding 1.0.3-wip §3.1.3.1).
pub const HEADER_PREFIX: &str = "ce-";

/// The content mode [`to_message`], [`publish`] and [`publish_jetstream`] write: structured,
/// which every NATS server and every CloudEvents NATS reader takes (the 1.0.2 binding has
/// no other). Binary mode needs NATS 2.2+ and a reader of the 1.0.3 binding: choose it with
/// [`to_message`], [`publish`] or [`publish_jetstream`]. Producers MUST document the
/// mode they emit (INTG-STD-015 R-9).
///
/// ```
/// use cloudevent_runtime::binding::{ContentMode, nats};
/// assert_eq!(nats::DEFAULT_MODE, ContentMode::Structured);
/// ```
pub const DEFAULT_MODE: ContentMode = ContentMode::Structured;

/// A NATS or JetStream operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum NatsError {
    /// The event could not be written or read.
    #[error(transparent)]
    Binding(#[from] BindingError),
    /// The NATS client reported an error.
    #[error("NATS: {0}")]
    Nats(Box<dyn std::error::Error + Send + Sync>),
    /// The deduplicator failed.
    #[error("deduplicator: {0}")]
    Dedupe(String),
}

impl NatsError {
    fn nats(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        NatsError::Nats(Box::new(error))
    }
}

/// The headers and payload of a NATS message carrying `event` in binary or structured mode
/// ([`DEFAULT_MODE`], structured, unless the producer documents otherwise).
///
/// # Errors
/// [`ContentMode::Batch`] (the binding has none, §1.3), an attribute whose name cannot be a
/// NATS header name, a payload that cannot be serialized, or an event over 256 KiB (R-11).
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::{ContentMode, nats};
///
/// let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// event.set_subject(Some("Euro € 😀".into()));
/// let (headers, payload) = nats::to_message(&event, ContentMode::Binary).unwrap();
/// assert_eq!(headers.get("ce-id").unwrap().as_str(), "1");
/// assert_eq!(headers.get("ce-subject").unwrap().as_str(), "Euro%20%E2%82%AC%20%F0%9F%98%80");
/// assert!(headers.get("Content-Type").is_none());
/// assert!(payload.is_empty());
/// assert_eq!(nats::from_parts::<AnyEvent>(Some(&headers), &payload).unwrap(), event);
/// ```
pub fn to_message<E: BindingEvent>(
    event: &E,
    mode: ContentMode,
) -> Result<(HeaderMap, Bytes), BindingError> {
    match mode {
        ContentMode::Structured => {
            let payload = event.to_structured()?;
            let mut headers = HeaderMap::new();
            headers.insert(CONTENT_TYPE, super::STRUCTURED_CONTENT_TYPE);
            Ok((headers, Bytes::from(payload)))
        }
        ContentMode::Binary => {
            let parts = event.to_binary()?;
            let mut headers = HeaderMap::new();
            // `datacontenttype` is a `ce-` header like every other attribute (§3.1.3.1), never
            // `Content-Type`, which a reader takes for structured mode when it names a
            // CloudEvents format (§3), as the media type of an event carried as data does.
            let content_type = parts
                .datacontenttype
                .as_deref()
                .map(|value| ("datacontenttype", value));
            let attributes = parts
                .attributes
                .iter()
                .map(|(name, value)| (name.as_str(), value.as_str()));
            for (name, value) in attributes.chain(content_type) {
                let header = format!("{HEADER_PREFIX}{name}");
                let header_name =
                    HeaderName::from_str(&header).map_err(|e| BindingError::AttributeName {
                        attribute: name.to_owned(),
                        reason: e.to_string(),
                    })?;
                // Percent-encoding leaves only visible ASCII, which is always a header value.
                let value = HeaderValue::from_str(&percent::encode(value))
                    .map_err(|_| BindingError::HeaderNotText { header })?;
                headers.insert(header_name, value);
            }
            Ok((headers, Bytes::from(parts.data.unwrap_or_default())))
        }
        ContentMode::Batch => Err(BindingError::UnexpectedMode {
            expected: "binary or structured mode (CE NATS binding 1.0.3-wip 1.3 has no batch mode)",
            found: "batched mode",
            content_type: super::BATCH_CONTENT_TYPE.to_owned(),
        }),
    }
}

/// Writes an event as a structured-mode NATS message in `format` (JSON, or Protobuf with
/// feature `protobuf`), its `Content-Type` naming the format.
///
/// # Errors
/// A payload that cannot be serialized; an event over the size limit.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::{StructuredFormat, nats};
///
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// let (headers, payload) = nats::to_structured_message(&event, StructuredFormat::Json).unwrap();
/// assert_eq!(nats::from_parts::<AnyEvent>(Some(&headers), &payload).unwrap(), event);
/// ```
pub fn to_structured_message<E: BindingEvent>(
    event: &E,
    format: super::StructuredFormat,
) -> Result<(HeaderMap, Bytes), BindingError> {
    let payload = super::structured_body(event, format)?;
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, format.content_type());
    Ok((headers, Bytes::from(payload)))
}

/// Reads an event from a message's headers and payload, in whichever mode they carry: a
/// `Content-Type` of the JSON event format is structured mode, `ce-` headers are binary mode
/// (CE NATS binding 1.0.3-wip §3), and a message with neither is the JSON event format
/// (NATS before 2.2, binding 1.0.2). Both modes run the same reader and the same policy.
///
/// # Errors
/// Another CloudEvents format, a header that is not visible ASCII or does not percent-decode
/// to UTF-8, an attribute twice, a `Content-Type` naming neither a CloudEvents format nor
/// sent beside `ce-` headers (no CloudEvent), or an invalid event.
pub fn from_parts<E: BindingEvent>(
    headers: Option<&HeaderMap>,
    payload: &[u8],
) -> Result<E, BindingError> {
    // `E`'s policy decides whether the header forms of senders that do not percent-encode
    // are read literally (`#[cloudevent(literal_headers)]`), as at the HTTP readers.
    let policy = E::policy();
    let message = Received::new(headers, payload, &policy);
    let event = message::receive_event(&message)?;
    message.literals.log();
    Ok(event)
}

/// A message as the binding layer reads it.
struct Received<'m> {
    content_type: Option<&'m str>,
    /// A second `Content-Type` header with another value: which content type holds is
    /// unknown, so the message is refused rather than one of them dropped.
    conflicting_content_type: Option<&'m str>,
    /// The `ce-` headers, one entry a value, sorted by header name so that a message gives
    /// the same first error whatever order the header map iterates in.
    attributes: Vec<AttributeHeader<'m>>,
    payload: &'m [u8],
    policy: &'m crate::Policy,
    /// The warnings of the values read literally under the policy.
    literals: percent::Literals,
}

struct AttributeHeader<'m> {
    /// The name after `ce-`, in lower case: NATS header names are case-insensitive (ADR-4).
    /// Borrowed from the header when it is lower case already, as every writer of the
    /// binding sends it.
    attribute: Cow<'m, str>,
    header: &'m str,
    value: &'m str,
}

impl<'m> Received<'m> {
    fn new(headers: Option<&'m HeaderMap>, payload: &'m [u8], policy: &'m crate::Policy) -> Self {
        // The content type is the first value of the `Content-Type` header whose name sorts
        // first (names differ only in case), so the verdict does not hang on the map's
        // iteration order. A message carries one such value: no list is kept for it, and the
        // headers are walked again only when there are more, to find one that disagrees.
        let mut content_type: Option<(&str, &str)> = None;
        let mut content_types = 0_usize;
        let mut attributes = Vec::new();
        for (name, values) in headers.into_iter().flat_map(HeaderMap::iter) {
            let header: &str = name.as_ref();
            if header.eq_ignore_ascii_case(CONTENT_TYPE) {
                for value in values {
                    content_types += 1;
                    if content_type.is_none_or(|(first, _)| header < first) {
                        content_type = Some((header, value.as_str()));
                    }
                }
            } else if let Some(attribute) = header
                .get(..HEADER_PREFIX.len())
                .filter(|prefix| prefix.eq_ignore_ascii_case(HEADER_PREFIX))
                .map(|_| &header[HEADER_PREFIX.len()..])
            {
                let attribute = if attribute.bytes().any(|b| b.is_ascii_uppercase()) {
                    Cow::Owned(attribute.to_ascii_lowercase())
                } else {
                    Cow::Borrowed(attribute)
                };
                attributes.extend(values.iter().map(|value| AttributeHeader {
                    attribute: attribute.clone(),
                    header,
                    value: value.as_str(),
                }));
            }
        }
        attributes.sort_by(|a, b| a.header.cmp(b.header));
        let content_type = content_type.map(|(_, value)| value);
        // The first header in name order holding another value than the content type.
        let conflicting_content_type = if content_types > 1 {
            headers
                .into_iter()
                .flat_map(HeaderMap::iter)
                .map(|(name, values)| (AsRef::<str>::as_ref(name), values))
                .filter(|(header, values)| {
                    header.eq_ignore_ascii_case(CONTENT_TYPE)
                        && values
                            .iter()
                            .any(|value| Some(value.as_str()) != content_type)
                })
                .map(|(header, _)| header)
                .min()
        } else {
            None
        };
        Received {
            content_type,
            conflicting_content_type,
            attributes,
            payload,
            policy,
            literals: percent::Literals::default(),
        }
    }
}

impl IncomingMessage for Received<'_> {
    fn modes(&self) -> Modes {
        Modes {
            // §3: without a CloudEvents content type the message is binary mode; one that
            // carries no `ce-` header either is the JSON event format of a NATS server before
            // 2.2 (and of the 1.0.2 binding), which had no headers to say so.
            without_content_type: if self.attributes.is_empty() {
                ContentMode::Structured
            } else {
                ContentMode::Binary
            },
            structured_only: None,
            batch: false,
            content_type_copy: ContentTypeCopy::MustAgree,
            data_section: "CE NATS binding 2.2",
        }
    }

    fn content_type(&self) -> Result<Option<&str>, BindingError> {
        match self.conflicting_content_type {
            Some(header) => Err(BindingError::DuplicateAttribute {
                attribute: "datacontenttype".to_owned(),
                header: header.to_owned(),
            }),
            None => Ok(self.content_type),
        }
    }

    fn attributes(&self) -> impl Iterator<Item = Result<Header<'_>, BindingError>> {
        self.attributes.iter().map(|header| {
            // §3.1.3.2: header values are visible US-ASCII; everything else was percent-encoded.
            let strict = if header
                .value
                .bytes()
                .all(|b| matches!(b, b'\t' | 0x20..=0x7E))
            {
                percent::decode(header.value).map_err(|source| BindingError::HeaderValue {
                    header: header.header.to_owned(),
                    source,
                })
            } else {
                Err(BindingError::HeaderNotText {
                    header: header.header.to_owned(),
                })
            };
            let value: Cow<'_, str> = match strict {
                Ok(value) => value,
                Err(error) => {
                    let (text, warning) =
                        percent::literal(header.value.as_bytes(), &header.attribute, self.policy)
                            .ok_or(error)?;
                    self.literals.push(warning);
                    Cow::Borrowed(text)
                }
            };
            Ok(Header {
                attribute: &header.attribute,
                header: header.header,
                value,
                typed: None,
            })
        })
    }

    fn body(&self) -> Option<&[u8]> {
        Some(self.payload)
    }
}

/// Reads an event from a core NATS message.
///
/// # Errors
/// See [`from_parts`].
pub fn from_message<E: BindingEvent>(message: &async_nats::Message) -> Result<E, BindingError> {
    from_parts(message.headers.as_ref(), &message.payload)
}

/// The full report on a message [`from_parts`] refused, under `E`'s policy: every finding the
/// validator lists, with the event's id and attributes, then the typed reader's refusal when
/// it is not among them; a message refused before any event is read reports that refusal
/// alone. Each finding cites the rule of `E`'s profile (as
/// [`kafka::report_refusal`](super::kafka::report_refusal) does for a record).
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::nats::{from_parts, report_refusal};
///
/// let payload = br#"{"specversion":"1.0","id":"n-1","source":"","type":"com.example.a.b",
///     "time":"yesterday"}"#;
/// let refusal = from_parts::<AnyEvent>(None, payload).unwrap_err();
/// let report = report_refusal::<AnyEvent>(None, payload, &refusal);
/// assert_eq!(report.id(), Some("n-1"));
/// let attributes: Vec<&str> = report.errors().map(|f| f.attribute.as_ref()).collect();
/// assert_eq!(attributes, ["source", "time"]);
/// ```
pub fn report_refusal<E: BindingEvent>(
    headers: Option<&HeaderMap>,
    payload: &[u8],
    refusal: &BindingError,
) -> crate::ValidationReport {
    let policy = E::policy();
    message::report_refusal::<E, _>(&Received::new(headers, payload, &policy), refusal)
}

/// Publishes an event on core NATS in binary or structured mode ([`DEFAULT_MODE`]:
/// structured).
///
/// # Errors
/// See [`to_message`]; the client fails.
pub async fn publish<E: BindingEvent>(
    client: &async_nats::Client,
    subject: impl Into<String>,
    event: &E,
    mode: ContentMode,
) -> Result<(), NatsError> {
    let (headers, payload) = to_message(event, mode)?;
    client
        .publish_with_headers(subject.into(), headers, payload)
        .await
        .map_err(NatsError::nats)
}

/// Publishes an event to JetStream in binary or structured mode ([`DEFAULT_MODE`]:
/// structured) with `Nats-Msg-Id` = the event `id`, and waits for the server's ack. A second
/// publish of the same event inside the stream's duplicate window is dropped by the server:
/// the ack then has `duplicate == true`.
///
/// # Errors
/// See [`to_message`]; no stream takes the subject, or the client fails.
pub async fn publish_jetstream<E: BindingEvent>(
    context: &jetstream::Context,
    subject: impl Into<String>,
    event: &E,
    mode: ContentMode,
) -> Result<jetstream::publish::PublishAck, NatsError> {
    let (mut headers, payload) = to_message(event, mode)?;
    let id = HeaderValue::from_str(event.id()).map_err(|_| BindingError::HeaderNotText {
        header: async_nats::header::NATS_MESSAGE_ID.to_string(),
    })?;
    headers.insert(async_nats::header::NATS_MESSAGE_ID, id);
    context
        .publish_with_headers(subject.into(), headers, payload)
        .await
        .map_err(NatsError::nats)?
        .await
        .map_err(NatsError::nats)
}

/// What [`handle_once`] did with a message.
#[derive(Debug)]
pub enum Handled<E, HE> {
    /// First delivery: the handler ran and the message was acknowledged.
    Processed(E),
    /// A redelivery of an event already handled: acknowledged, handler not run.
    Duplicate(E),
    /// The handler failed: its mark was forgotten and the message negatively acknowledged,
    /// so JetStream delivers it again.
    Retry(E, HE),
}

/// Handles one JetStream message at most once per `(source, id)` (ADR-0003):
///
/// 1. read the event; an invalid one is terminated (`AckKind::Term`, so it is not
///    redelivered forever) and reported as an error;
/// 2. ask the deduplicator; a duplicate is acknowledged without running the handler;
/// 3. run the handler; on success acknowledge, on failure forget the mark and `Nak` so the
///    event comes again.
///
/// When the consumer dies after the handler's effect and before the ack, the message is
/// redelivered after the consumer's `ack_wait` and step 2 recognises it: the side effect
/// happens once, provided the deduplicator outlives the consumer (a shared store in
/// production). Step 2 records the event before the effect, so a consumer killed between
/// the two loses the effect (at most once); for effects that must not be lost, claim with a
/// lease and commit after the effect ([`Deduplicator::claim`], `docs/scaling-out.md`).
///
/// # Errors
/// An invalid event, a failed ack, or a failed deduplicator.
pub async fn handle_once<E, D, F, Fut, HE>(
    message: &jetstream::Message,
    deduplicator: &D,
    handler: F,
) -> Result<Handled<E, HE>, NatsError>
where
    E: BindingEvent,
    D: Deduplicator,
    D::Error: std::fmt::Display,
    F: FnOnce(&E) -> Fut,
    Fut: Future<Output = Result<(), HE>>,
{
    let event: E = match from_message(&message.message) {
        Ok(event) => event,
        Err(error) => {
            message
                .ack_with(AckKind::Term)
                .await
                .map_err(NatsError::Nats)?;
            return Err(NatsError::Binding(error));
        }
    };
    crate::patterns::receipt::received(&event);
    let delivery = deduplicator
        .check(event.source(), event.id())
        .map_err(|e| NatsError::Dedupe(e.to_string()))?;
    if delivery == Delivery::Duplicate {
        message.ack().await.map_err(NatsError::Nats)?;
        return Ok(Handled::Duplicate(event));
    }
    match handler(&event).await {
        Ok(()) => {
            message.ack().await.map_err(NatsError::Nats)?;
            Ok(Handled::Processed(event))
        }
        Err(error) => {
            deduplicator
                .forget(event.source(), event.id())
                .map_err(|e| NatsError::Dedupe(e.to_string()))?;
            message
                .ack_with(AckKind::Nak(None))
                .await
                .map_err(NatsError::Nats)?;
            Ok(Handled::Retry(event, error))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnyEvent;
    use crate::Attributes;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, *value);
        }
        map
    }

    fn read(pairs: &[(&str, &str)], payload: &[u8]) -> Result<AnyEvent, BindingError> {
        from_parts(Some(&headers(pairs)), payload)
    }

    const SPEC_EXAMPLE: &[(&str, &str)] = &[
        // CE NATS binding 1.0.3-wip 3.1.4.
        ("ce-specversion", "1.0"),
        ("ce-type", "com.example.someevent"),
        ("ce-time", "2018-04-05T03:56:24Z"),
        ("ce-id", "1234-1234-1234"),
        ("ce-source", "/mycontext/subcontext"),
        ("ce-datacontenttype", "application/json"),
    ];

    #[test]
    fn reads_the_spec_binary_example() {
        let event = read(SPEC_EXAMPLE, br#"{"n":1}"#).unwrap();
        assert_eq!(event.id(), "1234-1234-1234");
        assert_eq!(event.datacontenttype(), Some("application/json"));
        assert_eq!(
            event.data(),
            Some(&crate::Data::json(r#"{"n":1}"#).unwrap())
        );
        let (written, payload) = to_message(&event, ContentMode::Binary).unwrap();
        for (name, value) in SPEC_EXAMPLE {
            assert_eq!(written.get(*name).map(HeaderValue::as_str), Some(*value));
        }
        assert_eq!(&payload[..], br#"{"n":1}"#);
    }

    #[test]
    fn the_content_type_header_decides_the_mode() {
        let structured = AnyEvent::new("s", "/s", "com.example.someevent");
        let body = structured.to_structured().unwrap();
        // A CloudEvents content type is structured mode even beside `ce-` headers.
        let mut with_headers = SPEC_EXAMPLE.to_vec();
        with_headers.push(("Content-Type", "Application/CloudEvents+JSON"));
        assert_eq!(read(&with_headers, &body).unwrap(), structured);
        // No headers at all: the JSON event format (NATS before 2.2, binding 1.0.2).
        assert_eq!(from_parts::<AnyEvent>(None, &body).unwrap(), structured);
        assert_eq!(read(&[], &body).unwrap(), structured);
        // Another content type and no `ce-` header: no CloudEvent.
        assert!(matches!(
            read(&[("Content-Type", "application/json")], &body),
            Err(BindingError::NotCloudEvents { .. })
        ));
        assert!(matches!(
            read(&[("content-type", "application/cloudevents+xml")], &body),
            Err(BindingError::UnsupportedFormat { .. })
        ));
        assert!(matches!(
            to_message(&structured, ContentMode::Batch),
            Err(BindingError::UnexpectedMode { .. })
        ));
    }

    #[test]
    fn header_names_are_case_insensitive() {
        let mut shouting = SPEC_EXAMPLE.to_vec();
        shouting[3] = ("CE-ID", "1234-1234-1234");
        assert_eq!(read(&shouting, b"").unwrap().id(), "1234-1234-1234");
        shouting.push(("ce-Id", "other"));
        assert!(matches!(
            read(&shouting, b""),
            Err(BindingError::DuplicateAttribute { attribute, .. }) if attribute == "id"
        ));
    }

    #[test]
    fn mixed_case_attribute_headers_read_as_lower_case_names() {
        let mut pairs = SPEC_EXAMPLE.to_vec();
        pairs.push(("CE-MyExt", "1"));
        let event = read(&pairs, b"").unwrap();
        assert_eq!(
            event.extensions().get("myext").and_then(|v| v.as_str()),
            Some("1")
        );
        // The same attribute under two spellings of its header is one attribute twice.
        pairs.push(("ce-myext", "2"));
        assert!(matches!(
            read(&pairs, b""),
            Err(BindingError::DuplicateAttribute { attribute, .. }) if attribute == "myext"
        ));
    }

    #[test]
    fn content_type_headers_are_taken_in_name_order() {
        let structured = AnyEvent::new("s", "/s", "com.example.someevent");
        let body = structured.to_structured().unwrap();
        let cloudevents = "application/cloudevents+json";
        // One value under two spellings of the name, or twice under one: one content type.
        for pairs in [
            &[("Content-Type", cloudevents), ("content-type", cloudevents)][..],
            &[("content-type", cloudevents), ("content-type", cloudevents)][..],
        ] {
            assert_eq!(read(pairs, &body).unwrap(), structured);
        }
        // Two that disagree: refused, naming the header (in name order) that differs from the
        // first, whichever order the map holds them in.
        for pairs in [
            &[
                ("content-type", cloudevents),
                ("CONTENT-TYPE", "text/plain"),
            ][..],
            &[
                ("CONTENT-TYPE", "text/plain"),
                ("content-type", cloudevents),
            ][..],
        ] {
            assert!(matches!(
                read(pairs, &body),
                Err(BindingError::DuplicateAttribute { attribute, header })
                    if attribute == "datacontenttype" && header == "content-type"
            ));
        }
        assert!(matches!(
            read(&[("content-type", cloudevents), ("content-type", "text/plain")], &body),
            Err(BindingError::DuplicateAttribute { header, .. }) if header == "content-type"
        ));
    }

    #[test]
    fn hostile_headers_are_typed_errors() {
        let with = |extra: (&'static str, &'static str)| {
            let mut pairs = SPEC_EXAMPLE.to_vec();
            pairs.push(extra);
            read(&pairs, b"{}")
        };
        assert!(matches!(
            with(("ce-subject", "caf\u{e9}")),
            Err(BindingError::HeaderNotText { header }) if header == "ce-subject"
        ));
        assert!(matches!(
            with(("ce-subject", "%C0%A0")),
            Err(BindingError::HeaderValue { header, .. }) if header == "ce-subject"
        ));
        assert!(matches!(
            with(("ce-subject", "\"open")),
            Err(BindingError::HeaderValue { .. })
        ));
        assert!(matches!(
            with(("ce-data", "{}")),
            Err(BindingError::DataHeader { .. })
        ));
        assert!(matches!(
            with(("ce-id", "again")),
            Err(BindingError::DuplicateAttribute { .. })
        ));
        // A `Content-Type` beside binary headers must agree with `ce-datacontenttype`.
        assert!(matches!(
            with(("Content-Type", "text/plain")),
            Err(BindingError::DuplicateAttribute { attribute, .. }) if attribute == "datacontenttype"
        ));
        // An extension name the spec forbids reaches the policy and is refused there.
        assert!(matches!(
            with(("ce-ext_a", "1")),
            Err(BindingError::Event(_))
        ));
        // Two content types that disagree: refused, neither dropped.
        let mut pairs = SPEC_EXAMPLE.to_vec();
        pairs.push(("Content-Type", "application/json"));
        pairs.push(("content-type", "text/plain"));
        assert!(matches!(
            read(&pairs, b"{}"),
            Err(BindingError::DuplicateAttribute { attribute, .. }) if attribute == "datacontenttype"
        ));
        pairs.pop();
        pairs.push(("content-type", "application/json"));
        assert!(read(&pairs, b"{}").is_ok());
        // Quoted values from older producers are read (§3.1.3.2).
        assert_eq!(
            with(("ce-subject", "\"a b\"")).unwrap().subject(),
            Some("a b")
        );
    }
}
