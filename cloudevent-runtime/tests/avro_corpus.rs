//! The shared corpus (`fixtures/corpus/`) through the Avro door: every structured case whose
//! event object the Avro format can carry is written as an Avro datum (attributes in the
//! object's member order, `data` last) and read with `avro::decode` under the case's profile.
//! The door must accept what the corpus accepts and reject the rest naming one of the
//! expected rules, and give the JSON reader's verdict on the same object: one verdict.
//!
//! Not carried (skipped, and counted): members the Avro `attribute` union cannot hold (a
//! float, an object, an array, an integer outside `int`), `data` and `data_base64` together,
//! `data_base64` that is not base64, and JSON data without a `datacontenttype` that the
//! schema's JSON representation cannot hold.
#![cfg(feature = "avro")]

use std::path::PathBuf;
use std::str::FromStr;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use cloudevent_runtime::{AnyEvent, Avro, Data, Json, Policy, Profile};
use serde_json::Value;

fn long(out: &mut Vec<u8>, value: i64) {
    let mut n = ((value << 1) ^ (value >> 63)) as u64;
    while n >= 0x80 {
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn string(out: &mut Vec<u8>, text: &[u8]) {
    long(out, text.len() as i64);
    out.extend_from_slice(text);
}

/// The object as an Avro datum, or `None` when the format cannot carry it.
fn datum(object: &serde_json::Map<String, Value>) -> Option<Vec<u8>> {
    if object.contains_key("data") && object.contains_key("data_base64") {
        return None;
    }
    let attributes: Vec<(&String, &Value)> = object
        .iter()
        .filter(|(name, _)| *name != "data" && *name != "data_base64")
        .collect();
    let mut out = Vec::new();
    if !attributes.is_empty() {
        long(&mut out, attributes.len() as i64);
    }
    for (name, value) in &attributes {
        string(&mut out, name.as_bytes());
        match value {
            Value::Null => long(&mut out, 0),
            Value::Bool(b) => {
                long(&mut out, 1);
                out.push(u8::from(*b));
            }
            Value::Number(n) => {
                let i = i32::try_from(n.as_i64()?).ok()?;
                long(&mut out, 2);
                long(&mut out, i64::from(i));
            }
            Value::String(s) => {
                long(&mut out, 3);
                string(&mut out, s.as_bytes());
            }
            _ => return None,
        }
    }
    long(&mut out, 0);
    let content_type = object.get("datacontenttype").and_then(Value::as_str);
    match (object.get("data"), object.get("data_base64")) {
        (None | Some(Value::Null), None | Some(Value::Null)) => long(&mut out, 1),
        (None, Some(Value::String(b64))) => {
            long(&mut out, 0);
            string(&mut out, &STANDARD.decode(b64).ok()?);
        }
        (None, Some(_)) => return None,
        (Some(data), _) => {
            let json = content_type.is_none_or(cloudevent_runtime::rules::is_json_media_type);
            match (data, content_type) {
                (Value::String(text), Some(_)) if !json => {
                    long(&mut out, 6);
                    string(&mut out, text.as_bytes());
                }
                (_, Some(_)) if json => {
                    long(&mut out, 6);
                    string(&mut out, serde_json::to_string(data).ok()?.as_bytes());
                }
                (_, Some(_)) => return None,
                // JSON without a datacontenttype: the schema's representation, written by
                // our encoder from an otherwise empty event.
                (_, None) => {
                    let mut carrier = AnyEvent::new("1", "/s", "t");
                    carrier.set_data(Some(Data::json(serde_json::to_string(data).ok()?).ok()?));
                    let bytes = carrier.encode::<Avro>().ok()?;
                    let head = AnyEvent::new("1", "/s", "t").encode::<Avro>().ok()?;
                    out.extend_from_slice(&bytes[head.len() - 1..]);
                }
            }
        }
    }
    Some(out)
}

#[test]
fn the_avro_door_gives_the_corpus_verdicts() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/corpus");
    let (mut checked, mut skipped) = (0, 0);
    let mut mismatches = Vec::new();
    for file in [
        "json-format.json",
        "profiles.json",
        "bugs.json",
        "hostile.json",
    ] {
        let text = std::fs::read_to_string(corpus.join(file)).unwrap();
        let cases: Vec<Value> = serde_json::from_str(&text).unwrap();
        for case in &cases {
            let Some(Value::Object(object)) = case["input"].get("structured") else {
                continue;
            };
            if case.get("repeat").is_some() {
                skipped += 1;
                continue;
            }
            let Some(bytes) = datum(object) else {
                skipped += 1;
                continue;
            };
            checked += 1;
            let name = case["name"].as_str().unwrap_or_default();
            let profile = Profile::from_str(case["profile"].as_str().unwrap()).unwrap();
            let policy = Policy::new(profile);
            let avro = AnyEvent::decode_with::<Avro>(&bytes, &policy);
            let json = AnyEvent::decode_with::<Json>(&serde_json::to_vec(object).unwrap(), &policy);
            let expected_rules: Vec<&str> = match &case["expect"] {
                Value::String(accept) if accept == "accept" => Vec::new(),
                expect => expect["reject"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap())
                    .collect(),
            };
            match (&avro, expected_rules.is_empty()) {
                (Ok(_), true) => {}
                (Ok(_), false) => mismatches.push(format!(
                    "{file} {name}: accepted, expected {expected_rules:?}"
                )),
                (Err(error), true) => mismatches.push(format!("{file} {name}: refused: {error}")),
                (Err(error), false) => {
                    let rule = error.rule().map_or("", |r| r.as_str());
                    if !expected_rules.contains(&rule) {
                        mismatches.push(format!(
                            "{file} {name}: {error}, expected one of {expected_rules:?}"
                        ));
                    }
                }
            }
            let same = match (&avro, &json) {
                // An Avro `null` is no data: a JSON `"data": null` comes back as none.
                (Ok(a), Ok(j)) if j.data().is_some_and(|d| *d == Data::json("null").unwrap()) => {
                    let mut j = j.clone();
                    j.set_data(None);
                    *a == j
                }
                (Ok(a), Ok(j)) => a == j,
                (Err(a), Err(j)) => a.rule() == j.rule() && a.attribute() == j.attribute(),
                _ => false,
            };
            if !same {
                mismatches.push(format!(
                    "{file} {name}: the JSON reader says {:?}, the Avro reader {:?}",
                    json.as_ref().map(|_| "accept").map_err(ToString::to_string),
                    avro.as_ref().map(|_| "accept").map_err(ToString::to_string),
                ));
            }
        }
    }
    assert!(
        checked >= 100,
        "only {checked} cases carried ({skipped} skipped)"
    );
    assert!(
        mismatches.is_empty(),
        "{} of {checked} cases ({skipped} skipped):\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
