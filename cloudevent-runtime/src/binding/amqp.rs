//! The CloudEvents AMQP Protocol Binding 1.0.2 on a broker-neutral message: the
//! `content-type` property, the application-properties section and the application data.
//!
//! - §3: `content-type` starting with `application/cloudevents` is structured mode, anything
//!   else binary. Binary is INTG-STD-015 R-9's default for AMQP.
//! - §3.1.3.1: attributes become application properties named `cloudEvents:<name>`. Brokers
//!   and JMS clients that refuse `:` in property names use `cloudEvents_<name>` (the form
//!   later binding versions name); both are read, either is written ([`PropertyPrefix`]).
//! - §3.1.3.2: values go out in native AMQP types where the type is known (Boolean → boolean,
//!   Integer → long, Binary → binary), otherwise as the canonical string; on receipt both
//!   forms are read; a timestamp becomes its RFC 3339 string, and a binary value its base64
//!   string (the JSON format, through which every binding reads, has no Binary type).

use std::borrow::Cow;

use super::message::{self, ContentTypeCopy, Header, IncomingMessage, Modes};
use super::{BindingError, BindingEvent, ContentMode, canonical_string};
use crate::{ExtensionValue, ExtensionValueBuf, Timestamp};

/// The default content mode INTG-STD-015 R-9 gives AMQP: binary, on application properties.
/// Producers MUST document the mode they emit (R-9); the catalog does so per event.
///
/// ```
/// use cloudevent_runtime::binding::{ContentMode, amqp};
/// assert_eq!(amqp::DEFAULT_MODE, ContentMode::Binary);
/// ```
pub const DEFAULT_MODE: ContentMode = ContentMode::Binary;

/// An AMQP 1.0 application-property value, as far as CloudEvents uses the type system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AmqpValue {
    /// `boolean`.
    Boolean(bool),
    /// `long` (CloudEvents Integer).
    Long(i64),
    /// `string`.
    String(String),
    /// `binary`.
    Binary(Vec<u8>),
    /// `timestamp`: milliseconds since the Unix epoch.
    Timestamp(i64),
    /// Any other AMQP type (by name, e.g. `double`, `list`); not a CloudEvents value.
    Other(&'static str),
}

/// Which application-property name prefix to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PropertyPrefix {
    /// `cloudEvents:` (§3.1.3.1).
    #[default]
    Colon,
    /// `cloudEvents_`, for brokers and JMS clients that refuse `:` in property names.
    Underscore,
}

impl PropertyPrefix {
    /// The prefix text.
    pub fn as_str(self) -> &'static str {
        match self {
            PropertyPrefix::Colon => "cloudEvents:",
            PropertyPrefix::Underscore => "cloudEvents_",
        }
    }
}

/// The bare-message parts the binding uses.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AmqpMessage {
    /// The `content-type` property.
    pub content_type: Option<String>,
    /// The application-properties section, in order.
    pub application_properties: Vec<(String, AmqpValue)>,
    /// The application data (a single `data` section); `None` when absent.
    pub body: Option<Vec<u8>>,
}

/// The content type of structured mode (§3.2.1, R-7).
const STRUCTURED: &str = super::STRUCTURED_CONTENT_TYPE;

/// The message for an event: binary mode (R-9's default for AMQP) or structured.
///
/// # Errors
/// [`ContentMode::Batch`], or a payload that cannot be serialized.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::ContentMode;
/// use cloudevent_runtime::binding::amqp::{AmqpValue, PropertyPrefix, from_message, to_message};
///
/// let mut event = AnyEvent::new("1234-1234-1234", "/mycontext/subcontext", "com.example.someevent");
/// event.extensions_mut().insert("priority", 5);
/// let message = to_message(&event, ContentMode::Binary, PropertyPrefix::Colon).unwrap();
/// assert!(message.application_properties.contains(&("cloudEvents:priority".into(), AmqpValue::Long(5))));
/// assert_eq!(from_message::<AnyEvent>(&message).unwrap(), event);
/// ```
pub fn to_message<E: BindingEvent>(
    event: &E,
    mode: ContentMode,
    prefix: PropertyPrefix,
) -> Result<AmqpMessage, BindingError> {
    match mode {
        ContentMode::Structured => Ok(AmqpMessage {
            content_type: Some(STRUCTURED.to_owned()),
            application_properties: Vec::new(),
            body: Some(event.to_structured()?),
        }),
        ContentMode::Binary => {
            let any = event.to_any_event()?;
            let parts = any.to_binary()?;
            let application_properties = parts
                .attributes
                .into_iter()
                .map(|(name, value)| {
                    let native = any
                        .extensions()
                        .get(&name)
                        .and_then(|v| native(v.as_value()));
                    let value = native.unwrap_or(AmqpValue::String(value));
                    (format!("{}{name}", prefix.as_str()), value)
                })
                .collect();
            Ok(AmqpMessage {
                content_type: parts.datacontenttype,
                application_properties,
                body: parts.data,
            })
        }
        ContentMode::Batch => Err(BindingError::UnexpectedMode {
            expected: "binary or structured mode (CE AMQP binding 1.3)",
            found: "batched mode",
            content_type: super::BATCH_CONTENT_TYPE.to_owned(),
        }),
    }
}

/// A structured-mode message in `format` (JSON, or Protobuf with feature `protobuf`).
///
/// # Errors
/// A payload that cannot be serialized; an event over the size limit.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::StructuredFormat;
/// use cloudevent_runtime::binding::amqp::{from_message, to_structured_message};
///
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// let message = to_structured_message(&event, StructuredFormat::Json).unwrap();
/// assert_eq!(from_message::<AnyEvent>(&message).unwrap(), event);
/// ```
pub fn to_structured_message<E: BindingEvent>(
    event: &E,
    format: super::StructuredFormat,
) -> Result<AmqpMessage, BindingError> {
    Ok(AmqpMessage {
        content_type: Some(format.content_type().to_owned()),
        application_properties: Vec::new(),
        body: Some(super::structured_body(event, format)?),
    })
}

/// The native AMQP form of a typed extension value, where one is efficient (§3.1.3.2).
fn native(value: ExtensionValue<'_>) -> Option<AmqpValue> {
    match value {
        ExtensionValue::Boolean(b) => Some(AmqpValue::Boolean(b)),
        ExtensionValue::Integer(i) => Some(AmqpValue::Long(i.into())),
        ExtensionValue::Binary(bytes) => Some(AmqpValue::Binary(bytes.to_vec())),
        _ => None,
    }
}

/// Reads an event from a message in whichever mode its content type names.
///
/// # Errors
/// A property of a type CloudEvents has no use for, an attribute twice, an unsupported
/// format, or an invalid event.
pub fn from_message<E: BindingEvent>(message: &AmqpMessage) -> Result<E, BindingError> {
    message::receive_event(message)
}

/// The full report on a message [`from_message`] refused, under `E`'s policy: every finding
/// the validator lists, with the event's id and attributes, then the typed reader's refusal
/// when it is not among them; a message refused before any event is read reports that refusal
/// alone. Each finding cites the rule of `E`'s profile (as
/// [`kafka::report_refusal`](super::kafka::report_refusal) does for a record).
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::amqp::{AmqpMessage, AmqpValue, from_message, report_refusal};
///
/// let message = AmqpMessage {
///     content_type: Some("application/json".into()),
///     application_properties: vec![
///         ("cloudEvents:specversion".into(), AmqpValue::String("1.0".into())),
///         ("cloudEvents:id".into(), AmqpValue::String("a-1".into())),
///         ("cloudEvents:source".into(), AmqpValue::String("/s".into())),
///         ("cloudEvents:type".into(), AmqpValue::String("com.example.a.b".into())),
///         ("cloudEvents:time".into(), AmqpValue::String("yesterday".into())),
///     ],
///     body: Some(br#"{"a":1}"#.to_vec()),
/// };
/// let refusal = from_message::<AnyEvent>(&message).unwrap_err();
/// let report = report_refusal::<AnyEvent>(&message, &refusal);
/// assert_eq!(report.id(), Some("a-1"));
/// assert_eq!(report.errors().next().unwrap().attribute, "time");
/// ```
pub fn report_refusal<E: BindingEvent>(
    message: &AmqpMessage,
    refusal: &BindingError,
) -> crate::ValidationReport {
    message::report_refusal::<E, _>(message, refusal)
}

/// A message as the binding layer reads it: `content-type` for the mode (§3), application
/// properties named `cloudEvents:` or `cloudEvents_` (§3.1.3.1) in their native types or as
/// strings (§3.1.3.2), the application data as the body.
impl IncomingMessage for AmqpMessage {
    fn modes(&self) -> Modes {
        Modes {
            without_content_type: ContentMode::Binary,
            structured_only: None,
            batch: false,
            content_type_copy: ContentTypeCopy::MustAgree,
            data_section: "CE AMQP binding 3.1.2",
        }
    }

    fn content_type(&self) -> Result<Option<&str>, BindingError> {
        Ok(self.content_type.as_deref())
    }

    fn attributes(&self) -> impl Iterator<Item = Result<Header<'_>, BindingError>> {
        self.application_properties
            .iter()
            .filter_map(|(property, value)| {
                let attribute = property
                    .strip_prefix(PropertyPrefix::Colon.as_str())
                    .or_else(|| property.strip_prefix(PropertyPrefix::Underscore.as_str()))?;
                Some(
                    canonical(attribute, property, value).map(|(text, typed)| Header {
                        attribute,
                        header: property,
                        value: Cow::Owned(text),
                        typed,
                    }),
                )
            })
    }

    fn body(&self) -> Option<&[u8]> {
        self.body.as_deref()
    }
}

/// A property value's canonical string, and its typed value where the AMQP type says it.
fn canonical(
    attribute: &str,
    property: &str,
    value: &AmqpValue,
) -> Result<(String, Option<ExtensionValueBuf>), BindingError> {
    Ok(match value {
        AmqpValue::String(s) => (s.clone(), None),
        AmqpValue::Boolean(b) => (b.to_string(), Some(ExtensionValueBuf::Boolean(*b))),
        // A `long` is the AMQP type of a CloudEvents Integer (§3.1.3.2), so one outside the
        // i32 range is refused as the JSON number 3000000000 is in structured mode: one
        // verdict, the type system's rule, never a silent string.
        // `time` is a Timestamp, whose AMQP type is `timestamp` (or its RFC 3339 string): a
        // `long` there is refused with that advice, not the Integer's.
        AmqpValue::Long(l)
            if cloudevent_rules::core_attribute_kind(attribute)
                == Some(cloudevent_rules::AttributeKind::Timestamp) =>
        {
            let violation = cloudevent_rules::Violation::error(
                cloudevent_rules::rule::CE_TYPE_SYSTEM,
                attribute.to_owned(),
                l.to_string(),
                "is an AMQP long, but a Timestamp travels as an AMQP `timestamp` or an RFC 3339 string (CE AMQP binding 3.1.3.2)",
            )
            .with_hint("send an AMQP `timestamp`, or a string such as `2026-03-28T14:22:31Z`");
            return Err(BindingError::Event(crate::FormatError::Invalid(Box::new(
                violation,
            ))));
        }
        AmqpValue::Long(l) => {
            let integer = cloudevent_rules::check_integer_value(attribute, i128::from(*l))
                .map_err(|violation| BindingError::Event(crate::FormatError::Invalid(violation)))?;
            (l.to_string(), Some(ExtensionValueBuf::Integer(integer)))
        }
        AmqpValue::Binary(bytes) => (
            canonical_string(ExtensionValue::Binary(bytes)).into_owned(),
            Some(ExtensionValueBuf::Binary(crate::Binary::from(
                bytes.clone(),
            ))),
        ),
        AmqpValue::Timestamp(millis) => {
            let seconds = millis.div_euclid(1000);
            let nanos = u32::try_from(millis.rem_euclid(1000) * 1_000_000).unwrap_or(0);
            let timestamp =
                Timestamp::from_unix(seconds, nanos).ok_or_else(|| BindingError::PropertyType {
                    property: property.to_owned(),
                    found: "timestamp out of range",
                })?;
            (timestamp.as_str().to_owned(), None)
        }
        AmqpValue::Other(found) => {
            return Err(BindingError::PropertyType {
                property: property.to_owned(),
                found,
            });
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnyEvent;
    use crate::Attributes;

    fn spec_example(prefix: &str) -> AmqpMessage {
        // CE AMQP binding 3.1.4.
        let property = |name: &str, value: &str| {
            (
                format!("{prefix}{name}"),
                AmqpValue::String(value.to_owned()),
            )
        };
        AmqpMessage {
            content_type: Some("application/json; charset=utf-8".into()),
            application_properties: vec![
                property("specversion", "1.0"),
                property("type", "com.example.someevent"),
                property("time", "2018-04-05T03:56:24Z"),
                property("id", "1234-1234-1234"),
                property("source", "/mycontext/subcontext"),
                ("x-opt-other".into(), AmqpValue::Other("list")),
            ],
            body: Some(br#"{"n":1}"#.to_vec()),
        }
    }

    #[test]
    fn reads_the_spec_binary_example_with_either_prefix() {
        for prefix in ["cloudEvents:", "cloudEvents_"] {
            let event: AnyEvent = from_message(&spec_example(prefix)).unwrap();
            assert_eq!(event.id(), "1234-1234-1234");
            assert_eq!(
                event.time().map(|t| t.as_str()),
                Some("2018-04-05T03:56:24Z")
            );
            assert_eq!(
                event.datacontenttype(),
                Some("application/json; charset=utf-8")
            );
            assert_eq!(
                event.data(),
                Some(&crate::Data::json(r#"{"n":1}"#).unwrap())
            );
        }
    }

    #[test]
    fn reads_native_types_and_writes_them() {
        let mut message = spec_example("cloudEvents:");
        message.application_properties.extend([
            ("cloudEvents:flag".into(), AmqpValue::Boolean(true)),
            ("cloudEvents:count".into(), AmqpValue::Long(-3)),
            ("cloudEvents:blob".into(), AmqpValue::Binary(vec![1, 2])),
            (
                "cloudEvents:when".into(),
                AmqpValue::Timestamp(1_522_900_584_000),
            ),
        ]);
        let event: AnyEvent = from_message(&message).unwrap();
        assert_eq!(
            event.extensions().get("flag"),
            Some(&ExtensionValueBuf::Boolean(true))
        );
        assert_eq!(
            event.extensions().get("count"),
            Some(&ExtensionValueBuf::Integer(-3))
        );
        // Binary has no JSON type of its own (CE-JSON 2.2): it comes back as its base64 string,
        // exactly as the same event read from structured mode would.
        assert_eq!(
            event.extensions().get("blob").and_then(|v| v.as_str()),
            Some("AQI=")
        );
        assert_eq!(
            event.extensions().get("when").and_then(|v| v.as_str()),
            Some("2018-04-05T03:56:24Z")
        );
        let out = to_message(&event, ContentMode::Binary, PropertyPrefix::Underscore).unwrap();
        assert!(
            out.application_properties
                .contains(&("cloudEvents_flag".into(), AmqpValue::Boolean(true)))
        );
        assert!(
            out.application_properties
                .contains(&("cloudEvents_count".into(), AmqpValue::Long(-3)))
        );
        assert_eq!(from_message::<AnyEvent>(&out).unwrap(), event);
    }

    #[test]
    fn structured_mode_and_bad_property_types() {
        let event = AnyEvent::new("1", "/s", "com.example.someevent");
        let message = to_message(&event, ContentMode::Structured, PropertyPrefix::Colon).unwrap();
        assert_eq!(message.content_type.as_deref(), Some(STRUCTURED));
        assert!(message.application_properties.is_empty());
        assert_eq!(from_message::<AnyEvent>(&message).unwrap(), event);

        let mut bad = spec_example("cloudEvents:");
        bad.application_properties
            .push(("cloudEvents:x".into(), AmqpValue::Other("double")));
        assert!(matches!(
            from_message::<AnyEvent>(&bad),
            Err(BindingError::PropertyType { .. })
        ));
    }

    /// Issue 24: a `long` outside the i32 range is refused in binary mode, as the same number
    /// is in structured mode, under the type system's rule (it was read as the String
    /// `"3000000000"`).
    #[test]
    fn a_long_outside_i32_is_refused_in_both_modes() {
        let mut binary = spec_example("cloudEvents:");
        binary
            .application_properties
            .push(("cloudEvents:hops".into(), AmqpValue::Long(3_000_000_000)));
        let error = from_message::<AnyEvent>(&binary).unwrap_err();
        assert_eq!(error.rule().as_str(), "CE 1.0.2 type system");
        assert_eq!(
            error.to_string(),
            "hops `3000000000`: is outside the Integer range (-2147483648 to 2147483647) (CE 1.0.2 type system); send it as a string"
        );
        let structured = AmqpMessage {
            content_type: Some(STRUCTURED.to_owned()),
            application_properties: Vec::new(),
            body: Some(
                br#"{"specversion":"1.0","id":"1","source":"/s","type":"t","hops":3000000000}"#
                    .to_vec(),
            ),
        };
        let error = from_message::<AnyEvent>(&structured).unwrap_err();
        assert_eq!(error.rule().as_str(), "CE 1.0.2 type system");
    }

    /// Issue 24: a `data` property cites the AMQP binding, not HTTP's.
    #[test]
    fn a_data_property_cites_the_amqp_binding() {
        let mut message = spec_example("cloudEvents:");
        message
            .application_properties
            .push(("cloudEvents:data".into(), AmqpValue::String("x".into())));
        let error = from_message::<AnyEvent>(&message).unwrap_err();
        assert_eq!(
            error.to_string(),
            "cloudEvents:data: `data` is not a context attribute; in binary mode the data is the message body, never a header (CE AMQP binding 3.1.2) (CE 1.0.2 naming); send the data as the body"
        );
    }
}
