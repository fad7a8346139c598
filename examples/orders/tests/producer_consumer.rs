//! The producer's output piped through the consumer, as the two binaries run in a shell:
//! `producer | consumer`.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn consumer(input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_consumer"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the consumer runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    stdin
        .write_all(input)
        .expect("the consumer reads its input");
    drop(stdin);
    child.wait_with_output().expect("the consumer finishes")
}

fn producer() -> Vec<u8> {
    let output = Command::new(env!("CARGO_BIN_EXE_producer"))
        .output()
        .expect("the producer runs");
    assert!(output.status.success(), "{output:?}");
    output.stdout
}

#[test]
fn every_produced_event_is_dispatched_to_its_typed_handler() {
    let events = producer();
    let sent: Vec<Value> = events
        .split(|b| *b == b'\n')
        .filter(|line| !line.is_empty())
        .map(|line| serde_json::from_slice(line).expect("each line is one JSON event"))
        .collect();
    assert_eq!(sent.len(), 10);

    let output = consumer(&events);
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert_eq!(stderr, "consumer: 9 typed, 1 other, 0 rejected\n");

    let lines: Vec<&str> = stdout.lines().collect();
    let expected = [
        "ok ord-20240611-0042 order created (v1): 1 line(s), total 25.00 EUR",
        "ok ord-20240611-0042 payment authorized: 25.00 EUR by ideal",
        "ok ord-20240611-0042 payment captured: 25.00 EUR",
        "ok ord-20240611-0042 order shipped with postnl: 1 parcel(s)",
        "ok ord-20240611-0042 order returned: Damaged, 1 line(s)",
        "ok ord-20240611-0042 payment refunded: 12.50 EUR (partial)",
        "ok ord-20240611-0043 order created (v2): 1 line(s), gross 12.10 EUR, business customer",
        "ok ord-20240611-0043 payment failed at https://api.example.com/payments/psp: InsufficientFunds, retryable false",
        "ok ord-20240611-0043 order cancelled: payment_failed",
        "other ord-20240611-0043 unknown type `com.example.loyalty.points.earned`, kept as AnyEvent",
    ];
    assert_eq!(lines.len(), expected.len(), "{stdout}");
    for (i, (line, start)) in lines.iter().zip(expected).enumerate() {
        assert!(line.starts_with(start), "line {}: {line}", i + 1);
        // ADR-0003: each event after an order's first is caused by the one before it.
        let cause = match i {
            0 | 6 => &sent[i]["id"],
            _ => &sent[i - 1]["id"],
        };
        assert!(
            line.ends_with(&format!("(caused by {})", cause.as_str().unwrap())),
            "line {}: {line}",
            i + 1
        );
    }
}

#[test]
fn bad_lines_are_rejected_with_the_reason_and_the_rest_is_handled() {
    let mut events = producer();
    // Data that does not fit the generated type: an enum value the schema does not list.
    events.extend_from_slice(
        br#"{"specversion":"1.0","id":"01J0000000000000000000000A","source":"https://api.example.com/orders","type":"com.example.order.cancelled","time":"2024-06-11T10:05:00Z","datacontenttype":"application/json","data":{"order_id":"o","tenant":"t","cancelled_at":"2024-06-11T10:05:00Z","reason":"bored","refund_expected":false}}"#,
    );
    events.push(b'\n');
    // Not a valid event under INTG-STD-015: the type is not reverse-DNS.
    events.extend_from_slice(
        br#"{"specversion":"1.0","id":"01J0000000000000000000000B","source":"https://api.example.com/orders","type":"OrderCancelled","time":"2024-06-11T10:05:00Z"}"#,
    );
    let output = consumer(&events);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    let rejected: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("rejected"))
        .collect();
    assert_eq!(rejected.len(), 2, "{stdout}");
    assert!(rejected[0].starts_with("rejected line 11:"), "{stdout}");
    assert!(rejected[0].contains("bored"), "{stdout}");
    assert!(rejected[1].starts_with("rejected line 12:"), "{stdout}");
    assert!(rejected[1].contains("R-4"), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("ok ")).count(), 9);
}
