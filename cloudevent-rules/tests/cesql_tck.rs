//! The CloudEvents SQL v1 TCK (github.com/cloudevents/spec `cesql/cesql_tck`), every case of
//! every file, converted to JSON in `tests/cesql_tck/` (same cases, same order), run through
//! `Expression::parse` and `Expression::evaluate` over the one attribute view. Prints and
//! asserts the number of cases per file.

use std::collections::BTreeMap;

use cloudevent_rules::cesql::{ErrorKind, Expression, Value};
use cloudevent_rules::{Envelope, ExtensionValue};
use serde_json::Value as Json;

/// The cases per file of the TCK at the commit the files name (275 in all).
const EXPECTED: [(&str, usize); 18] = [
    ("binary_comparison_operators", 32),
    ("binary_logical_operators", 16),
    ("binary_math_operators", 18),
    ("case_sensitivity", 7),
    ("casting_functions", 21),
    ("context_attributes_access", 8),
    ("exists_expression", 7),
    ("in_expression", 16),
    ("integer_builtin_functions", 4),
    ("like_expression", 37),
    ("literals", 10),
    ("negate_operator", 6),
    ("not_operator", 6),
    ("parse_errors", 1),
    ("spec_examples", 13),
    ("string_builtin_functions", 42),
    ("sub_expression", 3),
    ("subscriptions_api_recreations", 28),
];

/// The event a case runs on: its `event`, or a valid default with its `eventOverrides`.
fn event_of(case: &Json) -> serde_json::Map<String, Json> {
    if let Some(Json::Object(event)) = case.get("event") {
        return event.clone();
    }
    let mut event: serde_json::Map<String, Json> = serde_json::from_str(
        r#"{"specversion":"1.0","id":"tck-1","source":"https://example.com/tck","type":"com.example.tck"}"#,
    )
    .unwrap();
    if let Some(Json::Object(overrides)) = case.get("eventOverrides") {
        for (k, v) in overrides {
            event.insert(k.clone(), v.clone());
        }
    }
    event
}

fn expected(case: &Json) -> Option<Value<'static>> {
    Some(match case.get("result")? {
        Json::Bool(b) => Value::Boolean(*b),
        Json::Number(n) => Value::Integer(i32::try_from(n.as_i64().unwrap()).unwrap()),
        Json::String(s) => Value::String(s.clone().into()),
        other => panic!("unexpected result {other}"),
    })
}

/// Runs one case; `Err` describes a failure.
fn run(case: &Json) -> Result<(), String> {
    let source = case["expression"].as_str().unwrap();
    let event = event_of(case);
    let core = |name: &str| event.get(name).and_then(Json::as_str);
    let extensions: Vec<(&str, ExtensionValue<'_>)> = event
        .iter()
        .filter(|(k, _)| !cloudevent_rules::CORE_ATTRIBUTES.contains(&k.as_str()))
        .map(|(k, v)| {
            let value = match v {
                Json::Bool(b) => ExtensionValue::Boolean(*b),
                Json::Number(n) => ExtensionValue::Integer(n.as_i64().unwrap() as i32),
                Json::String(s) => ExtensionValue::String(s),
                other => panic!("unexpected extension value {other}"),
            };
            (k.as_str(), value)
        })
        .collect();
    let envelope = Envelope {
        specversion: core("specversion"),
        id: core("id"),
        source: core("source"),
        ty: core("type"),
        datacontenttype: core("datacontenttype"),
        dataschema: core("dataschema"),
        subject: core("subject"),
        time: core("time"),
        extensions: &extensions,
        data: None,
        data_type_url: None,
    };
    let want_error = case.get("error").and_then(Json::as_str);
    let (value, kinds) = match Expression::parse(source) {
        Ok(expression) => {
            let result = expression.evaluate(&envelope);
            // A filter (CESQL v1 1.2) passes exactly when the value is true without errors.
            assert_eq!(
                expression.matches(&envelope),
                result.value == Value::Boolean(true) && result.errors.is_empty()
            );
            let kinds: Vec<&str> = result.errors.iter().map(|e| e.kind.as_str()).collect();
            (result.value.into_owned(), kinds)
        }
        Err(_) => (Value::Boolean(false), vec![ErrorKind::Parse.as_str()]),
    };
    match want_error {
        None if !kinds.is_empty() => return Err(format!("unexpected errors {kinds:?}")),
        Some(kind) if kinds.is_empty() || kinds.iter().any(|k| *k != kind) => {
            return Err(format!("expected error {kind}, got {kinds:?}"));
        }
        _ => {}
    }
    if let Some(want) = expected(case)
        && want != value
    {
        return Err(format!("expected {want:?}, got {value:?}"));
    }
    Ok(())
}

#[test]
fn every_tck_case_passes() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cesql_tck");
    let mut counts = BTreeMap::new();
    let mut failures = Vec::new();
    for (file, _) in EXPECTED {
        let text = std::fs::read_to_string(format!("{dir}/{file}.json")).unwrap();
        let suite: Json = serde_json::from_str(&text).unwrap();
        let cases = suite["tests"].as_array().unwrap();
        let mut passed = 0;
        for case in cases {
            match run(case) {
                Ok(()) => passed += 1,
                Err(why) => failures.push(format!(
                    "{file}: {} (`{}`): {why}",
                    case["name"].as_str().unwrap(),
                    case["expression"].as_str().unwrap()
                )),
            }
        }
        counts.insert(file, (passed, cases.len()));
    }
    for (file, (passed, total)) in &counts {
        println!("{file}: {passed}/{total}");
    }
    assert!(
        failures.is_empty(),
        "{} failing:\n{}",
        failures.len(),
        failures.join("\n")
    );
    for (file, want) in EXPECTED {
        assert_eq!(counts[file].1, want, "{file}: case count");
    }
    let total: usize = counts.values().map(|(p, _)| p).sum();
    println!("total: {total}");
    assert_eq!(total, 275);
    assert_eq!(
        std::fs::read_dir(dir).unwrap().count(),
        EXPECTED.len() + 1,
        "a TCK file without a row in EXPECTED (the +1 is README.md)"
    );
}
