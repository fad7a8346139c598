//! The event formats the bindings carry in structured and batched mode: JSON always, the
//! others behind their features (INTG-STD-015 R-16: by bilateral agreement).
//! [`StructuredFormat`] is the run-time selector over [`EventFormat`]: one `match`
//! (`StructuredFormat::with`) hands a function generic over the format the one the value
//! names, so a format is added with one variant and one arm.

use super::{BindingError, BindingEvent};
use crate::format::EventFormat;

/// A CloudEvents event format a binding reads and writes in structured and batched mode.
///
/// ```
/// use cloudevent_runtime::binding::StructuredFormat;
///
/// let json = StructuredFormat::from_media_type("application/cloudevents+json; charset=utf-8");
/// assert_eq!(json, Some((StructuredFormat::Json, false)));
/// assert_eq!(StructuredFormat::Json.media_type(), "application/cloudevents+json");
/// assert!(StructuredFormat::ALL.contains(&StructuredFormat::Json));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StructuredFormat {
    /// The JSON event format and JSON batch format (CE-JSON 1.0.2).
    Json,
    /// The Protobuf event format and batch format (CE Protobuf 1.0; feature `protobuf`).
    #[cfg(feature = "protobuf")]
    Protobuf,
    /// The Avro event format (CE Avro 1.0; feature `avro`). The format defines no batch.
    #[cfg(feature = "avro")]
    Avro,
}

/// What is done with a format chosen at run time: one function generic over the
/// [`EventFormat`], which [`StructuredFormat::with`] calls for the format it names.
pub(crate) trait WithFormat {
    type Output;
    fn call<F: EventFormat>(self) -> Self::Output;
}

/// A format's media types, as its [`EventFormat`] constants say.
struct MediaTypes {
    media_type: &'static str,
    content_type: &'static str,
    batch_media_type: Option<&'static str>,
    #[cfg(feature = "http")]
    batch_content_type: Option<&'static str>,
}

/// The [`WithFormat`] that reads a format's [`MediaTypes`].
struct MediaTypesOf;

impl WithFormat for MediaTypesOf {
    type Output = MediaTypes;
    fn call<F: EventFormat>(self) -> MediaTypes {
        MediaTypes {
            media_type: F::MEDIA_TYPE,
            content_type: F::CONTENT_TYPE,
            batch_media_type: F::BATCH_MEDIA_TYPE,
            #[cfg(feature = "http")]
            batch_content_type: F::BATCH_CONTENT_TYPE,
        }
    }
}

impl StructuredFormat {
    /// The formats this build reads, JSON first: the features it was compiled with.
    pub const ALL: &'static [StructuredFormat] = &[
        StructuredFormat::Json,
        #[cfg(feature = "protobuf")]
        StructuredFormat::Protobuf,
        #[cfg(feature = "avro")]
        StructuredFormat::Avro,
    ];

    /// Calls `f` with the [`EventFormat`] this value names: the one `match` over the formats.
    pub(crate) fn with<W: WithFormat>(self, f: W) -> W::Output {
        match self {
            StructuredFormat::Json => f.call::<crate::Json>(),
            #[cfg(feature = "protobuf")]
            StructuredFormat::Protobuf => f.call::<crate::Protobuf>(),
            #[cfg(feature = "avro")]
            StructuredFormat::Avro => f.call::<crate::Avro>(),
        }
    }

    fn media_types(self) -> MediaTypes {
        self.with(MediaTypesOf)
    }

    /// The media type of one event in this format, without parameters
    /// ([`EventFormat::MEDIA_TYPE`]).
    ///
    /// ```
    /// use cloudevent_runtime::binding::StructuredFormat;
    /// assert_eq!(StructuredFormat::Json.media_type(), "application/cloudevents+json");
    /// ```
    pub fn media_type(self) -> &'static str {
        self.media_types().media_type
    }

    /// The content type a sender sets for one event (JSON with its `charset`;
    /// [`EventFormat::CONTENT_TYPE`]).
    ///
    /// ```
    /// use cloudevent_runtime::binding::StructuredFormat;
    /// assert_eq!(StructuredFormat::Json.content_type(), "application/cloudevents+json; charset=utf-8");
    /// ```
    pub fn content_type(self) -> &'static str {
        self.media_types().content_type
    }

    /// The media type of a batch in this format, without parameters; `None` for a format
    /// whose specification defines no batch ([`EventFormat::BATCH_MEDIA_TYPE`]).
    pub(crate) fn batch_media_type(self) -> Option<&'static str> {
        self.media_types().batch_media_type
    }

    /// The content type a sender sets for a batch; `None` for a format without a batch
    /// ([`EventFormat::BATCH_CONTENT_TYPE`]).
    #[cfg(feature = "http")]
    pub(crate) fn batch_content_type(self) -> Option<&'static str> {
        self.media_types().batch_content_type
    }

    /// The format a content type names and whether it is the batch media type; `None` for
    /// anything else, a CloudEvents format this build does not read included. Parameters
    /// are ignored and the match is case-insensitive.
    ///
    /// ```
    /// use cloudevent_runtime::binding::StructuredFormat;
    /// assert_eq!(StructuredFormat::from_media_type("Application/CloudEvents-Batch+JSON"),
    ///            Some((StructuredFormat::Json, true)));
    /// assert_eq!(StructuredFormat::from_media_type("application/json"), None);
    /// ```
    pub fn from_media_type(content_type: &str) -> Option<(StructuredFormat, bool)> {
        Self::from_essence(super::media_type_essence(content_type))
    }

    /// [`StructuredFormat::from_media_type`] of a media type already without parameters.
    pub(crate) fn from_essence(essence: &str) -> Option<(StructuredFormat, bool)> {
        // The byte comparison first: senders write media types in lower case.
        let names =
            |media_type: &str| essence == media_type || essence.eq_ignore_ascii_case(media_type);
        Self::ALL.iter().find_map(|format| {
            if names(format.media_type()) {
                Some((*format, false))
            } else if format.batch_media_type().is_some_and(names) {
                Some((*format, true))
            } else {
                None
            }
        })
    }

    /// The media types this build accepts, for a 415's message: `a, b, c`.
    pub(crate) fn accepted() -> String {
        Self::ALL
            .iter()
            .flat_map(|format| [Some(format.media_type()), format.batch_media_type()])
            .flatten()
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Reads one structured-mode event of any [`BindingEvent`] in `format`: the type's own door,
/// [`AnyEvent::decode`](crate::AnyEvent::decode) or [`Event::decode`](crate::Event::decode),
/// in every format.
#[cfg(any(
    feature = "http",
    feature = "kafka",
    feature = "amqp",
    feature = "mqtt",
    feature = "nats",
    feature = "websocket"
))]
pub(crate) fn event_from<E: BindingEvent>(
    format: StructuredFormat,
    bytes: &[u8],
) -> Result<E, BindingError> {
    struct EventFrom<'a, E>(&'a [u8], std::marker::PhantomData<E>);
    impl<E: BindingEvent> WithFormat for EventFrom<'_, E> {
        type Output = Result<E, BindingError>;
        fn call<F: EventFormat>(self) -> Self::Output {
            E::read_format::<F>(self.0)
        }
    }
    format.with(EventFrom(bytes, std::marker::PhantomData))
}

/// Reads one structured-mode [`AnyEvent`](crate::AnyEvent) in `format` under a policy (a
/// gateway's): [`AnyEvent::decode_with`](crate::AnyEvent::decode_with).
#[cfg(feature = "websocket")]
pub(crate) fn any_event_from(
    format: StructuredFormat,
    bytes: &[u8],
    policy: &crate::Policy,
) -> Result<crate::AnyEvent, crate::FormatError> {
    struct AnyFrom<'a>(&'a [u8], &'a crate::Policy);
    impl WithFormat for AnyFrom<'_> {
        type Output = Result<crate::AnyEvent, crate::FormatError>;
        fn call<F: EventFormat>(self) -> Self::Output {
            crate::AnyEvent::decode_with::<F>(self.0, self.1)
        }
    }
    format.with(AnyFrom(bytes, policy))
}

/// Reads a batch of any [`BindingEvent`] in `format`'s batch format (HTTP's batched content
/// mode): [`crate::Batch::decode_with`](crate::Batch::decode_with) under the type's policy, then each
/// event as the type.
#[cfg(feature = "http")]
pub(crate) fn batch_from<E: BindingEvent>(
    format: StructuredFormat,
    bytes: &[u8],
) -> Result<Vec<E>, BindingError> {
    struct BatchFrom<'a>(&'a [u8], crate::Policy);
    impl WithFormat for BatchFrom<'_> {
        type Output = Result<crate::Batch, crate::FormatError>;
        fn call<F: EventFormat>(self) -> Self::Output {
            crate::Batch::decode_with::<F>(self.0, &self.1)
        }
    }
    super::binary::events_of(format.with(BatchFrom(bytes, E::policy()))?)
}

/// Writes one event of any [`BindingEvent`] in `format` (structured mode), refusing an event
/// over the size limit before it is sent (R-11).
///
/// # Errors
/// A payload that cannot be serialized; an event the format cannot carry; an event over the
/// size limit.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::{StructuredFormat, structured_body};
///
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// let body = structured_body(&event, StructuredFormat::Json).unwrap();
/// assert_eq!(body, event.to_vec());
/// ```
pub fn structured_body<E: BindingEvent>(
    event: &E,
    format: StructuredFormat,
) -> Result<Vec<u8>, BindingError> {
    struct Body<'a, E>(&'a E);
    impl<E: BindingEvent> WithFormat for Body<'_, E> {
        type Output = Result<Vec<u8>, BindingError>;
        fn call<F: EventFormat>(self) -> Self::Output {
            self.0.write_format::<F>()
        }
    }
    let bytes = format.with(Body(event))?;
    if bytes.len() > crate::limits::MAX_EVENT_BYTES {
        return Err(BindingError::TooLarge {
            size: bytes.len(),
            limit: crate::limits::MAX_EVENT_BYTES,
        });
    }
    Ok(bytes)
}

/// Writes a batch in `format`'s batch format; `None` for a format without a batch.
#[cfg(feature = "http")]
pub(crate) fn batch_body(
    format: StructuredFormat,
    batch: &crate::Batch,
) -> Option<Result<Vec<u8>, crate::FormatError>> {
    struct BatchBody<'a>(&'a crate::Batch);
    impl WithFormat for BatchBody<'_> {
        type Output = Option<Result<Vec<u8>, crate::FormatError>>;
        fn call<F: EventFormat>(self) -> Self::Output {
            F::BATCH_MEDIA_TYPE.map(|_| self.0.encode::<F>())
        }
    }
    format.with(BatchBody(batch))
}

/// Reads one event or a batch in `format` under the CloudEvents MUSTs (to its first error)
/// and writes it again in the JSON format, for a validator that reports on JSON documents.
#[cfg(all(
    any(feature = "http", feature = "kafka"),
    any(feature = "protobuf", feature = "avro")
))]
pub(crate) fn json_document(
    format: StructuredFormat,
    batch: bool,
    bytes: &[u8],
) -> Result<Vec<u8>, crate::FormatError> {
    struct AsJson<'a>(bool, &'a [u8]);
    impl WithFormat for AsJson<'_> {
        type Output = Result<Vec<u8>, crate::FormatError>;
        fn call<F: EventFormat>(self) -> Self::Output {
            match self.0 {
                true => crate::Batch::decode::<F>(self.1)?.encode::<crate::Json>(),
                false => crate::AnyEvent::decode::<F>(self.1)?.encode::<crate::Json>(),
            }
        }
    }
    format.with(AsJson(batch, bytes))
}
