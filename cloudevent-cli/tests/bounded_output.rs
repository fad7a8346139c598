//! Issue 27 §1: `cloudevent validate`'s report is bounded by its input. A batch of just under
//! 1 MiB of `{}` (349,525 events) took 34 s, 4.6 GB and wrote 637 MB with `--output json`;
//! JSON Lines and Kafka record arrays behaved alike, and a folder of such files grew memory
//! without bound, since every file's outcome was kept until the end.
//!
//! The bound held here, for every batch door of the command (a JSON batch, JSON Lines, an
//! HTTP batched-mode message, a Kafka record array), in text and JSON: the report is at most
//! 128 KiB per input (100 findings listed, each with its fix: 75 KB for the Kafka array, whose
//! one finding carries the long R-8 hint on how to send an event), and the child's peak
//! resident memory at most 32 MiB plus 4 times the input, whatever the number of inputs
//! (12.5 MB for a 1 MiB input, a debug build; it was 4.6 GB).
//!
//! Issue 38 item 9: `cloudevent sql --event` and `cloudevent filter` read within the same
//! limits (an event 256 KiB, a batch 1 MiB), and `filter` streams JSON Lines.
//!
//! The peak is each child's own: the test reaps the child with `wait4`, which returns that
//! child's resource usage. (`getrusage(RUSAGE_CHILDREN)` is the largest peak of every child
//! the whole test binary has waited for, so another test's child, or one that failed, set
//! the figure this one read.)
#![cfg(unix)]
// `wait4` is a C call.
#![allow(unsafe_code)]

use std::ffi::OsStr;
use std::io::{Read, Write as _};
use std::path::Path;
use std::process::{Command, Stdio};

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

/// What one run of the binary gave: its exit code, its output, and its own peak resident set.
struct Run {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    /// The child's peak resident set in bytes (`ru_maxrss` of its `wait4`).
    peak: usize,
}

fn validate(args: &[&str], files: &[&Path]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cloudevent"));
    command.arg("validate").args(args).args(files);
    run(command)
}

/// Runs the binary with `args`, its address space capped at 1 GiB (`ulimit -v` in a shell
/// that then becomes the binary) so that a read without a bound fails the test, not the
/// machine. Not `pre_exec`: a forked child's peak would count the test process's pages.
fn run_capped(args: &[&OsStr]) -> Run {
    let mut command = Command::new("sh");
    command
        .args(["-c", "ulimit -v 1048576 && exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_cloudevent"))
        .args(args);
    run(command)
}

fn run(mut command: Command) -> Run {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).expect("the pipe reads");
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: `wait4` writes only into the status and the zeroed struct it is given; the child
    // is ours and not waited for elsewhere (`child` is dropped without `wait`).
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::wait4(pid, &raw mut status, 0, &raw mut usage), pid);
        usage
    };
    drop(child);
    Run {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
        peak: usize::try_from(usage.ru_maxrss).unwrap_or(usize::MAX) * 1024,
    }
}

/// Runs each output mode on `files` (each `input` bytes) and holds the bounds.
fn assert_bounded(format: &str, files: &[&Path], input: usize) {
    for output in ["text", "json"] {
        let started = std::time::Instant::now();
        let out = validate(&["--format", format, "--output", output], files);
        let peak = out.peak;
        eprintln!(
            "{format} --output {output}, {} file(s) of {input} bytes: {} bytes of report, peak {peak} bytes, {:?}",
            files.len(),
            out.stdout.len(),
            started.elapsed()
        );
        assert_eq!(
            out.code,
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

/// Issue 38 item 9: `cloudevent sql --event` read its input whole, with no bound: `--event
/// /dev/zero` grew to 23 GB before the kernel killed it. It reads at most one event's limit
/// (256 KiB, INTG-STD-015 R-11), and says so.
#[test]
fn sql_reads_at_most_one_event_from_dev_zero() {
    let out = run_capped(&["sql", "true", "--event", "/dev/zero"].map(OsStr::new));
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("sql --event /dev/zero: peak {} bytes: {stderr}", out.peak);
    assert_eq!(out.code, Some(2), "{stderr}");
    assert!(stderr.contains("R-11"), "{stderr}");
    assert!(stderr.contains("more than 262144 bytes"), "{stderr}");
    assert!(out.peak <= 32 * MIB, "peak {} bytes", out.peak);
}

/// Issue 38 item 9: `cloudevent filter` read a file whole and dropped all of it for one bad
/// line. It streams JSON Lines a line at a time, a line at most one event's limit: 40 lines
/// of 1 MiB are each reported by number, unread, and the events around them pass.
#[test]
fn filter_streams_json_lines_and_keeps_the_events_around_long_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("events.jsonl");
    let event = |id: usize| {
        format!(
            r#"{{"specversion":"1.0","id":"{id}","source":"/orders","type":"com.example.order.created"}}"#
        )
    };
    // Written a line at a time: a child's peak (`wait4`) counts the pages of the process that
    // spawned it, so this one must not hold the 40 MiB.
    let long = format!(r#"{{"id":"{}"}}"#, "x".repeat(MIB));
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    for n in 0..40 {
        writeln!(file, "{}\n{long}", event(n)).unwrap();
    }
    write!(file, "{}", event(40)).unwrap();
    file.into_inner().unwrap().sync_all().unwrap();
    drop(long);
    let out = run_capped(&[
        "filter".as_ref(),
        "--sql".as_ref(),
        "true".as_ref(),
        path.as_os_str(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("filter over 40 MiB of JSON Lines: peak {} bytes", out.peak);
    assert_eq!(stdout.lines().count(), 41, "{stderr}");
    assert_eq!(out.code, Some(2), "{stderr}");
    assert!(
        stderr.contains("events.jsonl: line 2: ") && stderr.contains("events.jsonl: line 80: "),
        "{stderr}"
    );
    assert!(stderr.contains("more than 262144 bytes"), "{stderr}");
    assert_eq!(stderr.lines().count(), 40, "{stderr}");
    assert!(out.peak <= 32 * MIB, "peak {} bytes", out.peak);
}
