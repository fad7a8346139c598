//! The one reader of the inputs `validate`, `sign` and `verify` take: the `--format` values,
//! the bounded read (the batch limit, 1 MiB, INTG-STD-015 R-10), `--format auto`, and
//! [`read`], which finds the events an input carries and hands each to the command still
//! encoded, with what holds it (the whole input, a JSON Lines line, an HTTP message, a Kafka
//! record). `validate` checks what it is given, `verify` verifies it, and `sign` signs it and
//! writes it back into the same holder, so the three commands never disagree on what an
//! input is.
//!
//! - `json`: the JSON event format; an object is one event, an array a batch.
//! - `jsonl`: JSON Lines. Lines end at `\n` (a `\r` before it is dropped), blank lines are
//!   skipped, and each other line is one event.
//! - `http`: a raw HTTP/1.1 message (`cloudevent_cli::http_message`); its `Content-Type`
//!   names the Protobuf or Avro format (one event, or a Protobuf batch), else the binding's
//!   content mode: structured (JSON), batched (the JSON batch format) or binary.
//! - `kafka`: a Kafka record in the runtime's JSON form (`KafkaRecord::from_json`), or an
//!   array of them, read one record at a time; a record whose `content-type` names the
//!   Protobuf or Avro format holds one event in it, a structured one the JSON format, any
//!   other is binary mode.
//! - `protobuf`, `protobuf-batch`, `avro`: one event (or a Protobuf batch) in that format.
//! - `auto`: see [`detect`].

use std::io::{self, Read};

use cloudevent_cli::http_message;
use cloudevent_runtime::binding::kafka::{self, KafkaRecord};
use cloudevent_runtime::binding::{BindingError, ContentMode, Detected, StructuredFormat, http};
use cloudevent_runtime::rules::{BindingConcern, rule};
use cloudevent_runtime::{AnyEvent, Policy, Violation, limits};
use serde::de::{SeqAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

/// `--format` of `validate`, `sign` and `verify`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// JSON Lines when the first line is a whole JSON object and more lines follow, JSON when
    /// the input starts with `{` or `[`, else an HTTP message when it looks like one.
    Auto,
    /// The JSON event format: an object is one event, an array a batch.
    Json,
    /// JSON Lines: one event a line, blank lines skipped, findings by 1-based line number.
    #[value(name = "jsonl")]
    JsonLines,
    /// A raw HTTP/1.1 message (structured, binary or batched mode).
    Http,
    /// A Kafka record as JSON, or an array of them: `{"key": string|null|{"base64": string}, "headers": {name:
    /// string|null|{"base64": string}}, "value": string|null}`, or `"value_base64": string`
    /// instead of `value` for bytes (standard base64 with padding, RFC 4648 section 4).
    Kafka,
    /// One event in the CloudEvents Protobuf format (`application/cloudevents+protobuf`).
    Protobuf,
    /// A batch in the CloudEvents Protobuf batch format.
    ProtobufBatch,
    /// One event in the CloudEvents Avro format (`application/cloudevents+avro`).
    Avro,
}

/// Reads one input, at most the batch limit: its bytes, or the finding for an input past the
/// limit, which is not read further and not parsed.
///
/// # Errors
/// The reader's.
pub fn read_bounded(reader: &mut dyn Read) -> io::Result<Result<Vec<u8>, Violation>> {
    let limit = limits::MAX_BATCH_BYTES;
    let mut bytes = Vec::new();
    // One byte past the limit tells "exactly the limit" from "more"; nothing further is read.
    let limit_plus_one = u64::try_from(limit).map_or(u64::MAX, |l| l.saturating_add(1));
    reader.take(limit_plus_one).read_to_end(&mut bytes)?;
    if bytes.len() <= limit {
        return Ok(Ok(bytes));
    }
    Ok(Err(Violation::error(
        rule::INTG_R10,
        "input",
        format!("more than {limit} bytes"),
        format!(
            "exceeds the batch limit of {limit} bytes (an event may hold at most {} bytes, R-11); it was not parsed",
            limits::MAX_EVENT_BYTES
        ),
    )
    .with_hint("split the batch, or move large payloads out with the claim-check pattern")))
}

/// `--format auto`: JSON Lines when the first non-blank line is a whole JSON object and
/// another non-blank line follows, JSON when the first non-blank byte opens an object or
/// array, an HTTP message when the first line is a request line, a status line or a header;
/// JSON otherwise, so the parser names what is wrong. Kafka records and the binary formats
/// are never guessed.
pub fn detect(bytes: &[u8]) -> Format {
    match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') if is_json_lines(bytes) => Format::JsonLines,
        Some(b'{' | b'[') => Format::Json,
        _ if http_message::looks_like_http_message(bytes) => Format::Http,
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
pub fn json_lines(bytes: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(index, line)| (index + 1, line.strip_suffix(b"\r").unwrap_or(line)))
        .filter(|(_, line)| !line.iter().all(u8::is_ascii_whitespace))
}

/// An event format a message or record names in its content type, or the input is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// The JSON event format (and batch format).
    Json,
    /// The CloudEvents Protobuf format (and batch format).
    Protobuf,
    /// The CloudEvents Avro format (no batch format).
    Avro,
}

impl Encoding {
    /// The Protobuf or Avro format a content type names (with whether it is the batch media
    /// type); `None` for anything else, JSON included: JSON is told apart by the binding's
    /// content mode.
    fn binary_format(content_type: Option<&str>) -> Option<(Encoding, bool)> {
        match content_type.and_then(StructuredFormat::from_media_type)? {
            (StructuredFormat::Protobuf, batch) => Some((Encoding::Protobuf, batch)),
            // The Avro format defines no batch: its media type is one event.
            (StructuredFormat::Avro, _) => Some((Encoding::Avro, false)),
            _ => None,
        }
    }
}

/// What a whole input, or an HTTP message's body, holds, not read yet.
#[derive(Debug, Clone, Copy)]
pub enum Body<'a> {
    /// A JSON document: an object is one event, an array a batch.
    Document(&'a [u8]),
    /// One event in an event format.
    Event(Encoding, &'a [u8]),
    /// A batch in an event format's batch format.
    Batch(Encoding, &'a [u8]),
    /// An HTTP message in binary mode: the event is in its headers and body.
    HttpBinary(&'a ::http::HeaderMap, &'a [u8]),
}

/// What a Kafka record's value holds.
#[derive(Debug, Clone, Copy)]
pub enum RecordValue<'a> {
    /// One event in an event format (structured mode).
    Event(Encoding, &'a [u8]),
    /// Binary mode, or what the binding refuses: the record itself is read.
    Binary,
}

/// One event as a JSON Lines line or a Kafka record carries it.
#[derive(Debug, Clone, Copy)]
pub enum Single<'a> {
    /// In an event format: a line (JSON), a structured record's value.
    Event(Encoding, &'a [u8]),
    /// A Kafka record in binary mode (or one the binding refuses).
    KafkaBinary(&'a KafkaRecord),
}

impl<'a> Single<'a> {
    /// What a record carries.
    pub fn of_record(record: &'a KafkaRecord, value: RecordValue<'a>) -> Self {
        match value {
            RecordValue::Event(encoding, bytes) => Single::Event(encoding, bytes),
            RecordValue::Binary => Single::KafkaBinary(record),
        }
    }
}

/// An HTTP message as read, with its start line as written, so it can be written again.
pub struct Message<'a> {
    /// The request or status line, without its line end; `None` when the input has none.
    pub start_line: Option<&'a [u8]>,
    /// The header fields and the body (de-chunked).
    pub request: ::http::Request<Vec<u8>>,
}

/// One part of an input, as [`read`] finds it.
pub enum Part<'a> {
    /// The whole input is one event or batch.
    Whole(Body<'a>),
    /// A non-blank line of JSON Lines: its place among them (from 0), its 1-based line
    /// number and its bytes (one event in the JSON format).
    Line {
        /// The place among the non-blank lines, from 0.
        index: usize,
        /// The 1-based line number.
        line: usize,
        /// The line's bytes.
        bytes: &'a [u8],
    },
    /// An HTTP message and what its body holds.
    Http {
        /// The message.
        message: &'a Message<'a>,
        /// Its body (or, in binary mode, its headers and body).
        body: Body<'a>,
    },
    /// A Kafka record: its place in an array of records (`None` for a lone record).
    Record {
        /// The place in the array, from 0; `None` for a lone record.
        index: Option<usize>,
        /// The record.
        record: &'a KafkaRecord,
        /// What its value holds.
        value: RecordValue<'a>,
    },
    /// A Kafka record (or an element of an array of them) that is not a record, and why.
    NotARecord {
        /// The place in the array, from 0; `None` for a lone record.
        index: Option<usize>,
        /// Every problem found.
        findings: Vec<Violation>,
    },
}

/// What held the parts [`read`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    /// The input itself (one [`Part::Whole`]).
    Input,
    /// JSON Lines.
    Lines,
    /// An HTTP message (one [`Part::Http`]).
    Message,
    /// One Kafka record.
    Record,
    /// An array of Kafka records.
    Records,
}

/// Finds the events `bytes` carries in `format` ([`detect`] for `auto`), calling `each` with
/// every part in order as it is read (an array of records is never held at once). A finding
/// about the input as a whole (not an HTTP message, a content mode the binding refuses, not
/// a record nor an array of them) is the error, citing the rule of `policy`'s profile; what
/// was handed to `each` before it stands.
///
/// # Errors
/// The input as a whole cannot be read in `format`.
pub fn read(
    format: Format,
    bytes: &[u8],
    policy: &Policy,
    each: &mut dyn FnMut(Part<'_>),
) -> Result<Holder, Box<Violation>> {
    let format = match format {
        Format::Auto => detect(bytes),
        other => other,
    };
    match format {
        Format::Auto | Format::Json => each(Part::Whole(Body::Document(bytes))),
        Format::Protobuf => each(Part::Whole(Body::Event(Encoding::Protobuf, bytes))),
        Format::ProtobufBatch => each(Part::Whole(Body::Batch(Encoding::Protobuf, bytes))),
        Format::Avro => each(Part::Whole(Body::Event(Encoding::Avro, bytes))),
        Format::JsonLines => {
            for (index, (line, bytes)) in json_lines(bytes).enumerate() {
                each(Part::Line { index, line, bytes });
            }
            return Ok(Holder::Lines);
        }
        Format::Http => {
            read_http(bytes, policy, each)?;
            return Ok(Holder::Message);
        }
        Format::Kafka => return read_kafka(bytes, policy, each),
    }
    Ok(Holder::Input)
}

/// A raw HTTP/1.1 message: the format its content type names, else the binding's mode.
fn read_http(
    bytes: &[u8],
    policy: &Policy,
    each: &mut dyn FnMut(Part<'_>),
) -> Result<(), Box<Violation>> {
    let request = http_message::parse_http_message(bytes).map_err(|error| {
        // Not an HTTP message at all: the binding's rule under the profile checked.
        let rule = policy.binding_rule(BindingConcern::BinaryMode);
        Box::new(Violation::error(rule, "message", "", error.to_string()))
    })?;
    let message = Message {
        start_line: http_message::start_line(bytes),
        request,
    };
    let (headers, body) = (message.request.headers(), message.request.body().as_slice());
    let content_type = http::content_type(headers).ok().flatten();
    let body = match Encoding::binary_format(content_type) {
        Some((encoding, true)) => Body::Batch(encoding, body),
        Some((encoding, false)) => Body::Event(encoding, body),
        None => match http::content_mode(headers) {
            Ok(ContentMode::Structured) => Body::Event(Encoding::Json, body),
            Ok(ContentMode::Batch) => Body::Batch(Encoding::Json, body),
            Ok(ContentMode::Binary) => Body::HttpBinary(headers, body),
            Err(error) => return Err(Box::new(error.violation_under(policy))),
        },
    };
    each(Part::Http {
        message: &message,
        body,
    });
    Ok(())
}

/// An HTTP message in binary mode read into an event, its headers under `policy` (a literal
/// reading it tolerates, `--tolerate-literal-headers`, is a warning returned beside it).
///
/// # Errors
/// What the binding refuses.
pub fn http_binary(
    headers: &::http::HeaderMap,
    body: &[u8],
    policy: &Policy,
) -> Result<(AnyEvent, Vec<Violation>), BindingError> {
    let (_, document, warnings) = http::structured_document(headers, body, policy)?;
    Ok((AnyEvent::from_slice(&document)?, warnings))
}

/// Kafka records in the runtime's JSON record form ([`KafkaRecord::from_json`]): an object is
/// one record, an array several.
fn read_kafka(
    bytes: &[u8],
    policy: &Policy,
    each: &mut dyn FnMut(Part<'_>),
) -> Result<Holder, Box<Violation>> {
    // Input that is no record: the binding's rule under the profile checked.
    let binary = policy.binding_rule(BindingConcern::BinaryMode);
    let finding = |error: serde_json::Error| {
        Violation::error(binary, "record", "", format!("is not JSON: {error}"))
    };
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        // An array is read one record at a time, each dropped once handed on: 349,000 `{}`
        // records held as `Value`s at once took tens of bytes of memory per byte of input.
        let mut index = 0;
        each_element(bytes, |element| {
            match serde_json::from_str::<Value>(element.get()) {
                Ok(record) => record_part(Some(index), &record, each),
                Err(error) => each(Part::NotARecord {
                    index: Some(index),
                    findings: vec![finding(error)],
                }),
            }
            index += 1;
        })
        .map_err(|error| Box::new(finding(error)))?;
        return Ok(Holder::Records);
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(record @ Value::Object(_)) => {
            record_part(None, &record, each);
            Ok(Holder::Record)
        }
        Ok(_) => Err(Box::new(Violation::error(
            binary,
            "record",
            "",
            "is neither a record object nor an array of records",
        ))),
        Err(error) => Err(Box::new(finding(error))),
    }
}

/// One record of the JSON form handed on, or why it is not one.
fn record_part(index: Option<usize>, record: &Value, each: &mut dyn FnMut(Part<'_>)) {
    let record = match KafkaRecord::try_from(record) {
        Ok(record) => record,
        Err(error) => {
            let findings = Vec::from(error);
            return each(Part::NotARecord { index, findings });
        }
    };
    let content_type = record
        .header(kafka::CONTENT_TYPE)
        .flatten()
        .and_then(|value| std::str::from_utf8(value).ok());
    let value = record.value.as_deref().unwrap_or_default();
    let value = match Encoding::binary_format(content_type) {
        Some((encoding, _)) => RecordValue::Event(encoding, value),
        None if ContentMode::detect(content_type) == Detected::Mode(ContentMode::Structured) => {
            RecordValue::Event(Encoding::Json, value)
        }
        None => RecordValue::Binary,
    };
    each(Part::Record {
        index,
        record: &record,
        value,
    });
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

#[cfg(test)]
mod tests;
