//! `cloudevent sql` runs every case of the CloudEvents SQL v1 TCK (the JSON copies in
//! `cloudevent-rules/tests/cesql_tck/`), its event written to a file and read by the binary;
//! `cloudevent filter` prints the passing events as JSON Lines.

mod common;

use std::collections::BTreeMap;

use common::{TempDir, cloudevent, repo, text};
use serde_json::{Value, json};

fn event_of(case: &Value) -> Option<Value> {
    if let Some(event) = case.get("event") {
        return Some(event.clone());
    }
    let overrides = case.get("eventOverrides")?;
    let mut event = json!({
        "specversion": "1.0", "id": "tck-1", "source": "https://example.com/tck", "type": "com.example.tck"
    });
    for (k, v) in overrides.as_object().unwrap() {
        event[k] = v.clone();
    }
    Some(event)
}

#[test]
fn every_tck_case_through_the_cli() {
    let dir = repo("cloudevent-rules/tests/cesql_tck");
    let temp = TempDir::new("cesql-tck");
    let mut counts = BTreeMap::new();
    let mut failures = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    for file in files {
        let suite: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let cases = suite["tests"].as_array().unwrap();
        let mut passed = 0;
        for (index, case) in cases.iter().enumerate() {
            let expression = case["expression"].as_str().unwrap();
            let mut args = vec!["sql".to_owned(), expression.to_owned()];
            if let Some(event) = event_of(case) {
                let path = temp.write(&format!("{name}-{index}.json"), &event.to_string());
                args.extend(["--event".to_owned(), path]);
            }
            let output = cloudevent(&args);
            let printed: Value = match serde_json::from_str(text(&output.stdout).trim()) {
                Ok(v) => v,
                Err(e) => {
                    failures.push(format!(
                        "{name} #{index} `{expression}`: {e}: {}",
                        text(&output.stderr)
                    ));
                    continue;
                }
            };
            let errors: Vec<&str> = printed["errors"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e.as_str().unwrap())
                .collect();
            let want_error = case.get("error").and_then(Value::as_str);
            let code = output.status.code();
            let ok = match want_error {
                None => errors.is_empty() && code == Some(0),
                Some(kind) => {
                    !errors.is_empty()
                        && errors.iter().all(|e| *e == kind)
                        && code == Some(if kind == "parse" { 2 } else { 0 })
                }
            } && match want_error {
                // An expression that does not parse has no value: the CLI prints `null`
                // (issue 41), whatever `result` the TCK lists beside `"error": "parse"`
                // (`x LIKE 123` lists `false`).
                Some("parse") => printed["value"].is_null(),
                _ => case
                    .get("result")
                    .is_none_or(|want| *want == printed["value"]),
            };
            if ok {
                passed += 1;
            } else {
                failures.push(format!(
                    "{name} #{index} `{expression}`: printed {printed}, exit {code:?}, want {case}"
                ));
            }
        }
        counts.insert(name, (passed, cases.len()));
    }
    for (file, (passed, total)) in &counts {
        println!("{file}: {passed}/{total}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(counts.len(), 18);
    assert_eq!(counts.values().map(|(p, _)| p).sum::<usize>(), 275);
}

#[test]
fn sql_reports_a_parse_error_with_exit_2_and_the_position() {
    let output = cloudevent(&["sql", "type LIKE"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stdout).trim(),
        r#"{"errors":["parse"],"value":null}"#
    );
    assert!(
        text(&output.stderr).contains("CESQL parse error at 9..9"),
        "{}",
        text(&output.stderr)
    );
}

/// Issue 41: a value that was never computed is `null` for every parse error, these two
/// included (they printed `false`).
#[test]
fn every_parse_error_prints_a_null_value() {
    for expression in ["x LIKE 123", "ABC("] {
        let output = cloudevent(&["sql", expression]);
        assert_eq!(output.status.code(), Some(2), "{expression}");
        assert_eq!(
            text(&output.stdout).trim(),
            r#"{"errors":["parse"],"value":null}"#,
            "{expression}"
        );
    }
}

#[test]
fn filter_prints_the_passing_events_as_json_lines() {
    let temp = TempDir::new("cesql-filter");
    let event = |id: &str, ty: &str, key: &str| json!({"specversion": "1.0", "id": id, "source": "/orders", "type": ty, "partitionkey": key});
    let one = temp.write(
        "one.json",
        &event("1", "com.example.order.created", "k1").to_string(),
    );
    let batch = temp.write(
        "batch.json",
        &json!([
            event("2", "com.example.order.created", "k2"),
            event("3", "com.example.order.shipped", "k1")
        ])
        .to_string(),
    );
    let lines = temp.write(
        "lines.jsonl",
        &format!(
            "{}\n{}\n",
            event("4", "org.other.thing", "k1"),
            event("5", "com.example.order.deleted", "k1")
        ),
    );
    let output = cloudevent(&[
        "filter",
        "--sql",
        "type LIKE 'com.example.order.%' AND partitionkey = 'k1'",
        &one,
        &batch,
        &lines,
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let ids: Vec<String> = text(&output.stdout)
        .lines()
        .map(|line| {
            serde_json::from_str::<Value>(line).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(ids, ["1", "3", "5"]);

    let output = cloudevent(&[
        "filter",
        "--subscription",
        r#"{"suffix": {"type": ".shipped"}}"#,
        &batch,
    ]);
    assert_eq!(text(&output.stdout).lines().count(), 1);

    let output = cloudevent(&["filter", "--sql", "type LIKE", &one]);
    assert_eq!(output.status.code(), Some(2));
    let output = cloudevent(&["filter", "--subscription", r#"{"regex": {}}"#, &one]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("unsupported filter dialect"));
}

/// Issue 38 item 9: one bad line dropped every event of its file. Each line is its own event:
/// a bad one is reported by its line number and the others still pass.
#[test]
fn filter_reports_a_bad_line_by_number_and_keeps_the_others() {
    let temp = TempDir::new("cesql-filter-lines");
    let event = |id: &str| {
        json!({"specversion": "1.0", "id": id, "source": "/orders", "type": "com.example.order.created"}).to_string()
    };
    let lines = temp.write(
        "lines.jsonl",
        &format!(
            "{}\n{{not json\n{}\r\n\n{}\n{}\n",
            event("1"),
            event("3"),
            r#"{"specversion": "1.0", "id": "5"}"#,
            event("6")
        ),
    );
    let output = cloudevent(&["filter", "--sql", "true", &lines]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let ids: Vec<String> = text(&output.stdout)
        .lines()
        .map(|line| {
            serde_json::from_str::<Value>(line).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(ids, ["1", "3", "6"], "{stderr}");
    assert!(stderr.contains("lines.jsonl: line 2: "), "{stderr}");
    assert!(stderr.contains("lines.jsonl: line 5: "), "{stderr}");
    assert_eq!(stderr.lines().count(), 2, "{stderr}");

    // A pretty-printed event is still one event, and a batch over 1 MiB is refused unread.
    let pretty = temp.write(
        "pretty.json",
        &serde_json::to_string_pretty(&json!({"specversion": "1.0", "id": "7", "source": "/orders", "type": "com.example.order.created"})).unwrap(),
    );
    let output = cloudevent(&["filter", "--sql", "true", &pretty]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout).lines().count(), 1);
    let big = format!("[{}]", vec![event("8"); 20_000].join(","));
    assert!(big.len() > 1024 * 1024);
    let big = temp.write("big.json", &big);
    let output = cloudevent(&["filter", "--sql", "true", &big]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("R-10"),
        "{}",
        text(&output.stderr)
    );
}
