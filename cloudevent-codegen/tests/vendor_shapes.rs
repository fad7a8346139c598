//! Issue 37's five shapes from published vendor sets, each read as a vendor set is read (a
//! type mapping, the `cloudevents` profile): the generated type must give the `jsonschema`
//! crate's verdict on the original schema (`oracle/`) for every instance, and write every
//! instance it accepts back unchanged.
//!
//! 1. `allOf: [{"$ref": "../definitions/Base.json"}]` beside `properties`: the base's members
//!    are required and typed;
//! 2. `const` on a member, and `oneOf` branches told apart by a `const` discriminator;
//! 3. `"type": "number", "format": "float"`: `1559081980` stays `1559081980`;
//! 4. a nullable type reached through `$ref`: a `null` received is written back;
//! 5. a `definitions` name equal to the root's but for case (`SQLJobFacet` / `SqlJobFacet`).

mod oracle;
mod scratch;

use std::path::Path;

use cloudevent_codegen::{Builder, Profile};
use serde_json::{Value, json};

fn write(root: &Path, relative: &str, schema: &Value) {
    let path = root.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(schema).unwrap()).unwrap();
}

const DRAFT7: &str = "http://json-schema.org/draft-07/schema#";
const BASE: &str = "https://schemas.example.com/vendor/";

/// The five shapes, one schema each (`<type>/schema.json`), and the base of the first in
/// `definitions/`.
fn registry(root: &Path) {
    write(
        root,
        "definitions/Base.json",
        &json!({"$schema": DRAFT7, "$id": format!("{BASE}definitions/Base.json"),
            "type": "object",
            "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
            "required": ["id", "name"]}),
    );
    write(
        root,
        "definitions/Nullable.json",
        &json!({"$schema": DRAFT7, "$id": format!("{BASE}definitions/Nullable.json"),
            "anyOf": [{"type": "integer"}, {"type": "null"}]}),
    );
    write(
        root,
        "com.example.vendor.inherited/schema.json",
        &json!({"$schema": DRAFT7, "$id": format!("{BASE}com.example.vendor.inherited/schema.json"),
            "type": "object",
            "allOf": [{"$ref": "../definitions/Base.json"}],
            "properties": {"size": {"type": "integer"}}}),
    );
    write(
        root,
        "com.example.vendor.discriminated/schema.json",
        &json!({"$schema": DRAFT7, "$id": format!("{BASE}com.example.vendor.discriminated/schema.json"),
            "type": "object",
            "properties": {
                "version": {"const": 2},
                "shape": {"oneOf": [
                    {"type": "object", "properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}},
                     "required": ["kind", "radius"]},
                    {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}},
                     "required": ["kind", "side"]}
                ]}
            },
            "required": ["version", "shape"]}),
    );
    write(
        root,
        "com.example.vendor.measured/schema.json",
        &json!({"$schema": DRAFT7, "$id": format!("{BASE}com.example.vendor.measured/schema.json"),
            "type": "object",
            "properties": {"at": {"type": "number", "format": "float"}, "ratio": {"type": "number", "format": "double"}},
            "required": ["at"]}),
    );
    write(
        root,
        "com.example.vendor.annotated/schema.json",
        &json!({"$schema": DRAFT7, "$id": format!("{BASE}com.example.vendor.annotated/schema.json"),
        "type": "object",
        "definitions": {
            "nullableString": {"type": ["string", "null"]},
            "alias": {"$ref": "#/definitions/nullableString"}
        },
        "properties": {
            "note": {"$ref": "#/definitions/nullableString"},
            "alias": {"$ref": "#/definitions/alias"},
            "shared": {"$ref": "../definitions/Nullable.json"},
            "title": {"type": "string"}
        }}),
    );
    write(
        root,
        "com.example.vendor.sql.job.facet/schema.json",
        &json!({"$schema": DRAFT7, "$id": format!("{BASE}com.example.vendor.sql.job.facet/schema.json"),
            "title": "SqlJobFacet",
            "type": "object",
            "properties": {"facet": {"$ref": "#/definitions/SQLJobFacet"}},
            "required": ["facet"],
            "definitions": {"SQLJobFacet": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}}),
    );
}

/// Every instance, by event type: valid ones and ones the schema refuses.
fn instances() -> Vec<(&'static str, Value)> {
    vec![
        (
            "com.example.vendor.inherited",
            json!({"id": 1, "name": "a", "size": 3}),
        ),
        (
            "com.example.vendor.inherited",
            json!({"id": 1, "name": "a", "extra": [1]}),
        ),
        (
            "com.example.vendor.inherited",
            json!({"name": "a", "size": 3}),
        ),
        (
            "com.example.vendor.inherited",
            json!({"id": "1", "name": "a"}),
        ),
        ("com.example.vendor.inherited", json!({"id": 1, "name": 5})),
        (
            "com.example.vendor.discriminated",
            json!({"version": 2, "shape": {"kind": "circle", "radius": 1.5}}),
        ),
        (
            "com.example.vendor.discriminated",
            json!({"version": 2, "shape": {"kind": "square", "side": 2}}),
        ),
        (
            "com.example.vendor.discriminated",
            json!({"version": 3, "shape": {"kind": "square", "side": 2}}),
        ),
        (
            "com.example.vendor.discriminated",
            json!({"version": "2", "shape": {"kind": "square", "side": 2}}),
        ),
        (
            "com.example.vendor.discriminated",
            json!({"version": 2, "shape": {"kind": "triangle", "side": 2}}),
        ),
        (
            "com.example.vendor.discriminated",
            json!({"version": 2, "shape": {"kind": "circle", "side": 2}}),
        ),
        ("com.example.vendor.measured", json!({"at": 1559081980})),
        (
            "com.example.vendor.measured",
            json!({"at": 0.1, "ratio": 1.0000000000000002}),
        ),
        (
            "com.example.vendor.measured",
            json!({"at": 16777217, "ratio": 3}),
        ),
        ("com.example.vendor.measured", json!({"at": "1"})),
        ("com.example.vendor.annotated", json!({"note": null})),
        (
            "com.example.vendor.annotated",
            json!({"note": null, "title": "t"}),
        ),
        ("com.example.vendor.annotated", json!({"note": "n"})),
        (
            "com.example.vendor.annotated",
            json!({"alias": null, "shared": null}),
        ),
        (
            "com.example.vendor.annotated",
            json!({"alias": "a", "shared": 7}),
        ),
        ("com.example.vendor.annotated", json!({"shared": "7"})),
        ("com.example.vendor.annotated", json!({})),
        ("com.example.vendor.annotated", json!({"note": 1})),
        (
            "com.example.vendor.sql.job.facet",
            json!({"facet": {"query": "select 1"}}),
        ),
        ("com.example.vendor.sql.job.facet", json!({"facet": {}})),
    ]
}

/// The scratch crate's program: each line `type \t data` read as a CloudEvent with the
/// generated `RegistryEvent::from_slice` (the typed door), its data written back.
const PROGRAM: &str = r#"
#![allow(clippy::all, missing_docs)]
mod generated {
    include!("generated.rs");
}
use cloudevent_runtime::CloudEventData;

fn data<T: CloudEventData + serde::Serialize>(event: &cloudevent_runtime::Event<T>) -> serde_json::Value {
    serde_json::to_value(event.data()).unwrap()
}

fn main() {
    for line in include_str!("../instances.txt").lines() {
        let (event_type, payload) = line.split_once('\t').unwrap();
        let payload: serde_json::Value = serde_json::from_str(payload).unwrap();
        let event = serde_json::json!({"specversion": "1.0", "id": "1", "source": "/vendor",
            "type": event_type, "data": payload});
        let bytes = serde_json::to_vec(&event).unwrap();
        match generated::RegistryEvent::from_slice(&bytes) {
            Ok(event) => println!("accepted\t{}", ARMS(&event)),
            Err(error) => println!("refused\t{}", error.to_string().replace('\n', " ")),
        }
    }
}
"#;

#[test]
fn vendor_shapes_give_the_schemas_verdict_and_write_back_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    registry(dir.path());
    let rust = Builder::new()
        .schemas(dir.path())
        .type_template("{dir}")
        .profile(Profile::CloudEvents)
        .lock_file(dir.path().join("cloudevent.lock.json"))
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(rust.refused.is_empty(), "{:?}", rust.refused);
    let text = rust.single_file().unwrap();
    let variants = scratch::variants(&text);
    let arms: String = variants
        .iter()
        .map(|v| format!("generated::RegistryEvent::{v}(e) => data(e),\n"))
        .collect();
    let program = PROGRAM.replace(
        "ARMS(&event)",
        &format!("match &event {{\n{arms} generated::RegistryEvent::Other(_) => serde_json::Value::Null }}"),
    );
    let scratch = scratch::Scratch::new("vendor-shapes");
    scratch.write("src/generated.rs", &text);
    scratch.write("src/main.rs", &program);
    let cases = instances();
    let list: String = cases.iter().map(|(t, d)| format!("{t}\t{d}\n")).collect();
    scratch.write("instances.txt", &list);
    let output = scratch.cargo(&["run"]);
    assert!(
        output.status.success(),
        "{}\n{text}",
        scratch::text(&output)
    );
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let mut oracle = oracle::Oracle::new(dir.path());
    let mut wrong = Vec::new();
    for ((event_type, data), line) in cases.iter().zip(stdout.lines()) {
        let schema = dir.path().join(event_type).join("schema.json");
        let expected = oracle.verdict(&schema, data);
        let (verdict, rest) = line.split_once('\t').unwrap();
        match (verdict, &expected) {
            ("accepted", None) => {
                let back: Value = serde_json::from_str(rest).unwrap();
                if &back != data {
                    wrong.push(format!("{event_type} {data}: written back as {back}"));
                }
            }
            ("refused", Some(_)) => {}
            ("accepted", Some(why)) => wrong.push(format!(
                "{event_type} {data}: read, the schema refuses it ({why})"
            )),
            _ => wrong.push(format!(
                "{event_type} {data}: refused, the schema accepts it ({rest})"
            )),
        }
    }
    assert_eq!(stdout.lines().count(), cases.len(), "{stdout}");
    assert!(wrong.is_empty(), "{}\n\n{text}", wrong.join("\n"));
}
