//! Writing a signed event back into what held it: the binary-mode headers an HTTP message or
//! a Kafka record loses before the signed event's are written, and a Kafka record in the JSON
//! form `KafkaRecord::from_json` reads.

use cloudevent_runtime::Binary;
use cloudevent_runtime::binding::http::HEADER_PREFIX as HTTP_PREFIX;
use cloudevent_runtime::binding::kafka::{
    CONTENT_TYPE, HEADER_PREFIX as KAFKA_PREFIX, KafkaRecord,
};
use http::HeaderMap;
use http::header::CONTENT_TYPE as HTTP_CONTENT_TYPE;
use serde_json::Value;

/// Removes what carries an event in HTTP binary mode: the `ce-` headers and `Content-Type`
/// (`datacontenttype`), so the signed event's are the only ones.
pub(super) fn clear_binary_headers(headers: &mut HeaderMap) {
    let names: Vec<_> = headers
        .keys()
        .filter(|name| name.as_str().starts_with(HTTP_PREFIX) || **name == HTTP_CONTENT_TYPE)
        .cloned()
        .collect();
    for name in names {
        headers.remove(name);
    }
}

/// Whether a Kafka header carries an event in binary mode: a `ce_` header (the prefix in any
/// case) or `content-type`.
pub(super) fn is_binary_kafka_header(name: &str) -> bool {
    name.eq_ignore_ascii_case(CONTENT_TYPE)
        || name
            .get(..KAFKA_PREFIX.len())
            .is_some_and(|prefix| prefix.eq_ignore_ascii_case(KAFKA_PREFIX))
}

/// A record in the JSON form `KafkaRecord::from_json` reads, on one line: text as a string,
/// bytes that are not UTF-8 as `{"base64": ...}` (`value_base64` for the value), none as
/// `null`; headers in their order (the reader takes the object by name, in name order).
pub(super) fn record_json(record: &KafkaRecord) -> String {
    let mut headers = String::from("{");
    for (i, (name, value)) in record.headers.iter().enumerate() {
        if i > 0 {
            headers.push(',');
        }
        headers.push_str(&Value::from(name.as_str()).to_string());
        headers.push(':');
        headers.push_str(&bytes_json(value.as_deref()).to_string());
    }
    headers.push('}');
    let (value_name, value) = match record.value.as_deref() {
        Some(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) => ("value", Value::from(text)),
            Err(_) => ("value_base64", Value::from(Binary::from(bytes).to_string())),
        },
        None => ("value", Value::Null),
    };
    format!(
        r#"{{"key":{},"headers":{headers},"{value_name}":{value}}}"#,
        bytes_json(record.key.as_deref())
    )
}

/// An array of records, one a line.
pub(super) fn record_array(records: &[String]) -> String {
    if records.is_empty() {
        return "[]\n".to_owned();
    }
    format!("[\n{}\n]\n", records.join(",\n"))
}

fn bytes_json(bytes: Option<&[u8]>) -> Value {
    let Some(bytes) = bytes else {
        return Value::Null;
    };
    match std::str::from_utf8(bytes) {
        Ok(text) => Value::from(text),
        Err(_) => serde_json::json!({ "base64": Binary::from(bytes).to_string() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_as_written() {
        let record = KafkaRecord {
            key: Some(b"\x00\xff".to_vec()),
            // In name order: the JSON form is an object, which the reader takes by name.
            headers: vec![
                ("ce_id".into(), Some(b"1".to_vec())),
                ("x-null".into(), None),
                ("x-raw".into(), Some(b"\xff".to_vec())),
            ],
            value: Some(b"\x01\xfe".to_vec()),
        };
        let json = record_json(&record);
        assert_eq!(KafkaRecord::from_json(json.as_bytes()).unwrap(), record);
        let text = KafkaRecord {
            key: None,
            headers: Vec::new(),
            value: Some(b"{\"a\":1}".to_vec()),
        };
        assert_eq!(
            record_json(&text),
            r#"{"key":null,"headers":{},"value":"{\"a\":1}"}"#
        );
        assert_eq!(
            KafkaRecord::from_json(record_json(&text).as_bytes()).unwrap(),
            text
        );
    }

    #[test]
    fn binary_headers_are_told_apart() {
        assert!(is_binary_kafka_header("CE_id"));
        assert!(is_binary_kafka_header("Content-Type"));
        assert!(!is_binary_kafka_header("ce"));
        assert!(!is_binary_kafka_header("x-é"));
        let mut headers = HeaderMap::new();
        headers.insert("ce-id", "1".parse().unwrap());
        headers.insert("content-type", "text/plain".parse().unwrap());
        headers.insert("host", "example.com".parse().unwrap());
        clear_binary_headers(&mut headers);
        assert_eq!(headers.len(), 1);
    }
}
