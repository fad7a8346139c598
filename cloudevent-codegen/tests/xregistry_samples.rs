//! Issue 39: the xRegistry specification's current scenario samples that are CloudEvents
//! catalogs with JSON Schema payloads (`tests/sets/xregistry-samples/`, vendored unedited from
//! `xregistry/spec`, see its `SOURCE`) generate as published: all 19 messages (Contoso ERP 17,
//! Watchkam 2), none left out or refused, though every `dataschemauri` is the root-relative
//! form `/schemagroups/<g>/schemas/<s>`. The Rust compiles in a scratch crate, and reads
//! events through `RegistryEvent::from_slice` with the `jsonschema` crate's verdict on the
//! original catalog. The samples ship no example events: each message's data is one instance
//! filled from its schema, the empty object, and the mutants `tests/oracle` makes of the first.

mod oracle;
mod scratch;

use std::path::{Path, PathBuf};

use cloudevent_codegen::{Builder, Profile, Registry};
use serde_json::{Value, json};

/// Each sample catalog and the messages it generates.
const SAMPLES: &[(&str, usize)] = &[
    ("contoso-erp-jsons07.xreg.json", 17),
    ("watchkam-jsons07.xreg.json", 2),
];

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sets/xregistry-samples")
}

/// The `source` of an event carrying `data`: the message's template filled from the payload
/// (RFC 6570 level 1, as the generated type fills it), or with `x` where the payload has no
/// string to give.
fn source(template: &str, data: &Value) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some((before, after)) = rest.split_once('{') {
        let (name, after) = after.split_once('}').unwrap();
        out.push_str(before);
        match data.get(name).and_then(Value::as_str) {
            Some(value) => value.bytes().for_each(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                    out.push(b as char)
                }
                _ => out.push_str(&format!("%{b:02X}")),
            }),
            None => out.push('x'),
        }
        rest = after;
    }
    out + rest
}

const MAIN: &str = r#"
/// Reads each line's event (`<type>\t<event JSON>`) through `RegistryEvent::from_slice`:
/// `ok` (its typed variant, data written back unchanged), `refused\t<error>`, `other`, or
/// `differs\t<type>\t<data written back>`.
fn main() {
    let path = std::env::args().nth(1).unwrap();
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let (expected, text) = line.split_once('\t').unwrap();
        let sent: serde_json::Value = serde_json::from_str(text).unwrap();
        match generated::RegistryEvent::from_slice(text.as_bytes()) {
            Err(e) => println!("refused\t{e}"),
            Ok(event) => match data_of(&event) {
                None => println!("other"),
                Some((ty, data)) if ty == expected && data == sent["data"] => println!("ok"),
                Some((ty, data)) => println!("differs\t{ty}\t{data}"),
            },
        }
    }
}

fn of<T: cloudevent_runtime::CloudEventData + serde::Serialize>(
    event: &cloudevent_runtime::Event<T>,
) -> Option<(&'static str, serde_json::Value)> {
    Some((T::TYPE, serde_json::to_value(event.data()).unwrap()))
}
"#;

#[test]
fn the_scenario_samples_generate_as_published_and_agree_with_jsonschema() {
    let dir = dir();
    let lock = tempfile::tempdir().unwrap();
    let scratch = scratch::Scratch::new("xregistry-samples");
    let mut oracle = oracle::Oracle::new(&dir);
    let mut main = String::from("#![deny(warnings)]\n#![allow(clippy::all, missing_docs)]\n");
    let mut arms = String::new();
    let mut events = String::new();
    let mut verdicts: Vec<(String, Option<String>)> = Vec::new();
    let mut total = 0;
    for (index, (file, messages)) in SAMPLES.iter().enumerate() {
        let path = dir.join(file);
        let registry = Registry::load_xregistry(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let rust = Builder::new()
            .xregistry(&path)
            .profile(Profile::CloudEvents)
            .lock_file(lock.path().join(format!("{index}.lock.json")))
            .generate()
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(rust.refused.is_empty(), "{file}: {:?}", rust.refused);
        let left_out: Vec<String> = rust
            .warnings
            .iter()
            .map(ToString::to_string)
            .filter(|w| w.contains("left out"))
            .collect();
        assert!(left_out.is_empty(), "{file}: {left_out:#?}");
        let text = rust.single_file().unwrap();
        let variants = scratch::variants(&text);
        assert_eq!(registry.files.len(), *messages, "{file}");
        assert_eq!(variants.len(), *messages, "{file}: {variants:?}");
        total += variants.len();
        let module = format!("sample{index}");
        scratch.write(&format!("src/{module}.rs"), &text);
        main.push_str(&format!(
            "pub mod {module} {{\n    include!(\"{module}.rs\");\n}}\n"
        ));
        for variant in &variants {
            arms.push_str(&format!(
                "        Event::{module}({module}::RegistryEvent::{variant}(e)) => of(e),\n"
            ));
        }
        arms.push_str(&format!(
            "        Event::{module}({module}::RegistryEvent::Other(_)) => None,\n"
        ));
        let document: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        for message in &registry.files {
            let at = message.path.to_string_lossy();
            let (_, pointer) = at.split_once('#').unwrap();
            let schema = document.pointer(pointer).unwrap();
            let valid = oracle::filled(schema);
            let mut instances = vec![valid.clone(), json!({})];
            instances.extend(oracle::mutants(&valid).into_iter().map(|(_, m)| m));
            let template = message
                .meta
                .source_template
                .as_deref()
                .or(message.meta.source.as_deref())
                .unwrap_or("https://example.com/x");
            for data in instances {
                let verdict = oracle.verdict_at(&path, pointer, &data);
                let event = json!({
                    "specversion": "1.0",
                    "id": format!("e{}", verdicts.len()),
                    "source": source(template, &data),
                    "type": message.meta.event_type,
                    "time": "2025-01-02T03:04:05Z",
                    "datacontenttype": "application/json",
                    "data": data,
                });
                events.push_str(&format!("{}\t{index}\t{event}\n", message.meta.event_type));
                verdicts.push((format!("{file} {event}"), verdict));
            }
        }
    }
    assert_eq!(total, 19);
    // One enum over both catalogs' `RegistryEvent`s: each line names its catalog.
    main.push_str("\nmod generated {\n    pub enum RegistryEvent {\n");
    main.push_str("        Sample0(super::sample0::RegistryEvent),\n        Sample1(super::sample1::RegistryEvent),\n    }\n");
    main.push_str("    impl RegistryEvent {\n        pub fn from_slice(line: &[u8]) -> Result<Self, String> {\n");
    main.push_str("            let text = std::str::from_utf8(line).unwrap();\n            let (catalog, event) = text.split_once('\\t').unwrap();\n");
    main.push_str("            match catalog {\n                \"0\" => super::sample0::RegistryEvent::from_slice(event.as_bytes()).map(Self::Sample0).map_err(|e| e.to_string()),\n");
    main.push_str("                _ => super::sample1::RegistryEvent::from_slice(event.as_bytes()).map(Self::Sample1).map_err(|e| e.to_string()),\n            }\n        }\n    }\n}\n");
    main.push_str("\nuse generated::RegistryEvent as Event;\n#[allow(non_snake_case)]\nfn data_of(event: &Event) -> Option<(&'static str, serde_json::Value)> {\n    match event {\n");
    main.push_str(
        &arms
            .replace("Event::sample0(", "Event::Sample0(")
            .replace("Event::sample1(", "Event::Sample1("),
    );
    main.push_str("    }\n}\n");
    main.push_str(&MAIN.replace(
        "let sent: serde_json::Value = serde_json::from_str(text).unwrap();",
        "let sent: serde_json::Value = serde_json::from_str(text.split_once('\\t').unwrap().1).unwrap();",
    ));
    scratch.write("src/main.rs", &main);
    scratch.write("events.txt", &events);
    let events_path = scratch.dir.join("events.txt");
    let output = scratch.cargo(&["run", "--", events_path.to_str().unwrap()]);
    assert!(output.status.success(), "{}", scratch::text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), verdicts.len(), "{stdout}");
    let (accepted, disagreements) = oracle::tally(&lines, &verdicts);
    oracle::assert_agree(&disagreements, verdicts.len());
    eprintln!(
        "xregistry samples: {total} messages generated; all {} events agree with jsonschema ({accepted} accepted and written back unchanged)",
        verdicts.len(),
    );
}
