//! Issue 27 §1: `cloudevent validate`'s report is bounded by its input. A batch of just under
//! 1 MiB of `{}` (349,525 events) took 34 s, 4.6 GB and wrote 637 MB with `--output json`;
//! JSON Lines and Kafka record arrays behaved alike, and a folder of such files grew memory
//! without bound, since every file's outcome was kept until the end.
//!
//! The bound held here, for every batch door of the command (a JSON batch, JSON Lines, an
//! HTTP batched-mode message, a Kafka record array), in text and JSON: the report is at most
//! 128 KiB per input (100 findings listed, each with its fix: 75 KB for the Kafka array, whose
//! one finding carries the long R-8 hint on how to send an event), and the child's peak resident memory (`getrusage` of the children) at
//! most 32 MiB plus 4 times the input, whatever the number of inputs (12.5 MB for a 1 MiB
//! input, a debug build; it was 4.6 GB).
#![cfg(unix)]
// `getrusage` is a C call.
#![allow(unsafe_code)]

use std::path::Path;
use std::process::{Command, Output};

/// `{}` repeated to just under `limit` bytes, separated by `separator`, within `open` and
/// `close`.
fn repeated(open: &str, item: &str, separator: &str, close: &str, limit: usize) -> Vec<u8> {
    let n = (limit - open.len() - close.len() + separator.len()) / (item.len() + separator.len());
    let mut out = String::with_capacity(limit);
    out.push_str(open);
    for i in 0..n {
        if i > 0 {
            out.push_str(separator);
        }
        out.push_str(item);
    }
    out.push_str(close);
    assert!(out.len() <= limit);
    out.into_bytes()
}

const MIB: usize = 1024 * 1024;

/// The largest peak resident set of any child process waited for so far, in bytes.
fn children_peak_bytes() -> usize {
    // SAFETY: `getrusage` writes only into the zeroed struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_CHILDREN, &raw mut usage), 0);
        usage
    };
    usize::try_from(usage.ru_maxrss).unwrap_or(usize::MAX) * 1024
}

fn validate(args: &[&str], files: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cloudevent"))
        .arg("validate")
        .args(args)
        .args(files)
        .output()
        .expect("the binary runs")
}

/// Runs each output mode on `files` (each `input` bytes) and holds the bounds.
fn assert_bounded(format: &str, files: &[&Path], input: usize) {
    for output in ["text", "json"] {
        let started = std::time::Instant::now();
        let out = validate(&["--format", format, "--output", output], files);
        let peak = children_peak_bytes();
        eprintln!(
            "{format} --output {output}, {} file(s) of {input} bytes: {} bytes of report, peak {peak} bytes (any child so far), {:?}",
            files.len(),
            out.stdout.len(),
            started.elapsed()
        );
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stdout.len() <= files.len() * 128 * 1024,
            "{format} --output {output}: {} bytes of report",
            out.stdout.len()
        );
        assert!(
            peak <= 32 * MIB + 4 * input,
            "{format} --output {output}: peak {peak} bytes for {input} bytes of input"
        );
        let report = String::from_utf8_lossy(&out.stdout);
        if output == "json" {
            let json: serde_json::Value = serde_json::from_str(&report).expect("one JSON document");
            assert_eq!(json["valid"], false);
            for input in json["inputs"].as_array().unwrap() {
                assert!(
                    input["omitted"]["events"].as_u64().unwrap() > 300_000,
                    "{input}"
                );
            }
        } else {
            assert!(report.contains("more events not listed"), "{report}");
        }
    }
}

#[test]
fn a_1_mib_json_batch_of_empty_events_gets_a_bounded_report() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("batch.json");
    let batch = repeated("[", "{}", ",", "]", MIB);
    std::fs::write(&path, &batch).unwrap();
    assert_bounded("json", &[&path], batch.len());
}

#[test]
fn three_1_mib_batches_are_reported_one_after_the_other() {
    let dir = tempfile::tempdir().unwrap();
    let batch = repeated("[", "{}", ",", "]", MIB);
    let paths: Vec<_> = (0..3)
        .map(|i| {
            let path = dir.path().join(format!("batch{i}.json"));
            std::fs::write(&path, &batch).unwrap();
            path
        })
        .collect();
    let files: Vec<&Path> = paths.iter().map(|p| p.as_path()).collect();
    assert_bounded("json", &files, batch.len());
}

#[test]
fn a_1_mib_json_lines_file_of_empty_events_gets_a_bounded_report() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("events.jsonl");
    let lines = repeated("", "{}", "\n", "", MIB);
    std::fs::write(&path, &lines).unwrap();
    assert_bounded("jsonl", &[&path], lines.len());
}

#[test]
fn a_1_mib_kafka_record_array_gets_a_bounded_report() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("records.json");
    let records = repeated("[", "{}", ",", "]", MIB);
    std::fs::write(&path, &records).unwrap();
    assert_bounded("kafka", &[&path], records.len());
}

#[test]
fn a_1_mib_http_batched_message_gets_a_bounded_report() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("batch.http");
    let head = "POST /events HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/cloudevents-batch+json\r\n";
    let body = repeated("[", "{}", ",", "]", MIB - head.len() - 64);
    let mut message = format!("{head}Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    message.extend_from_slice(&body);
    std::fs::write(&path, &message).unwrap();
    assert_bounded("http", &[&path], message.len());
}
