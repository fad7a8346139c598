//! `cloudevent sign` and `cloudevent verify`, run as the binary. The keys under
//! `tests/data/verify/` are test keys only: `vectors-p256` is the P-256 key the
//! verifiability extension publishes with its test vectors (as PKCS#8 and SPKI PEM),
//! `ed25519` one made with `openssl genpkey -algorithm ed25519`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use cloudevent_runtime::{AnyEvent, Avro, Batch, Protobuf};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/verify")
        .join(name)
}

fn cloudevent(args: &[&str], file: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cloudevent"))
        .args(args)
        .arg(file)
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// Case 5 of the extension's vectors, the `dssematerial` it publishes.
const CASE_5: &str = "eyJwYXlsb2FkVHlwZSI6Imh0dHBzOi8vY2xvdWRldmVudHMuaW8vdmVyaWZpYWJpbGl0eS9kc3NlL3YwLjEiLCJwYXlsb2FkIjoiZXlKamIzSmxJam9pY1VOVFpXbGFhMU1yYUVnNVYybERiR1p4Tm5Cc1puRlpUbFo1TW10MmVGZFNabTlDY2t4RmVtOUVhejBpZlE9PSIsInNpZ25hdHVyZXMiOlt7ImtleWlkIjoidGVzdGtleSIsInNpZyI6IkYyaXAweG1nSlgzdWdIWkM2dE1ycjdBMkVxYWkwOHJhR3JUd2R5aC9PR0RJSXJGN0J5TTJ5SVRMS3FOckYzZHpaR1IybzBDczlmRUJGZEx4Uk9VeUVRPT0ifV19";

#[test]
fn sign_reproduces_the_vector_and_verify_accepts_it() {
    let key = data("vectors-p256.pem");
    let signed = cloudevent(
        &[
            "sign",
            "--key",
            key.to_str().unwrap(),
            "--key-id",
            "testkey",
        ],
        &data("case5.json"),
    );
    assert!(
        signed.status.success(),
        "{}",
        String::from_utf8_lossy(&signed.stderr)
    );
    let event: serde_json::Value = serde_json::from_slice(&signed.stdout).unwrap();
    assert_eq!(event["dssematerial"], CASE_5);

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("signed.json");
    std::fs::write(&file, &signed.stdout).unwrap();
    let public = data("vectors-p256.pub.pem");
    let verified = cloudevent(
        &[
            "verify",
            "--key",
            public.to_str().unwrap(),
            "--key-id",
            "testkey",
        ],
        &file,
    );
    assert_eq!(verified.status.code(), Some(0));
    assert_eq!(stdout(&verified), format!("ok {} 1\n", file.display()));

    // Another key id: no acceptable key (step 7.1), exit 1.
    let other = cloudevent(
        &[
            "verify",
            "--key",
            public.to_str().unwrap(),
            "--key-id",
            "other",
        ],
        &file,
    );
    assert_eq!(other.status.code(), Some(1));
    assert!(
        stdout(&other).contains("error CE verifiability: dssematerial step 7.1: no signature"),
        "{}",
        stdout(&other)
    );
}

#[test]
fn ed25519_signs_extensions_and_a_change_is_the_finding() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("event.json");
    std::fs::write(
        &input,
        br#"{"specversion":"1.0","id":"1","source":"https://orders.example.com","type":"com.example.order.created","region":"eu","data":{"n":1}}"#,
    )
    .unwrap();
    let key = data("ed25519.pem");
    let signed = cloudevent(
        &[
            "sign",
            "--key",
            key.to_str().unwrap(),
            "--key-id",
            "ed-1",
            "--extensions",
            "region",
        ],
        &input,
    );
    assert!(
        signed.status.success(),
        "{}",
        String::from_utf8_lossy(&signed.stderr)
    );
    let file = dir.path().join("signed.json");
    let public = data("ed25519.pub.pem");
    let verify = |bytes: &[u8]| {
        std::fs::write(&file, bytes).unwrap();
        cloudevent(
            &[
                "verify",
                "--key",
                public.to_str().unwrap(),
                "--key-id",
                "ed-1",
            ],
            &file,
        )
    };
    assert_eq!(verify(&signed.stdout).status.code(), Some(0));

    let changed = String::from_utf8(signed.stdout.clone())
        .unwrap()
        .replace(r#""region":"eu""#, r#""region":"us""#);
    let refused = verify(changed.as_bytes());
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stdout(&refused).contains("step 9.1"),
        "{}",
        stdout(&refused)
    );

    let not_an_event = verify(b"{}");
    assert_eq!(not_an_event.status.code(), Some(1));

    // A refused list: the signer refuses to produce material (exit 2).
    let refused = cloudevent(
        &[
            "sign",
            "--key",
            key.to_str().unwrap(),
            "--key-id",
            "ed-1",
            "--extensions",
            "region,id",
        ],
        &input,
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("MUST refuse"));
}

#[test]
fn protobuf_is_signed_and_verified_in_its_own_format() {
    let dir = tempfile::tempdir().unwrap();
    let key = data("vectors-p256.pem");
    let public = data("vectors-p256.pub.pem");
    let json = cloudevent(
        &[
            "sign",
            "--key",
            key.to_str().unwrap(),
            "--key-id",
            "testkey",
        ],
        &data("case5.json"),
    );
    // The JSON event, re-encoded as Protobuf by a relay, keeps verifying: same digest.
    let event = cloudevent_runtime::AnyEvent::from_slice(&json.stdout).unwrap();
    let wire = event.encode::<cloudevent_runtime::Protobuf>().unwrap();
    let file = dir.path().join("event.pb");
    std::fs::write(&file, wire).unwrap();
    let verified = cloudevent(
        &[
            "verify",
            "--format",
            "protobuf",
            "--key",
            public.to_str().unwrap(),
            "--key-id",
            "testkey",
        ],
        &file,
    );
    assert_eq!(verified.status.code(), Some(0), "{}", stdout(&verified));
    // A wrong key file is a usage error.
    let bad = cloudevent(
        &[
            "verify",
            "--key",
            key.to_str().unwrap(),
            "--key-id",
            "testkey",
        ],
        &file,
    );
    assert_eq!(bad.status.code(), Some(2));
}

// Every input format `validate` reads (issue 42, item 5): signed, written back in the form
// it was read in, verified; a tampered copy refused with the step that discards it; a key of
// the other algorithm and another key id refused.

const SOURCE: &str = "https://orders.example.com/checkout";
const TYPE: &str = "com.example.order.created";

/// Event `n` in the JSON format: subject `order-<n>`, extension `region`, JSON data.
fn json_event(n: u32) -> String {
    format!(
        r#"{{"specversion":"1.0","id":"evt-{n}","source":"{SOURCE}","type":"{TYPE}","subject":"order-{n}","region":"eu-west","datacontenttype":"application/json","data":{{"n":{n}}}}}"#
    )
}

fn any_event(n: u32) -> AnyEvent {
    AnyEvent::from_slice(json_event(n).as_bytes()).unwrap()
}

fn http_binary(n: u32) -> String {
    format!(
        "POST /events HTTP/1.1\r\nhost: gateway.example.com\r\nce-specversion: 1.0\r\nce-id: evt-{n}\r\n\
         ce-source: {SOURCE}\r\nce-type: {TYPE}\r\nce-subject: order-{n}\r\nce-region: eu-west\r\n\
         content-type: application/json\r\n\r\n{{\"n\":{n}}}"
    )
}

fn http_with(content_type: &str, body: &[u8]) -> Vec<u8> {
    let mut message = format!(
        "POST /events HTTP/1.1\r\nhost: gateway.example.com\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    message.extend_from_slice(body);
    message
}

fn kafka_binary(n: u32) -> String {
    format!(
        r#"{{"key":"order-{n}","headers":{{"ce_specversion":"1.0","ce_id":"evt-{n}","ce_source":"{SOURCE}","ce_type":"{TYPE}","ce_subject":"order-{n}","ce_region":"eu-west","content-type":"application/json"}},"value":"{{\"n\":{n}}}"}}"#
    )
}

fn kafka_structured(n: u32) -> String {
    serde_json::json!({
        "key": format!("order-{n}"),
        "headers": {"content-type": "application/cloudevents+json; charset=utf-8"},
        "value": json_event(n),
    })
    .to_string()
}

/// One input format: its `--format`, its bytes, how many events it holds, and what the
/// signed output must still show of its form.
struct Case {
    name: &'static str,
    format: &'static str,
    input: Vec<u8>,
    events: usize,
    same_form: fn(&[u8]) -> bool,
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap_or_default()
}

fn cases() -> Vec<Case> {
    let batch = format!("[{},{}]", json_event(0), json_event(1));
    vec![
        Case {
            name: "json event (auto)",
            format: "auto",
            input: json_event(0).into_bytes(),
            events: 1,
            same_form: |out| {
                serde_json::from_slice::<serde_json::Value>(out).is_ok_and(|v| {
                    v.is_object() && v["dssematerial"].is_string() && v["data"]["n"] == 0
                })
            },
        },
        Case {
            name: "json batch",
            format: "json",
            input: batch.clone().into_bytes(),
            events: 2,
            same_form: |out| {
                Batch::from_slice(out).is_ok_and(|b| {
                    b.len() == 2 && b.iter().all(|e| e.extensions().contains("dssematerial"))
                })
            },
        },
        Case {
            name: "json lines",
            format: "jsonl",
            input: format!("{}\n\n{}\n", json_event(0), json_event(1)).into_bytes(),
            events: 2,
            same_form: |out| {
                text(out).lines().count() == 2
                    && text(out).lines().all(|line| {
                        AnyEvent::from_slice(line.as_bytes())
                            .is_ok_and(|e| e.extensions().contains("dssematerial"))
                    })
            },
        },
        Case {
            name: "http binary (auto)",
            format: "auto",
            input: http_binary(0).into_bytes(),
            events: 1,
            same_form: |out| {
                text(out).starts_with("POST /events HTTP/1.1\r\n")
                    && text(out).contains("\r\nce-dssematerial: ")
                    && text(out).contains("\r\nhost: gateway.example.com\r\n")
                    && text(out).contains("\r\ncontent-type: application/json\r\n")
                    && text(out).ends_with("\r\n\r\n{\"n\":0}")
            },
        },
        Case {
            name: "http structured",
            format: "http",
            input: http_with(
                "application/cloudevents+json; charset=utf-8",
                json_event(0).as_bytes(),
            ),
            events: 1,
            same_form: |out| {
                text(out)
                    .contains("\r\ncontent-type: application/cloudevents+json; charset=utf-8\r\n")
                    && !text(out).contains("ce-dssematerial")
                    && text(out).contains("\"dssematerial\":")
            },
        },
        Case {
            name: "http batch",
            format: "http",
            input: http_with("application/cloudevents-batch+json", batch.as_bytes()),
            events: 2,
            same_form: |out| {
                let body = text(out).split("\r\n\r\n").nth(1).unwrap_or_default();
                text(out).contains("\r\ncontent-type: application/cloudevents-batch+json\r\n")
                    && Batch::from_slice(body.as_bytes()).is_ok_and(|b| b.len() == 2)
            },
        },
        Case {
            name: "http protobuf",
            format: "http",
            input: http_with(
                "application/cloudevents+protobuf",
                &any_event(0).encode::<Protobuf>().unwrap(),
            ),
            events: 1,
            same_form: |out| {
                let at = out.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or(0);
                AnyEvent::decode::<Protobuf>(&out[at + 4..])
                    .is_ok_and(|e| e.extensions().contains("dssematerial"))
            },
        },
        Case {
            name: "kafka binary record",
            format: "kafka",
            input: kafka_binary(0).into_bytes(),
            events: 1,
            same_form: |out| {
                let record: serde_json::Value = serde_json::from_slice(out).unwrap_or_default();
                record["key"] == "order-0"
                    && record["headers"]["ce_dssematerial"].is_string()
                    && record["headers"]["content-type"] == "application/json"
                    && record["value"] == "{\"n\":0}"
            },
        },
        Case {
            name: "kafka records (binary, structured)",
            format: "kafka",
            input: format!("[{},{}]", kafka_binary(0), kafka_structured(1)).into_bytes(),
            events: 2,
            same_form: |out| {
                let records: serde_json::Value = serde_json::from_slice(out).unwrap_or_default();
                records[0]["headers"]["ce_dssematerial"].is_string()
                    && records[1]["headers"]["ce_dssematerial"].is_null()
                    && records[1]["value"]
                        .as_str()
                        .is_some_and(|v| v.contains("\"dssematerial\":"))
            },
        },
        Case {
            name: "protobuf",
            format: "protobuf",
            input: any_event(0).encode::<Protobuf>().unwrap(),
            events: 1,
            same_form: |out| {
                AnyEvent::decode::<Protobuf>(out)
                    .is_ok_and(|e| e.extensions().contains("dssematerial"))
            },
        },
        Case {
            name: "protobuf batch",
            format: "protobuf-batch",
            input: Batch::from(vec![any_event(0), any_event(1)])
                .encode::<Protobuf>()
                .unwrap(),
            events: 2,
            same_form: |out| Batch::decode::<Protobuf>(out).is_ok_and(|b| b.len() == 2),
        },
        Case {
            name: "avro",
            format: "avro",
            input: any_event(0).encode::<Avro>().unwrap(),
            events: 1,
            same_form: |out| {
                AnyEvent::decode::<Avro>(out).is_ok_and(|e| e.extensions().contains("dssematerial"))
            },
        },
    ]
}

fn run(args: &[&str], file: &Path) -> Output {
    cloudevent(args, file)
}

fn sign_as(format: &str, key: &str, key_id: &str, file: &Path) -> Output {
    let key = data(key);
    run(
        &[
            "sign",
            "--format",
            format,
            "--key",
            key.to_str().unwrap(),
            "--key-id",
            key_id,
            "--extensions",
            "region",
        ],
        file,
    )
}

fn verify_as(format: &str, public: &str, key_id: &str, file: &Path, extra: &[&str]) -> Output {
    let public = data(public);
    let mut args = vec![
        "verify",
        "--format",
        format,
        "--key",
        public.to_str().unwrap(),
        "--key-id",
        key_id,
    ];
    args.extend_from_slice(extra);
    run(&args, file)
}

/// Replaces the last `from` with `to` (the same length), so a byte format stays framed. The
/// last: a Kafka record's key, which is not signed, comes before its headers and value; a
/// `-` keeps `from` out of the Base64 of `dssematerial`.
fn tamper(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let at = bytes
        .windows(from.len())
        .rposition(|w| w == from)
        .unwrap_or_else(|| panic!("{} in the signed output", String::from_utf8_lossy(from)));
    let mut changed = bytes.to_vec();
    changed[at..at + to.len()].copy_from_slice(to);
    changed
}

#[test]
fn every_format_validate_reads_is_signed_in_its_form_and_verified() {
    let dir = tempfile::tempdir().unwrap();
    for case in cases() {
        let name = case.name;
        let input = dir.path().join("input");
        std::fs::write(&input, &case.input).unwrap();
        let signed = sign_as(case.format, "vectors-p256.pem", "testkey", &input);
        assert_eq!(
            signed.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&signed.stderr)
        );
        assert!(
            (case.same_form)(&signed.stdout),
            "{name}: not in its form: {}",
            String::from_utf8_lossy(&signed.stdout)
        );
        // `validate` still reads the signed input, in the same format.
        let file = dir.path().join("signed");
        std::fs::write(&file, &signed.stdout).unwrap();
        let validated = run(
            &[
                "validate",
                "--profile",
                "cloudevents",
                "--format",
                case.format,
            ],
            &file,
        );
        assert_eq!(
            validated.status.code(),
            Some(0),
            "{name}: {}",
            stdout(&validated)
        );

        let verified = verify_as(case.format, "vectors-p256.pub.pem", "testkey", &file, &[]);
        let report = stdout(&verified);
        assert_eq!(verified.status.code(), Some(0), "{name}: {report}");
        assert_eq!(
            report.matches("ok ").count(),
            case.events,
            "{name}: {report}"
        );

        // The last event's subject changed: CORE_DIGEST differs (step 8.1); the events
        // before it still verify.
        let last = case.events - 1;
        let from = format!("order-{last}");
        let changed = tamper(&signed.stdout, from.as_bytes(), b"order-9");
        std::fs::write(&file, &changed).unwrap();
        let refused = verify_as(case.format, "vectors-p256.pub.pem", "testkey", &file, &[]);
        let report = stdout(&refused);
        assert_eq!(refused.status.code(), Some(1), "{name}: {report}");
        assert!(
            report.contains("error CE verifiability: dssematerial step 8.1: CORE_DIGEST"),
            "{name}: {report}"
        );
        assert_eq!(
            report.matches("ok ").count(),
            case.events - 1,
            "{name}: {report}"
        );
        if case.events > 1 {
            // As `validate` places them: a batch's or an array's index, a line's number.
            let at = if case.format == "jsonl" {
                last + 1
            } else {
                last
            };
            assert!(
                report.contains(&format!("#{at}: error CE verifiability")),
                "{name}: the finding names the event: {report}"
            );
        }

        // The signed extension changed: EXT_DIGEST differs (step 9.1).
        let changed = tamper(&signed.stdout, b"eu-west", b"us-west");
        std::fs::write(&file, &changed).unwrap();
        let refused = verify_as(case.format, "vectors-p256.pub.pem", "testkey", &file, &[]);
        assert_eq!(refused.status.code(), Some(1), "{name}");
        assert!(
            stdout(&refused).contains("dssematerial step 9.1"),
            "{name}: {}",
            stdout(&refused)
        );

        // The other algorithm's key under the signing key's id: the signature does not
        // verify (step 7.2); another key id: no acceptable key (step 7.1).
        std::fs::write(&file, &signed.stdout).unwrap();
        let other_algorithm = verify_as(case.format, "ed25519.pub.pem", "testkey", &file, &[]);
        assert_eq!(other_algorithm.status.code(), Some(1), "{name}");
        assert!(
            stdout(&other_algorithm)
                .contains("dssematerial step 7.2: the signature of key `testkey` does not verify"),
            "{name}: {}",
            stdout(&other_algorithm)
        );
        let other_id = verify_as(
            case.format,
            "vectors-p256.pub.pem",
            "orders-2026",
            &file,
            &[],
        );
        assert_eq!(other_id.status.code(), Some(1), "{name}");
        assert_eq!(
            stdout(&other_id).matches("dssematerial step 7.1: ").count(),
            case.events,
            "{name}: {}",
            stdout(&other_id)
        );
    }
}

#[test]
fn ed25519_signs_every_format_too() {
    let dir = tempfile::tempdir().unwrap();
    for case in cases() {
        let input = dir.path().join("input");
        std::fs::write(&input, &case.input).unwrap();
        let signed = sign_as(case.format, "ed25519.pem", "ed-1", &input);
        assert_eq!(signed.status.code(), Some(0), "{}", case.name);
        let file = dir.path().join("signed");
        std::fs::write(&file, &signed.stdout).unwrap();
        let verified = verify_as(case.format, "ed25519.pub.pem", "ed-1", &file, &[]);
        assert_eq!(
            verified.status.code(),
            Some(0),
            "{}: {}",
            case.name,
            stdout(&verified)
        );
        // A P-256 key under the Ed25519 key's id: step 7.2.
        let other = verify_as(case.format, "vectors-p256.pub.pem", "ed-1", &file, &[]);
        assert!(
            stdout(&other).contains("step 7.2"),
            "{}: {}",
            case.name,
            stdout(&other)
        );
    }
}

#[test]
fn verify_writes_validates_json_report() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("batch.json");
    std::fs::write(&input, format!("[{},{}]", json_event(0), json_event(1))).unwrap();
    let signed = sign_as("auto", "vectors-p256.pem", "testkey", &input);
    let file = dir.path().join("signed.json");
    std::fs::write(&file, tamper(&signed.stdout, b"order-1", b"order-9")).unwrap();
    let output = verify_as(
        "auto",
        "vectors-p256.pub.pem",
        "testkey",
        &file,
        &["--output", "json"],
    );
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["valid"], false);
    assert_eq!(report["errors"], 1);
    assert_eq!(report["profile"], "cloudevents");
    let input = &report["inputs"][0];
    assert_eq!(input["kind"], "batch");
    assert_eq!(input["file"], file.display().to_string());
    let events = input["events"].as_array().unwrap();
    assert_eq!(
        (events[0]["valid"].clone(), events[0]["id"].clone()),
        (true.into(), "evt-0".into())
    );
    assert_eq!(events[1]["index"], 1);
    assert_eq!(events[1]["id"], "evt-1");
    assert_eq!(events[1]["attributes"]["subject"], "order-9");
    let finding = &events[1]["findings"][0];
    assert_eq!(finding["rule"], "CE verifiability");
    assert_eq!(finding["attribute"], "dssematerial");
    assert_eq!(finding["part"], "step 8.1");
    assert_eq!(finding["severity"], "error");
}

#[test]
fn what_cannot_be_read_is_a_finding_for_verify_and_a_usage_error_for_sign() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("input");
    let public = "vectors-p256.pub.pem";
    // Not an HTTP message: the binding's finding, exit 1.
    std::fs::write(&file, b"POST /events HTTP/1.1\r\nce-id 1\r\n\r\n").unwrap();
    let output = verify_as("http", public, "testkey", &file, &[]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).contains("message: line 2"),
        "{}",
        stdout(&output)
    );
    // A record array with one unsigned event: step 2.1 for it alone.
    std::fs::write(&file, format!("[{}]", kafka_binary(3))).unwrap();
    let output = verify_as("kafka", public, "testkey", &file, &[]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).contains("#0: error CE verifiability: dssematerial step 2.1"),
        "{}",
        stdout(&output)
    );
    // sign refuses the whole input when one event cannot be read, and prints nothing.
    std::fs::write(
        &file,
        format!("{}\n{{\"specversion\":\"0.3\"}}\n", json_event(0)),
    )
    .unwrap();
    let output = sign_as("jsonl", "vectors-p256.pem", "testkey", &file);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("line 2"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
