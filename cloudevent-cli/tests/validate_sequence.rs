//! `cloudevent validate --sequence` (issue 22): the order of a captured stream per (source,
//! partitionkey), over JSON Lines, batches and several files read as one stream.

use std::path::Path;
use std::process::{Command, Output};

fn event(key: Option<&str>, n: &str) -> String {
    let key = key.map_or(String::new(), |k| format!(r#","partitionkey":"{k}""#));
    format!(
        r#"{{"specversion":"1.0","id":"e-{n}","source":"https://orders.example.com/checkout","type":"com.example.order.updated","time":"2026-03-28T14:22:31Z","sequencetype":"Integer","sequence":"{n}"{key}}}"#
    )
}

fn lines(events: &[(Option<&str>, &str)]) -> String {
    events.iter().map(|(k, n)| event(*k, n) + "\n").collect()
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cloudevent"))
        .arg("validate")
        .args(["--profile", "cloudevents", "--sequence"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

fn errors(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|l| l.contains(": error "))
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_contiguous_stream_across_files_and_groups_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    // A capture may start anywhere (5), groups interleave, the second file continues the
    // first, and the wrap from 2147483647 to -2147483648 is contiguous.
    std::fs::write(
        dir.path().join("a.jsonl"),
        lines(&[(None, "5"), (Some("k"), "2147483647"), (None, "6")]),
    )
    .unwrap();
    let batch = format!("[{},{}]", event(Some("k"), "-2147483648"), event(None, "7"));
    std::fs::write(dir.path().join("b.json"), batch).unwrap();
    let output = run(dir.path(), &["a.jsonl", "b.json"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

#[test]
fn gaps_duplicates_and_reordering_are_reported_on_the_event_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("s.jsonl"),
        lines(&[
            (None, "1"),
            (None, "2"),
            (None, "5"), // gap: 3, 4
            (None, "5"), // duplicate
            (Some("k"), "10"),
            (Some("k"), "12"),
            (Some("k"), "11"), // out of order (after 12); no gap in the end
        ]),
    )
    .unwrap();
    let output = run(dir.path(), &["s.jsonl"]);
    assert_eq!(output.status.code(), Some(1));
    let found = errors(&output);
    assert_eq!(found.len(), 3, "{found:#?}");
    assert!(found.iter().any(|l| l.starts_with("s.jsonl#3: error CE sequence:")
        && l.contains("gap before this event in source `https://orders.example.com/checkout`: missing 3, 4")));
    assert!(
        found
            .iter()
            .any(|l| l.starts_with("s.jsonl#4: error CE sequence:")
                && l.contains("duplicate: `5` was already at s.jsonl#3"))
    );
    assert!(
        found
            .iter()
            .any(|l| l.starts_with("s.jsonl#7: error CE sequence:")
                && l.contains("out of order: arrives after `12` (s.jsonl#6)"))
    );
}

#[test]
fn without_the_flag_order_is_not_checked_but_the_value_rule_is() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("s.jsonl"),
        lines(&[(None, "1"), (None, "3")]),
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_cloudevent"))
        .args(["validate", "--profile", "cloudevents", "s.jsonl"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    // `sequence: "two"` under `Integer` is refused at every door, the CLI's too.
    std::fs::write(dir.path().join("bad.json"), event(None, "two")).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_cloudevent"))
        .args(["validate", "--profile", "cloudevents", "bad.json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stdout).contains("error CE sequence"));
}

/// An event as `event` makes it, without `time`: one warning under INTG-STD-015 (R-2), so
/// past 100 such events an input's report only counts the rest.
fn untimed(n: i64) -> String {
    event(None, &n.to_string()).replace(r#""time":"2026-03-28T14:22:31Z","#, "")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Issue 38 item 2: the sequence check sees every event, not only those an input's report
/// lists: past 100 findings a duplicate and a gap were only counted ("0 of them invalid"),
/// and the command exited 0.
#[test]
fn events_past_the_listing_bound_are_still_checked() {
    let dir = tempfile::tempdir().unwrap();
    let mut numbers: Vec<i64> = (1..=120).collect();
    numbers.extend([120, 125]); // a duplicate at line 121, a gap (121-124) at line 122
    let text: String = numbers.iter().map(|&n| untimed(n) + "\n").collect();
    std::fs::write(dir.path().join("s.jsonl"), text).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_cloudevent"))
        .args([
            "validate",
            "--profile",
            "intg-std-015",
            "--sequence",
            "s.jsonl",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let found = errors(&output);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    assert!(
        found
            .iter()
            .any(|l| l.starts_with("s.jsonl#121: error CE sequence: ")
                && l.contains("duplicate: `120` was already at s.jsonl#120")),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|l| l.starts_with("s.jsonl#122: error CE sequence: ")
                && l.contains("missing 121, 122, 123, 124")),
        "{found:#?}"
    );

    // The same inside one batch: events past the batch report's listing are checked too.
    let batch: Vec<String> = numbers.iter().map(|&n| untimed(n)).collect();
    std::fs::write(dir.path().join("b.json"), format!("[{}]", batch.join(","))).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_cloudevent"))
        .args([
            "validate",
            "--profile",
            "intg-std-015",
            "--sequence",
            "b.json",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let found = errors(&output);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    assert!(
        found
            .iter()
            .any(|l| l.starts_with("b.json#120: error CE sequence: ")
                && l.contains("duplicate: `120` was already at b.json#119")),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|l| l.starts_with("b.json#121: error CE sequence: ")
                && l.contains("missing 121, 122, 123, 124")),
        "{found:#?}"
    );
}

/// Issue 38 item 2: after 100 refused events the rest of an input is still in the stream.
#[test]
fn events_after_a_hundred_refused_ones_are_still_checked() {
    let dir = tempfile::tempdir().unwrap();
    let mut text: String = (0..100)
        .map(|n| {
            event(None, &n.to_string()).replace(r#""specversion":"1.0""#, r#""specversion":"0.3""#)
                + "\n"
        })
        .collect();
    text.extend([1, 2, 4].map(|n| event(Some("k"), &n.to_string()) + "\n"));
    std::fs::write(dir.path().join("s.jsonl"), text).unwrap();
    let output = run(dir.path(), &["s.jsonl"]);
    let found = errors(&output);
    assert!(
        found
            .iter()
            .any(|l| l.starts_with("s.jsonl#103: error CE sequence: ")
                && l.contains("partitionkey `k`: missing 3")),
        "{found:#?}"
    );
}

/// Issue 38 item 2: one verdict for one stream. After `0, 2147483647` the ordering stage
/// delivers `-2147483648` (it follows 2147483647 on the wrapping circle); the CLI called it
/// out of order. Both judge against the number expected next with `SequenceValue::step`.
#[test]
fn the_wrap_gets_the_ordering_stages_verdict() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("w.jsonl"),
        lines(&[(None, "0"), (None, "2147483647"), (None, "-2147483648")]),
    )
    .unwrap();
    let output = run(dir.path(), &["w.jsonl"]);
    let found = errors(&output);
    assert!(
        found.iter().all(|l| !l.contains("out of order")),
        "{found:#?}"
    );
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("w.jsonl#2: error CE sequence: ")
            && found[0].contains("missing 1, 2, 3"),
        "{found:#?}"
    );
}
