//! Issue 37 item 2: generated code always compiles. Members whose names are one Rust name
//! after conversion (`foo bar`, `foo\nbar`, `foo"bar`, `foo-bar` beside `foo_bar`, `$ref`
//! beside `ref`, keywords such as `type` beside `type_`) get distinct fields, each with its
//! JSON name in `#[serde(rename)]`; a `$defs` name equal to the root's but for case
//! (`SQLJobFacet` / `SqlJobFacet`) is renamed, never refused. The output is compiled in a
//! scratch crate, and an instance holding every clashing member, and one a member, reads and
//! writes back unchanged.

mod scratch;

use std::path::Path;

use cloudevent_codegen::Builder;
use serde_json::{Value, json};

/// Members that are one Rust name once converted, all strings.
const CLASHING: &[&str] = &[
    "foo bar", "foo\nbar", "foo\"bar", "foo-bar", "foo_bar", "foo\\bar", "foo\tbar", "Foo Bar",
    "$ref", "ref", "ref_", "type", "type_", "self", "Self", "x", "",
];

fn write(root: &Path, relative: &str, schema: &Value) {
    let path = root.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(schema).unwrap()).unwrap();
}

fn strings(names: &[&str]) -> Value {
    names
        .iter()
        .map(|n| ((*n).to_owned(), json!({"type": "string"})))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// One event whose root, a `$defs` object and a shared definition in another file hold the
/// clashing members (two of them required, two with defaults), and one whose `$defs` name is
/// the root's but for case.
fn registry(root: &Path) {
    let mut properties = strings(CLASHING);
    properties["a b"] = json!({"type": "string", "default": "x"});
    properties["a_b"] = json!({"type": "string", "default": "y"});
    properties["inner"] = json!({"$ref": "#/$defs/Inner"});
    properties["shared"] = json!({"$ref": "../common/shared.json"});
    write(
        root,
        "com.example.members.clashed/v1.json",
        &json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://schemas.example.com/events/com.example.members.clashed/v1.json",
            "type": "object",
            "x-cloudevent": {"type": "com.example.members.clashed", "source": "https://api.example.com/members"},
            "properties": properties,
            "required": ["foo bar", "foo_bar"],
            "$defs": {
                "Inner": {"type": "object", "properties": strings(&["x y", "x_y", "x-y", "type", "r#type"])}
            }
        }),
    );
    write(
        root,
        "common/shared.json",
        &json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://schemas.example.com/events/common/shared.json",
            "type": "object",
            "properties": strings(&["a.b", "a b", "a_b"]),
            "required": ["a.b"]
        }),
    );
    write(
        root,
        "com.example.sql.job.facet/v1.json",
        &json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://schemas.example.com/events/com.example.sql.job.facet/v1.json",
            "type": "object",
            "x-cloudevent": {"type": "com.example.sql.job.facet", "source": "https://api.example.com/jobs"},
            "properties": {"facet": {"$ref": "#/$defs/SQLJobFacet"}, "query": {"type": "string"}},
            "required": ["facet"],
            "$defs": {
                "SQLJobFacet": {"type": "object", "properties": {"sql": {"type": "string"}}, "required": ["sql"]}
            }
        }),
    );
}

/// The registry's Rust in the default layout, and read with a type mapping (the layout of
/// schema sets published by others, whose types keep the data as received: `fidelity.rs`).
fn generate(root: &Path, mapped: bool) -> String {
    let mut builder = Builder::new()
        .schemas(root)
        .lock_file(root.join(format!("cloudevent-{mapped}.lock.json")));
    if mapped {
        builder = builder
            .type_template("{dir}")
            .profile(cloudevent_codegen::Profile::CloudEvents);
    }
    let rust = builder.generate().unwrap_or_else(|e| panic!("{e}"));
    assert!(rust.refused.is_empty(), "{:?}", rust.refused);
    rust.single_file().unwrap()
}

/// Every instance the scratch crate reads and writes back: one holding every member, with a
/// value of its own, then one a clashing member (beside the required ones).
fn instances() -> Vec<(&'static str, Value)> {
    let all = |names: &[&str], prefix: &str| -> Value {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| ((*n).to_owned(), json!(format!("{prefix}{i}"))))
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    let mut full = all(CLASHING, "v");
    full["a b"] = json!("x");
    full["a_b"] = json!("y");
    full["inner"] = all(&["x y", "x_y", "x-y", "type", "r#type"], "i");
    full["shared"] = all(&["a.b", "a b", "a_b"], "s");
    let mut out = vec![("MembersClashed", full)];
    for (i, name) in CLASHING.iter().enumerate() {
        let mut one = json!({"foo bar": "r1", "foo_bar": "r2", "a b": "x", "a_b": "y"});
        one[*name] = json!(format!("only{i}"));
        out.push(("MembersClashed", one));
    }
    out.push((
        "SqlJobFacet",
        json!({"facet": {"sql": "select 1"}, "query": "q"}),
    ));
    out
}

#[test]
fn clashing_member_names_compile_and_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    registry(dir.path());
    let text = generate(dir.path(), false);
    let mapped = generate(dir.path(), true);
    let scratch = scratch::Scratch::new("member-names");
    scratch.write("src/own.rs", &text);
    scratch.write("src/mapped.rs", &mapped);
    let mut checks = String::new();
    for (root, instance) in instances() {
        let module = if root == "SqlJobFacet" {
            "sql_job_facet"
        } else {
            "members_clashed"
        };
        let instance = instance.to_string();
        checks.push_str(&format!(
            "    check::<own::{module}_v1::{root}>({instance:?});\n    check::<mapped::{module}::{root}>({instance:?});\n"
        ));
    }
    scratch.write(
        "src/main.rs",
        &format!(
            "#![deny(warnings)]\n#![allow(clippy::all, missing_docs)]\npub mod own {{\n    include!(\"own.rs\");\n}}\npub mod mapped {{\n    include!(\"mapped.rs\");\n}}\n\n\
             fn check<T: serde::de::DeserializeOwned + serde::Serialize>(text: &str) {{\n\
             \x20   let instance: serde_json::Value = serde_json::from_str(text).unwrap();\n\
             \x20   let typed: T = serde_json::from_value(instance.clone())\n\
             \x20       .unwrap_or_else(|e| panic!(\"{{text}} does not read: {{e}}\"));\n\
             \x20   let back = serde_json::to_value(&typed).unwrap();\n\
             \x20   assert_eq!(back, instance, \"{{text}} is written back changed\");\n\
             }}\n\nfn main() {{\n{checks}    println!(\"round trips: ok\");\n}}\n"
        ),
    );
    let output = scratch.cargo(&["run"]);
    assert!(
        output.status.success(),
        "{}\n{text}\n{mapped}",
        scratch::text(&output)
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains("round trips: ok"));
    // Every member keeps its JSON name: the renamed ones through `#[serde(rename)]`.
    for name in CLASHING {
        let renamed = format!("rename = {name:?}");
        let kept = format!("pub {name}: ");
        assert!(
            text.contains(&renamed) || text.contains(&kept),
            "`{name}` lost its JSON name in\n{text}"
        );
    }
    assert!(
        text.contains("pub ref_2: ") && text.contains("pub foo_bar_8: "),
        "{text}"
    );
    // The `$defs` name equal to the root's but for case is renamed, not refused.
    assert!(text.contains("pub struct SqlJobFacetDefinition"), "{text}");
}
