//! Issue 37 item 3: a change the gate calls compatible is a compatible change for Rust code
//! that builds the generated payload the documented way (`X::builder()`, one setter a member,
//! `try_into()`; `docs/codegen-and-compatibility.md`). A producer is compiled against the
//! generated types of a schema; each compatible change the gate knows is applied to that
//! schema alone, the gate is run against the first version's lock under the mode that calls it
//! compatible, the types are generated again, and the same producer must still compile and
//! build its event. All compiles share one scratch crate and target folder.

mod scratch;

use std::path::Path;

use cloudevent_codegen::{Builder, Compat, diff_schemas};
use serde_json::{Value, json};

fn schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://schemas.example.com/events/com.example.parcel.sent/v1.json",
        "title": "A parcel left the warehouse.",
        "type": "object",
        "x-cloudevent": {"type": "com.example.parcel.sent", "source": "https://api.example.com/parcels", "subject": "parcel_id"},
        "properties": {
            "parcel_id": {"type": "string"},
            "carrier": {"type": "string", "enum": ["postnl", "dhl"]},
            "label": {"type": "string"},
            "note": {"type": "string", "maxLength": 100},
            "weight_grams": {"type": "integer", "minimum": 1},
            "address": {"$ref": "#/$defs/Address"},
            "tags": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["parcel_id", "carrier", "label", "weight_grams", "address"],
        "$defs": {
            "Address": {
                "type": "object",
                "additionalProperties": false,
                "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
                "required": ["street", "city"]
            }
        }
    })
}

/// The producer, written once against the first version: every member set by name through
/// the builders, required and optional alike.
const PRODUCER: &str = r#"#![deny(warnings)]
#![allow(clippy::all, missing_docs)]
include!("generated.rs");

use cloudevent_runtime::Event;
use parcel_sent_v1::{Address, ParcelSent, ParcelSentCarrier};

fn payload() -> Result<ParcelSent, parcel_sent_v1::error::ConversionError> {
    ParcelSent::builder()
        .parcel_id("p-1")
        .carrier(ParcelSentCarrier::Postnl)
        .label("L-1")
        .note("fragile")
        .weight_grams(800u64)
        .address(Address::builder().street("Main 1").city("Utrecht"))
        .tags(vec!["glass".to_owned()])
        .try_into()
}

fn main() {
    match payload() {
        Ok(payload) => {
            let json = serde_json::to_string(&Event::new(payload)).unwrap();
            println!("built: {json}");
        }
        Err(e) => println!("refused: {e}"),
    }
}
"#;

/// An edit to the first version of the schema.
type Edit = Box<dyn Fn(&mut Value)>;

/// Each compatible change the gate knows, the mode under which it is compatible, and the
/// change to the first version.
fn changes() -> Vec<(&'static str, Compat, Edit)> {
    vec![
        (
            "optional member added (open object)",
            Compat::Forward,
            Box::new(|s| s["properties"]["gift_wrap"] = json!({"type": "boolean"})),
        ),
        (
            "required member added (open object)",
            Compat::Forward,
            Box::new(|s| {
                s["properties"]["warehouse"] = json!({"type": "string"});
                s["required"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!("warehouse"));
            }),
        ),
        (
            "bound added (maxLength on a plain string)",
            Compat::Forward,
            Box::new(|s| s["properties"]["label"]["maxLength"] = json!(20)),
        ),
        (
            "enum value added",
            Compat::Backward,
            Box::new(|s| {
                s["properties"]["carrier"]["enum"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!("ups"))
            }),
        ),
        (
            "bound relaxed (larger maxLength)",
            Compat::Backward,
            Box::new(|s| s["properties"]["note"]["maxLength"] = json!(500)),
        ),
        (
            "bound removed (minimum dropped)",
            Compat::Backward,
            Box::new(|s| {
                s["properties"]["weight_grams"]
                    .as_object_mut()
                    .unwrap()
                    .remove("minimum");
            }),
        ),
        (
            "required member made optional",
            Compat::Backward,
            Box::new(|s| {
                s["required"]
                    .as_array_mut()
                    .unwrap()
                    .retain(|m| m != "label")
            }),
        ),
        (
            "optional member added (closed object)",
            Compat::Backward,
            Box::new(|s| s["$defs"]["Address"]["properties"]["zip"] = json!({"type": "string"})),
        ),
    ]
}

fn write_schema(root: &Path, schema: &Value) {
    let path = root.join("com.example.parcel.sent/v1.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(schema).unwrap()).unwrap();
}

/// Generates the registry at `root` through the gate (against `lock`, under `compat`).
fn generate(root: &Path, lock: &Path, compat: Compat, update_lock: bool) -> String {
    Builder::new()
        .schemas(root)
        .lock_file(lock)
        .compat(compat)
        .update_lock(update_lock)
        .generate()
        .unwrap_or_else(|e| panic!("{e}"))
        .single_file()
        .unwrap()
}

fn build_and_run(scratch: &scratch::Scratch, rust: &str, what: &str) -> String {
    scratch.write("src/generated.rs", rust);
    let output = scratch.cargo(&["run"]);
    assert!(
        output.status.success(),
        "{what}: the producer no longer compiles or runs\n{}",
        scratch::text(&output)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn compatible_schema_changes_keep_the_producer_compiling() {
    let dir = tempfile::tempdir().unwrap();
    let registry = dir.path().join("schemas");
    let lock = dir.path().join("cloudevent.lock.json");
    let first = schema();
    write_schema(&registry, &first);
    let rust = generate(&registry, &lock, Compat::Forward, true);
    let scratch = scratch::Scratch::new("evolution");
    scratch.write("src/main.rs", PRODUCER);
    let out = build_and_run(&scratch, &rust, "the first version");
    assert!(out.starts_with("built: "), "{out}");
    assert!(out.contains(r#""data":{"address":{"city":"Utrecht","street":"Main 1"},"carrier":"postnl","label":"L-1","note":"fragile","parcel_id":"p-1","tags":["glass"],"weight_grams":800}"#), "{out}");
    for (what, compat, change) in changes() {
        let mut next = first.clone();
        change(&mut next);
        // The change is real, and compatible under its mode (the gate below agrees).
        let found = diff_schemas(&first, &next);
        assert!(!found.is_empty(), "{what}: no change");
        assert!(
            found.iter().all(|c| !c.breaks_mode(compat)),
            "{what}: {found:?}"
        );
        write_schema(&registry, &next);
        let rust = generate(&registry, &lock, compat, false);
        let out = build_and_run(&scratch, &rust, what);
        if what.starts_with("required member added") {
            // It compiles; the member the producer does not set yet is named when building.
            assert!(
                out.contains("refused: `ParcelSent`: no value for the required member `warehouse`"),
                "{what}: {out}"
            );
        } else {
            assert!(out.starts_with("built: "), "{what}: {out}");
        }
    }
}
