//! The CloudEvents NATS Protocol Binding 1.0.2 on async-nats, with JetStream publishing and an
//! at-least-once consumer that does each side effect once (ADR-0003).
//!
//! - §1.3, §3: NATS carries events in structured mode only; the payload is the JSON event
//!   format. The message also gets `Content-Type: application/cloudevents+json;
//!   charset=utf-8` (INTG-STD-015 R-7) so a reader can tell the format without parsing.
//! - JetStream: [`publish_jetstream`] sets `Nats-Msg-Id` to the event `id`, so the server drops
//!   a second publish of the same event inside the stream's duplicate window; the returned
//!   ack says whether it was a duplicate.
//! - [`handle_once`] runs a handler for a JetStream message at most once per `(source, id)`
//!   with a [`Deduplicator`]: a redelivered event (the consumer
//!   died before its ack) is acknowledged without running the handler again.

use std::future::Future;

use async_nats::HeaderMap;
use async_nats::jetstream;
use async_nats::jetstream::AckKind;
use bytes::Bytes;

use super::message::{self, ContentTypeCopy, Header, IncomingMessage, Modes};
use super::{BindingError, BindingEvent, ContentMode};
use crate::patterns::dedupe::{Deduplicator, Delivery};

/// The header carrying the content type.
pub const CONTENT_TYPE: &str = "Content-Type";

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

/// The headers and payload of a NATS message carrying `event` (structured mode, §3).
///
/// # Errors
/// A payload that cannot be serialized.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::nats;
///
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// let (headers, payload) = nats::to_message(&event).unwrap();
/// assert_eq!(headers.get("Content-Type").unwrap().as_str(), "application/cloudevents+json; charset=utf-8");
/// let back: AnyEvent = nats::from_parts(Some(&headers), &payload).unwrap();
/// assert_eq!(back, event);
/// ```
pub fn to_message<E: BindingEvent>(event: &E) -> Result<(HeaderMap, Bytes), BindingError> {
    let payload = event.to_structured()?;
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, super::STRUCTURED_CONTENT_TYPE);
    Ok((headers, Bytes::from(payload)))
}

/// Writes an event as a NATS message in `format` (JSON, or Protobuf with feature
/// `protobuf`), its `Content-Type` naming the format.
///
/// # Errors
/// A payload that cannot be serialized; an event over the size limit.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::{StructuredFormat, nats};
///
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// let (headers, payload) = nats::to_message_in(&event, StructuredFormat::Json).unwrap();
/// assert_eq!(nats::from_parts::<AnyEvent>(Some(&headers), &payload).unwrap(), event);
/// ```
pub fn to_message_in<E: BindingEvent>(
    event: &E,
    format: super::StructuredFormat,
) -> Result<(HeaderMap, Bytes), BindingError> {
    let payload = super::structured_body(event, format)?;
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, format.content_type());
    Ok((headers, Bytes::from(payload)))
}

/// Reads an event from a message's headers and payload. Without a content type the JSON
/// event format is implied (§3); a content type naming anything but structured JSON is an
/// error, since NATS 1.0.2 defines no binary mode.
///
/// # Errors
/// Another content type, or an invalid event.
pub fn from_parts<E: BindingEvent>(
    headers: Option<&HeaderMap>,
    payload: &[u8],
) -> Result<E, BindingError> {
    message::receive_event(&Received { headers, payload })
}

/// A message as the binding layer reads it: structured mode only (§3).
struct Received<'m> {
    headers: Option<&'m HeaderMap>,
    payload: &'m [u8],
}

impl IncomingMessage for Received<'_> {
    fn modes(&self) -> Modes {
        Modes {
            without_content_type: ContentMode::Structured,
            structured_only: Some("structured mode (CE NATS binding 1.0.2 3)"),
            batch: false,
            content_type_copy: ContentTypeCopy::MustAgree,
        }
    }

    fn content_type(&self) -> Result<Option<&str>, BindingError> {
        Ok(self.headers.and_then(|headers| {
            headers
                .get(CONTENT_TYPE)
                .or_else(|| headers.get("content-type"))
                .map(|value| value.as_str())
        }))
    }

    fn attributes(&self) -> impl Iterator<Item = Result<Header<'_>, BindingError>> {
        std::iter::empty()
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

/// Publishes an event on core NATS.
///
/// # Errors
/// The event cannot be serialized, or the client fails.
pub async fn publish<E: BindingEvent>(
    client: &async_nats::Client,
    subject: impl Into<String>,
    event: &E,
) -> Result<(), NatsError> {
    let (headers, payload) = to_message(event)?;
    client
        .publish_with_headers(subject.into(), headers, payload)
        .await
        .map_err(NatsError::nats)
}

/// Publishes an event to JetStream with `Nats-Msg-Id` = the event `id`, and waits for the
/// server's ack. A second publish of the same event inside the stream's duplicate window is
/// dropped by the server: the ack then has `duplicate == true`.
///
/// # Errors
/// The event cannot be serialized, no stream takes the subject, or the client fails.
pub async fn publish_jetstream<E: BindingEvent>(
    context: &jetstream::Context,
    subject: impl Into<String>,
    event: &E,
) -> Result<jetstream::publish::PublishAck, NatsError> {
    let (mut headers, payload) = to_message(event)?;
    headers.insert(async_nats::header::NATS_MESSAGE_ID, event.id());
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
/// When the consumer dies between steps 2 and 3 the message is redelivered after the
/// consumer's `ack_wait` and step 2 recognises it: the side effect happens once, provided
/// the deduplicator outlives the consumer (a shared store in production).
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
    let (source, id) = (event.source().to_owned(), event.id().to_owned());
    let delivery = deduplicator
        .check(&source, &id)
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
                .forget(&source, &id)
                .map_err(|e| NatsError::Dedupe(e.to_string()))?;
            message
                .ack_with(AckKind::Nak(None))
                .await
                .map_err(NatsError::Nats)?;
            Ok(Handled::Retry(event, error))
        }
    }
}
