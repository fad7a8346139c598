//! `cloudevent validate` end to end: the built binary on the files in `tests/data/`.

use cloudevent_runtime::Json;
use cloudevent_runtime::Validate;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Runs `cloudevent <args>` in `tests/data/`, feeding `stdin`.
fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cloudevent"))
        .args(args)
        .current_dir(data_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.to_vec();
    // The binary stops reading past its limit; a broken pipe here is expected then.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().expect("the binary finishes");
    writer.join().expect("the writer thread finishes");
    output
}

fn run(args: &[&str]) -> Output {
    run_with_stdin(args, b"")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

fn status(output: &Output) -> i32 {
    output.status.code().expect("exited, not killed")
}

fn lines(output: &Output) -> Vec<String> {
    stdout(output).lines().map(str::to_owned).collect()
}

#[test]
fn a_valid_event_prints_ok_and_exits_0() {
    let output = run(&["validate", "valid.json"]);
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "ok valid.json 01HZX3KQVB8E72GQJHF5RM6YWN\n"
    );
    assert_eq!(stderr(&output), "");
}

#[test]
fn an_invalid_event_lists_every_finding_and_exits_1() {
    let output = run(&["validate", "invalid.json"]);
    assert_eq!(status(&output), 1);
    let lines = lines(&output);
    assert!(lines.len() >= 5, "{lines:#?}");
    for line in &lines {
        assert!(line.starts_with("invalid.json: error "), "{line}");
    }
    for expected in [
        "invalid.json: error INTG-STD-015 R-5: source `http://localhost:8080/orders`",
        "invalid.json: error INTG-STD-015 R-14: source `http://localhost:8080/orders` host `localhost`",
        "invalid.json: error INTG-STD-015 R-4: type `Com.Example.Order`",
        "invalid.json: error INTG-STD-015 gateway 4: time `2026-03-28T14:22:31+01:00`",
        "invalid.json: error CE 1.0.2 naming: extension `Region`",
    ] {
        assert!(
            lines.iter().any(|line| line.starts_with(expected)),
            "missing `{expected}` in {lines:#?}"
        );
    }
    assert!(
        !stdout(&output).contains("ok "),
        "an invalid event is not ok"
    );
}

#[test]
fn a_batch_reports_each_event_by_index() {
    let output = run(&["validate", "batch.json"]);
    assert_eq!(status(&output), 1);
    let lines = lines(&output);
    assert_eq!(lines[0], "ok batch.json#0 01HZX3KQVB8E72GQJHF5RM6YW1");
    assert!(
        lines[1].starts_with("batch.json#1: error INTG-STD-015 R-4: type `order.created`"),
        "{lines:#?}"
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some("ok batch.json#2 01HZX3KQVB8E72GQJHF5RM6YW3")
    );
    assert!(!lines.iter().any(|l| l.starts_with("ok batch.json#1")));
}

#[test]
fn warnings_alone_exit_0() {
    let output = run(&["validate", "warnings.json"]);
    assert_eq!(status(&output), 0);
    let lines = lines(&output);
    assert!(
        lines.contains(&"warnings.json: warning INTG-STD-015 R-2: time: is absent; producers should set it for the audit trail (R-2, R-15)".to_owned()),
        "{lines:#?}"
    );
    assert!(lines.iter().all(|l| !l.contains(": error ")), "{lines:#?}");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("ok warnings.json 01HZX3KQVB8E72GQJHF5RM6YWP")
    );
}

#[test]
fn an_unreadable_file_exits_2_and_the_others_are_still_checked() {
    let output = run(&["validate", "valid.json", "missing.json"]);
    assert_eq!(status(&output), 2);
    assert_eq!(
        stdout(&output),
        "ok valid.json 01HZX3KQVB8E72GQJHF5RM6YWN\n"
    );
    assert!(
        stderr(&output).starts_with("cloudevent validate: missing.json: cannot read: "),
        "{}",
        stderr(&output)
    );
    // 2 wins over 1.
    assert_eq!(
        status(&run(&["validate", "invalid.json", "missing.json"])),
        2
    );
    // A directory is not readable as an event either.
    assert_eq!(status(&run(&["validate", "."])), 2);
}

#[test]
fn dash_and_no_file_read_standard_input() {
    let event = std::fs::read(data_dir().join("valid.json")).unwrap();
    for args in [&["validate", "-"][..], &["validate"][..]] {
        let output = run_with_stdin(args, &event);
        assert_eq!(status(&output), 0, "{args:?}: {}", stderr(&output));
        assert_eq!(stdout(&output), "ok <stdin> 01HZX3KQVB8E72GQJHF5RM6YWN\n");
    }
    let invalid = std::fs::read(data_dir().join("invalid.json")).unwrap();
    let output = run_with_stdin(&["validate", "valid.json", "-"], &invalid);
    assert_eq!(status(&output), 1);
    assert!(stdout(&output).contains("\n<stdin>: error INTG-STD-015 R-4: "));
}

#[test]
fn json_output_is_one_report_with_the_same_findings() {
    let output = run(&[
        "validate",
        "--output",
        "json",
        "valid.json",
        "batch.json",
        "warnings.json",
    ]);
    assert_eq!(status(&output), 1);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(report["profile"], "intg-std-015");
    assert_eq!(report["valid"], false);
    assert_eq!(report["errors"], 1);
    assert_eq!(report["warnings"], 2);
    let inputs = report["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 3);

    assert_eq!(inputs[0]["file"], "valid.json");
    assert_eq!(inputs[0]["kind"], "event");
    assert_eq!(inputs[0]["valid"], true);
    assert_eq!(inputs[0]["events"][0]["id"], "01HZX3KQVB8E72GQJHF5RM6YWN");
    assert_eq!(inputs[0]["events"][0]["index"], serde_json::Value::Null);

    assert_eq!(inputs[1]["kind"], "batch");
    let events = inputs[1]["events"].as_array().unwrap();
    assert_eq!(events.len(), 3);
    assert_eq!(events[1]["index"], 1);
    assert_eq!(events[1]["valid"], false);
    let finding = &events[1]["findings"][0];
    assert_eq!(finding["severity"], "error");
    assert_eq!(finding["rule"], "INTG-STD-015 R-4");
    assert_eq!(finding["attribute"], "type");
    assert_eq!(finding["value"], "order.created");
    // The message is the library's (and the axum extractors'): the violation as displayed,
    // which the text output prints after the rule id.
    let text = stdout(&run(&["validate", "batch.json"]));
    let message = finding["message"].as_str().unwrap();
    assert!(
        message.ends_with("e.g. `com.example.order.created`"),
        "{message}"
    );
    assert!(
        text.contains("batch.json#1: error INTG-STD-015 R-4: type `order.created`"),
        "{text}"
    );
    // Each event in the library's report shape, with the attributes the validator read.
    assert_eq!(events[1]["profile"], "intg-std-015");
    assert_eq!(events[1]["attributes"]["type"], "order.created");
    let library = cloudevent_runtime::Validator::new(cloudevent_runtime::Profile::IntgStd015)
        .validate_bytes::<Json>(br#"{"specversion":"1.0","id":"1","source":"/s","type":"t"}"#);
    let library = serde_json::to_value(&library).unwrap();
    let keys = |v: &serde_json::Value| {
        let mut keys: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        keys
    };
    let mut cli_keys = keys(&events[1]);
    cli_keys.retain(|k| k != "index" && k != "line");
    assert_eq!(cli_keys, keys(&library));
    assert_eq!(keys(finding), keys(&library["findings"][0]));

    assert_eq!(inputs[2]["valid"], true);
    assert_eq!(inputs[2]["events"][0]["findings"][0]["severity"], "warning");
}

#[test]
fn json_output_lists_unreadable_inputs() {
    let output = run(&["validate", "--output", "json", "missing.json"]);
    assert_eq!(status(&output), 2);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(report["inputs"][0]["kind"], "unreadable");
    assert!(
        report["inputs"][0]["error"]
            .as_str()
            .unwrap()
            .starts_with("cannot read: ")
    );
}

#[test]
fn the_profile_decides_the_rules() {
    // Under the CloudEvents profile only the spec's MUSTs apply: the uppercase extension
    // name is still wrong, the type, source and time offset are not.
    let output = run(&["validate", "--profile", "cloudevents", "invalid.json"]);
    assert_eq!(status(&output), 1);
    let lines = lines(&output);
    assert!(
        lines.iter().all(|l| !l.contains("INTG-STD-015")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("error CE 1.0.2 naming: extension `Region`"))
    );

    // NL GOV wants `urn:nld:` sources (a warning) but accepts the rest of valid.json.
    let output = run(&["validate", "--profile", "nl-gov", "valid.json"]);
    assert_eq!(status(&output), 0, "{}", stdout(&output));
}

#[test]
fn require_traceability_makes_correlation_and_causation_mandatory() {
    let output = run(&[
        "validate",
        "--require-traceability",
        "valid.json",
        "warnings.json",
    ]);
    assert_eq!(status(&output), 1);
    let text = stdout(&output);
    assert!(text.contains("ok valid.json "), "{text}");
    assert!(
        text.contains("warnings.json: error ADR-0003: correlationid: is required on every event"),
        "{text}"
    );
    assert!(
        text.contains("warnings.json: error ADR-0003: causationid: "),
        "{text}"
    );
    // Without the flag the same file passes.
    assert_eq!(status(&run(&["validate", "warnings.json"])), 0);
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["validate", "--profile", "strict", "valid.json"][..],
        &["validate", "--format", "xml", "valid.json"][..],
        &["validate", "--output", "yaml", "valid.json"][..],
        &["validate", "--no-such-flag"][..],
        &["frobnicate"][..],
    ] {
        let output = run(args);
        assert_eq!(status(&output), 2, "{args:?}");
        assert!(!stderr(&output).is_empty(), "{args:?}");
    }
    assert_eq!(status(&run(&["validate", "--help"])), 0);
}

#[test]
fn input_over_the_batch_limit_is_not_parsed_and_exits_1() {
    let mut big = b"[".to_vec();
    big.resize(1024 * 1024 + 100, b' ');
    big.push(b']');
    let output = run_with_stdin(&["validate"], &big);
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    assert!(
        stdout(&output).starts_with("<stdin>: error INTG-STD-015 R-10: input `more than 1048576 bytes`: exceeds the batch limit"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn an_event_over_256_kib_is_refused_unparsed() {
    let mut event = br#"{"specversion":"1.0","id":"1","source":"https://orders.example.com","type":"com.example.order.created","data":""#.to_vec();
    event.resize(300 * 1024, b'x');
    event.extend_from_slice(b"\"}");
    let output = run_with_stdin(&["validate", "-"], &event);
    assert_eq!(status(&output), 1);
    assert!(
        stdout(&output).starts_with("<stdin>: error INTG-STD-015 R-11: ")
            && stdout(&output).contains("262144"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn an_empty_batch_is_valid_and_prints_nothing() {
    let output = run_with_stdin(&["validate"], b" [ ] ");
    assert_eq!(status(&output), 0);
    assert_eq!(stdout(&output), "");
}

#[test]
fn not_json_is_an_error_finding() {
    let output = run_with_stdin(&["validate", "--format", "json"], b"{\"specversion\": ");
    assert_eq!(status(&output), 1);
    assert!(
        stdout(&output).starts_with("<stdin>: error "),
        "{}",
        stdout(&output)
    );
}

#[test]
fn control_characters_in_findings_are_escaped() {
    // A hostile value must not reach the terminal raw (escape sequences, fake lines).
    let event = b"{\"specversion\":\"1.0\",\"id\":\"a\\u001b[2J\\nok forged 1\",\"source\":\"https://orders.example.com\",\"type\":\"com.example.order.created\",\"time\":\"2026-03-28T14:22:31Z\"}";
    let output = run_with_stdin(&["validate"], event);
    assert_eq!(status(&output), 1, "{}", stdout(&output));
    assert!(!output.stdout.contains(&0x1b), "{}", stdout(&output));
    assert!(
        lines(&output).iter().all(|l| l.starts_with("<stdin>: ")),
        "{}",
        stdout(&output)
    );
}

#[test]
fn http_messages_are_read_in_binary_and_structured_mode() {
    // `--format auto` recognises the request line.
    let output = run(&["validate", "binary.http"]);
    assert_eq!(status(&output), 0, "{}", stdout(&output));
    assert_eq!(
        stdout(&output),
        "ok binary.http 01HZX3KQVB8E72GQJHF5RM6YWQ\n"
    );

    let output = run(&["validate", "--format", "http", "structured-invalid.http"]);
    assert_eq!(status(&output), 1);
    assert!(
        stdout(&output).starts_with(
            "structured-invalid.http: error INTG-STD-015 R-4: type `com.example.Order.created` segment `Order`"
        ),
        "{}",
        stdout(&output)
    );

    // A JSON file forced through the HTTP reader is not an HTTP message.
    let output = run(&["validate", "--format", "http", "valid.json"]);
    assert_eq!(status(&output), 1);
    assert!(
        stdout(&output).starts_with("valid.json: error INTG-STD-015 R-8: message: "),
        "{}",
        stdout(&output)
    );
}

#[test]
fn http_messages_in_batched_mode_are_validated_event_by_event() {
    let output = run(&["validate", "batch.http"]);
    assert_eq!(status(&output), 1, "{}", stdout(&output));
    let lines = lines(&output);
    assert_eq!(lines[0], "ok batch.http#0 01JD6Z3Q8Y7K2M4N5P6R7S8T9V");
    assert!(
        lines[1].starts_with("batch.http#1: error INTG-STD-015 R-14: source `https://localhost/checkout` host `localhost`"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn kafka_records_are_read_by_index() {
    let output = run(&["validate", "--format", "kafka", "record.kafka.json"]);
    assert_eq!(status(&output), 1);
    let lines = lines(&output);
    assert_eq!(
        lines[0],
        "ok record.kafka.json#0 01HZX3KQVB8E72GQJHF5RM6YWR"
    );
    assert!(
        lines[1].starts_with(
            "record.kafka.json#1: error INTG-STD-015 R-14: source `https://10.0.0.7/orders`"
        ),
        "{lines:#?}"
    );

    let output = run_with_stdin(
        &["validate", "--format", "kafka"],
        br#"{"value": null, "partition": 3}"#,
    );
    assert_eq!(status(&output), 1);
    assert!(
        stdout(&output)
            .starts_with("<stdin>: error INTG-STD-015 R-8: record: is not a Kafka record"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn the_guide_example_prints_what_the_guide_shows() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let output = Command::new(env!("CARGO_BIN_EXE_cloudevent"))
        .args([
            "validate",
            "--require-traceability",
            "fixtures/events/batch.json",
            "fixtures/events/order-created.json",
        ])
        .current_dir(&root)
        .output()
        .expect("the binary runs");
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    // The example lives in the guide's page on consuming events since README became a front page.
    let guide = std::fs::read_to_string(root.join("docs/consuming-and-gateways.md"))
        .expect("docs/consuming-and-gateways.md");
    let shown = guide
        .split("```text\n")
        .find(|block| block.starts_with("ok fixtures/events/"))
        .and_then(|block| block.split("```").next())
        .expect("the guide shows the validate example's output");
    assert_eq!(stdout(&output), shown);
}

#[test]
fn json_lines_are_validated_line_by_line() {
    // `--format auto` takes it as JSON Lines: the first line is a whole object and a second
    // line follows. `#n` is the 1-based line number; the blank line 3 is skipped.
    for args in [
        &["validate", "events.jsonl"][..],
        &["validate", "--format", "jsonl", "events.jsonl"][..],
    ] {
        let output = run(args);
        assert_eq!(status(&output), 1, "{args:?}: {}", stderr(&output));
        assert_eq!(stderr(&output), "");
        let lines = lines(&output);
        assert_eq!(lines[0], "ok events.jsonl#1 01HZX3KQVB8E72GQJHF5RM6YW1");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("events.jsonl#2: error CE 1.0.2 naming: extension `ExtA`")),
            "{lines:#?}"
        );
        assert!(
            lines.iter().any(|l| l.starts_with(
                "events.jsonl#4: error INTG-STD-015 R-7: event: is not a CloudEvents JSON object: "
            )),
            "{lines:#?}"
        );
        assert_eq!(
            lines.last().map(String::as_str),
            Some("ok events.jsonl#5 01HZX3KQVB8E72GQJHF5RM6YW5")
        );
        assert!(
            lines
                .iter()
                .all(|l| !l.starts_with("events.jsonl#3") && !l.starts_with("events.jsonl:")),
            "{lines:#?}"
        );
    }
}

#[test]
fn json_lines_in_the_json_report_carry_the_line_number() {
    let output = run(&["validate", "--output", "json", "events.jsonl"]);
    assert_eq!(status(&output), 1);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let input = &report["inputs"][0];
    assert_eq!(input["kind"], "lines");
    let events = input["events"].as_array().unwrap();
    let at: Vec<_> = events
        .iter()
        .map(|e| {
            (
                e["index"].as_u64(),
                e["line"].as_u64(),
                e["valid"].as_bool(),
            )
        })
        .collect();
    assert_eq!(
        at,
        [
            (Some(0), Some(1), Some(true)),
            (Some(1), Some(2), Some(false)),
            (Some(2), Some(4), Some(false)),
            (Some(3), Some(5), Some(true)),
        ]
    );
    // Other inputs have no line numbers.
    let output = run(&["validate", "--output", "json", "batch.json"]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        report["inputs"][0]["events"][0]["line"],
        serde_json::Value::Null
    );
}

#[test]
fn a_pretty_printed_event_is_one_event_not_json_lines() {
    // valid.json spans several lines; its first line `{` is not a whole object.
    let output = run(&["validate", "--output", "json", "valid.json"]);
    assert_eq!(status(&output), 0, "{}", stdout(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(report["inputs"][0]["kind"], "event");

    // Nor when the first line holds members: it is still not a complete object.
    let event = b"{\"specversion\": \"1.0\", \"id\": \"01HZX3KQVB8E72GQJHF5RM6YW7\",\n \"source\": \"https://orders.example.com/checkout\",\n \"type\": \"com.example.order.created\", \"time\": \"2026-03-28T14:22:31Z\"}\n";
    let output = run_with_stdin(&["validate"], event);
    assert_eq!(status(&output), 0, "{}", stdout(&output));
    assert_eq!(stdout(&output), "ok <stdin> 01HZX3KQVB8E72GQJHF5RM6YW7\n");

    // One event on one line, with a trailing newline, is one event too.
    let event = b"{\"specversion\":\"1.0\",\"id\":\"01HZX3KQVB8E72GQJHF5RM6YW8\",\"source\":\"https://orders.example.com/checkout\",\"type\":\"com.example.order.created\",\"time\":\"2026-03-28T14:22:31Z\"}\n\n";
    let output = run_with_stdin(&["validate"], event);
    assert_eq!(stdout(&output), "ok <stdin> 01HZX3KQVB8E72GQJHF5RM6YW8\n");
}

#[test]
fn a_json_line_over_256_kib_is_a_finding_on_that_line() {
    let mut input = br#"{"specversion":"1.0","id":"1","source":"https://orders.example.com","type":"com.example.order.created","data":""#.to_vec();
    input.resize(300 * 1024, b'x');
    input.extend_from_slice(b"\"}\r\n");
    input.extend_from_slice(b"{\"specversion\":\"1.0\",\"id\":\"01HZX3KQVB8E72GQJHF5RM6YW9\",\"source\":\"https://orders.example.com/checkout\",\"type\":\"com.example.order.created\",\"time\":\"2026-03-28T14:22:31Z\"}\r\n");
    let output = run_with_stdin(&["validate", "--format", "jsonl"], &input);
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    let lines = lines(&output);
    assert!(
        lines[0].starts_with("<stdin>#1: error INTG-STD-015 R-11: ") && lines[0].contains("262144"),
        "{lines:#?}"
    );
    assert_eq!(lines[1], "ok <stdin>#2 01HZX3KQVB8E72GQJHF5RM6YW9");
}

#[test]
fn json_lines_over_the_input_limit_are_not_parsed() {
    let line = b"{\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"https://orders.example.com\",\"type\":\"com.example.order.created\"}\n";
    let input: Vec<u8> = line
        .iter()
        .copied()
        .cycle()
        .take(1024 * 1024 + line.len())
        .collect();
    let output = run_with_stdin(&["validate", "--format", "jsonl"], &input);
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    assert_eq!(lines(&output).len(), 1, "{}", stdout(&output));
    assert!(
        stdout(&output).starts_with("<stdin>: error INTG-STD-015 R-10: "),
        "{}",
        stdout(&output)
    );
}

#[test]
fn kafka_value_base64_carries_binary_data() {
    let output = run(&["validate", "--format", "kafka", "record-base64.kafka.json"]);
    assert_eq!(status(&output), 0, "{}", stdout(&output));
    assert_eq!(
        stdout(&output),
        "ok record-base64.kafka.json 01HZX3KQVB8E72GQJHF5RM6YWB\n"
    );
}

const KAFKA_HEADERS: &str = r#""ce_specversion": "1.0", "ce_id": "01HZX3KQVB8E72GQJHF5RM6YWC",
    "ce_source": "https://orders.example.com/checkout", "ce_type": "com.example.order.created",
    "ce_time": "2026-03-28T14:22:31Z""#;

fn kafka(stdin: &str) -> Output {
    run_with_stdin(&["validate", "--format", "kafka"], stdin.as_bytes())
}

#[test]
fn kafka_header_values_may_be_base64_but_ce_headers_must_be_utf8() {
    // `c3ViamVjdA==` is `subject`.
    let output = kafka(&format!(
        r#"{{"headers": {{{KAFKA_HEADERS}, "ce_subject": {{"base64": "c3ViamVjdA=="}}}}}}"#
    ));
    assert_eq!(status(&output), 0, "{}", stdout(&output));
    assert_eq!(stdout(&output), "ok <stdin> 01HZX3KQVB8E72GQJHF5RM6YWC\n");

    // 0xff 0xfe is not UTF-8: refused on a `ce_` header (CE Kafka binding 3.2.3).
    let output = kafka(&format!(
        r#"{{"headers": {{{KAFKA_HEADERS}, "ce_subject": {{"base64": "//4="}}}}}}"#
    ));
    assert_eq!(status(&output), 1, "{}", stdout(&output));
    assert!(
        stdout(&output).starts_with(
            "<stdin>: error INTG-STD-015 R-8: ce_subject: value is not UTF-8 (CE Kafka binding 3.2.3)\n"
        ),
        "{}",
        stdout(&output)
    );
}

#[test]
fn kafka_value_and_value_base64_together_are_an_error() {
    let output = kafka(&format!(
        r#"[{{"headers": {{{KAFKA_HEADERS}}}, "value": "hi", "value_base64": "aGk="}}]"#
    ));
    assert_eq!(status(&output), 1, "{}", stdout(&output));
    assert!(
        stdout(&output).starts_with(
            "<stdin>#0: error INTG-STD-015 R-8: record: has both `value` and `value_base64`"
        ),
        "{}",
        stdout(&output)
    );
    assert!(!stdout(&output).contains("ok "), "{}", stdout(&output));
}

#[test]
fn kafka_invalid_base64_is_an_error_naming_the_member() {
    let output = kafka(&format!(
        r#"{{"headers": {{{KAFKA_HEADERS}}}, "value_base64": "aGk"}}"#
    ));
    assert_eq!(status(&output), 1, "{}", stdout(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with("<stdin>: error INTG-STD-015 R-8: value_base64: is not base64: ")
            && text.contains("RFC 4648"),
        "{text}"
    );

    let output = kafka(&format!(
        r#"{{"headers": {{{KAFKA_HEADERS}, "ce_subject": {{"base64": "not base64!"}}}}}}"#
    ));
    assert_eq!(status(&output), 1, "{}", stdout(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with(
            "<stdin>: error INTG-STD-015 R-8: headers.ce_subject.base64: is not base64: "
        ) && text.contains("RFC 4648"),
        "{text}"
    );

    // A header object other than `{"base64": string}` is not a record.
    for header in [
        r#"{"base64": 1}"#,
        r#"{"b64": "aGk="}"#,
        r#"{"base64": "aGk=", "x": 1}"#,
        "1",
    ] {
        let output = kafka(&format!(
            r#"{{"headers": {{{KAFKA_HEADERS}, "ce_subject": {header}}}}}"#
        ));
        assert_eq!(status(&output), 1, "{header}: {}", stdout(&output));
        assert!(
            stdout(&output)
                .starts_with("<stdin>: error INTG-STD-015 R-8: record: is not a Kafka record"),
            "{header}: {}",
            stdout(&output)
        );
    }
}

/// Issue 24: `lint`, the name the standard gives the build-pipeline step, is `validate` with
/// a producer's defaults: a warning fails it too, unless `--allow-warnings`.
#[test]
fn lint_is_validate_where_a_warning_fails_the_step() {
    let validate = run(&["validate", "warnings.json"]);
    let lint = run(&["lint", "warnings.json"]);
    assert_eq!(status(&validate), 0);
    assert_eq!(status(&lint), 1, "{}", stdout(&lint));
    assert_eq!(stdout(&lint), stdout(&validate), "the same report");
    assert_eq!(
        status(&run(&["lint", "--allow-warnings", "warnings.json"])),
        0
    );
    assert_eq!(
        status(&run(&["validate", "--deny-warnings", "warnings.json"])),
        1
    );
    assert_eq!(status(&run(&["lint", "invalid.json"])), 1);
    let help = stdout(&run(&["--help"]));
    assert!(
        help.lines()
            .any(|l| l.trim_start().starts_with("validate "))
            && help.lines().any(|l| l.trim_start().starts_with("lint ")),
        "{help}"
    );
}

/// Issue 24: the text report's lines, whole: the rule id once, no empty backticks, the fix.
#[test]
fn text_lines_name_the_rule_once_and_the_fix() {
    let http = b"POST /events HTTP/1.1\r\nContent-Type: application/json\r\n\r\n{\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"https://orders.example.com\",\"type\":\"com.example.order.created\"}";
    let output = run_with_stdin(&["validate", "--format", "http"], http);
    assert_eq!(
        stdout(&output),
        "<stdin>: error INTG-STD-015 R-8: content type `application/json`: names no CloudEvents format and the message carries no CloudEvents attribute headers; send the event as `application/cloudevents+json` (structured mode), or its attributes as `ce-` headers beside the data (binary mode; `ce_` over Kafka, `cloudEvents:` over AMQP, user properties over MQTT 5)\n"
    );
    let output = run_with_stdin(
        &["validate", "--format", "kafka"],
        br#"{"key": {"base64": "AP8="}, "headers": {"ce_specversion": "1.0", "ce_id": "k-1", "ce_source": "https://orders.example.com", "ce_type": "com.example.order.created", "ce_time": "2026-03-28T14:22:31Z"}}"#,
    );
    assert_eq!(stdout(&output), "ok <stdin> k-1\n");
    let output = run_with_stdin(
        &["validate", "--format", "kafka"],
        br#"{"key": {"base64": "not base64!"}}"#,
    );
    assert!(
        stdout(&output).starts_with("<stdin>: error INTG-STD-015 R-8: key.base64: is not base64"),
        "{}",
        stdout(&output)
    );
    for line in lines(&output) {
        assert_eq!(line.matches("INTG-STD-015 R-8").count(), 1, "{line}");
        assert!(!line.contains("``"), "{line}");
    }
}

/// Issue 24: `--tolerate-literal-headers` reads the `ce-` header forms of senders that do not
/// percent-encode literally, each a warning; without it they are refused; with the
/// INTG-STD-015 profile (the default) the flag itself is a usage error saying why.
#[test]
fn tolerate_literal_headers_reads_them_with_a_warning_and_never_under_intg_std_015() {
    let message = "POST /events HTTP/1.1\r\nce-specversion: 1.0\r\nce-id: lit-1\r\n\
                   ce-source: https://orders.example.com\r\nce-type: com.example.order.noted\r\n\
                   ce-subject: 100%\r\n\r\n";
    let strict = run_with_stdin(
        &["validate", "--profile", "cloudevents", "--format", "http"],
        message.as_bytes(),
    );
    assert_eq!(status(&strict), 1, "{}", stdout(&strict));
    assert_eq!(
        stdout(&strict),
        // The binding's refusal under the profile checked (issue 41; was INTG-STD-015 R-8).
        "<stdin>: error CE binding 1.3: ce-subject `100%`: `%` at byte 3 is not followed by two hex digits; percent-encode `%`, `\"`, space and every non-ASCII byte as `%XY` (CE HTTP binding 3.1.3.2)\n"
    );
    let tolerant = run_with_stdin(
        &[
            "validate",
            "--profile",
            "cloudevents",
            "--format",
            "http",
            "--tolerate-literal-headers",
        ],
        message.as_bytes(),
    );
    assert_eq!(status(&tolerant), 0, "{}", stdout(&tolerant));
    assert!(
        stdout(&tolerant).contains(
            "warning CE HTTP binding 3.1.3.2: subject `100%`: read literally (the policy tolerates literal headers): a `%` not followed by two hex digits, as sdk-go v2.15 (issue #1331)"
        ),
        "{}",
        stdout(&tolerant)
    );
    for profile in [&["--profile", "intg-std-015"][..], &[]] {
        let mut args = vec!["validate", "--tolerate-literal-headers", "--format", "http"];
        args.extend_from_slice(profile);
        let refused = run_with_stdin(&args, message.as_bytes());
        assert_eq!(status(&refused), 2, "{}", stdout(&refused));
        assert_eq!(
            stderr(&refused),
            "cloudevent validate: `--tolerate-literal-headers` with `--profile intg-std-015`: the tolerance of literal headers (`with_literal_headers`) is never granted under the INTG-STD-015 gateway profile, which forwards only what the binding allows; choose `--profile cloudevents` or `--profile nl-gov`\n"
        );
    }
}
