//! `cloudevent diff` on large and hostile schema pairs (issue 27): the comparison is linear in
//! enum values, properties, `required` names, `type` lists and composition branches. It was
//! quadratic (each list searched against the other, and every change against every change
//! already found to drop duplicates): a 1.4 MB pair took 233 s (debug build), 11 s now, most
//! of it reading and checking the two files.
//!
//! The test is the bench over growing schemas: it times `diff_schemas` on a pair of size `n`
//! and on one of size `8n` and holds the ratio under 24 (linear is 8, quadratic 64). Each
//! size is timed three times and the fastest kept, so a busy machine does not fail it.

use std::time::{Duration, Instant};

use cloudevent_codegen::diff_schemas;
use serde_json::{Map, Value, json};

/// A pair where half of everything changed: `n` enum values (half replaced, order reversed),
/// `n` properties (half renamed), every property required in the new version and half in
/// the old, and `n` `anyOf` branches (half changed), and a `type` list of `n` names.
fn pair(n: usize) -> (Value, Value) {
    let version = |v: usize| {
        let mut properties = Map::new();
        for i in 0..n {
            let name = if v == 0 || i % 2 == 1 {
                format!("p{i}")
            } else {
                format!("q{i}")
            };
            properties.insert(name, json!({"type": "string"}));
        }
        let mut values: Vec<Value> = (0..n)
            .map(|i| {
                if v == 0 || i % 2 == 1 {
                    json!(format!("v{i}"))
                } else {
                    json!(format!("w{i}"))
                }
            })
            .collect();
        if v == 1 {
            values.reverse();
        }
        let required: Vec<&String> = properties
            .keys()
            .enumerate()
            .filter(|(i, _)| v == 1 || i % 2 == 1)
            .map(|(_, k)| k)
            .collect();
        let branches: Vec<Value> = (0..n)
            .map(|i| json!({"const": if v == 0 || i % 2 == 1 { i } else { n + i }}))
            .collect();
        let types: Vec<String> = (0..n).map(|i| format!("t{}", i + v)).collect();
        json!({
            "type": "object",
            "properties": {"kind": {"enum": values}, "any": {"anyOf": branches}, "t": {"type": types}},
            "required": required,
            "additionalProperties": {"type": "object", "properties": properties},
        })
    };
    (version(0), version(1))
}

fn fastest_of_three(old: &Value, new: &Value) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut changes = 0;
    for _ in 0..3 {
        let start = Instant::now();
        changes = diff_schemas(old, new).len();
        best = best.min(start.elapsed());
    }
    (best, changes)
}

#[test]
fn diff_time_grows_linearly_with_enum_values_properties_and_branches() {
    let n = 2_000;
    let (old, new) = pair(n);
    let (small, small_changes) = fastest_of_three(&old, &new);
    let (old, new) = pair(8 * n);
    let size = old.to_string().len() + new.to_string().len();
    let (large, large_changes) = fastest_of_three(&old, &new);
    eprintln!(
        "diff of n = {n}: {small:?} ({small_changes} changes); n = {}: {large:?} ({large_changes} changes, {size} bytes of schema)",
        8 * n
    );
    // Every enum value, property, required name and branch that changed is reported once.
    assert!(
        large_changes > 7 * small_changes,
        "{large_changes} vs {small_changes}"
    );
    let ratio = large.as_secs_f64() / small.as_secs_f64().max(1e-6);
    assert!(
        ratio < 24.0,
        "8 times the input took {ratio:.1} times as long ({small:?} -> {large:?}): not linear"
    );
}

#[test]
fn a_change_reached_twice_is_reported_once_and_in_order() {
    let old = json!({"properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/$defs/A"}},
                     "$defs": {"A": {"enum": [1, 2, 3]}}});
    let new = json!({"properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/$defs/A"}},
                     "$defs": {"A": {"enum": [3, 4, 1]}}});
    let changes: Vec<String> = diff_schemas(&old, &new)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(changes.len(), 4, "{changes:#?}");
    assert!(
        changes[0].contains("enum value 2 removed") && changes[0].contains("/properties/a/"),
        "{changes:#?}"
    );
    assert!(changes[1].contains("enum value 4 added"), "{changes:#?}");
    assert!(changes[2].contains("/properties/b/"), "{changes:#?}");
}
