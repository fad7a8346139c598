//! The CloudEvents MQTT Protocol Binding 1.0.2 on a broker-neutral PUBLISH message.
//!
//! - §1.3, §3: MQTT 3.1.1 carries structured mode only (the JSON format is implied, no
//!   content type); MQTT 5.0 also has binary mode. INTG-STD-015 R-9: structured is the
//!   default, binary MAY be used with MQTT 5.
//! - §3 (5.0): a `Content Type` starting with `application/cloudevents` is structured mode,
//!   anything else binary. A 5.0 PUBLISH with neither a `Content Type` nor a user property
//!   is what a 3.1.1 publisher sends (the broker forwards it to 5.0 subscribers as it is):
//!   it is read as the JSON event format, as over 3.1.1, not refused as a binary-mode message
//!   without attributes. A mixed fleet of 3.1.1 and 5.0 clients stays on structured mode.
//! - §3.1 binary mode: `Content Type` = `datacontenttype` (§3.1.1), the data as payload
//!   (§3.1.2), every other attribute a User Property named as the attribute, unchanged
//!   (§3.1.3.1), with its canonical string value (§3.1.3.2).

use std::borrow::Cow;

use super::message::{self, ContentTypeCopy, Header, IncomingMessage, Modes};
use super::{BindingError, BindingEvent, ContentMode};

/// The default content mode INTG-STD-015 R-9 gives MQTT: structured, which MQTT 3.1.1 MUST
/// use (no user properties); MQTT 5 MAY use binary. Producers MUST document the mode they
/// emit (R-9); the catalog does so per event.
///
/// ```
/// use cloudevent_runtime::binding::{ContentMode, mqtt};
/// assert_eq!(mqtt::DEFAULT_MODE, ContentMode::Structured);
/// ```
pub const DEFAULT_MODE: ContentMode = ContentMode::Structured;

/// The MQTT protocol version of the connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MqttVersion {
    /// MQTT 3.1.1: no properties, structured mode only.
    V3_1_1,
    /// MQTT 5.0: content type and user properties.
    V5,
}

/// The PUBLISH parts the binding uses.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MqttPublish {
    /// The `Content Type` property (MQTT 5.0 only).
    pub content_type: Option<String>,
    /// The User Property fields, in order (MQTT 5.0 only).
    pub user_properties: Vec<(String, String)>,
    /// The payload.
    pub payload: Vec<u8>,
}

/// The PUBLISH for an event.
///
/// # Errors
/// Binary mode over MQTT 3.1.1, [`ContentMode::Batch`], or a payload that cannot be
/// serialized.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::ContentMode;
/// use cloudevent_runtime::binding::mqtt::{MqttVersion, from_publish, to_publish};
///
/// let event = AnyEvent::new("1234-1234-1234", "/mycontext/subcontext", "com.example.someevent");
/// let publish = to_publish(&event, MqttVersion::V5, ContentMode::Binary).unwrap();
/// assert!(publish.user_properties.contains(&("id".into(), "1234-1234-1234".into())));
/// assert_eq!(from_publish::<AnyEvent>(&publish, MqttVersion::V5).unwrap(), event);
/// assert!(to_publish(&event, MqttVersion::V3_1_1, ContentMode::Binary).is_err());
/// ```
pub fn to_publish<E: BindingEvent>(
    event: &E,
    version: MqttVersion,
    mode: ContentMode,
) -> Result<MqttPublish, BindingError> {
    match (version, mode) {
        (MqttVersion::V3_1_1, ContentMode::Structured) => Ok(MqttPublish {
            content_type: None,
            user_properties: Vec::new(),
            payload: event.to_structured()?,
        }),
        (MqttVersion::V5, ContentMode::Structured) => Ok(MqttPublish {
            content_type: Some(super::STRUCTURED_CONTENT_TYPE.to_owned()),
            user_properties: Vec::new(),
            payload: event.to_structured()?,
        }),
        (MqttVersion::V5, ContentMode::Binary) => {
            let parts = event.to_binary()?;
            Ok(MqttPublish {
                content_type: parts.datacontenttype,
                user_properties: parts.attributes,
                payload: parts.data.unwrap_or_default(),
            })
        }
        (MqttVersion::V3_1_1, ContentMode::Binary) => Err(BindingError::BinaryOverMqtt3),
        (_, ContentMode::Batch) => Err(BindingError::UnexpectedMode {
            expected: "binary or structured mode (CE MQTT binding 1.3)",
            found: "batched mode",
            content_type: super::BATCH_CONTENT_TYPE.to_owned(),
        }),
    }
}

/// A structured-mode MQTT 5 PUBLISH in `format` (JSON, or Protobuf with feature
/// `protobuf`), its content type naming the format. MQTT 3.1.1 has no content type, so it
/// carries the JSON format only ([`to_publish`]).
///
/// # Errors
/// A payload that cannot be serialized; an event over the size limit.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::StructuredFormat;
/// use cloudevent_runtime::binding::mqtt::{MqttVersion, from_publish, to_structured_publish};
///
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// let publish = to_structured_publish(&event, StructuredFormat::Json).unwrap();
/// assert_eq!(from_publish::<AnyEvent>(&publish, MqttVersion::V5).unwrap(), event);
/// ```
pub fn to_structured_publish<E: BindingEvent>(
    event: &E,
    format: super::StructuredFormat,
) -> Result<MqttPublish, BindingError> {
    Ok(MqttPublish {
        content_type: Some(format.content_type().to_owned()),
        user_properties: Vec::new(),
        payload: super::structured_body(event, format)?,
    })
}

/// Reads an event from a PUBLISH.
///
/// # Errors
/// An unsupported format, an attribute twice, or an invalid event.
pub fn from_publish<E: BindingEvent>(
    publish: &MqttPublish,
    version: MqttVersion,
) -> Result<E, BindingError> {
    message::receive_event(&Received { publish, version })
}

/// The full report on a PUBLISH [`from_publish`] refused, under `E`'s policy: every finding
/// the validator lists, with the event's id and attributes, then the typed reader's refusal
/// when it is not among them; a PUBLISH refused before any event is read reports that refusal
/// alone. Each finding cites the rule of `E`'s profile (as
/// [`kafka::report_refusal`](super::kafka::report_refusal) does for a record).
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::mqtt::{MqttPublish, MqttVersion, from_publish, report_refusal};
///
/// let publish = MqttPublish {
///     content_type: Some("application/cloudevents+json".into()),
///     user_properties: Vec::new(),
///     payload: br#"{"specversion":"1.0","id":"m-1","source":"","type":"com.example.a.b",
///         "time":"yesterday"}"#.to_vec(),
/// };
/// let refusal = from_publish::<AnyEvent>(&publish, MqttVersion::V5).unwrap_err();
/// let report = report_refusal::<AnyEvent>(&publish, MqttVersion::V5, &refusal);
/// let attributes: Vec<&str> = report.errors().map(|f| f.attribute.as_ref()).collect();
/// assert_eq!(attributes, ["source", "time"]);
/// ```
pub fn report_refusal<E: BindingEvent>(
    publish: &MqttPublish,
    version: MqttVersion,
    refusal: &BindingError,
) -> crate::ValidationReport {
    message::report_refusal::<E, _>(&Received { publish, version }, refusal)
}

/// A PUBLISH as the binding layer reads it, on a connection of one protocol version.
struct Received<'m> {
    publish: &'m MqttPublish,
    version: MqttVersion,
}

impl IncomingMessage for Received<'_> {
    fn modes(&self) -> Modes {
        Modes {
            // §3: with 3.1.1 (no content type) the JSON format is implied.
            // With 5.0 and no property at all, a 3.1.1 publisher sent it: the same.
            without_content_type: match self.version {
                MqttVersion::V5
                    if self
                        .publish
                        .user_properties
                        .iter()
                        .any(|(name, _)| is_attribute_name(name)) =>
                {
                    ContentMode::Binary
                }
                MqttVersion::V3_1_1 | MqttVersion::V5 => ContentMode::Structured,
            },
            structured_only: None,
            batch: false,
            content_type_copy: ContentTypeCopy::MustAgree,
            data_section: "CE MQTT binding 2.2",
        }
    }

    fn content_type(&self) -> Result<Option<&str>, BindingError> {
        Ok(match self.version {
            // 3.1.1 has no properties: whatever the struct holds was not on the wire.
            MqttVersion::V3_1_1 => None,
            MqttVersion::V5 => self.publish.content_type.as_deref(),
        })
    }

    fn attributes(&self) -> impl Iterator<Item = Result<Header<'_>, BindingError>> {
        // §3.1.3.1: a user property is an attribute, named as the attribute. A property whose
        // name holds a character no attribute name has in any case (`X-Request-Id`, added by
        // a gateway) is not one: it is skipped, as the HTTP, Kafka and AMQP readers skip
        // headers without their prefix. A name of letters, digits and `_` stays an attribute,
        // so a mis-cased or snake-cased one (`ExtA`, `ext_a`) reaches the policy and is
        // refused there, as `ce-ext_a` is over HTTP (issue 41: it was dropped unreported).
        // 3.1.1 never reaches binary mode.
        self.publish
            .user_properties
            .iter()
            .filter(|(name, _)| may_name_an_attribute(name))
            .map(|(name, value)| {
                Ok(Header {
                    attribute: name,
                    header: name,
                    value: Cow::Borrowed(value),
                    typed: None,
                })
            })
    }

    fn body(&self) -> Option<&[u8]> {
        Some(&self.publish.payload)
    }
}

/// Whether a user property is read as an attribute: ASCII letters, digits and `_`, the
/// characters of an attribute name as other bindings and SDKs spell it; the policy then
/// refuses what CE 1.0.2 naming does not allow (`ext_a`, `ExtA`), never silently dropped.
fn may_name_an_attribute(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Whether a user property can name an attribute: ASCII letters and digits only (the policy
/// then decides the case, CE 1.0.2 naming).
fn is_attribute_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnyEvent;
    use crate::Attributes;

    #[test]
    fn reads_the_spec_binary_example() {
        // CE MQTT binding 3.1.4, with `datacontenttype` repeated as a user property.
        let property = |n: &str, v: &str| (n.to_owned(), v.to_owned());
        let publish = MqttPublish {
            content_type: Some("application/json; charset=utf-8".into()),
            user_properties: vec![
                property("specversion", "1.0"),
                property("type", "com.example.someevent"),
                property("time", "2018-04-05T03:56:24Z"),
                property("id", "1234-1234-1234"),
                property("source", "/mycontext/subcontext"),
                property("datacontenttype", "application/json; charset=utf-8"),
            ],
            payload: br#"{"n":1}"#.to_vec(),
        };
        let event: AnyEvent = from_publish(&publish, MqttVersion::V5).unwrap();
        assert_eq!(event.id(), "1234-1234-1234");
        assert_eq!(
            event.datacontenttype(),
            Some("application/json; charset=utf-8")
        );
        assert_eq!(
            event.data(),
            Some(&crate::Data::json(r#"{"n":1}"#).unwrap())
        );
    }

    /// Issue 24: a gateway's `X-Request-Id` is not an attribute: skipped, as HTTP, Kafka and
    /// AMQP skip foreign headers; a `data` property cites the MQTT binding, not HTTP's.
    #[test]
    fn foreign_user_properties_are_skipped_and_data_cites_the_mqtt_binding() {
        let property = |n: &str, v: &str| (n.to_owned(), v.to_owned());
        let mut publish = MqttPublish {
            content_type: Some("application/json".into()),
            user_properties: vec![
                property("specversion", "1.0"),
                property("X-Request-Id", "req-7"),
                property("type", "com.example.someevent"),
                property("id", "1"),
                property("source", "/s"),
                property("trace.id", "abc"),
            ],
            payload: br#"{"n":1}"#.to_vec(),
        };
        let event: AnyEvent = from_publish(&publish, MqttVersion::V5).unwrap();
        assert_eq!(event.extensions().len(), 0);
        // Only foreign properties and no content type: the JSON format, as with none at all.
        let structured = MqttPublish {
            content_type: None,
            user_properties: vec![property("X-Request-Id", "req-7")],
            payload: event.to_structured().unwrap(),
        };
        assert_eq!(
            from_publish::<AnyEvent>(&structured, MqttVersion::V5).unwrap(),
            event
        );
        // A mis-cased attribute is still an attribute, refused by the policy.
        publish.user_properties.push(property("ExtA", "x"));
        assert_eq!(
            from_publish::<AnyEvent>(&publish, MqttVersion::V5)
                .unwrap_err()
                .rule()
                .as_str(),
            "CE 1.0.2 naming"
        );
        publish.user_properties.pop();
        publish.user_properties.push(property("data", "x"));
        let error = from_publish::<AnyEvent>(&publish, MqttVersion::V5).unwrap_err();
        assert!(
            error.to_string().contains("(CE MQTT binding 2.2)"),
            "{error}"
        );
    }

    #[test]
    fn mqtt3_is_structured_without_content_type() {
        let event = AnyEvent::new("1", "/mycontext/subcontext", "com.example.someevent");
        let publish = to_publish(&event, MqttVersion::V3_1_1, ContentMode::Structured).unwrap();
        assert_eq!(publish.content_type, None);
        assert!(publish.user_properties.is_empty());
        assert_eq!(
            from_publish::<AnyEvent>(&publish, MqttVersion::V3_1_1).unwrap(),
            event
        );
        assert!(matches!(
            to_publish(&event, MqttVersion::V3_1_1, ContentMode::Binary),
            Err(BindingError::BinaryOverMqtt3)
        ));
        // Forwarded to a 5.0 subscriber, a 3.1.1 PUBLISH has no property at all: the JSON
        // event format, as over 3.1.1.
        assert_eq!(
            from_publish::<AnyEvent>(&publish, MqttVersion::V5).unwrap(),
            event
        );
    }

    #[test]
    fn mqtt5_without_a_cloudevents_content_type_is_binary_mode() {
        let structured = AnyEvent::new("1", "/s", "com.example.someevent")
            .to_structured()
            .unwrap();
        // A content type that names no CloudEvents format, and no attribute: no CloudEvent.
        let publish = MqttPublish {
            content_type: Some("application/json".into()),
            user_properties: Vec::new(),
            payload: structured.clone(),
        };
        assert!(matches!(
            from_publish::<AnyEvent>(&publish, MqttVersion::V5),
            Err(BindingError::NotCloudEvents { .. })
        ));
        // User properties without a content type: binary mode, so the payload is data.
        let publish = MqttPublish {
            content_type: None,
            user_properties: vec![("specversion".into(), "1.0".into())],
            payload: structured,
        };
        assert!(matches!(
            from_publish::<AnyEvent>(&publish, MqttVersion::V5),
            Err(BindingError::Event(_))
        ));
    }

    #[test]
    fn mqtt5_structured_has_the_event_format_content_type() {
        let event = AnyEvent::new("1", "/mycontext/subcontext", "com.example.someevent");
        let publish = to_publish(&event, MqttVersion::V5, ContentMode::Structured).unwrap();
        assert_eq!(
            publish.content_type.as_deref(),
            Some(super::super::STRUCTURED_CONTENT_TYPE)
        );
        assert_eq!(
            from_publish::<AnyEvent>(&publish, MqttVersion::V5).unwrap(),
            event
        );
        let avro = MqttPublish {
            content_type: Some("application/cloudevents+xml".into()),
            ..publish
        };
        assert!(matches!(
            from_publish::<AnyEvent>(&avro, MqttVersion::V5),
            Err(BindingError::UnsupportedFormat { .. })
        ));
    }
}
