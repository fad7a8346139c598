//! What can go wrong reading or writing a transport message.

use super::percent::PercentDecodeError;

/// An event could not be read from, or written to, a transport message.
///
/// Messages name the header or attribute, the rule (CloudEvents binding section or
/// INTG-STD-015 rule id) and what was found.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BindingError {
    /// HTTP binary mode carries `datacontenttype` in `Content-Type` only.
    #[error(
        "header `{header}` present: in binary mode `datacontenttype` travels in the content type and MUST NOT also appear as a header (CE HTTP binding 3.1.1, INTG-STD-015 R-8)"
    )]
    DataContentTypeHeader {
        /// The offending header name.
        header: String,
    },
    /// A header value that does not percent-decode to UTF-8.
    #[error("header `{header}`: {source}")]
    HeaderValue {
        /// The header name.
        header: String,
        /// Why decoding failed.
        #[source]
        source: PercentDecodeError,
    },
    /// A header value that is not visible ASCII text.
    #[error(
        "header `{header}`: value is not visible US-ASCII text (RFC 7230 3.2; CE HTTP binding 3.1.3.2 percent-encodes everything else)"
    )]
    HeaderNotText {
        /// The header name.
        header: String,
    },
    /// A header without a value (Kafka allows null header values).
    #[error(
        "header `{header}`: null value; CloudEvents headers MUST carry a UTF-8 string (CE Kafka binding 3.2.3, INTG-STD-015 R-8)"
    )]
    NullHeader {
        /// The header name.
        header: String,
    },
    /// A header value that is not UTF-8.
    #[error("header `{header}`: value is not UTF-8 (CE Kafka binding 3.2.3, INTG-STD-015 R-8)")]
    HeaderNotUtf8 {
        /// The header name.
        header: String,
    },
    /// The same attribute twice.
    #[error(
        "attribute `{attribute}` appears twice (as header `{header}`); an attribute has one value"
    )]
    DuplicateAttribute {
        /// The attribute name.
        attribute: String,
        /// The second header carrying it.
        header: String,
    },
    /// An attribute whose name cannot be a header name of this transport.
    #[error("attribute `{attribute}` cannot be mapped to a header name: {reason}")]
    AttributeName {
        /// The attribute name.
        attribute: String,
        /// Why.
        reason: String,
    },
    /// A CloudEvents media type naming a format this crate does not read.
    #[error(
        "content type `{content_type}` names a CloudEvents event format other than JSON; only `application/cloudevents+json` and `application/cloudevents-batch+json` are supported (CE HTTP binding 1.4)"
    )]
    UnsupportedFormat {
        /// The content type found.
        content_type: String,
    },
    /// A single event was expected and a batch arrived, or the other way round.
    #[error("expected {expected}, found {found} (content type `{content_type}`)")]
    UnexpectedMode {
        /// What the caller asked for.
        expected: &'static str,
        /// What the content type names.
        found: &'static str,
        /// The content type.
        content_type: String,
    },
    /// The message is larger than the limit.
    #[error("message of {size} bytes exceeds the {limit}-byte limit (INTG-STD-015 R-11/R-10)")]
    TooLarge {
        /// The size found (or announced).
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// A transport property of the wrong type (AMQP).
    #[error(
        "property `{property}`: {found} cannot carry a CloudEvents attribute (CE AMQP binding 3.1.3.2)"
    )]
    PropertyType {
        /// The property name.
        property: String,
        /// The type found.
        found: &'static str,
    },
    /// MQTT 3.1.1 has no user properties, so binary mode is impossible.
    #[error(
        "MQTT 3.1.1 carries CloudEvents in structured mode only (CE MQTT binding 1.3, INTG-STD-015 R-9)"
    )]
    BinaryOverMqtt3,
    /// The event itself is not valid (missing attribute, bad JSON, wrong type, ...).
    /// The body is not JSON although the content type says it is.
    #[error(
        "data: content type `{content_type}` is JSON but the body is not UTF-8 JSON text (CE-JSON 3.1)"
    )]
    DataNotJson {
        /// The content type.
        content_type: String,
    },
    /// The event itself is not valid (missing attribute, bad JSON, wrong type, ...).
    #[error(transparent)]
    Event(#[from] crate::FormatError),
    /// The event could not be serialized.
    #[error(transparent)]
    Build(#[from] crate::BuildError),
}
