//! The readers of `cloudevent validate`: which format an input is in (`--format auto`), and
//! each format's check, giving the input's [`Checked`] report.

use cloudevent_cli::http_message;
use cloudevent_runtime::binding::kafka::{self, KafkaRecord};
use cloudevent_runtime::binding::{ContentMode, Detected, StructuredFormat, http};
use cloudevent_runtime::rules::BindingConcern;
use cloudevent_runtime::{AnyEvent, Avro, Json, Protobuf, Violation};
use serde::de::{SeqAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

use super::Format;
use super::registry::Checker;
use super::report::{Checked, EventResult, EveryEvent};

/// `--format auto`: JSON Lines when the first non-blank line is a whole JSON object and
/// another non-blank line follows, JSON when the first non-blank byte opens an object or
/// array, an HTTP message when the first line is a request line, a status line or a header;
/// JSON otherwise, so the parser names what is wrong.
pub(super) fn detect(bytes: &[u8]) -> Format {
    match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') if is_json_lines(bytes) => Format::JsonLines,
        Some(b'{' | b'[') => Format::Json,
        _ if looks_like_http(bytes) => Format::Http,
        _ => Format::Json,
    }
}

/// Whether the input reads as JSON Lines rather than one JSON document. A pretty-printed
/// event opens with a line that is not a whole object (`{` alone, or the first members), and
/// one event on one line has no second line, so both stay one event.
fn is_json_lines(bytes: &[u8]) -> bool {
    let mut lines = json_lines(bytes);
    let Some((_, first)) = lines.next() else {
        return false;
    };
    lines.next().is_some() && serde_json::from_slice::<Value>(first).is_ok_and(|v| v.is_object())
}

/// The non-blank lines of JSON Lines with their 1-based numbers. `\n` ends a line and a `\r`
/// before it is dropped, so files written on Windows read the same.
pub(super) fn json_lines(bytes: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(index, line)| (index + 1, line.strip_suffix(b"\r").unwrap_or(line)))
        .filter(|(_, line)| !line.iter().all(u8::is_ascii_whitespace))
}

/// JSON Lines: each non-blank line is one event, validated on its own; a line that is not an
/// event, or is over the event limit (R-11), is a finding on that line, and the other lines
/// are still checked.
pub(super) fn check_json_lines(validator: &Checker, bytes: &[u8]) -> Checked {
    let mut checked = Checked::listing("lines");
    for (index, (line, text)) in json_lines(bytes).enumerate() {
        checked.add(|| {
            let mut event =
                EventResult::from_report(Some(index), &validator.validate_bytes::<Json>(text));
            event.line = Some(line);
            event
        });
    }
    checked
}

fn looks_like_http(bytes: &[u8]) -> bool {
    http_message::looks_like_http_message(bytes)
}

/// A raw HTTP/1.1 message: structured mode and batches are validated as JSON (every
/// finding); binary mode is read into an event first, so a broken header stops at the first
/// problem, and the event read is then validated in full.
pub(super) fn check_http(validator: &Checker, bytes: &[u8]) -> Checked {
    let request = match http_message::parse_http_message(bytes) {
        Ok(request) => request,
        Err(error) => {
            // Not an HTTP message at all: the binding's rule under the profile checked.
            let rule = validator.policy().binding_rule(BindingConcern::BinaryMode);
            return Checked::refused("message", rule, error.to_string());
        }
    };
    let (headers, body) = (request.headers(), request.body());
    let format = http::content_type(headers)
        .ok()
        .flatten()
        .and_then(StructuredFormat::from_media_type);
    match format {
        Some((StructuredFormat::Protobuf, batch)) => {
            return check_protobuf(validator, body, batch);
        }
        Some((StructuredFormat::Avro, _)) => {
            return Checked::event(&validator.validate_bytes::<Avro>(body));
        }
        _ => {}
    }
    match http::content_mode(headers) {
        Ok(ContentMode::Structured) => Checked::event(&validator.validate_bytes::<Json>(body)),
        Ok(ContentMode::Batch) => {
            let mut every = EveryEvent::default();
            let report = validator.validate_batch_bytes_each::<Json>(body, &mut |e| every.see(e));
            Checked::batch(&report, every)
        }
        Ok(ContentMode::Binary) => {
            // The headers are read under the checker's policy: a literal reading it tolerates
            // (`--tolerate-literal-headers`) is a warning in the event's report.
            let event = http::structured_document(headers, body, validator.policy()).and_then(
                |(_, document, warnings)| {
                    let event = AnyEvent::from_slice(&document)?;
                    Ok((event, warnings))
                },
            );
            match event {
                Ok((event, warnings)) => {
                    let mut report = validator.validate(&event);
                    report.extend(warnings);
                    Checked::event(&report)
                }
                Err(error) => Checked::refused_with(error.violation_under(validator.policy())),
            }
        }
        Err(error) => Checked::refused_with(error.violation_under(validator.policy())),
    }
}

/// The Protobuf format, one event or a batch: the format's reader collecting every finding
/// (the wire's, the attributes' and the chosen profile's), as for JSON and Avro.
pub(super) fn check_protobuf(validator: &Checker, bytes: &[u8], batch: bool) -> Checked {
    if batch {
        let mut every = EveryEvent::default();
        let report = validator.validate_batch_bytes_each::<Protobuf>(bytes, &mut |e| every.see(e));
        Checked::batch(&report, every)
    } else {
        Checked::event(&validator.validate_bytes::<Protobuf>(bytes))
    }
}

/// Kafka records in the runtime's JSON record form ([`KafkaRecord::from_json`]): an object is
/// one record, an array several (reported by index). Structured records are validated as
/// JSON; binary ones are read into an event first, as for HTTP.
pub(super) fn check_kafka(validator: &Checker, bytes: &[u8]) -> Checked {
    // Input that is no record: the binding's rule under the profile checked.
    let binary = validator.policy().binding_rule(BindingConcern::BinaryMode);
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        // An array is read one record at a time, each dropped once checked: 349,000 `{}`
        // records held as `Value`s at once took tens of bytes of memory per byte of input.
        let mut checked = Checked::listing("records");
        let mut index = 0;
        let read = each_element(bytes, |record| {
            let record = serde_json::from_str::<Value>(record.get());
            checked.add(|| match record {
                Ok(record) => check_kafka_record(validator, Some(index), &record),
                Err(error) => EventResult::refused(
                    Some(index),
                    vec![Violation::error(
                        binary,
                        "record",
                        "",
                        format!("is not JSON: {error}"),
                    )],
                ),
            });
            index += 1;
        });
        return match read {
            Ok(()) => checked,
            Err(error) => Checked::refused("record", binary, format!("is not JSON: {error}")),
        };
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(record @ Value::Object(_)) => {
            let mut checked = Checked::listing("record");
            checked.add(|| check_kafka_record(validator, None, &record));
            checked
        }
        Ok(_) => Checked::refused(
            "record",
            binary,
            "is neither a record object nor an array of records".to_owned(),
        ),
        Err(error) => Checked::refused("record", binary, format!("is not JSON: {error}")),
    }
}

/// Calls `each` with every element of the JSON array `bytes`, in order, as it is read.
fn each_element<'de>(
    bytes: &'de [u8],
    each: impl FnMut(&'de RawValue),
) -> Result<(), serde_json::Error> {
    struct Elements<F>(F);
    impl<'de, F: FnMut(&'de RawValue)> Visitor<'de> for Elements<F> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an array of records")
        }
        fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
            while let Some(element) = seq.next_element::<&'de RawValue>()? {
                (self.0)(element);
            }
            Ok(())
        }
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    serde::Deserializer::deserialize_seq(&mut deserializer, Elements(each))?;
    deserializer.end()
}

fn check_kafka_record(validator: &Checker, index: Option<usize>, record: &Value) -> EventResult {
    let refused = |findings: Vec<Violation>| EventResult::refused(index, findings);
    let record = match KafkaRecord::try_from(record) {
        Ok(record) => record,
        Err(error) => return refused(Vec::from(error)),
    };
    let content_type = record
        .header(kafka::CONTENT_TYPE)
        .flatten()
        .and_then(|value| std::str::from_utf8(value).ok());
    let value = record.value.as_deref().unwrap_or_default();
    match content_type.and_then(StructuredFormat::from_media_type) {
        Some((StructuredFormat::Protobuf, _)) => {
            return EventResult::from_report(index, &validator.validate_bytes::<Protobuf>(value));
        }
        Some((StructuredFormat::Avro, _)) => {
            return EventResult::from_report(index, &validator.validate_bytes::<Avro>(value));
        }
        _ => {}
    }
    if let Detected::Mode(ContentMode::Structured) = ContentMode::detect(content_type) {
        return EventResult::from_report(index, &validator.validate_bytes::<Json>(value));
    }
    match kafka::from_record::<AnyEvent>(&record) {
        Ok(event) => EventResult::from_report(index, &validator.validate(&event)),
        Err(error) => refused(vec![error.violation_under(validator.policy())]),
    }
}
