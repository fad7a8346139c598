//! Issue 39: the AsyncAPI specification's own single-file examples
//! (`tests/sets/asyncapi-examples/`, vendored unedited from `asyncapi/spec`, see its `SOURCE`)
//! generate as published with `--asyncapi FILE --type-template
//! 'org.asyncapi.examples.{file}' --profile cloudevents`: every message with a JSON Schema
//! payload is one type. The Rust of all of them compiles in one scratch crate that depends on
//! the runtime, serde and serde_json only, and reads events through `RegistryEvent::from_slice`
//! with the `jsonschema` crate's verdict on the original document (as JSON): each message's
//! shipped `examples`, one instance filled from its schema, and the mutants `tests/oracle`
//! makes of those; accepted data is written back unchanged.

#![cfg(feature = "yaml")]

mod oracle;
mod scratch;

use std::path::{Path, PathBuf};

use cloudevent_codegen::{Builder, Profile, Registry, TypeMapping};
use serde_json::Value;

const TEMPLATE: &str = "org.asyncapi.examples.{file}";

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sets/asyncapi-examples")
}

fn documents() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yml"))
        .collect();
    found.sort();
    found
}

/// The message object a laid-out message came from: its payload pointer without the
/// trailing `/payload` (or `/payload/schema`).
fn message_at(payload_at: &str) -> &str {
    let at = payload_at.strip_suffix("/schema").unwrap_or(payload_at);
    at.strip_suffix("/payload").unwrap_or(at)
}

#[test]
fn the_specifications_examples_generate_as_published_and_agree_with_jsonschema() {
    let documents = documents();
    assert_eq!(documents.len(), 19, "{documents:?}");
    let lock = tempfile::tempdir().unwrap();
    let as_json = tempfile::tempdir().unwrap();
    let scratch = scratch::Scratch::new("asyncapi-examples");
    let mut reader = scratch::Reader::default();
    // The oracle reads the documents as JSON, converted once before it loads the folder.
    let parsed: Vec<Value> = documents
        .iter()
        .enumerate()
        .map(|(index, path)| {
            let text = std::fs::read_to_string(path).unwrap();
            let document: Value = serde_saphyr::from_str(&text).unwrap();
            let json_path = as_json.path().join(format!("{index}.json"));
            std::fs::write(&json_path, document.to_string()).unwrap();
            document
        })
        .collect();
    let mut oracle = oracle::Oracle::new(as_json.path());
    let mapping = TypeMapping {
        type_templates: vec![TEMPLATE.to_owned()],
        ..TypeMapping::default()
    };
    let (mut types, mut shipped) = (0, 0);
    let mut skipped_documents = Vec::new();
    let mut verdicts: Vec<(String, Option<String>)> = Vec::new();
    for (index, path) in documents.iter().enumerate() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let document = &parsed[index];
        let json_path = as_json.path().join(format!("{index}.json"));
        let registry = match Registry::load_asyncapi(path, &mapping) {
            Ok(registry) => registry,
            // A document whose every message is in another schema format says so, by message.
            Err(error) => {
                let error = error.to_string();
                assert!(
                    error.contains("left out") && error.contains("application/vnd.apache.avro"),
                    "{name}: {error}"
                );
                skipped_documents.push(name);
                continue;
            }
        };
        let rust = Builder::new()
            .asyncapi(path)
            .type_template(TEMPLATE)
            .profile(Profile::CloudEvents)
            .lock_file(lock.path().join(format!("{index}.lock.json")))
            .generate()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(rust.refused.is_empty(), "{name}: {:?}", rust.refused);
        let left_out: Vec<String> = rust
            .warnings
            .iter()
            .map(ToString::to_string)
            .filter(|w| w.contains("left out"))
            .collect();
        assert!(left_out.is_empty(), "{name}: {left_out:#?}");
        let code = rust.single_file().unwrap();
        let variants = scratch::variants(&code);
        assert_eq!(variants.len(), registry.files.len(), "{name}: {variants:?}");
        types += variants.len();
        let module = format!("doc{index}");
        reader.module(&scratch, &module, &code);
        for file in &registry.files {
            let at = file.path.to_string_lossy();
            let (_, payload_at) = at.split_once('#').unwrap();
            let schema = document.pointer(payload_at).unwrap();
            let message = document.pointer(message_at(payload_at)).unwrap();
            let mut instances: Vec<Value> = message
                .get("examples")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|example| example.get("payload").cloned())
                .collect();
            shipped += instances.len();
            instances.push(oracle::filled(schema));
            let mutants: Vec<Value> = instances
                .iter()
                .flat_map(|i| oracle::mutants(i).into_iter().map(|(_, m)| m))
                .collect();
            instances.extend(mutants);
            for data in instances {
                let verdict = oracle.verdict_at(&json_path, payload_at, &data);
                reader.event(&module, &file.meta.event_type, &data);
                verdicts.push((format!("{name} {} {data}", file.meta.event_type), verdict));
            }
        }
    }
    let lines = reader.run(&scratch);
    let (accepted, disagreements) = oracle::tally(&lines, &verdicts);
    oracle::assert_agree(&disagreements, verdicts.len());
    // The Adeo case study's payloads are Avro schemas hosted elsewhere.
    assert_eq!(skipped_documents, ["adeo-kafka-request-reply-asyncapi.yml"]);
    eprintln!(
        "asyncapi examples: {} documents ({} all Avro), {types} message types, {shipped} shipped examples; all {} events agree with jsonschema ({accepted} accepted and written back unchanged)",
        documents.len(),
        skipped_documents.len(),
        verdicts.len(),
    );
}
