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
