//! What can go wrong reading or writing a transport message.

use super::percent::PercentDecodeError;

/// An event could not be read from, or written to, a transport message.
///
/// Messages name the header or attribute, the rule (CloudEvents binding section or
/// INTG-STD-015 rule id) and what was found.
///
/// `Display` is the finding's one form ([`BindingError::violation`]): where, what, the rule
/// id once, the fix. The error does not carry the policy it was read under, so `Display`,
/// [`BindingError::rule`] and [`BindingError::violation`] cite the default profile's
/// (INTG-STD-015) rule for a binding's own refusal (content mode, headers, size); under
/// another profile ask [`BindingError::violation_under`] with the reader's policy
/// (`E::policy()` for a reader of `E`), or take the binding's full report
/// (`binding::kafka::report_refusal`, and the same in `amqp`, `mqtt`, `nats`, `http`), which
/// does.
///
/// ```
/// use cloudevent_runtime::binding::BindingError;
/// let error = BindingError::TooLarge { size: 300_420, limit: 262_144 };
/// assert_eq!(
///     error.to_string(),
///     "message: is 300420 bytes, over the 262144-byte limit (INTG-STD-015 R-11); store the \
///      data elsewhere and send a reference to it in `data` (the claim-check pattern)"
/// );
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum BindingError {
    /// HTTP binary mode carries `datacontenttype` in `Content-Type` only.
    DataContentTypeHeader {
        /// The offending header name.
        header: String,
    },
    /// A header value that does not percent-decode to UTF-8.
    HeaderValue {
        /// The header name.
        header: String,
        /// Why decoding failed.
        source: PercentDecodeError,
    },
    /// A header value that is not visible ASCII text.
    HeaderNotText {
        /// The header name.
        header: String,
    },
    /// A header without a value (Kafka allows null header values).
    NullHeader {
        /// The header name.
        header: String,
    },
    /// A header value that is not UTF-8.
    HeaderNotUtf8 {
        /// The header name.
        header: String,
    },
    /// The same attribute twice.
    DuplicateAttribute {
        /// The attribute name.
        attribute: String,
        /// The second header carrying it.
        header: String,
    },
    /// Neither a CloudEvents event format nor a binary-mode message: a content type that is
    /// not `application/cloudevents...` and not one attribute header (`ce-`, `ce_`,
    /// `cloudEvents:` ...). An HTTP receiver answers 415.
    NotCloudEvents {
        /// The content type, if any.
        content_type: Option<String>,
    },
    /// A header naming `data` or `data_base64`: the data is the message body, never a header
    /// (CE HTTP binding 3.1.3.1, Kafka 3.2.3; CE 1.0.2 naming keeps `data` for the payload).
    DataHeader {
        /// `data` or `data_base64`.
        attribute: String,
        /// The header carrying it.
        header: String,
        /// The binding's section that puts the data in the message body, as messages cite
        /// it (`CE AMQP binding 3.1.2`, `CE HTTP binding 2.2`).
        binding: &'static str,
    },
    /// An attribute whose name cannot be a header name of this transport.
    AttributeName {
        /// The attribute name.
        attribute: String,
        /// Why.
        reason: String,
    },
    /// A CloudEvents media type naming a format this crate does not read.
    UnsupportedFormat {
        /// The content type found.
        content_type: String,
    },
    /// A single event was expected and a batch arrived, or the other way round.
    UnexpectedMode {
        /// What the caller asked for.
        expected: &'static str,
        /// What the content type names.
        found: &'static str,
        /// The content type.
        content_type: String,
    },
    /// The message is larger than the limit.
    TooLarge {
        /// The size found (or announced).
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// A transport property of the wrong type (AMQP).
    PropertyType {
        /// The property name.
        property: String,
        /// The type found.
        found: &'static str,
    },
    /// MQTT 3.1.1 has no user properties, so binary mode is impossible.
    BinaryOverMqtt3,
    /// The event itself is not valid (missing attribute, bad JSON, wrong type, ...).
    /// The body is not JSON although the content type says it is.
    DataNotJson {
        /// The content type.
        content_type: String,
    },
    /// The event itself is not valid (missing attribute, bad JSON, wrong type, ...).
    Event(crate::FormatError),
    /// The event could not be serialized.
    Build(crate::BuildError),
}

/// The policy of [`BindingError::rule`], [`BindingError::violation`] and `Display`, which
/// know no policy: the default profile's (INTG-STD-015).
const DEFAULT_POLICY: cloudevent_rules::Policy =
    cloudevent_rules::Policy::new(cloudevent_rules::Profile::IntgStd015);

impl BindingError {
    /// The rule the error breaks under the default profile (INTG-STD-015), so every refusal
    /// carries a rule id: the event's own for [`BindingError::Event`], else the binding's
    /// rule (R-8 binary mode, R-11 size, CE 1.0.2 naming for a `data` header, R-7 for a body
    /// that is not the format). A reader that knows the policy in force calls
    /// [`BindingError::rule_under`].
    ///
    /// ```
    /// use cloudevent_runtime::binding::BindingError;
    /// let error = BindingError::TooLarge { size: 300_000, limit: 262_144 };
    /// assert_eq!(error.rule().as_str(), "INTG-STD-015 R-11");
    /// ```
    pub fn rule(&self) -> cloudevent_rules::RuleId {
        self.rule_under(&DEFAULT_POLICY)
    }

    /// The rule the error breaks under `policy`'s profile: a binding's own refusal cites
    /// INTG-STD-015's R-7, R-8, R-10 or R-11 under that profile only, and the CloudEvents
    /// rules they sharpen under the others ([`Policy::binding_rule`]).
    ///
    /// ```
    /// use cloudevent_runtime::binding::BindingError;
    /// use cloudevent_runtime::{Policy, Profile};
    /// let error = BindingError::TooLarge { size: 300_000, limit: 262_144 };
    /// let rule = error.rule_under(&Policy::new(Profile::CloudEvents));
    /// assert_eq!(rule.as_str(), "CE 1.0.2 size limits");
    /// ```
    ///
    /// [`Policy::binding_rule`]: cloudevent_rules::Policy::binding_rule
    pub fn rule_under(&self, policy: &cloudevent_rules::Policy) -> cloudevent_rules::RuleId {
        use cloudevent_rules::BindingConcern;
        use cloudevent_rules::rule;
        match self {
            BindingError::Event(error) => error
                .rule()
                .unwrap_or_else(|| policy.binding_rule(BindingConcern::StructuredMode)),
            BindingError::Build(_) | BindingError::DataNotJson { .. } => rule::CE_JSON_3_1,
            BindingError::DataHeader { .. } | BindingError::AttributeName { .. } => rule::CE_NAMING,
            // Over the batch limit is the batch's size rule (1 MiB); anything else the
            // event's (256 KiB).
            BindingError::TooLarge { limit, .. } if *limit > crate::limits::MAX_EVENT_BYTES => {
                policy.binding_rule(BindingConcern::BatchSize)
            }
            BindingError::TooLarge { .. } => policy.binding_rule(BindingConcern::EventSize),
            // The message names a mode or format the reader does not take: the content-mode
            // rules (R-7 structured, R-8 binary, R-10 batch) are where the media types live.
            BindingError::UnsupportedFormat { .. } | BindingError::UnexpectedMode { .. } => {
                policy.binding_rule(BindingConcern::StructuredMode)
            }
            BindingError::DataContentTypeHeader { .. }
            | BindingError::HeaderValue { .. }
            | BindingError::HeaderNotText { .. }
            | BindingError::NullHeader { .. }
            | BindingError::HeaderNotUtf8 { .. }
            | BindingError::DuplicateAttribute { .. }
            | BindingError::PropertyType { .. }
            | BindingError::NotCloudEvents { .. }
            | BindingError::BinaryOverMqtt3 => policy.binding_rule(BindingConcern::BinaryMode),
        }
    }

    /// The error as a finding for a report: the event's own violation, or one naming the
    /// binding's rule with this error's message.
    ///
    /// ```
    /// use cloudevent_runtime::binding::BindingError;
    /// let error = BindingError::DataHeader {
    ///     attribute: "data".into(),
    ///     header: "ce-data".into(),
    ///     binding: "CE HTTP binding 2.2",
    /// };
    /// assert_eq!(error.violation().rule.as_str(), "CE 1.0.2 naming");
    /// assert_eq!(error.violation().attribute, "ce-data");
    /// ```
    pub fn violation(&self) -> cloudevent_rules::Violation {
        self.violation_under(&DEFAULT_POLICY)
    }

    /// [`BindingError::violation`] citing the rule of `policy`'s profile
    /// ([`BindingError::rule_under`]): what a reader that knows the policy in force reports.
    ///
    /// ```
    /// use cloudevent_runtime::binding::BindingError;
    /// use cloudevent_runtime::{Policy, Profile};
    /// let error = BindingError::NotCloudEvents { content_type: Some("text/plain".into()) };
    /// let violation = error.violation_under(&Policy::new(Profile::CloudEvents));
    /// assert_eq!(violation.rule.as_str(), "CE binding 1.3");
    /// ```
    pub fn violation_under(
        &self,
        policy: &cloudevent_rules::Policy,
    ) -> cloudevent_rules::Violation {
        use cloudevent_rules::Violation;
        let rule = self.rule_under(policy);
        let finding = |attribute: &str, value: &str, problem: String| {
            Violation::error(rule, attribute.to_owned(), value, problem)
        };
        match self {
            BindingError::Event(error) => {
                let mut violation = format_violation(error);
                if let crate::FormatError::InBatch { index, .. } = error {
                    // Which event of the batch: the index leads the attribute, `#1 type`.
                    violation.attribute = format!("#{index} {}", violation.attribute).into();
                }
                violation
            }
            BindingError::Build(error) => match error.violations().first() {
                Some(violation) => violation.clone(),
                None => finding("event", "", "cannot be written".to_owned())
                    .with_hint(error.to_string()),
            },
            BindingError::DataContentTypeHeader { header } => finding(
                header,
                "",
                "repeats `datacontenttype`, which binary mode carries in the content type only (CE HTTP binding 3.1.1)".to_owned(),
            )
            .with_hint("drop the header; `Content-Type` already carries the data's media type"),
            BindingError::HeaderValue { header, source } => {
                let (value, problem, hint) = source.finding();
                finding(header, value, problem).with_hint(hint)
            }
            BindingError::HeaderNotText { header } => finding(
                header,
                "",
                "value is not visible US-ASCII text (RFC 7230 3.2)".to_owned(),
            )
            .with_hint("percent-encode every other byte as `%XY` (CE HTTP binding 3.1.3.2)"),
            BindingError::NullHeader { header } => finding(
                header,
                "",
                "has a null value; a CloudEvents header carries a UTF-8 string (CE Kafka binding 3.2.3)".to_owned(),
            ),
            BindingError::HeaderNotUtf8 { header } => finding(
                header,
                "",
                "value is not UTF-8 (CE Kafka binding 3.2.3)".to_owned(),
            ),
            BindingError::DuplicateAttribute { attribute, header } => finding(
                header,
                "",
                format!("carries attribute `{attribute}` a second time; an attribute has one value"),
            )
            .with_hint("send each attribute once"),
            BindingError::NotCloudEvents { content_type } => finding(
                "content type",
                content_type.as_deref().unwrap_or_default(),
                "names no CloudEvents format and the message carries no CloudEvents attribute headers".to_owned(),
            )
            .with_hint(NOT_CLOUD_EVENTS_HINT),
            BindingError::DataHeader {
                attribute,
                header,
                binding,
            } => finding(
                header,
                "",
                format!("`{attribute}` is not a context attribute; in binary mode the data is the message body, never a header ({binding})"),
            )
            .with_hint("send the data as the body"),
            BindingError::AttributeName { attribute, reason } => finding(
                attribute,
                "",
                format!("cannot be mapped to a header name: {reason}"),
            ),
            BindingError::UnsupportedFormat { content_type } => finding(
                "content type",
                content_type,
                "names a CloudEvents event format this receiver does not read (CE HTTP binding 1.4)".to_owned(),
            )
            .with_hint(format!("send one of {}", super::StructuredFormat::accepted())),
            BindingError::UnexpectedMode {
                expected,
                found,
                content_type,
            } => finding(
                "content type",
                content_type,
                format!("names {found} where {expected} is expected"),
            ),
            BindingError::TooLarge { size, limit } => finding(
                "message",
                "",
                format!("is {size} bytes, over the {limit}-byte limit"),
            )
            .with_hint(TOO_LARGE_HINT),
            BindingError::PropertyType { property, found } => finding(
                property,
                "",
                format!("{found} cannot carry a CloudEvents attribute (CE AMQP binding 3.1.3.2)"),
            ),
            BindingError::BinaryOverMqtt3 => finding(
                "message",
                "",
                "MQTT 3.1.1 has no user properties, so it carries CloudEvents in structured mode only (CE MQTT binding 1.3)".to_owned(),
            )
            .with_hint("publish the JSON event format, or connect with MQTT 5"),
            BindingError::DataNotJson { content_type } => finding(
                "data",
                "",
                format!("content type `{content_type}` is JSON but the body is not UTF-8 JSON text"),
            ),
        }
    }
}

/// How to send what [`BindingError::NotCloudEvents`] refuses: the fix, for HTTP first (the
/// door a person most often meets it at).
const NOT_CLOUD_EVENTS_HINT: &str = "send the event as `application/cloudevents+json` (structured mode), or its attributes as `ce-` headers beside the data (binary mode; `ce_` over Kafka, `cloudEvents:` over AMQP, user properties over MQTT 5)";

/// How to send what is over the size limit (INTG-STD-015 R-11's claim-check).
const TOO_LARGE_HINT: &str =
    "store the data elsewhere and send a reference to it in `data` (the claim-check pattern)";

/// A format error as one finding: the event's own violation, or one naming what could not
/// be read, its rule once.
pub(crate) fn format_violation(error: &crate::FormatError) -> cloudevent_rules::Violation {
    use crate::FormatError;
    use cloudevent_rules::Violation;
    match error {
        FormatError::InBatch { source, .. } => format_violation(source),
        FormatError::Invalid(violation) => (**violation).clone(),
        FormatError::Json(source) => Violation::error(
            cloudevent_rules::rule::INTG_R7,
            "event",
            "",
            format!("is not a CloudEvents JSON document: {source}"),
        ),
        FormatError::TooLarge {
            what,
            found,
            limit,
            rule,
        } => Violation::error(
            *rule,
            *what,
            "",
            format!("is {found} bytes or more, over the {limit}-byte limit"),
        )
        .with_hint(TOO_LARGE_HINT),
        FormatError::Io(source) => Violation::error(
            cloudevent_rules::rule::INTG_R7,
            "event",
            "",
            format!("could not be read: {source}"),
        ),
    }
}

impl std::fmt::Display for BindingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            // The format's own message (it already names the rule once).
            BindingError::Event(error) => error.fmt(f),
            BindingError::Build(error) => error.fmt(f),
            _ => self.violation().fmt(f),
        }
    }
}

impl std::error::Error for BindingError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BindingError::HeaderValue { source, .. } => Some(source),
            BindingError::Event(error) => error.source(),
            BindingError::Build(error) => error.source(),
            _ => None,
        }
    }
}

impl From<crate::FormatError> for BindingError {
    fn from(error: crate::FormatError) -> Self {
        BindingError::Event(error)
    }
}

impl From<crate::BuildError> for BindingError {
    fn from(error: crate::BuildError) -> Self {
        BindingError::Build(error)
    }
}
