//! Protocol bindings: HTTP, Kafka, NATS, AMQP, MQTT and WebSockets, each behind its cargo feature so the
//! core stays transport-free.
//!
//! Every binding shares three things defined here: how a receiver tells the content modes
//! apart by the content type ([`ContentMode::detect`]), the transport-neutral content of a
//! binary-mode message ([`BinaryParts`]: every context attribute as its canonical string, the
//! data's media type and the data bytes), and one receive path (`message.rs`: the mode
//! decision, the checks on attribute headers, the reader for each mode). A binding only maps
//! its own headers or properties to and from those.

#[cfg(feature = "amqp")]
#[cfg_attr(docsrs, doc(cfg(feature = "amqp")))]
pub mod amqp;
#[cfg(feature = "axum")]
#[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
pub mod axum;
mod binary;
mod error;
#[cfg(feature = "fe2o3-amqp")]
#[cfg_attr(docsrs, doc(cfg(feature = "fe2o3-amqp")))]
pub mod fe2o3_amqp;
mod format;
#[cfg(feature = "gateway")]
#[cfg_attr(docsrs, doc(cfg(feature = "gateway")))]
pub mod gateway;
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub mod http;
#[cfg(feature = "kafka")]
#[cfg_attr(docsrs, doc(cfg(feature = "kafka")))]
pub mod kafka;
#[cfg(any(
    feature = "http",
    feature = "kafka",
    feature = "amqp",
    feature = "mqtt",
    feature = "nats"
))]
mod message;
#[cfg(feature = "mqtt")]
#[cfg_attr(docsrs, doc(cfg(feature = "mqtt")))]
pub mod mqtt;
#[cfg(feature = "nats")]
#[cfg_attr(docsrs, doc(cfg(feature = "nats")))]
pub mod nats;
mod parts;
pub mod percent;
#[cfg(feature = "rdkafka")]
#[cfg_attr(docsrs, doc(cfg(feature = "rdkafka")))]
pub mod rdkafka;
#[cfg(feature = "reqwest")]
#[cfg_attr(docsrs, doc(cfg(feature = "reqwest")))]
pub mod reqwest;
#[cfg(feature = "websocket")]
#[cfg_attr(docsrs, doc(cfg(feature = "websocket")))]
pub mod websocket;

pub use binary::{BindingEvent, canonical_string};
pub use error::BindingError;
pub use format::{StructuredFormat, structured_body};

/// The content type of a structured-mode JSON event (INTG-STD-015 R-7).
pub const STRUCTURED_CONTENT_TYPE: &str = "application/cloudevents+json; charset=utf-8";
/// The content type of a JSON batch (INTG-STD-015 R-10).
pub const BATCH_CONTENT_TYPE: &str = "application/cloudevents-batch+json; charset=utf-8";

/// How an event travels in a message (CloudEvents HTTP binding 1.0.2 §1.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContentMode {
    /// Attributes in transport headers, `data` as the body.
    Binary,
    /// The whole event in the body, in an event format.
    Structured,
    /// Several events in the body, in a batch format.
    Batch,
}

/// What a content type names, as a receiver reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Detected {
    /// The mode.
    Mode(ContentMode),
    /// A CloudEvents media type whose format this crate cannot read (e.g.
    /// `application/cloudevents+xml`, or Avro and Protobuf without their features); the
    /// binding spec lets a receiver forward it as-is.
    UnsupportedFormat,
}

impl ContentMode {
    /// Detects the mode from a content type, as CloudEvents HTTP binding 1.0.2 §3 prescribes
    /// (the Kafka §3, AMQP §3 and MQTT §3 rules are the same minus batch): the
    /// `application/cloudevents-batch` prefix is checked first, then `application/cloudevents`,
    /// anything else (or no content type) is binary. Parameters such as `charset` are ignored
    /// and the match is case-insensitive. Of the CloudEvents formats, those of
    /// [`StructuredFormat::ALL`] are read (JSON always, Protobuf and Avro with their features).
    ///
    /// ```
    /// use cloudevent_runtime::binding::{ContentMode, Detected};
    ///
    /// let detect = ContentMode::detect;
    /// assert_eq!(detect(Some("application/cloudevents+json; charset=UTF-8")), Detected::Mode(ContentMode::Structured));
    /// assert_eq!(detect(Some("Application/CloudEvents-Batch+JSON")), Detected::Mode(ContentMode::Batch));
    /// assert_eq!(detect(Some("application/json")), Detected::Mode(ContentMode::Binary));
    /// assert_eq!(detect(None), Detected::Mode(ContentMode::Binary));
    /// assert_eq!(detect(Some("application/cloudevents+xml")), Detected::UnsupportedFormat);
    /// ```
    pub fn detect(content_type: Option<&str>) -> Detected {
        Self::detect_format(content_type).0
    }

    /// [`ContentMode::detect`], with the format the content type names when it names one this
    /// build reads: the readers take it from here rather than parse the content type again.
    pub(crate) fn detect_format(
        content_type: Option<&str>,
    ) -> (Detected, Option<StructuredFormat>) {
        let Some(content_type) = content_type else {
            return (Detected::Mode(ContentMode::Binary), None);
        };
        // Every format's media types start so (`tests::every_format_is_application_cloudevents`):
        // a content type that does not is binary mode, without comparing it with each. Its
        // essence starts so exactly when its text without leading blanks does, as the prefix
        // holds no `;` and no blank (`tests::the_prefix_is_seen_before_the_essence_is_cut`):
        // told before the parameters are cut off, which was 1 % of an HTTP binary decode
        // (issue 40).
        if !starts_with_ignore_case(content_type.trim_start(), STRUCTURED_PREFIX) {
            return (Detected::Mode(ContentMode::Binary), None);
        }
        let essence = media_type_essence(content_type);
        match StructuredFormat::from_essence(essence) {
            Some((format, true)) => (Detected::Mode(ContentMode::Batch), Some(format)),
            Some((format, false)) => (Detected::Mode(ContentMode::Structured), Some(format)),
            None if starts_with_ignore_case(essence, STRUCTURED_PREFIX) => {
                (Detected::UnsupportedFormat, None)
            }
            None => (Detected::Mode(ContentMode::Binary), None),
        }
    }
}

/// Whether `name` may be `data`, `data_base64` or `datacontenttype`, the names a binary-mode
/// attribute never carries as an ordinary attribute: all three start with `d`
/// (`tests::the_data_names_start_with_d`), so every other name is told apart by its first
/// byte before the comparisons (issue 25: they were a tenth of an HTTP binary decode's
/// header walk, `type` and `time` compared with `data` byte by byte).
pub(crate) fn may_be_data_name(name: &str) -> bool {
    name.as_bytes().first() == Some(&b'd')
}

/// The media type without parameters and surrounding whitespace: `type/subtype`.
pub(crate) fn media_type_essence(content_type: &str) -> &str {
    content_type
        .split(';')
        .next()
        .unwrap_or(content_type)
        .trim()
}

/// What the media type of every event format and batch format starts with.
const STRUCTURED_PREFIX: &str = "application/cloudevents";

fn starts_with_ignore_case(text: &str, prefix: &str) -> bool {
    // The byte comparison first: senders write media types in lower case.
    text.starts_with(prefix)
        || (text.len() >= prefix.len()
            && text.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes()))
}

/// The transport-neutral content of a binary-mode message.
///
/// `attributes` holds every context attribute except `datacontenttype`, in its canonical
/// string form (CloudEvents 1.0.2 "Type System"), core attributes first; `datacontenttype`
/// and `data` travel in the transport's own content-type field and body.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BinaryParts {
    /// `(name, canonical string value)`, names without any transport prefix.
    pub attributes: Vec<(String, String)>,
    /// The `datacontenttype` attribute.
    pub datacontenttype: Option<String>,
    /// The data bytes; `None` for an event without data.
    pub data: Option<Vec<u8>>,
}

impl BinaryParts {
    /// The value of an attribute, by name.
    ///
    /// ```
    /// use cloudevent_runtime::binding::BinaryParts;
    ///
    /// let parts = BinaryParts { attributes: vec![("id".into(), "1".into())], ..Default::default() };
    /// assert_eq!(parts.attribute("id"), Some("1"));
    /// assert_eq!(parts.attribute("subject"), None);
    /// ```
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 25: `may_be_data_name` lets every name it answers `false` for skip the
    /// comparisons with these three.
    #[test]
    fn the_data_names_start_with_d() {
        for name in cloudevent_rules::RESERVED_NAMES
            .into_iter()
            .chain(["datacontenttype"])
        {
            assert!(may_be_data_name(name), "{name}");
        }
        assert!(!may_be_data_name("") && !may_be_data_name("type"));
    }

    proptest::proptest! {
        /// Issue 40: [`ContentMode::detect`] tells a content type that is no event format
        /// by its text without leading blanks, before the essence is cut out: the two start
        /// with the prefix together, blanks, `;` and case anywhere.
        #[test]
        fn the_prefix_is_seen_before_the_essence_is_cut(
            text in "[ \t\u{a0}\u{2003};]{0,3}(application/cloud[Ee]vents|Application/cloudevents[+-]|applica)?[ \t;a-z+]{0,6}",
        ) {
            proptest::prop_assert_eq!(
                starts_with_ignore_case(text.trim_start(), STRUCTURED_PREFIX),
                starts_with_ignore_case(media_type_essence(&text), STRUCTURED_PREFIX),
                "{:?}", text
            );
        }
    }

    /// Issue 25: `ContentMode::detect` takes a content type not starting with
    /// `application/cloudevents` as binary mode without comparing it with each format's
    /// media types, because none of them (batch ones included) starts otherwise.
    /// The readers take the format from the one parse of the content type that decides the
    /// mode: whatever the case and parameters, it is the format `from_media_type` names.
    #[test]
    fn detection_names_the_format_it_read() {
        for &format in StructuredFormat::ALL {
            for (media_type, mode) in [
                (Some(format.media_type()), ContentMode::Structured),
                (format.batch_media_type(), ContentMode::Batch),
            ] {
                let Some(media_type) = media_type else {
                    continue;
                };
                for written in [
                    media_type.to_owned(),
                    media_type.to_ascii_uppercase(),
                    format!(" {media_type} ; charset=utf-8"),
                ] {
                    assert_eq!(
                        ContentMode::detect_format(Some(&written)),
                        (Detected::Mode(mode), Some(format)),
                        "{written}"
                    );
                    assert_eq!(
                        StructuredFormat::from_media_type(&written),
                        Some((format, mode == ContentMode::Batch))
                    );
                }
            }
        }
        for (written, detected) in [
            ("application/cloudevents+xml", Detected::UnsupportedFormat),
            ("Application/CloudEvents+XML", Detected::UnsupportedFormat),
            ("application/json", Detected::Mode(ContentMode::Binary)),
            (
                "application/cloudevent",
                Detected::Mode(ContentMode::Binary),
            ),
        ] {
            assert_eq!(ContentMode::detect_format(Some(written)), (detected, None));
        }
        assert_eq!(
            ContentMode::detect_format(None),
            (Detected::Mode(ContentMode::Binary), None)
        );
    }

    #[test]
    fn every_format_is_application_cloudevents() {
        for format in StructuredFormat::ALL {
            for media_type in [Some(format.media_type()), format.batch_media_type()]
                .into_iter()
                .flatten()
            {
                assert!(
                    starts_with_ignore_case(media_type, "application/cloudevents"),
                    "{media_type}"
                );
            }
        }
    }
}
