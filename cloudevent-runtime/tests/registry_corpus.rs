//! The shared corpus (`fixtures/corpus/`) through the registry-aware validator: with a
//! registry that holds the corpus's event type under an empty schema and only warns about
//! other types, every case keeps the plain validator's verdict and its errors, so adding a
//! registry changes nothing the profile decides. Registry-specific cases are in
//! `registry_validation.rs`.
#![cfg(feature = "registry")]

use base64::Engine as _;
use cloudevent_runtime::Validate;
use cloudevent_runtime::registry::{Registry, RegistryEntry, RegistryValidator, UnknownType};
use cloudevent_runtime::{Document, Profile, Validator};
use serde_json::Value;

fn corpus() -> Vec<Value> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/corpus");
    let mut cases = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    for file in files {
        let list: Vec<Value> = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        cases.extend(list);
    }
    cases
}

/// The document a JSON-format case stands for, its `repeat` markers expanded in the input's
/// JSON text (as `cloudevent-cli/tests/corpus.rs` does).
fn document(case: &Value) -> Option<Vec<u8>> {
    let mut text = case["input"].to_string();
    for repeat in case
        .get("repeat")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let marker = repeat["marker"].as_str().unwrap();
        let times = usize::try_from(repeat["times"].as_u64().unwrap()).unwrap();
        text = text.replace(marker, &repeat["text"].as_str().unwrap().repeat(times));
    }
    let input: Value = serde_json::from_str(&text).unwrap();
    if let Some(event) = input.get("structured").or_else(|| input.get("batch")) {
        return Some(event.to_string().into_bytes());
    }
    if let Some(text) = input
        .get("structured_text")
        .or_else(|| input.get("batch_text"))
        .and_then(Value::as_str)
    {
        return Some(text.as_bytes().to_vec());
    }
    let b64 = input.get("structured_base64")?.as_str()?;
    Some(
        base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap(),
    )
}

fn errors(document: &Document) -> Vec<String> {
    let reports = match document {
        Document::Event(report) => vec![report.clone()],
        Document::Batch(report) => report.events().to_vec(),
    };
    reports
        .iter()
        .flat_map(|r| r.errors().map(|f| f.to_string()).collect::<Vec<_>>())
        .collect()
}

#[test]
fn a_registry_changes_no_verdict_of_the_corpus() {
    // Compiled once, shared by every case's validator.
    let registry = std::sync::Arc::new(
        Registry::new(vec![RegistryEntry::new(
            "com.example.ledger.entry.posted",
            serde_json::json!({}),
        )])
        .unwrap(),
    );
    let mut checked = 0;
    for case in corpus() {
        let Some(bytes) = document(&case) else {
            continue;
        };
        let profile: Profile = case["profile"].as_str().unwrap().parse().unwrap();
        let plain = Validator::new(profile);
        let with_registry = RegistryValidator::new(plain.clone(), registry.clone())
            .unknown_type(UnknownType::Warning);
        let expected = plain.validate_document(&bytes);
        let found = with_registry.validate_document(&bytes);
        assert_eq!(
            found.is_valid(),
            expected.is_valid(),
            "{}: the registry changed the verdict",
            case["name"]
        );
        assert_eq!(errors(&found), errors(&expected), "{}", case["name"]);
        checked += 1;
    }
    assert!(checked > 200, "only {checked} JSON-format cases");
}
