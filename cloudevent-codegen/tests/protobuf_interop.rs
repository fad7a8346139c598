//! The Rust that codegen writes for a `.proto` entry is wire-compatible with the `.proto`
//! file itself as an independent compiler reads it: `python3 -m grpc_tools.protoc` compiles
//! the fixture's `v1.proto`, the Python `protobuf` runtime parses the message our generated
//! struct encodes (every field compared through `MessageToDict`) and encodes it again, and
//! our struct decodes Python's bytes to the value it started from. `cargo xtask test`
//! installs both Python packages; a missing one fails the test with the command that
//! installs it. The peer is killed after a timeout.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use prost::Message as _;
use serde_json::{Value, json};

#[allow(
    clippy::all,
    reason = "generated code, included as a user's crate would"
)]
mod generated {
    include!("fixtures/protobuf/generated.rs");
}

use generated::order_packed_v1::{Carrier, OrderPacked, Parcel};

const PEER_TIMEOUT: Duration = Duration::from_secs(60);

const PEER: &str = r#"
import base64, json, sys
from google.protobuf import json_format
sys.path.insert(0, sys.argv[1])
from v1_pb2 import OrderPacked
message = OrderPacked()
message.ParseFromString(sys.stdin.buffer.read())
print(json.dumps({
    "dict": json_format.MessageToDict(message, preserving_proto_field_name=True),
    "bytes": base64.b64encode(message.SerializeToString()).decode(),
}))
"#;

fn python(args: &[&str], input: &[u8]) -> Vec<u8> {
    let mut child = Command::new("python3")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 must be installed (cargo xtask test installs the interop packages)");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("writing to python3");
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waiting for python3") {
            let (mut out, mut err) = (Vec::new(), String::new());
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
            assert!(
                status.success(),
                "python3 {args:?} failed: {err}\ninstall the peer with `python3 -m pip install protobuf==7.36.2 grpcio-tools==1.84.0` or run `cargo xtask test`"
            );
            return out;
        }
        if started.elapsed() > PEER_TIMEOUT {
            child.kill().ok();
            panic!("python3 {args:?} did not finish within {PEER_TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn python_protobuf_reads_and_writes_the_generated_message() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let proto_dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/protobuf/schemas/com.example.order.packed");
    let include = format!("-I{}", proto_dir.display());
    let out = format!("--python_out={}", dir.path().display());
    let proto = proto_dir.join("v1.proto");
    python(
        &[
            "-m",
            "grpc_tools.protoc",
            &include,
            &out,
            proto.to_str().expect("a UTF-8 path"),
        ],
        b"",
    );

    let packed = OrderPacked {
        order_id: "order-8842".into(),
        warehouse: "ams1".into(),
        parcels: vec![
            Parcel {
                label: "1/2".into(),
                weight_grams: 1200,
            },
            Parcel {
                label: "2/2".into(),
                weight_grams: 0,
            },
        ],
        carrier: Carrier::Courier as i32,
        note: Some(String::new()),
        checksum: vec![0xde, 0xad, 0xbe, 0xef],
        dimensions: vec![-3, 40, i64::MIN],
    };
    let answer = python(
        &["-c", PEER, dir.path().to_str().expect("a UTF-8 path")],
        &packed.encode_to_vec(),
    );
    let answer: Value = serde_json::from_slice(&answer).expect("the peer prints JSON");
    assert_eq!(
        answer["dict"],
        json!({
            "order_id": "order-8842",
            "warehouse": "ams1",
            "parcels": [{"label": "1/2", "weight_grams": 1200}, {"label": "2/2"}],
            "carrier": "CARRIER_COURIER",
            "note": "",
            "checksum": "3q2+7w==",
            "dimensions": ["-3", "40", "-9223372036854775808"],
        })
    );
    let bytes = base64_decode(answer["bytes"].as_str().expect("base64 text"));
    assert_eq!(
        OrderPacked::decode(bytes.as_slice()).expect("ours reads Python's bytes"),
        packed
    );
}

/// Standard base64 (the peer's `b64encode`), without a dependency for one test.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    digits
        .chunks(4)
        .flat_map(|chunk| {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0_u32, |n, (i, d)| n | u32::from(*d) << (18 - 6 * i));
            let bytes = n.to_be_bytes();
            bytes[1..chunk.len()].to_vec()
        })
        .collect()
}
