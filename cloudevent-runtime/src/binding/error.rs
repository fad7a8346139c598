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
    /// Neither a CloudEvents event format nor a binary-mode message: a content type that is
    /// not `application/cloudevents...` and not one attribute header (`ce-`, `ce_`,
    /// `cloudEvents:` ...). An HTTP receiver answers 415.
    #[error(
        "not a CloudEvent: content type {} names no CloudEvents format and the message carries no CloudEvents attribute headers (INTG-STD-015 R-8: binary mode maps every attribute to a header)",
        content_type.as_deref().map_or_else(|| "(none)".to_owned(), |c| format!("`{c}`"))
    )]
    NotCloudEvents {
        /// The content type, if any.
        content_type: Option<String>,
    },
    /// A header naming `data` or `data_base64`: the data is the message body, never a header
    /// (CE HTTP binding 3.1.3.1, Kafka 3.2.3; CE 1.0.2 naming keeps `data` for the payload).
    #[error(
        "header `{header}`: `{attribute}` is not a context attribute; in binary mode the data is the message body, never a header (CE 1.0.2 naming, CE HTTP binding 3.1.3.1)"
    )]
    DataHeader {
        /// `data` or `data_base64`.
        attribute: String,
        /// The header carrying it.
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
        "content type `{content_type}` names a CloudEvents event format this receiver does not read; it accepts {} (CE HTTP binding 1.4, INTG-STD-015 R-16)",
        super::StructuredFormat::accepted()
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

impl BindingError {
    /// The rule the error breaks, so every refusal carries a rule id: the event's own for
    /// [`BindingError::Event`], else the binding's rule (INTG-STD-015 R-8 binary mode, R-11
    /// size, CE 1.0.2 naming for a `data` header, R-7 for a body that is not the format).
    ///
    /// ```
    /// use cloudevent_runtime::binding::BindingError;
    /// let error = BindingError::TooLarge { size: 300_000, limit: 262_144 };
    /// assert_eq!(error.rule().as_str(), "INTG-STD-015 R-11");
    /// ```
    pub fn rule(&self) -> cloudevent_rules::RuleId {
        use cloudevent_rules::rule;
        match self {
            BindingError::Event(error) => error.rule().unwrap_or(rule::INTG_R7),
            BindingError::Build(_) | BindingError::DataNotJson { .. } => rule::CE_JSON_3_1,
            BindingError::DataHeader { .. } | BindingError::AttributeName { .. } => rule::CE_NAMING,
            BindingError::TooLarge { .. } => rule::INTG_R11,
            // The message names a mode or format the reader does not take: the content-mode
            // rules (R-7 structured, R-8 binary, R-10 batch) are where the media types live.
            BindingError::UnsupportedFormat { .. } | BindingError::UnexpectedMode { .. } => {
                rule::INTG_R7
            }
            BindingError::DataContentTypeHeader { .. }
            | BindingError::HeaderValue { .. }
            | BindingError::HeaderNotText { .. }
            | BindingError::NullHeader { .. }
            | BindingError::HeaderNotUtf8 { .. }
            | BindingError::DuplicateAttribute { .. }
            | BindingError::PropertyType { .. }
            | BindingError::NotCloudEvents { .. }
            | BindingError::BinaryOverMqtt3 => rule::INTG_R8,
        }
    }

    /// The error as a finding for a report: the event's own violation, or one naming the
    /// binding's rule with this error's message.
    ///
    /// ```
    /// use cloudevent_runtime::binding::BindingError;
    /// let error = BindingError::DataHeader { attribute: "data".into(), header: "ce-data".into() };
    /// assert_eq!(error.violation().rule.as_str(), "CE 1.0.2 naming");
    /// assert_eq!(error.violation().attribute, "ce-data");
    /// ```
    pub fn violation(&self) -> cloudevent_rules::Violation {
        if let BindingError::Event(error) = self
            && let Some(violation) = error.violation()
        {
            let mut violation = violation.clone();
            if let crate::FormatError::InBatch { index, .. } = error {
                // Which event of the batch: the index leads the attribute, `#1 type`.
                violation.attribute = format!("#{index} {}", violation.attribute).into();
            }
            return violation;
        }
        let attribute = match self {
            BindingError::DataHeader { header, .. }
            | BindingError::DataContentTypeHeader { header }
            | BindingError::HeaderValue { header, .. }
            | BindingError::HeaderNotText { header }
            | BindingError::NullHeader { header }
            | BindingError::HeaderNotUtf8 { header }
            | BindingError::DuplicateAttribute { header, .. } => header.clone(),
            BindingError::PropertyType { property, .. } => property.clone(),
            BindingError::AttributeName { attribute, .. } => attribute.clone(),
            BindingError::TooLarge { .. } => "message size".to_owned(),
            BindingError::UnsupportedFormat { .. }
            | BindingError::UnexpectedMode { .. }
            | BindingError::NotCloudEvents { .. } => "content type".to_owned(),
            _ => "message".to_owned(),
        };
        // The message names the header and what is wrong, never the body.
        cloudevent_rules::Violation::error(self.rule(), attribute, "", self.to_string())
    }
}
