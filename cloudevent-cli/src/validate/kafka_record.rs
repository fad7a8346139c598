//! `--format kafka`: a Kafka record in the CLI's JSON form, read into the binding's
//! [`KafkaRecord`] with every problem of the record reported (INTG-STD-015 R-8).

use cloudevent_runtime::binding::kafka::KafkaRecord;
use cloudevent_runtime::rules::rule;
use cloudevent_runtime::{Binary, Violation};
use serde_json::Value;

const RECORD_MEMBERS: [&str; 4] = ["key", "headers", "value", "value_base64"];

/// Reads one Kafka record in the CLI's JSON form:
///
/// ```text
/// {"key": string|null,
///  "headers": {"<name>": string|null|{"base64": string}},
///  "value": string|null}            or  "value_base64": string|null
/// ```
///
/// Every member may be left out. A text header or `value` is its UTF-8 bytes; `{"base64":
/// ...}` and `value_base64` are standard base64 with padding (RFC 4648 section 4), for bytes
/// that are not UTF-8 text (a binary payload, a header a client sent as raw bytes). Whether a
/// `ce_` header holds UTF-8 (CE Kafka binding 3.2.3) is the binding's check, after this. A
/// null `value` is a record without value (a tombstone). Every problem with the record is
/// reported, not only the first.
///
/// # Errors
/// Not that shape, `value` and `value_base64` both given, or base64 that does not decode.
pub(super) fn kafka_record(record: &Value) -> Result<KafkaRecord, Vec<Violation>> {
    let mut findings = Vec::new();
    let not_a_record = |problem: String| {
        Violation::error(
            rule::INTG_R8,
            "record",
            "",
            format!(
                "is not a Kafka record {{\"key\", \"headers\", \"value\" or \"value_base64\"}}: {problem}"
            ),
        )
    };
    let Value::Object(members) = record else {
        findings.push(not_a_record(format!("found {}", json_type(record))));
        return Err(findings);
    };
    for name in members.keys() {
        if !RECORD_MEMBERS.contains(&name.as_str()) {
            findings.push(not_a_record(format!(
                "unknown member `{name}`, expected one of `key`, `headers`, `value`, `value_base64`"
            )));
        }
    }
    let key = match members.get("key") {
        None | Some(Value::Null) => None,
        Some(Value::String(key)) => Some(key.as_bytes().to_vec()),
        Some(other) => {
            findings.push(not_a_record(format!(
                "`key`: expected a string or null, found {}",
                json_type(other)
            )));
            None
        }
    };
    let mut headers = Vec::new();
    let mut base64 = Vec::new();
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
        (None, None) | (Some(Value::Null), None) | (None, Some(Value::Null)) => None,
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
        Err(findings)
    }
}

/// Decodes a base64 member of a Kafka record, or adds a finding naming the member.
fn decode_base64(member: String, text: &str, findings: &mut Vec<Violation>) -> Option<Vec<u8>> {
    match Binary::from_base64(text) {
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
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
