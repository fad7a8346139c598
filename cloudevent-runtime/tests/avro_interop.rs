//! Avro interop with an independent implementation (issue 14 §4): Python's `fastavro`, on our
//! transcription of the spec's schema (`avro::SCHEMA`), both ways.
//!
//! - ours -> fastavro: our bytes for events covering every attribute type and every data
//!   form are read by `tests/interop/python/avro_peer.py`, which describes what it read and
//!   writes the record back; the description is what we meant, and we read the bytes it
//!   wrote back to the same event.
//! - fastavro -> ours: the events the peer writes (every attribute type, an unset attribute,
//!   every data form) are read by us to what the peer says it wrote.
//!
//! `cargo xtask test` installs fastavro (pinned); without it the test fails and says so.
#![cfg(feature = "avro")]

use cloudevent_runtime::Attributes;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use cloudevent_runtime::{AnyEvent, Avro, Binary, Data, ExtensionValue, Timestamp};
use serde_json::{Value, json};

/// How long the peer may run before it is killed and the test fails.
const PEER_TIMEOUT: Duration = Duration::from_secs(60);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs the peer with `command`, `input` on its stdin; its stdout as JSON lines.
fn peer(command: &str, input: String) -> Vec<Value> {
    let schema = root().join("cloudevent-runtime/src/format/avro/cloudevents.avsc");
    let script = root().join("tests/interop/python/avro_peer.py");
    let mut child = Command::new("python3")
        .arg(&script)
        .arg(&schema)
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 must be installed (cargo xtask test installs the interop peers)");
    let mut stdin = child.stdin.take().expect("piped stdin");
    stdin
        .write_all(input.as_bytes())
        .expect("write to the peer");
    drop(stdin);
    let id = child.id();
    let (done, wait) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait_with_output());
    });
    let output = match wait.recv_timeout(PEER_TIMEOUT) {
        Ok(output) => output.expect("the peer ran"),
        Err(_) => {
            // The child is ours: stop it by its id and fail.
            let _ = Command::new("kill").arg(id.to_string()).status();
            panic!("the Avro peer did not finish within {PEER_TIMEOUT:?}");
        }
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the Avro peer failed ({}); is fastavro installed? `cargo xtask test` installs it:\n{stderr}",
        output.status
    );
    String::from_utf8(output.stdout)
        .expect("the peer writes UTF-8")
        .lines()
        .map(|line| serde_json::from_str(line).expect("the peer writes JSON lines"))
        .collect()
}

/// What an event is in the Avro record, as the peer describes it.
fn describe(event: &AnyEvent) -> Value {
    let mut attributes = serde_json::Map::new();
    let mut string = |name: &str, value: &str| {
        attributes.insert(name.to_owned(), json!(["string", value]));
    };
    string("specversion", "1.0");
    string("id", event.id());
    string("source", event.source());
    string("type", event.ty());
    for (name, value) in [
        ("datacontenttype", event.datacontenttype()),
        ("dataschema", event.dataschema()),
        ("subject", event.subject()),
        ("time", event.time().map(Timestamp::as_str)),
    ] {
        if let Some(value) = value {
            string(name, value);
        }
    }
    for (name, value) in event.extensions() {
        let typed = match value.as_value() {
            ExtensionValue::Boolean(b) => json!(["boolean", b]),
            ExtensionValue::Integer(i) => json!(["int", i]),
            ExtensionValue::Binary(b) => json!(["bytes", STANDARD.encode(b)]),
            ExtensionValue::String(s)
            | ExtensionValue::Uri(s)
            | ExtensionValue::UriReference(s)
            | ExtensionValue::Timestamp(s) => json!(["string", s]),
        };
        attributes.insert(name.to_owned(), typed);
    }
    let data = match event.data() {
        None => Value::Null,
        Some(Data::Binary(bytes)) => json!({ "bytes": STANDARD.encode(bytes) }),
        Some(Data::Text(text)) => json!({ "string": text }),
        Some(Data::Json(raw)) if event.datacontenttype().is_some() => {
            json!({ "string": raw.get() })
        }
        Some(Data::Json(raw)) => match serde_json::from_str::<Value>(raw.get()).unwrap() {
            Value::Null => Value::Null,
            Value::String(text) => json!({ "string": text }),
            value => json!({ "json": value }),
        },
    };
    json!({ "attributes": attributes, "data": data })
}

fn event(case: &str, datacontenttype: Option<&str>, data: Option<Data>) -> AnyEvent {
    let mut event = AnyEvent::new(
        format!("rs-{case}"),
        "https://orders.example.com/checkout",
        "com.example.order.created",
    );
    event.set_datacontenttype(datacontenttype.map(str::to_owned));
    event.set_data(data);
    event
}

/// Events covering every attribute type and every data form.
fn ours() -> Vec<(&'static str, AnyEvent)> {
    let json = |text: &str| Some(Data::json(text).unwrap());
    let mut every = event(
        "every-attribute",
        Some("application/json"),
        json(r#"{"order_id":"order-1","total_cents":1299}"#),
    );
    every.set_dataschema(Some(
        "https://schemas.example.com/orders/created/v1.json".into(),
    ));
    every.set_subject(Some("order-1".into()));
    every.set_time(Some(
        Timestamp::try_from("2026-03-28T14:22:31.123456Z").unwrap(),
    ));
    let extensions = every.extensions_mut();
    extensions.insert("express", true);
    extensions.insert("priority", i32::MIN);
    extensions.insert("hops", i32::MAX);
    extensions.insert("region", "eu-west-1 \u{e9}\u{4e2d}");
    extensions.insert("checksum", Binary::from(*b"\x00\x01\xfe\xff"));
    vec![
        ("every-attribute", every),
        (
            "binary",
            event(
                "binary",
                Some("application/octet-stream"),
                Some(Data::Binary((0..=255).collect())),
            ),
        ),
        (
            "text",
            event(
                "text",
                Some("text/plain; charset=utf-8"),
                Some(Data::Text("h\u{e9}llo \u{2603}\nline 2".into())),
            ),
        ),
        (
            "json-object",
            event(
                "json-object",
                None,
                json(
                    r#"{"n":1.5,"i":42,"s":"x","b":false,"z":null,"o":{"k":"v","list":[{"x":1}]}}"#,
                ),
            ),
        ),
        (
            "json-array",
            event("json-array", None, json(r#"[{"a":1},{"b":"c"},{}]"#)),
        ),
        ("json-boolean", event("json-boolean", None, json("true"))),
        ("json-double", event("json-double", None, json("-2.25"))),
        (
            "json-string",
            event("json-string", None, json(r#""just a string""#)),
        ),
        ("no-data", event("no-data", None, None)),
        (
            "empty-bytes",
            event("empty-bytes", None, Some(Data::Binary(Vec::new()))),
        ),
    ]
}

#[test]
fn fastavro_reads_what_we_write_and_we_read_what_it_writes_back() {
    let events = ours();
    let input: String = events
        .iter()
        .map(|(case, event)| {
            let bytes = event.encode::<Avro>().unwrap();
            format!(
                "{}\n",
                json!({ "case": case, "avro": STANDARD.encode(bytes) })
            )
        })
        .collect();
    let answers = peer("read", input);
    assert_eq!(
        answers.len(),
        events.len(),
        "one answer per event: {answers:?}"
    );
    let mut mismatches = Vec::new();
    for ((case, event), answer) in events.iter().zip(&answers) {
        assert_eq!(answer["case"], *case);
        if answer["ok"] != true {
            mismatches.push(format!(
                "{case}: fastavro refused our bytes: {}",
                answer["error"]
            ));
            continue;
        }
        if answer["event"] != describe(event) {
            mismatches.push(format!(
                "{case}: fastavro read\n  {}\nwe meant\n  {}",
                answer["event"],
                describe(event)
            ));
        }
        let back = STANDARD.decode(answer["avro"].as_str().unwrap()).unwrap();
        match AnyEvent::decode::<Avro>(&back) {
            Ok(read) if read == *event => {}
            Ok(read) => mismatches.push(format!("{case}: fastavro's bytes read as {read:?}")),
            Err(error) => mismatches.push(format!("{case}: fastavro's bytes refused: {error}")),
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn we_read_what_fastavro_writes() {
    let emitted = peer("emit", String::new());
    let cases: Vec<&str> = emitted
        .iter()
        .map(|m| m["case"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = ours().iter().map(|(case, _)| *case).collect();
    assert_eq!(cases, expected, "the peer writes the same cases");
    let mut mismatches = Vec::new();
    for message in &emitted {
        let case = message["case"].as_str().unwrap();
        let bytes = STANDARD.decode(message["avro"].as_str().unwrap()).unwrap();
        match AnyEvent::decode::<Avro>(&bytes) {
            Ok(event) if describe(&event) == message["event"] => {
                // And what we write of it, fastavro's reading of it again is the same.
                let again = AnyEvent::decode::<Avro>(&event.encode::<Avro>().unwrap()).unwrap();
                if again != event {
                    mismatches.push(format!("{case}: our own round trip changed it"));
                }
            }
            Ok(event) => mismatches.push(format!(
                "{case}: we read\n  {}\nfastavro wrote\n  {}",
                describe(&event),
                message["event"]
            )),
            Err(error) => mismatches.push(format!("{case}: refused: {error}")),
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
