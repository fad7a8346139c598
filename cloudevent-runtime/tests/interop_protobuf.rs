//! Interop of the Protobuf format with an independent implementation: the Python `protobuf`
//! runtime, with our copy of the specification's schema (`proto/cloudevents.proto`)
//! compiled by `python3 -m grpc_tools.protoc` (`cargo xtask test` installs both packages).
//!
//! - ours -> Python: events we write, covering every attribute type and all three data
//!   forms, and a batch, are parsed by Python and printed back as JSON (the Protobuf JSON
//!   mapping), which is compared field by field.
//! - Python -> ours: a batch Python built is read by `Batch::from_protobuf` and each event's
//!   attributes and data are checked.
//!
//! A missing `python3`, `protobuf` or `grpcio-tools` fails the test with the command that
//! installs it; the peer is killed after a timeout.
#![cfg(feature = "protobuf")]

use cloudevent_runtime::Attributes;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cloudevent_runtime::{AnyEvent, Batch, Data, ExtensionValue, Protobuf, Timestamp};
use serde_json::{Value, json};

const PEER_TIMEOUT: Duration = Duration::from_secs(60);

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Compiles our .proto for Python into a fresh temporary directory.
fn compiled() -> tempfile::TempDir {
    let out = tempfile::tempdir().expect("a temporary directory");
    let proto_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("proto");
    let status = Command::new("python3")
        .args(["-m", "grpc_tools.protoc"])
        .arg(format!("-I{}", proto_dir.display()))
        .arg(format!("--python_out={}", out.path().display()))
        .arg(proto_dir.join("cloudevents.proto"))
        .status()
        .expect("python3 must be installed (cargo xtask test installs the interop packages)");
    assert!(
        status.success(),
        "python3 -m grpc_tools.protoc failed: install the peer with `python3 -m pip install protobuf==7.36.2 grpcio-tools==1.84.0` or run `cargo xtask test`"
    );
    out
}

/// Runs the Python peer with `input` on stdin, bounded by [`PEER_TIMEOUT`].
fn peer(dir: &Path, mode: &str, input: &[u8]) -> Vec<u8> {
    let script = repo().join("tests/interop/python/protobuf_peer.py");
    let mut child = Command::new("python3")
        .arg(&script)
        .arg(mode)
        .env("PYTHONPATH", dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 must be installed");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("writing to the peer");
    let started = Instant::now();
    loop {
        match child.try_wait().expect("waiting for the peer") {
            Some(status) => {
                let mut out = Vec::new();
                let mut err = String::new();
                child
                    .stdout
                    .take()
                    .expect("stdout")
                    .read_to_end(&mut out)
                    .ok();
                child
                    .stderr
                    .take()
                    .expect("stderr")
                    .read_to_string(&mut err)
                    .ok();
                assert!(status.success(), "the Python peer failed ({mode}): {err}");
                return out;
            }
            None if started.elapsed() > PEER_TIMEOUT => {
                child.kill().ok();
                child.wait().ok();
                panic!("the Python peer did not finish within {PEER_TIMEOUT:?} ({mode})");
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

fn our_event() -> AnyEvent {
    let mut event = AnyEvent::new(
        "ours-1",
        "https://orders.example.com/checkout",
        "com.example.order.created",
    );
    event.set_datacontenttype(Some("text/plain".into()));
    event.set_subject(Some("order-1".into()));
    event.set_dataschema(Some("https://schemas.example.com/orders/v1.json".into()));
    event.set_time(Some(
        Timestamp::try_from("2026-03-28T14:22:31.500Z").unwrap(),
    ));
    let extensions = event.extensions_mut();
    extensions.insert("flag", true);
    extensions.insert("hop", -7);
    extensions.insert("region", "eu");
    extensions.insert("blob", cloudevent_runtime::Binary::from(vec![0, 255]));
    extensions.insert(
        "origin",
        cloudevent_runtime::Uri::try_from("https://example.com/a").unwrap(),
    );
    extensions.insert(
        "dataref",
        cloudevent_runtime::UriRef::try_from("/blobs/1").unwrap(),
    );
    extensions.insert(
        "seen",
        Timestamp::try_from("1970-01-01T00:00:00.000001Z").unwrap(),
    );
    event.set_data(Some(Data::Text("hello".into())));
    event
}

#[test]
fn python_reads_what_we_write() {
    let dir = compiled();
    let event = our_event();
    let printed: Value = serde_json::from_slice(&peer(
        dir.path(),
        "decode-event",
        &event.encode::<Protobuf>().unwrap(),
    ))
    .unwrap();
    let expected = json!({
        "id": "ours-1",
        "source": "https://orders.example.com/checkout",
        "spec_version": "1.0",
        "type": "com.example.order.created",
        "attributes": {
            "datacontenttype": {"ce_string": "text/plain"},
            "dataschema": {"ce_uri": "https://schemas.example.com/orders/v1.json"},
            "subject": {"ce_string": "order-1"},
            "time": {"ce_timestamp": "2026-03-28T14:22:31.500Z"},
            "flag": {"ce_boolean": true},
            "hop": {"ce_integer": -7},
            "region": {"ce_string": "eu"},
            "blob": {"ce_bytes": "AP8="},
            "origin": {"ce_uri": "https://example.com/a"},
            "dataref": {"ce_uri_ref": "/blobs/1"},
            "seen": {"ce_timestamp": "1970-01-01T00:00:00.000001Z"},
        },
        "text_data": "hello",
    });
    assert_eq!(printed, expected);

    // The other data forms, and a batch of them.
    let mut binary = AnyEvent::new("ours-2", "/orders", "com.example.order.created");
    binary.set_data(Some(Data::Binary(vec![1, 2, 3])));
    let mut proto = AnyEvent::new("ours-3", "/orders", "com.example.order.created");
    proto.set_protobuf_data("type.googleapis.com/google.protobuf.Timestamp", vec![8, 42]);
    let mut json_data = AnyEvent::new("ours-4", "/orders", "com.example.order.created");
    json_data.set_datacontenttype(Some("application/json".into()));
    json_data.set_data(Some(Data::json(r#"{"n":1}"#).unwrap()));
    let batch = Batch::from(vec![binary, proto, json_data]);
    let printed: Value = serde_json::from_slice(&peer(
        dir.path(),
        "decode-batch",
        &batch.encode::<Protobuf>().unwrap(),
    ))
    .unwrap();
    let events = printed["events"].as_array().expect("events");
    assert_eq!(events.len(), 3, "{printed}");
    assert_eq!(events[0]["binary_data"], "AQID");
    assert_eq!(
        events[1]["proto_data"],
        json!({"@type": "type.googleapis.com/google.protobuf.Timestamp", "value": "1970-01-01T00:00:42Z"})
    );
    assert_eq!(events[2]["text_data"], r#"{"n":1}"#);
}

#[test]
fn we_read_what_python_writes() {
    let dir = compiled();
    let bytes = peer(dir.path(), "encode-batch", b"");
    let batch = Batch::decode::<Protobuf>(&bytes).unwrap_or_else(|e| panic!("{e}"));
    let events = &batch[..];
    assert_eq!(events.len(), 5);

    let text = &events[0];
    assert_eq!(text.id(), "py-text");
    assert_eq!(text.datacontenttype(), Some("text/plain"));
    assert_eq!(text.subject(), Some("order-1"));
    assert_eq!(
        text.dataschema(),
        Some("https://schemas.example.com/orders/v1.json")
    );
    assert_eq!(
        text.time().map(Timestamp::as_str),
        Some("2026-03-28T14:22:31.500Z")
    );
    let value = |name: &str| text.extensions().get(name).map(|v| v.as_value());
    assert_eq!(value("flag"), Some(ExtensionValue::Boolean(true)));
    assert_eq!(value("hop"), Some(ExtensionValue::Integer(i32::MIN)));
    assert_eq!(value("region"), Some(ExtensionValue::String("eu")));
    assert_eq!(value("blob"), Some(ExtensionValue::Binary(&[0, 255])));
    assert_eq!(
        value("origin"),
        Some(ExtensionValue::Uri("https://example.com/a"))
    );
    assert_eq!(
        value("dataref"),
        Some(ExtensionValue::UriReference("/blobs/1"))
    );
    assert_eq!(
        value("seen"),
        Some(ExtensionValue::Timestamp("1970-01-01T00:00:00.000001Z"))
    );
    assert_eq!(text.data(), Some(&Data::Text("hello".into())));

    assert_eq!(
        events[1].data(),
        Some(&Data::json(r#"{"orderId":"order-1"}"#).unwrap())
    );
    assert_eq!(events[2].data(), Some(&Data::Binary(vec![1, 2, 3])));
    assert_eq!(
        events[3].protobuf_type_url(),
        Some("type.googleapis.com/google.protobuf.Timestamp")
    );
    assert_eq!(events[3].data(), Some(&Data::Binary(vec![8, 42])));
    assert_eq!(events[4].data(), None);

    // Each event Python wrote reads alone too, and what we write back Python reads again.
    for event in events {
        assert_eq!(
            AnyEvent::decode::<Protobuf>(&event.encode::<Protobuf>().unwrap()).unwrap(),
            *event
        );
    }
    let again: Value = serde_json::from_slice(&peer(
        dir.path(),
        "decode-batch",
        &batch.encode::<Protobuf>().unwrap(),
    ))
    .unwrap();
    assert_eq!(again["events"].as_array().map(Vec::len), Some(5));
}
