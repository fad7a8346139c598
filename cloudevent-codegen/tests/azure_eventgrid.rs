//! Issue 39: Azure Event Grid's system events (`tests/sets/azure-eventgrid/`, the published
//! data-plane document `GeneratedSystemEvents.json`, Swagger 2.0, vendored unedited from
//! `Azure/azure-rest-api-specs`, see its `SOURCE`) generate as published with
//!
//! ```text
//! cloudevent codegen --openapi GeneratedSystemEvents.json --profile cloudevents \
//!   --type-template '{/description|for(?:\s+an?)?\s+(Microsoft\.[\w.]+)\s+(?:preview\s+)?event\b}'
//! ```
//!
//! The event type is in each definition's description ("Schema of the Data property of an
//! EventGridEvent for a Microsoft.Storage.BlobCreated event."); a definition another one
//! `$ref`s is shared; a definition the template does not match and nothing references is
//! left out by name. The Rust compiles in a scratch crate that depends on the runtime, serde
//! and serde_json only, and reads events with the `jsonschema` crate's verdict on the original
//! document: every shipped example (`examples/`, CloudEvents-form events whose `type` names a
//! generated type), one instance filled from each definition, and the mutants `tests/oracle`
//! makes of all of them; accepted data is written back unchanged.

mod oracle;
mod scratch;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cloudevent_codegen::{Builder, Profile, Registry, TypeMapping};
use serde_json::Value;

const TEMPLATE: &str =
    r"{/description|for(?:\s+an?)?\s+(Microsoft\.[\w.]+)\s+(?:preview\s+)?event\b}";

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sets/azure-eventgrid")
}

fn document() -> PathBuf {
    dir().join("GeneratedSystemEvents.json")
}

/// The shipped examples: `(file, type, data)` of each CloudEvents-form example.
fn examples() -> Vec<(String, String, Value)> {
    let mut found = Vec::new();
    let root = dir().join("examples");
    let Ok(versions) = std::fs::read_dir(&root) else {
        return found;
    };
    for version in versions {
        let version = version.unwrap().path();
        if !version.is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(&version).unwrap() {
            let path = entry.unwrap().path();
            let example: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            let name = path.strip_prefix(&root).unwrap().display().to_string();
            let event_type = example
                .get("type")
                .or_else(|| example.get("eventType"))
                .and_then(Value::as_str)
                .unwrap_or_else(|| panic!("{name}: no type"))
                .to_owned();
            let data = example.get("data").cloned().unwrap_or(Value::Null);
            found.push((name, event_type, data));
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

#[test]
fn the_system_events_generate_as_published_and_agree_with_jsonschema() {
    let mapping = TypeMapping {
        type_templates: vec![TEMPLATE.to_owned()],
        ..TypeMapping::default()
    };
    let registry = Registry::load_openapi(document(), &mapping).unwrap();
    let types: BTreeMap<&str, &str> = registry
        .files
        .iter()
        .map(|file| {
            let at = file.path.to_str().unwrap();
            let (_, pointer) = at.split_once('#').unwrap();
            (file.meta.event_type.as_str(), pointer)
        })
        .collect();
    assert!(types.len() >= 200, "{} types", types.len());
    assert!(types.contains_key("Microsoft.Storage.BlobCreated"));

    let lock = tempfile::tempdir().unwrap();
    let rust = Builder::new()
        .openapi(document())
        .type_template(TEMPLATE)
        .profile(Profile::CloudEvents)
        .lock_file(lock.path().join("lock.json"))
        .generate()
        .unwrap();
    assert!(rust.refused.is_empty(), "{:?}", rust.refused);
    let left_out: Vec<String> = rust
        .warnings
        .iter()
        .map(ToString::to_string)
        .filter(|w| w.contains("left out"))
        .collect();
    // The one definition that is neither an event nor used by one is named, not dropped.
    let unused: Vec<String> = rust
        .warnings
        .iter()
        .filter(|w| w.message.contains("no Rust is generated for it"))
        .map(|w| w.file.display().to_string())
        .collect();
    assert_eq!(unused.len(), 1, "{unused:?}");
    assert!(
        unused[0].ends_with("#/definitions/SubscriptionValidationResponse"),
        "{unused:?}"
    );
    let code = rust.single_file().unwrap();
    let variants = scratch::variants(&code);
    assert_eq!(variants.len(), registry.files.len(), "{variants:?}");

    let scratch = scratch::Scratch::new("azure-eventgrid");
    let mut reader = scratch::Reader::default();
    reader.module(&scratch, "eventgrid", &code);
    let original: Value = serde_json::from_slice(&std::fs::read(document()).unwrap()).unwrap();
    let mut oracle = oracle::Oracle::new(&dir());
    let mut verdicts: Vec<(String, Option<String>)> = Vec::new();
    let mut judge = |event_type: &str, pointer: &str, instances: Vec<Value>| {
        let mutants: Vec<Value> = instances
            .iter()
            .flat_map(|i| oracle::mutants(i).into_iter().map(|(_, m)| m))
            .collect();
        for data in instances.into_iter().chain(mutants) {
            let verdict = oracle.verdict_at(&document(), pointer, &data);
            reader.event("eventgrid", event_type, &data);
            verdicts.push((format!("{event_type} {data}"), verdict));
        }
    };
    let (mut shipped, mut other_types) = (0, Vec::new());
    for (name, event_type, data) in examples() {
        match types.get(event_type.as_str()) {
            Some(pointer) => {
                shipped += 1;
                judge(&event_type, pointer, vec![data]);
            }
            None => other_types.push(format!("{name}: {event_type}")),
        }
    }
    for (event_type, pointer) in &types {
        let schema = original.pointer(pointer).unwrap();
        judge(event_type, pointer, vec![oracle::filled(schema)]);
    }
    let lines = reader.run(&scratch);
    let (accepted, disagreements) = oracle::tally(&lines, &verdicts);
    // Known and counted: OpenAPI 2's `x-nullable: true` admits `null` (codegen reads it so),
    // but the `jsonschema` crate knows JSON Schema only and refuses the `null` Microsoft's
    // own Service Bus examples send. Each such event must be one whose refused member is
    // marked `x-nullable` in the original document, and the typed read accepted it.
    let (nullable, others): (Vec<_>, Vec<_>) =
        disagreements
            .into_iter()
            .partition(|(what, typed, verdict)| {
                let Some(member) = verdict.as_deref().and_then(|v| {
                    v.strip_prefix('/')?
                        .strip_suffix(": null is not of type \"string\"")
                }) else {
                    return false;
                };
                let event_type = what.split(' ').next().unwrap_or_default();
                typed == "ok"
                    && types.get(event_type).is_some_and(|pointer| {
                        original.pointer(&format!("{pointer}/properties/{member}/x-nullable"))
                            == Some(&Value::Bool(true))
                    })
            });
    oracle::assert_agree(&others, verdicts.len());
    assert_eq!(nullable.len(), 12, "{nullable:#?}");
    eprintln!(
        "azure event grid: {} definitions, {} types, {} left out by name, {} neither typed nor used (named in a warning); {shipped} shipped examples ({} name a type the document does not describe: {other_types:?}); {} of {} events agree with jsonschema ({accepted} accepted and written back unchanged); {} hold `null` in an `x-nullable` member, which OpenAPI admits and JSON Schema refuses",
        original["definitions"].as_object().unwrap().len(),
        types.len(),
        left_out.len(),
        unused.len(),
        other_types.len(),
        verdicts.len() - nullable.len(),
        verdicts.len(),
        nullable.len(),
    );
}
