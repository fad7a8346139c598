//! The CloudEvents Kafka Protocol Binding 1.0.2 on a broker-neutral record, plus the R-13 key.
//!
//! - §3: the receiver tells the modes apart by the `content-type` header; a value starting
//!   with `application/cloudevents` (case-insensitive) is structured mode, anything else binary.
//!   The binding defines no batch mode (§1.3).
//! - §3.2 binary mode: `ce_<name>` headers with UTF-8 values (§3.2.3), `content-type` for
//!   `datacontenttype` (§3.2.1), the data as the value; no data is a record without value
//!   (§3.2.2, a tombstone under compaction).
//! - §3.3 structured mode: `content-type: application/cloudevents+json; charset=utf-8`, the
//!   JSON event as the value.
//! - §3.1 and INTG-STD-015 R-13: the record key is `partitionkey`, else `subject`; the event is
//!   not changed (`partitionkey` stays in the headers or the JSON).
//!
//! A null or non-UTF-8 header on a `ce_` or `content-type` header is an error, never a panic.
//! A record saved as JSON (a test fixture, a dead-letter dump) is read by
//! [`KafkaRecord::from_json`], the reader `cloudevent validate --format kafka` uses.
//! The `rdkafka` feature adds conversions to and from rdkafka's types.

use std::borrow::Cow;

use cloudevent_rules::{Violation, rule};

use super::message::{self, ContentTypeCopy, Header, IncomingMessage, Modes};
use super::{BindingError, BindingEvent, ContentMode};
use crate::ValueError;

/// The default content mode INTG-STD-015 R-9 gives Kafka: structured; binary MAY be used on
/// high-throughput internal topics with tightly coupled consumers. Producers MUST document
/// the mode they emit (R-9); the catalog does so per event.
///
/// ```
/// use cloudevent_runtime::binding::{ContentMode, kafka};
/// assert_eq!(kafka::DEFAULT_MODE, ContentMode::Structured);
/// ```
pub const DEFAULT_MODE: ContentMode = ContentMode::Structured;

/// The header prefix of binary mode (§3.2.3.1).
pub const HEADER_PREFIX: &str = "ce_";
/// The content-type header (§3.2.1, §3.3.1).
pub const CONTENT_TYPE: &str = "content-type";

/// A Kafka record as any client library sees it: key, headers (a name may repeat, a value may
/// be null), value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KafkaRecord {
    /// The record key.
    pub key: Option<Vec<u8>>,
    /// Headers in order; `None` is a null value.
    pub headers: Vec<(String, Option<Vec<u8>>)>,
    /// The record value; `None` for a record without one.
    pub value: Option<Vec<u8>>,
}

impl KafkaRecord {
    /// The value of the first header with this name, matched case-insensitively.
    pub fn header(&self, name: &str) -> Option<Option<&[u8]>> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_deref())
    }

    /// Reads a Kafka record in its JSON form, the one `cloudevent validate --format kafka`
    /// takes:
    ///
    /// ```text
    /// {"key": string|null|{"base64": string},
    ///  "headers": {"<name>": string|null|{"base64": string}},
    ///  "value": string|null}            or  "value_base64": string|null
    /// ```
    ///
    /// Every member may be left out. A text key, header or `value` is its UTF-8 bytes;
    /// `{"base64": ...}` (key or header) and `value_base64` are standard base64 with padding (RFC 4648 section 4), for
    /// bytes that are not UTF-8 text (a binary payload, a header a client sent as raw bytes).
    /// Whether a `ce_` header holds UTF-8 (CE Kafka binding 3.2.3) is the binding's check,
    /// after this ([`from_record`]). A null `value` is a record without value (a tombstone).
    /// The same reader takes an already parsed record (`KafkaRecord::try_from(&value)`).
    ///
    /// ```
    /// use cloudevent_runtime::binding::kafka::KafkaRecord;
    ///
    /// let record = KafkaRecord::from_json(br#"{"key": "order-1",
    ///     "headers": {"content-type": "application/cloudevents+json", "x-raw": {"base64": "/w=="}},
    ///     "value": "{}"}"#).unwrap();
    /// assert_eq!(record.key.as_deref(), Some(&b"order-1"[..]));
    /// assert_eq!(record.header("Content-Type"), Some(Some(&b"application/cloudevents+json"[..])));
    /// assert_eq!(record.header("x-raw"), Some(Some(&b"\xff"[..])));
    /// let record = KafkaRecord::from_json(br#"{"key": {"base64": "AP8="}}"#).unwrap();
    /// assert_eq!(record.key.as_deref(), Some(&b"\x00\xff"[..]));
    ///
    /// let err = KafkaRecord::from_json(br#"{"valu": "x", "key": 1}"#).unwrap_err();
    /// assert_eq!(err.violations().len(), 2, "every problem: {err}");
    /// assert_eq!(err.violations()[0].rule.as_str(), "INTG-STD-015 R-8");
    /// ```
    ///
    /// # Errors
    /// Every problem with the record (INTG-STD-015 R-8): not JSON, not that shape (an unknown
    /// member is refused, to catch typos), `value` and `value_base64` both given, or base64
    /// that does not decode.
    pub fn from_json(bytes: &[u8]) -> Result<Self, ValueError> {
        match serde_json::from_slice::<serde_json::Value>(bytes) {
            Ok(record) => KafkaRecord::try_from(&record),
            Err(error) => Err(ValueError::new(vec![not_a_record(format!(
                "is not JSON: {error}"
            ))])),
        }
    }
}

/// The one reader of the JSON record form ([`KafkaRecord::from_json`]), for a record already
/// parsed (one element of an array of records, say).
///
/// ```
/// use cloudevent_runtime::binding::kafka::KafkaRecord;
///
/// let record = KafkaRecord::try_from(&serde_json::json!({"value_base64": "AP8="})).unwrap();
/// assert_eq!(record.value.as_deref(), Some(&b"\x00\xff"[..]));
/// assert!(KafkaRecord::try_from(&serde_json::json!([1])).is_err());
/// ```
impl TryFrom<&serde_json::Value> for KafkaRecord {
    type Error = ValueError;

    fn try_from(record: &serde_json::Value) -> Result<Self, ValueError> {
        use serde_json::Value;

        let mut findings = Vec::new();
        let Value::Object(members) = record else {
            findings.push(not_a_record(format!("found {}", json_type(record))));
            return Err(ValueError::new(findings));
        };
        for name in members.keys() {
            if !RECORD_MEMBERS.contains(&name.as_str()) {
                findings.push(not_a_record(format!(
                    "unknown member `{name}`, expected one of `key`, `headers`, `value`, `value_base64`"
                )));
            }
        }
        // Base64 problems are listed after the shape problems.
        let mut base64 = Vec::new();
        let key = match members.get("key") {
            None | Some(Value::Null) => None,
            Some(Value::String(key)) => Some(key.as_bytes().to_vec()),
            // A key of bytes that are not UTF-8 (a serialized id, say), as a header's.
            Some(Value::Object(object)) if object.len() == 1 && object.contains_key("base64") => {
                match object.get("base64") {
                    Some(Value::String(text)) => {
                        decode_base64("key.base64".to_owned(), text, &mut base64)
                    }
                    _ => {
                        findings.push(not_a_record("`key`: `base64` must be a string".to_owned()));
                        None
                    }
                }
            }
            Some(other) => {
                findings.push(not_a_record(format!(
                    "`key`: expected a string, null or {{\"base64\": string}}, found {}",
                    json_type(other)
                )));
                None
            }
        };
        let mut headers = Vec::new();
        match members.get("headers") {
            None => {}
            Some(Value::Object(entries)) => {
                for (name, value) in entries {
                    let value = match value {
                        Value::Null => None,
                        Value::String(text) => Some(text.as_bytes().to_vec()),
                        Value::Object(object) => match (object.len(), object.get("base64")) {
                            (1, Some(Value::String(text))) => {
                                let member = format!("headers.{name}.base64");
                                let Some(bytes) = decode_base64(member, text, &mut base64) else {
                                    continue;
                                };
                                Some(bytes)
                            }
                            _ => {
                                findings.push(not_a_record(format!(
                                    "header `{name}`: expected a string, null or {{\"base64\": string}}, found an object with other members"
                                )));
                                continue;
                            }
                        },
                        other => {
                            findings.push(not_a_record(format!(
                                "header `{name}`: expected a string, null or {{\"base64\": string}}, found {}",
                                json_type(other)
                            )));
                            continue;
                        }
                    };
                    headers.push((name.clone(), value));
                }
            }
            Some(other) => findings.push(not_a_record(format!(
                "`headers`: expected an object of header names, found {}",
                json_type(other)
            ))),
        }
        let value = match (members.get("value"), members.get("value_base64")) {
            (Some(_), Some(_)) => {
                findings.push(Violation::error(
                    rule::INTG_R8,
                    "record",
                    "",
                    "has both `value` and `value_base64`; give the value once: as text in `value` or as bytes in `value_base64`",
                ));
                None
            }
            (None | Some(Value::Null), None) | (None, Some(Value::Null)) => None,
            (Some(Value::String(text)), None) => Some(text.as_bytes().to_vec()),
            (None, Some(Value::String(text))) => {
                decode_base64("value_base64".to_owned(), text, &mut base64)
            }
            (Some(other), None) => {
                findings.push(not_a_record(format!(
                    "`value`: expected a string or null, found {}",
                    json_type(other)
                )));
                None
            }
            (None, Some(other)) => {
                findings.push(not_a_record(format!(
                    "`value_base64`: expected a base64 string or null, found {}",
                    json_type(other)
                )));
                None
            }
        };
        findings.extend(base64);
        if findings.is_empty() {
            Ok(KafkaRecord {
                key,
                headers,
                value,
            })
        } else {
            Err(ValueError::new(findings))
        }
    }
}

/// The members of a record in the JSON record form.
const RECORD_MEMBERS: [&str; 4] = ["key", "headers", "value", "value_base64"];

/// A finding on the JSON record form's shape.
fn not_a_record(problem: String) -> Violation {
    Violation::error(
        rule::INTG_R8,
        "record",
        "",
        format!(
            "is not a Kafka record {{\"key\", \"headers\", \"value\" or \"value_base64\"}}: {problem}"
        ),
    )
}

/// Decodes a base64 member of a record, or adds a finding naming the member.
fn decode_base64(member: String, text: &str, findings: &mut Vec<Violation>) -> Option<Vec<u8>> {
    match text.parse::<crate::Binary>() {
        Ok(bytes) => Some(bytes.into_bytes()),
        Err(error) => {
            findings.push(
                Violation::error(rule::INTG_R8, member, "", format!("is not base64: {error}"))
                    .with_hint(
                        "use standard base64 with `=` padding (RFC 4648 section 4), e.g. `aGk=` for `hi`",
                    ),
            );
            None
        }
    }
}

/// A JSON value's type, for messages that must not repeat a large value.
fn json_type(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The record key for an event: `partitionkey` (in its canonical string form), else
/// `subject`, else none (INTG-STD-015 R-13, CE Kafka binding 3.1 "Key Mapper"), read from the
/// event's [`Attributes`](crate::Attributes): nothing is serialized for it.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::kafka::record_key;
///
/// let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// assert_eq!(record_key(&event), None);
/// event.set_subject(Some("order-1".into()));
/// assert_eq!(record_key(&event).as_deref(), Some(&b"order-1"[..]));
/// event.extensions_mut().insert("partitionkey", "customer-9");
/// assert_eq!(record_key(&event).as_deref(), Some(&b"customer-9"[..]));
/// ```
pub fn record_key(event: &impl crate::Attributes) -> Option<Vec<u8>> {
    match event.extension_value("partitionkey") {
        Some(value) => Some(
            super::canonical_string(value.as_value())
                .as_bytes()
                .to_vec(),
        ),
        None => event.subject().map(|subject| subject.as_bytes().to_vec()),
    }
}

/// The record for an event in binary or structured mode, keyed per R-13. Structured is
/// INTG-STD-015 R-9's default for Kafka.
///
/// # Errors
/// [`ContentMode::Batch`] (Kafka has none, §1.3), or a payload that cannot be serialized.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::ContentMode;
/// use cloudevent_runtime::binding::kafka::{from_record, to_record};
///
/// let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// event.set_subject(Some("café".into()));
/// let record = to_record(&event, ContentMode::Binary).unwrap();
/// assert_eq!(record.header("ce_subject"), Some(Some("café".as_bytes())));
/// assert_eq!(record.value.as_deref(), Some(&b""[..])); // no data: an empty value, not a tombstone
/// assert_eq!(from_record::<AnyEvent>(&record).unwrap(), event);
/// ```
pub fn to_record<E: BindingEvent>(
    event: &E,
    mode: ContentMode,
) -> Result<KafkaRecord, BindingError> {
    let key = record_key(event);
    match mode {
        ContentMode::Structured => Ok(KafkaRecord {
            key,
            headers: vec![(
                CONTENT_TYPE.to_owned(),
                Some(super::STRUCTURED_CONTENT_TYPE.as_bytes().to_vec()),
            )],
            value: Some(event.to_structured()?),
        }),
        ContentMode::Binary => {
            let parts = event.to_binary()?;
            let mut headers: Vec<(String, Option<Vec<u8>>)> = parts
                .attributes
                .into_iter()
                .map(|(name, value)| (format!("{HEADER_PREFIX}{name}"), Some(value.into_bytes())))
                .collect();
            if let Some(content_type) = parts.datacontenttype {
                headers.push((CONTENT_TYPE.to_owned(), Some(content_type.into_bytes())));
            }
            // An event without data is an empty value, never a null one: a null value is a
            // tombstone that deletes the key on a compacted topic.
            Ok(KafkaRecord {
                key,
                headers,
                value: Some(parts.data.unwrap_or_default()),
            })
        }
        ContentMode::Batch => Err(BindingError::UnexpectedMode {
            expected: "binary or structured mode (CE Kafka binding 1.3 has no batch mode)",
            found: "batched mode",
            content_type: super::BATCH_CONTENT_TYPE.to_owned(),
        }),
    }
}

/// A structured-mode record in `format` (JSON, or Protobuf with feature `protobuf`), keyed
/// as [`to_record`] keys it.
///
/// # Errors
/// A payload that cannot be serialized; an event over the size limit.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::StructuredFormat;
/// use cloudevent_runtime::binding::kafka::{from_record, to_structured_record};
///
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// let record = to_structured_record(&event, StructuredFormat::Json).unwrap();
/// assert_eq!(from_record::<AnyEvent>(&record).unwrap(), event);
/// ```
pub fn to_structured_record<E: BindingEvent>(
    event: &E,
    format: super::StructuredFormat,
) -> Result<KafkaRecord, BindingError> {
    Ok(KafkaRecord {
        key: record_key(event),
        headers: vec![(
            CONTENT_TYPE.to_owned(),
            Some(format.content_type().as_bytes().to_vec()),
        )],
        value: Some(super::structured_body(event, format)?),
    })
}

fn utf8_header<'a>(name: &str, value: Option<&'a [u8]>) -> Result<&'a str, BindingError> {
    let value = value.ok_or_else(|| BindingError::NullHeader {
        header: name.to_owned(),
    })?;
    std::str::from_utf8(value).map_err(|_| BindingError::HeaderNotUtf8 {
        header: name.to_owned(),
    })
}

/// Reads an event from a record, in whichever mode its `content-type` names.
///
/// # Errors
/// A null or non-UTF-8 `ce_`/`content-type` header, an attribute twice, a structured record
/// without value, an unsupported format, or an invalid event.
pub fn from_record<E: BindingEvent>(record: &KafkaRecord) -> Result<E, BindingError> {
    message::receive_event(record)
}

/// The full report on a record [`from_record`] refused, under `E`'s policy: every finding the
/// validator lists (what `cloudevent validate --format kafka` and the axum `Checked<AnyEvent>`
/// extractor report), with the event's id and attributes, then the typed reader's refusal when
/// it is not among them. A record refused before any event is read (a null header, a batch,
/// no CloudEvent) reports that refusal alone. Each finding cites the rule of `E`'s profile.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, CloudEvent, Event};
/// use cloudevent_runtime::binding::kafka::{KafkaRecord, from_record, report_refusal};
///
/// #[derive(Debug, serde::Serialize, serde::Deserialize, CloudEvent)]
/// #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
/// struct OrderCreated { note: String }
///
/// let structured = |content_type: &str, value: &str| KafkaRecord {
///     key: None,
///     headers: vec![("content-type".into(), Some(content_type.as_bytes().to_vec()))],
///     value: Some(value.as_bytes().to_vec()),
/// };
/// let record = structured("application/cloudevents+json", r#"{"specversion": "1.0",
///     "id": "evt-1", "source": "https://localhost:8443/orders", "type": "com.example.order.created",
///     "time": "2026-03-28T14:22:31+01:00", "data": {"note": "n"}}"#);
/// let refusal = from_record::<Event<OrderCreated>>(&record).unwrap_err();
/// let report = report_refusal::<Event<OrderCreated>>(&record, &refusal);
/// assert_eq!(report.id(), Some("evt-1"));
/// // Every finding, not only the first: the source's port and host, the time's offset.
/// let attributes: Vec<&str> = report.errors().map(|f| f.attribute.as_ref()).collect();
/// assert_eq!(attributes, ["source", "source", "time"]);
///
/// // No CloudEvent at all, read as `AnyEvent` (the CloudEvents profile): the binding's
/// // refusal alone, citing the CloudEvents bindings' content modes.
/// let plain = structured("application/json", r#"{"a": 1}"#);
/// let refusal = from_record::<AnyEvent>(&plain).unwrap_err();
/// let report = report_refusal::<AnyEvent>(&plain, &refusal);
/// assert_eq!(report.findings()[0].rule.as_str(), "CE binding 1.3");
/// ```
pub fn report_refusal<E: BindingEvent>(
    record: &KafkaRecord,
    refusal: &BindingError,
) -> crate::ValidationReport {
    message::report_refusal::<E, _>(record, refusal)
}

/// The record as a JSON event document for a validator (for `cloudevent validate --format
/// kafka`): the value as sent in structured mode, or the document a binary-mode record stands
/// for ([`BinaryParts::to_structured_document`](super::BinaryParts::to_structured_document)).
///
/// # Errors
/// A null or non-UTF-8 `ce_`/`content-type` header, an attribute twice, or an unsupported
/// format.
///
/// ```
/// # use cloudevent_runtime::Attributes;
/// use cloudevent_runtime::binding::kafka::{KafkaRecord, structured_document};
///
/// let record = KafkaRecord::from_json(br#"{"key": null, "headers": {"ce_specversion": "1.0",
///     "ce_id": "1", "ce_source": "/s", "ce_type": "com.example.a.b"}, "value": null}"#).unwrap();
/// let document = structured_document(&record).unwrap();
/// let event = cloudevent_runtime::AnyEvent::from_slice(&document).unwrap();
/// assert_eq!((event.id(), event.ty()), ("1", "com.example.a.b"));
/// ```
pub fn structured_document(record: &KafkaRecord) -> Result<Vec<u8>, BindingError> {
    message::structured_document(record).map(|(_, document)| document)
}

/// A record as the binding layer reads it: `content-type` for the mode (§3), `ce_` headers
/// (the prefix in any case) with UTF-8 values (§3.2.3), the value as the body.
impl IncomingMessage for KafkaRecord {
    fn modes(&self) -> Modes {
        Modes {
            without_content_type: ContentMode::Binary,
            structured_only: None,
            // No batched mode (§1.3): the batch media type is a format Kafka does not carry.
            batch: false,
            content_type_copy: ContentTypeCopy::MustAgree,
            data_section: "CE Kafka binding 2.2",
        }
    }

    fn content_type(&self) -> Result<Option<&str>, BindingError> {
        self.header(CONTENT_TYPE)
            .map(|value| utf8_header(CONTENT_TYPE, value))
            .transpose()
    }

    fn attributes(&self) -> impl Iterator<Item = Result<Header<'_>, BindingError>> {
        self.headers.iter().filter_map(|(name, value)| {
            // The attribute name as written, since Kafka header names are case-sensitive:
            // `ce_ExtA` names `ExtA`, which the policy refuses (CE 1.0.2 naming) instead of
            // this reader renaming it.
            let attribute = name
                .get(..HEADER_PREFIX.len())
                .filter(|prefix| prefix.eq_ignore_ascii_case(HEADER_PREFIX))
                .map(|_| &name[HEADER_PREFIX.len()..])?;
            Some(utf8_header(name, value.as_deref()).map(|value| Header {
                attribute,
                header: name,
                value: Cow::Borrowed(value),
                typed: None,
            }))
        })
    }

    fn body(&self) -> Option<&[u8]> {
        self.value.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AnyEvent;
    use crate::Attributes;
    use serde_json::json;

    fn binary_record(headers: &[(&str, Option<&[u8]>)], value: Option<&[u8]>) -> KafkaRecord {
        KafkaRecord {
            key: None,
            headers: headers
                .iter()
                .map(|(n, v)| ((*n).to_owned(), v.map(<[u8]>::to_vec)))
                .collect(),
            value: value.map(<[u8]>::to_vec),
        }
    }

    const REQUIRED: [(&str, Option<&[u8]>); 4] = [
        ("ce_specversion", Some(b"1.0")),
        ("ce_id", Some(b"1234-1234-1234")),
        ("ce_source", Some(b"/mycontext/subcontext")),
        ("ce_type", Some(b"com.example.someevent")),
    ];

    #[test]
    fn reads_the_binding_spec_binary_example() {
        // CE Kafka binding 3.2.5 (data as Avro bytes).
        let mut headers = REQUIRED.to_vec();
        headers.push(("ce_time", Some(b"2018-04-05T03:56:24Z")));
        headers.push(("content-type", Some(b"application/avro")));
        let event: AnyEvent = from_record(&binary_record(&headers, Some(b"\x02\x00"))).unwrap();
        assert_eq!(event.id(), "1234-1234-1234");
        assert_eq!(event.datacontenttype(), Some("application/avro"));
        assert_eq!(event.data(), Some(&crate::Data::Binary(vec![2, 0])));
    }

    #[test]
    fn reads_the_binding_spec_structured_example() {
        // CE Kafka binding 3.3.4, content type with parameters and odd case.
        let record = binary_record(
            &[("content-type", Some(b"Application/CloudEvents+JSON; charset=UTF-8"))],
            Some(br#"{"specversion":"1.0","type":"com.example.someevent","source":"/mycontext/subcontext","id":"1234-1234-1234","datacontenttype":"application/xml","data":"<a/>"}"#),
        );
        let event: AnyEvent = from_record(&record).unwrap();
        assert_eq!(event.data(), Some(&crate::Data::Text("<a/>".into())));
    }

    #[test]
    fn null_and_non_utf8_headers_are_errors_not_panics() {
        let mut headers = REQUIRED.to_vec();
        headers.push(("ce_subject", None));
        let err = from_record::<AnyEvent>(&binary_record(&headers, None)).unwrap_err();
        assert!(
            matches!(err, BindingError::NullHeader { ref header } if header == "ce_subject"),
            "{err}"
        );

        let mut headers = REQUIRED.to_vec();
        headers.push(("ce_subject", Some(b"\xff\xfe")));
        let err = from_record::<AnyEvent>(&binary_record(&headers, None)).unwrap_err();
        assert!(matches!(err, BindingError::HeaderNotUtf8 { .. }), "{err}");

        let err =
            from_record::<AnyEvent>(&binary_record(&[("content-type", None)], None)).unwrap_err();
        assert!(matches!(err, BindingError::NullHeader { .. }), "{err}");
        // A null header that is not ours is ignored.
        let mut headers = REQUIRED.to_vec();
        headers.push(("x-trace", None));
        assert!(from_record::<AnyEvent>(&binary_record(&headers, None)).is_ok());
    }

    #[test]
    fn duplicate_attribute_is_an_error() {
        let mut headers = REQUIRED.to_vec();
        headers.push(("ce_id", Some(b"other")));
        assert!(matches!(
            from_record::<AnyEvent>(&binary_record(&headers, None)),
            Err(BindingError::DuplicateAttribute { .. })
        ));
    }

    #[test]
    fn key_is_partitionkey_then_subject_and_the_event_is_unchanged() {
        let mut event = AnyEvent::new(
            "1",
            "https://orders.example.com",
            "com.example.order.created",
        );
        assert_eq!(
            to_record(&event, ContentMode::Structured).unwrap().key,
            None
        );
        event.set_subject(Some("order-1".into()));
        event.extensions_mut().insert("partitionkey", "customer-9");
        for mode in [ContentMode::Structured, ContentMode::Binary] {
            let record = to_record(&event, mode).unwrap();
            assert_eq!(record.key.as_deref(), Some(&b"customer-9"[..]));
            // partitionkey is still transmitted (§3.1: a key mapper MUST NOT modify the event).
            assert_eq!(from_record::<AnyEvent>(&record).unwrap(), event);
        }
    }

    #[test]
    fn json_record_form() {
        let record = KafkaRecord::from_json(br#"{"key": null, "headers": {"ce_specversion": "1.0", "ce_id": "1", "ce_source": "/s", "ce_type": "com.example.a.b", "ce_subject": null}, "value": null}"#).unwrap();
        assert!(matches!(
            from_record::<AnyEvent>(&record),
            Err(BindingError::NullHeader { .. })
        ));
        assert!(KafkaRecord::from_json(br#"{"value": 3}"#).is_err());
        assert!(KafkaRecord::from_json(br#"{"valu": "x"}"#).is_err());
        assert!(KafkaRecord::from_json(br#"{"headers": {"a": 1}}"#).is_err());
        let not_json = KafkaRecord::from_json(b"{").unwrap_err();
        assert!(
            not_json.violations()[0].problem.contains("is not JSON"),
            "{not_json}"
        );
    }

    #[test]
    fn json_record_form_reads_base64_members() {
        let record = KafkaRecord::try_from(&json!({
            "key": "k",
            "headers": {"ce_id": {"base64": "MQ=="}, "x-raw": {"base64": "/w=="}, "ce_subject": null},
            "value_base64": "AP8=",
        }))
        .unwrap();
        assert_eq!(record.key.as_deref(), Some(&b"k"[..]));
        assert_eq!(record.header("ce_id"), Some(Some(&b"1"[..])));
        assert_eq!(record.header("x-raw"), Some(Some(&b"\xff"[..])));
        assert_eq!(record.header("ce_subject"), Some(None));
        assert_eq!(record.value.as_deref(), Some(&b"\x00\xff"[..]));
        assert_eq!(
            KafkaRecord::try_from(&json!({})).unwrap(),
            KafkaRecord::default()
        );
        assert_eq!(
            KafkaRecord::try_from(&json!({"value_base64": null}))
                .unwrap()
                .value,
            None
        );
    }

    #[test]
    fn json_record_form_reports_every_problem() {
        let findings = KafkaRecord::try_from(&json!({
            "partition": 1,
            "headers": {"ce_id": {"base64": "MQ"}, "ce_type": 7},
            "value": "a",
            "value_base64": "!!",
        }))
        .unwrap_err();
        let findings: Vec<crate::Violation> = Vec::from(findings);
        let messages: Vec<String> = findings
            .iter()
            .map(|v| format!("{}: {}", v.attribute, v.problem))
            .collect();
        assert_eq!(messages.len(), 4, "{messages:#?}");
        assert!(
            messages[0].contains("unknown member `partition`"),
            "{messages:#?}"
        );
        assert!(
            messages[1].contains(
                "header `ce_type`: expected a string, null or {\"base64\": string}, found a number"
            ),
            "{messages:#?}"
        );
        assert!(
            messages[2].starts_with("record: has both `value` and `value_base64`"),
            "{messages:#?}"
        );
        assert!(
            messages[3].starts_with("headers.ce_id.base64: is not base64: "),
            "{messages:#?}"
        );
        assert!(
            findings[3]
                .hint
                .as_deref()
                .unwrap_or_default()
                .contains("RFC 4648"),
            "{findings:#?}"
        );
        assert!(
            findings
                .iter()
                .all(|v| v.is_error() && v.rule.as_str() == "INTG-STD-015 R-8")
        );

        let findings = KafkaRecord::try_from(&json!([1])).unwrap_err();
        assert!(
            findings.violations()[0].problem.ends_with("found an array"),
            "{findings:?}"
        );
    }
}
