//! Type templates (`--type-template`, `TypeMapping::type_templates`, issue 26): up to four
//! templates (one per line), then after a NUL byte a schema file, then after a second NUL an
//! optional second file of the same folder, loaded with `Registry::load_mapped` and checked
//! with `check_schema` under the CloudEvents profile. Never panics; a template with an unclosed
//! `{` is refused; when every template is literal text, each type is the first template; no
//! type a template gives escapes the envelope check (the loader or the check reports it): an
//! empty type under the profile's required rule, a control character under the type system's.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use cloudevent_codegen::{CodegenError, Registry, TypeMapping, check_schema};
use cloudevent_runtime::{Policy, Profile};
use libfuzzer_sys::fuzz_target;

/// The folder this process writes its inputs into (one per process: libFuzzer's workers each
/// have their own).
fn folder() -> &'static PathBuf {
    static FOLDER: OnceLock<PathBuf> = OnceLock::new();
    FOLDER.get_or_init(|| {
        let root = std::env::temp_dir()
            .join(format!(
                "cloudevent-fuzz-type-template-{}",
                std::process::id()
            ))
            .join("api");
        std::fs::create_dir_all(root.join("push")).expect("a temporary folder");
        root
    })
}

/// The rule a type no event may carry breaks, as the one envelope check decides it (issue 38
/// item 12: this oracle expected a `CE 1.0.2 type` rule for an empty type, and stopped the
/// run in 13 s): an empty type is a REQUIRED attribute without a value, the profile's
/// required rule (`CE 1.0.2 required` under `cloudevents`, CE 1.0.2 3.1: "MUST be a
/// non-empty string"); a control character is the type system's (`CE 1.0.2 type system`).
/// `None` for any other type.
fn expected_rule(event_type: &str, policy: &Policy) -> Option<&'static str> {
    if event_type.is_empty() {
        Some(policy.required_rule().as_str())
    } else if event_type.chars().any(char::is_control) {
        Some("CE 1.0.2 type system")
    } else {
        None
    }
}

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(3, |&b| b == 0);
    let (Some(templates), Some(first)) = (parts.next(), parts.next()) else {
        return;
    };
    let second = parts.next();
    let Ok(templates) = std::str::from_utf8(templates) else {
        return;
    };
    let templates: Vec<String> = templates.lines().take(4).map(str::to_owned).collect();
    let root = folder();
    std::fs::write(root.join("push/event.schema.json"), first).expect("write the schema");
    let other = root.join("push/other.json");
    match second {
        Some(second) => std::fs::write(&other, second).expect("write the second schema"),
        None => {
            let _ = std::fs::remove_file(&other);
        }
    }
    let mapping = TypeMapping {
        type_templates: templates.clone(),
        ..TypeMapping::default()
    };
    let loaded = Registry::load_mapped(root, &mapping);
    let unclosed = templates
        .iter()
        .any(|t| t.rfind('{').is_some_and(|open| !t[open..].contains('}')));
    let registry = match loaded {
        Err(error) => {
            let shown = error.to_string();
            if let CodegenError::Findings(found) = &error {
                assert!(!found.is_empty(), "a refusal without findings: {shown}");
            }
            return;
        }
        Ok(registry) => registry,
    };
    assert!(
        !unclosed,
        "an unclosed placeholder was accepted: {templates:?}"
    );
    let policy = Policy::new(Profile::CloudEvents);
    for file in &registry.files {
        let event_type = &file.meta.event_type;
        if templates.iter().all(|t| !t.contains('{')) {
            assert_eq!(event_type, &templates[0]);
        }
        if let Some(rule) = expected_rule(event_type, &policy) {
            let found = check_schema(file, &policy);
            assert!(
                found
                    .iter()
                    .any(|f| f.rule.is_some_and(|r| r.as_str() == rule)),
                "type {event_type:?} passed without a {rule} finding: {found:?}"
            );
            // One verdict, said once: a control character is one finding, not one per check.
            let control = found
                .iter()
                .filter(|f| f.message.contains("control characters"))
                .count();
            assert!(control <= 1, "said {control} times: {found:?}");
        }
    }
});
