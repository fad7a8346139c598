//! `cloudevent validate` on the binary event formats: `--format protobuf|protobuf-batch|avro`,
//! and an HTTP message whose content type names one, read the same way.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use cloudevent_runtime::{AnyEvent, Avro, Batch, Protobuf};

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cloudevent"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().expect("the binary finishes");
    writer.join().expect("the writer thread finishes");
    output
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn event() -> AnyEvent {
    AnyEvent::new(
        "01HZX3KQVB8E72GQJHF5RM6YWN",
        "https://orders.example.com/checkout",
        "com.example.order.created",
    )
}

#[test]
fn a_protobuf_event_is_read_then_validated_under_the_profile() {
    let bytes = event().encode::<Protobuf>().unwrap();
    let output = run(&["validate", "--format", "protobuf", "-"], &bytes);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(
        stdout(&output).contains("ok <stdin> 01HZX3KQVB8E72GQJHF5RM6YWN"),
        "{}",
        stdout(&output)
    );
    // Every finding of the profile, not only the reader's first: the missing `time` is a
    // warning of the default profile.
    assert!(
        stdout(&output).contains("warning INTG-STD-015 R-2: time"),
        "{}",
        stdout(&output)
    );

    // The reader holds the CloudEvents MUSTs; the profile chosen decides the rest.
    let mut strict = event();
    strict.set_source("https://localhost:8080/orders");
    let output = run(
        &["validate", "--format", "protobuf", "-"],
        &strict.encode::<Protobuf>().unwrap(),
    );
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    assert!(
        stdout(&output).contains("error INTG-STD-015 R-5"),
        "{}",
        stdout(&output)
    );
    let output = run(
        &[
            "validate",
            "--profile",
            "cloudevents",
            "--format",
            "protobuf",
            "-",
        ],
        &strict.encode::<Protobuf>().unwrap(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
}

/// Issue 24: `dataschema` = the type URL of `proto_data` (CE Protobuf format 3) passes the
/// default INTG-STD-015 profile with a warning naming both documents, and `cloudevents`
/// silently; beside `binary_data` it is a relative reference, refused.
#[test]
fn a_type_url_dataschema_is_accepted_for_proto_data() {
    const URL: &str = "type.googleapis.com/example.v1.Order";
    let mut event = event();
    event.set_protobuf_data(URL, vec![8, 1]);
    event.set_datacontenttype(Some("application/protobuf".into()));
    event.set_dataschema(Some(URL.into()));
    let bytes = event.encode::<Protobuf>().unwrap();
    let output = run(&["validate", "--format", "protobuf", "-"], &bytes);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(
        text.contains("warning INTG-STD-015 R-2: dataschema"),
        "{text}"
    );
    assert!(text.contains("CloudEvents Protobuf format"), "{text}");
    let output = run(
        &[
            "validate",
            "--profile",
            "cloudevents",
            "--format",
            "protobuf",
            "-",
        ],
        &bytes,
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(
        !stdout(&output).contains("dataschema"),
        "{}",
        stdout(&output)
    );

    event.set_data(Some(cloudevent_runtime::Data::Binary(vec![8, 1])));
    let output = run(
        &["validate", "--format", "protobuf", "-"],
        &event.encode::<Protobuf>().unwrap(),
    );
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    assert!(
        stdout(&output).contains("error CE 1.0.2 dataschema"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_broken_protobuf_event_names_the_rule() {
    let mut bytes = event().encode::<Protobuf>().unwrap();
    bytes.truncate(bytes.len() - 2);
    let output = run(&["validate", "--format", "protobuf", "-"], &bytes);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    assert!(
        stdout(&output).contains("CE-Protobuf 1.0"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_protobuf_batch_reports_each_event() {
    let batch = Batch::from(vec![event(), event()]);
    let output = run(
        &["validate", "--format", "protobuf-batch", "-"],
        &batch.encode::<Protobuf>().unwrap(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let ok = stdout(&output)
        .lines()
        .filter(|l| l.starts_with("ok <stdin>#"))
        .count();
    assert_eq!(ok, 2, "{}", stdout(&output));
}

#[test]
fn an_http_message_in_protobuf_is_detected_by_its_content_type() {
    let body = event().encode::<Protobuf>().unwrap();
    let mut message = format!(
        "POST /events HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/cloudevents+protobuf\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    message.extend_from_slice(&body);
    let output = run(&["validate", "-"], &message);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(
        stdout(&output).contains("ok <stdin> 01HZX3"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn an_avro_event_is_read_then_validated_under_the_profile() {
    let bytes = event()
        .encode::<Avro>()
        .expect("an event without data is carried");
    let output = run(&["validate", "--format", "avro", "-"], &bytes);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(
        stdout(&output).contains("ok <stdin> 01HZX3KQVB8E72GQJHF5RM6YWN"),
        "{}",
        stdout(&output)
    );
    // Every finding of the profile: the missing `time` is a warning of the default.
    assert!(
        stdout(&output).contains("warning INTG-STD-015 R-2: time"),
        "{}",
        stdout(&output)
    );

    let mut strict = event();
    strict.set_source("https://localhost:8080/orders");
    let output = run(
        &["validate", "--format", "avro", "-"],
        &strict.encode::<Avro>().unwrap(),
    );
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    assert!(
        stdout(&output).contains("error INTG-STD-015 R-5"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_broken_avro_event_names_the_rule() {
    let mut bytes = event().encode::<Avro>().unwrap();
    bytes.truncate(bytes.len() - 2);
    let output = run(&["validate", "--format", "avro", "-"], &bytes);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    assert!(
        stdout(&output).contains("CE-Avro 2.4"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn an_http_message_in_avro_is_detected_by_its_content_type() {
    let body = event().encode::<Avro>().unwrap();
    let mut message = format!(
        "POST /events HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/cloudevents+avro\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    message.extend_from_slice(&body);
    let output = run(&["validate", "-"], &message);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(
        stdout(&output).contains("ok <stdin> 01HZX3"),
        "{}",
        stdout(&output)
    );
}
