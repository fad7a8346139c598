//! The event formats the bindings carry in structured and batched mode: JSON always, the
//! others behind their features (INTG-STD-015 R-16: by bilateral agreement). One enum, one
//! match arm per format in each function, so a format is added with one variant.

use super::{BindingError, BindingEvent};
use crate::{AnyEvent, Batch, FormatError, Policy};

/// A CloudEvents event format a binding reads and writes in structured and batched mode.
///
/// ```
/// use cloudevent_runtime::binding::StructuredFormat;
///
/// let json = StructuredFormat::from_media_type("application/cloudevents+json; charset=utf-8");
/// assert_eq!(json, Some((StructuredFormat::Json, false)));
/// assert_eq!(StructuredFormat::Json.batch_media_type(), Some("application/cloudevents-batch+json"));
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

impl StructuredFormat {
    /// The formats this build reads, JSON first: the features it was compiled with.
    pub const ALL: &'static [StructuredFormat] = &[
        StructuredFormat::Json,
        #[cfg(feature = "protobuf")]
        StructuredFormat::Protobuf,
        #[cfg(feature = "avro")]
        StructuredFormat::Avro,
    ];

    /// The media type of one event in this format, without parameters.
    ///
    /// ```
    /// use cloudevent_runtime::binding::StructuredFormat;
    /// assert_eq!(StructuredFormat::Json.media_type(), "application/cloudevents+json");
    /// ```
    pub fn media_type(self) -> &'static str {
        match self {
            StructuredFormat::Json => "application/cloudevents+json",
            #[cfg(feature = "protobuf")]
            StructuredFormat::Protobuf => crate::protobuf::MEDIA_TYPE,
            #[cfg(feature = "avro")]
            StructuredFormat::Avro => crate::avro::MEDIA_TYPE,
        }
    }

    /// The content type a sender sets for one event (JSON with its `charset`).
    ///
    /// ```
    /// use cloudevent_runtime::binding::StructuredFormat;
    /// assert_eq!(StructuredFormat::Json.content_type(), "application/cloudevents+json; charset=utf-8");
    /// ```
    pub fn content_type(self) -> &'static str {
        match self {
            StructuredFormat::Json => super::STRUCTURED_CONTENT_TYPE,
            #[cfg(feature = "protobuf")]
            StructuredFormat::Protobuf => crate::protobuf::MEDIA_TYPE,
            #[cfg(feature = "avro")]
            StructuredFormat::Avro => crate::avro::MEDIA_TYPE,
        }
    }

    /// The media type of a batch in this format, without parameters; `None` for a format
    /// whose specification defines no batch.
    pub fn batch_media_type(self) -> Option<&'static str> {
        match self {
            StructuredFormat::Json => Some("application/cloudevents-batch+json"),
            #[cfg(feature = "protobuf")]
            StructuredFormat::Protobuf => Some(crate::protobuf::BATCH_MEDIA_TYPE),
            #[cfg(feature = "avro")]
            StructuredFormat::Avro => None,
        }
    }

    /// The content type a sender sets for a batch; `None` for a format without a batch.
    pub fn batch_content_type(self) -> Option<&'static str> {
        match self {
            StructuredFormat::Json => Some(super::BATCH_CONTENT_TYPE),
            #[cfg(feature = "protobuf")]
            StructuredFormat::Protobuf => Some(crate::protobuf::BATCH_MEDIA_TYPE),
            #[cfg(feature = "avro")]
            StructuredFormat::Avro => None,
        }
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
        let essence = super::media_type_essence(content_type);
        Self::ALL.iter().find_map(|format| {
            if essence.eq_ignore_ascii_case(format.media_type()) {
                Some((*format, false))
            } else if format
                .batch_media_type()
                .is_some_and(|batch| essence.eq_ignore_ascii_case(batch))
            {
                Some((*format, true))
            } else {
                None
            }
        })
    }

    /// The media types this build accepts, for a 415's message: `a, b, c`.
    ///
    /// ```
    /// use cloudevent_runtime::binding::StructuredFormat;
    /// assert!(StructuredFormat::accepted().starts_with(
    ///     "application/cloudevents+json, application/cloudevents-batch+json"));
    /// ```
    pub fn accepted() -> String {
        Self::ALL
            .iter()
            .flat_map(|format| [Some(format.media_type()), format.batch_media_type()])
            .flatten()
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Reads one event in this format under a policy.
    ///
    /// # Errors
    /// Whatever makes the bytes not a valid event.
    pub fn decode(self, bytes: &[u8], policy: &Policy) -> Result<AnyEvent, FormatError> {
        match self {
            StructuredFormat::Json => AnyEvent::from_slice_with(bytes, policy),
            #[cfg(feature = "protobuf")]
            StructuredFormat::Protobuf => crate::protobuf::decode(bytes, policy),
            #[cfg(feature = "avro")]
            StructuredFormat::Avro => crate::avro::decode(bytes, policy),
        }
    }

    /// Writes one event in this format.
    ///
    /// # Errors
    /// An event the format cannot carry (Avro: JSON data without a `datacontenttype` that
    /// its schema's JSON representation cannot hold, `CE-Avro 3`). JSON and Protobuf carry
    /// every event.
    pub fn encode(self, event: &AnyEvent) -> Result<Vec<u8>, FormatError> {
        match self {
            StructuredFormat::Json => Ok(event.to_vec()),
            #[cfg(feature = "protobuf")]
            StructuredFormat::Protobuf => Ok(crate::protobuf::encode(event)),
            #[cfg(feature = "avro")]
            StructuredFormat::Avro => crate::avro::encode(event),
        }
    }

    /// Reads a batch in this format's batch format under a policy. Only called for a
    /// content type [`StructuredFormat::from_media_type`] found to be this format's batch.
    ///
    /// # Errors
    /// Whatever makes the bytes not a valid batch.
    pub fn decode_batch(self, bytes: &[u8], policy: &Policy) -> Result<Batch, FormatError> {
        match self {
            StructuredFormat::Json => Batch::from_slice_with(bytes, policy),
            #[cfg(feature = "protobuf")]
            StructuredFormat::Protobuf => Batch::from_protobuf_with(bytes, policy),
            // No Avro batch media type exists, so `from_media_type` never names this one;
            // read as the one event the bytes can be.
            #[cfg(feature = "avro")]
            StructuredFormat::Avro => {
                crate::avro::decode(bytes, policy).map(|event| Batch::from(vec![event]))
            }
        }
    }

    /// Writes a batch in this format's batch format; `None` for a format without a batch.
    pub fn encode_batch(self, batch: &Batch) -> Option<Vec<u8>> {
        match self {
            StructuredFormat::Json => Some(batch.to_vec()),
            #[cfg(feature = "protobuf")]
            StructuredFormat::Protobuf => Some(batch.to_protobuf()),
            #[cfg(feature = "avro")]
            StructuredFormat::Avro => None,
        }
    }
}

/// Reads one structured-mode event of any [`BindingEvent`] in `format`. JSON goes through the
/// type's own reader (a typed event reads its payload straight from the document); the
/// other formats are read as an [`AnyEvent`] under the type's policy, then converted.
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
    match format {
        StructuredFormat::Json => E::from_structured(bytes),
        #[cfg(any(feature = "protobuf", feature = "avro"))]
        other => E::from_any_event(other.decode(bytes, &E::policy())?),
    }
}

/// Reads a batch of any [`BindingEvent`] in `format` (HTTP's batched content mode).
#[cfg(feature = "http")]
pub(crate) fn batch_from<E: BindingEvent>(
    format: StructuredFormat,
    bytes: &[u8],
) -> Result<Vec<E>, BindingError> {
    match format {
        StructuredFormat::Json => super::batch_from_slice(bytes),
        #[cfg(any(feature = "protobuf", feature = "avro"))]
        other => other
            .decode_batch(bytes, &E::policy())?
            .into_events()
            .into_iter()
            .enumerate()
            .map(|(index, event)| {
                E::from_any_event(event).map_err(|error| match error {
                    BindingError::Event(source) => BindingError::Event(FormatError::InBatch {
                        index,
                        source: Box::new(source),
                    }),
                    other => other,
                })
            })
            .collect(),
    }
}

/// Writes one event of any [`BindingEvent`] in `format` (structured mode).
///
/// # Errors
/// A payload that cannot be serialized; an event over the size limit.
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
    match format {
        StructuredFormat::Json => event.to_structured(),
        #[cfg(any(feature = "protobuf", feature = "avro"))]
        other => {
            let bytes = other.encode(&event.to_any_event()?)?;
            if bytes.len() > crate::limits::MAX_EVENT_BYTES {
                return Err(BindingError::TooLarge {
                    size: bytes.len(),
                    limit: crate::limits::MAX_EVENT_BYTES,
                });
            }
            Ok(bytes)
        }
    }
}
