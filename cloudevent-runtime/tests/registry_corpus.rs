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

/// The registry corpus (`cloudevent-cli/tests/data/registry/`): every schema of `schemas/`
/// against every corpus event's `data`, each also mutated member by member (removed, given
/// each other JSON type, emptied, an extra member), through `RegistryValidator` on the parsed
/// event and on its bytes. Every finding of every case is compared with the golden recorded
/// before issue 25's third round changed how valid `data` is read
/// (`tests/data/registry_findings.golden`: per schema, the cases, the valid ones, the findings
/// and an FNV-1a digest of every case's findings, `Debug`-rendered, the cases sorted so member
/// order does not matter). `UPDATE_GOLDEN=1` rewrites it, for a change that means to change
/// findings.
mod golden {
    use std::fmt::Write as _;
    use std::path::{Path, PathBuf};

    use cloudevent_runtime::Validate;
    use cloudevent_runtime::registry::{Registry, RegistryEntry, RegistryValidator};
    use cloudevent_runtime::{AnyEvent, Json, Profile, Validator};
    use serde_json::{Value, json};

    fn root() -> PathBuf {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).to_path_buf()
    }

    fn schemas() -> Vec<(String, Value)> {
        let mut found = Vec::new();
        for dir in std::fs::read_dir(root().join("schemas")).unwrap() {
            let dir = dir.unwrap().path();
            if !dir.is_dir() {
                continue;
            }
            for file in std::fs::read_dir(&dir).unwrap() {
                let file = file.unwrap().path();
                if file.extension().is_some_and(|e| e == "json") {
                    let name = file.strip_prefix(root()).unwrap().display().to_string();
                    let schema = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
                    found.push((name, schema));
                }
            }
        }
        found.sort_by(|a, b| a.0.cmp(&b.0));
        assert!(found.len() >= 8, "{found:?}");
        found
    }

    fn instances() -> Vec<Value> {
        let mut found = vec![
            json!(null),
            json!({}),
            json!([]),
            json!("text"),
            json!(1.5),
            json!(-0),
            json!(18_446_744_073_709_551_615_u64),
            json!({"a\"b\\c\u{e9}": "\u{1}\n\t\u{2028}", "n": [1e300, -1.5e-7, 0.1, -9_223_372_036_854_775_808_i64]}),
        ];
        let dir = root().join("cloudevent-cli/tests/data/registry");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for file in files {
            let document: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
            collect_data(&document, &mut found);
        }
        assert!(found.len() > 8, "{found:?}");
        found
    }

    fn collect_data(value: &Value, found: &mut Vec<Value>) {
        match value {
            Value::Object(members) => {
                if let Some(data) = members.get("data") {
                    found.push(data.clone());
                }
                members.values().for_each(|v| collect_data(v, found));
            }
            Value::Array(items) => items.iter().for_each(|v| collect_data(v, found)),
            _ => {}
        }
    }

    fn mutations(value: &Value) -> Vec<Value> {
        let replacements = [
            json!(null),
            json!(true),
            json!(-1),
            json!(0),
            json!(2.5),
            json!(""),
            json!("EUR"),
            json!("web"),
            json!([]),
            json!({}),
            json!("2026-03-28T14:22:31Z"),
            json!("a\"\\\u{e9}"),
            json!(12_345_678_901_234_567_890_u64),
        ];
        let mut out = vec![value.clone()];
        match value {
            Value::Object(members) => {
                for (name, member) in members {
                    let mut removed = members.clone();
                    removed.remove(name);
                    out.push(Value::Object(removed));
                    for replacement in replacements.iter().chain(mutations(member).iter().skip(1)) {
                        let mut changed = members.clone();
                        changed.insert(name.clone(), replacement.clone());
                        out.push(Value::Object(changed));
                    }
                }
                let mut extra = members.clone();
                extra.insert("unexpected".into(), json!(1));
                out.push(Value::Object(extra));
            }
            Value::Array(items) => {
                out.push(json!([]));
                for (i, item) in items.iter().enumerate() {
                    for replacement in replacements.iter().chain(mutations(item).iter().skip(1)) {
                        let mut changed = items.clone();
                        changed[i] = replacement.clone();
                        out.push(Value::Array(changed));
                    }
                }
            }
            _ => {}
        }
        out
    }

    fn fnv(text: &str, mut hash: u64) -> u64 {
        for byte in text.bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        hash
    }

    fn digest() -> String {
        let mut golden = String::new();
        for (file, schema) in schemas() {
            let registry = Registry::new(vec![RegistryEntry::new("com.example.test", schema)]);
            let validator =
                RegistryValidator::new(Validator::new(Profile::CloudEvents), registry.unwrap());
            let (mut cases, mut valid, mut findings) = (Vec::new(), 0, 0);
            for data in instances().iter().flat_map(mutations) {
                let event = json!({"specversion": "1.0", "id": "1", "source": "/s",
                    "type": "com.example.test", "datacontenttype": "application/json", "data": data});
                let bytes = serde_json::to_vec(&event).unwrap();
                let from_bytes = validator.validate_bytes::<Json>(&bytes);
                let parsed = AnyEvent::from_slice(&bytes).unwrap();
                let from_event = validator.validate(&parsed);
                let rendered: Vec<String> = from_bytes
                    .findings()
                    .iter()
                    .map(|f| format!("{f:?}"))
                    .collect();
                let again: Vec<String> = from_event
                    .findings()
                    .iter()
                    .map(|f| format!("{f:?}"))
                    .collect();
                assert_eq!(rendered, again, "{file}: {data}");
                valid += usize::from(from_bytes.is_valid());
                findings += rendered.len();
                cases.push(rendered.join("\n"));
            }
            cases.sort();
            let hash = cases
                .iter()
                .fold(0xcbf2_9ce4_8422_2325, |h, case| fnv(case, fnv("\u{0}", h)));
            writeln!(
                golden,
                "{file} cases={} valid={valid} findings={findings} fnv={hash:016x}",
                cases.len()
            )
            .unwrap();
        }
        golden
    }

    #[test]
    fn the_registry_corpus_keeps_its_findings() {
        let path = root().join("cloudevent-runtime/tests/data/registry_findings.golden");
        let found = digest();
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&path, &found).unwrap();
        }
        let golden = std::fs::read_to_string(&path).unwrap();
        assert_eq!(found, golden, "the registry's findings changed");
        assert!(
            golden.lines().count() >= 9 && golden.contains("valid="),
            "{golden}"
        );
    }
}
