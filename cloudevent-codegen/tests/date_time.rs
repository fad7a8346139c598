//! Issue 26, one verdict for `date-time`: the registry validator (`cloudevent validate
//! --registry`) over the snapshot codegen makes of `tests/fixtures/date-time` refuses exactly
//! the instances of `examples/cases.json` that the generated types refuse
//! (`tests/codegen-build/tests/date_time.rs`), at the same JSON pointer: drafts 4 and 7 (the
//! published-set layout, read with `--type-template` and `--types-pointer`) and draft 2020-12
//! (a registry of one's own read with `--type-template '{dir}'`, where `format` is otherwise an
//! annotation), each with the rules' `check_time`.

use std::path::{Path, PathBuf};

use cloudevent_codegen::{Registry, TypeMapping};
use cloudevent_runtime::registry::{Registry as RuntimeRegistry, RegistryValidator};
use cloudevent_runtime::{Json, Profile, Validate, Validator};
use serde_json::Value;

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/date-time")
        .join(path)
}

fn validator(dir: &str, mapping: &TypeMapping) -> RegistryValidator {
    let registry = Registry::load_mapped(fixture(dir), mapping).unwrap();
    let snapshot = cloudevent_codegen::registry_snapshot(&registry).unwrap();
    RegistryValidator::new(
        Validator::new(Profile::CloudEvents),
        RuntimeRegistry::new(snapshot.entries).unwrap(),
    )
}

#[test]
fn the_registry_refuses_the_date_times_the_generated_types_refuse() {
    let published = validator(
        "published",
        &TypeMapping {
            type_templates: vec!["com.example.{dir}.{/properties/action}".into()],
            types_pointer: Some("/cloudeventTypes".into()),
            dataschema_base: Some("https://schemas.example.com/published/".into()),
            ..TypeMapping::default()
        },
    );
    let own = validator(
        "own",
        &TypeMapping {
            type_templates: vec!["{dir}".into()],
            ..TypeMapping::default()
        },
    );
    let cases: Vec<Value> =
        serde_json::from_slice(&std::fs::read(fixture("examples/cases.json")).unwrap()).unwrap();
    assert_eq!(cases.len(), 10);
    for case in &cases {
        let checker = if case["type"] == "com.example.shift.started" {
            &own
        } else {
            &published
        };
        let event = serde_json::json!({"specversion": "1.0", "id": "1",
            "source": "https://rota.example.com/shifts", "type": case["type"], "data": case["data"]});
        let report = checker.validate_bytes::<Json>(&serde_json::to_vec(&event).unwrap());
        let refused: Vec<String> = report
            .errors()
            .map(|finding| finding.attribute.to_string())
            .collect();
        match case["refused_at"].as_str() {
            None => assert!(refused.is_empty(), "{case}: {report}"),
            Some(at) => {
                assert_eq!(refused, [format!("data{at}")], "{case}: {report}");
                let finding = report.errors().next().unwrap();
                assert!(
                    finding.to_string().contains("keyword `format`"),
                    "{finding}"
                );
            }
        }
    }
}
