//! Schema sets as their owners publish them (issue 39): a user's own folder naming each type
//! in `x-cloudevent.type` (no flag), a vendor annotation read as a plain string
//! (`x-amazon-events-source`, as AWS EventBridge schemas carry it), a file whose `$defs` alone
//! others reach still an event, JSON that is no schema skipped with one warning, `--events` /
//! `--shared` / `--exclude`, mapped types pointed to `--profile cloudevents`, and
//! `--skip-refused` with nothing left.

use std::fs;
use std::path::{Path, PathBuf};

use cloudevent_codegen::{Builder, CodegenError, Profile, Registry, TypeMapping};
use serde_json::json;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// A builder whose lock file is in a scratch folder (nothing is written beside the fixture).
fn builder(schemas: &Path, lock: &tempfile::TempDir) -> Builder {
    Builder::new()
        .schemas(schemas)
        .lock_file(lock.path().join("cloudevent.lock.json"))
}

fn vendor() -> TypeMapping {
    TypeMapping {
        type_templates: vec!["{/x-amazon-events-source}.{file}".into()],
        ..TypeMapping::default()
    }
}

#[test]
fn a_users_own_folder_with_x_cloudevent_type_generates_with_no_flag() {
    let registry = Registry::load_mapped(fixture("user-layout"), &TypeMapping::default()).unwrap();
    let types: Vec<&str> = registry
        .files
        .iter()
        .map(|f| f.meta.event_type.as_str())
        .collect();
    assert_eq!(
        types,
        [
            "com.example.billing.invoice.issued",
            "com.example.shipping.parcel.shipped"
        ]
    );
    assert!(registry.documents.contains_key("common/money.json"));
    let issued = &registry.files[0];
    assert_eq!(
        issued.meta.dataschema,
        "https://schemas.example.com/billing/invoice-issued/v1.json"
    );
    assert_eq!(issued.meta.subject.as_deref(), Some("invoice_id"));
    // Under the default profile, through the whole pipeline: the shared file once.
    let lock = tempfile::tempdir().unwrap();
    let rust = builder(&fixture("user-layout"), &lock)
        .generate()
        .unwrap()
        .single_file()
        .unwrap();
    assert_eq!(
        rust.matches("pub struct Money {").count(),
        2,
        "type and builder"
    );
    assert!(rust.contains("type = \"com.example.shipping.parcel.shipped\""));
    assert!(rust.contains("super::shared::Money"));
}

#[test]
fn a_pointer_reads_a_plain_string_member_in_templates_type_and_types_pointers() {
    let dir = fixture("vendor-annotated");
    let from = |mapping: &TypeMapping| -> Vec<String> {
        Registry::load_mapped(&dir, mapping)
            .unwrap()
            .files
            .iter()
            .map(|f| f.meta.event_type.clone())
            .collect()
    };
    assert_eq!(
        from(&vendor()),
        ["aws.ec2.instance-state-change", "aws.s3.object-created"]
    );
    for mapping in [
        TypeMapping {
            type_pointer: Some("/x-amazon-events-source".into()),
            ..TypeMapping::default()
        },
        TypeMapping {
            types_pointer: Some("/x-amazon-events-source".into()),
            ..TypeMapping::default()
        },
    ] {
        assert_eq!(from(&mapping), ["aws.ec2", "aws.s3"], "{mapping:?}");
    }
    let lock = tempfile::tempdir().unwrap();
    let rust = builder(&dir, &lock)
        .type_template("{/x-amazon-events-source}.{file}")
        .profile(Profile::CloudEvents)
        .generate()
        .unwrap()
        .single_file()
        .unwrap();
    assert!(rust.contains("type = \"aws.ec2.instance-state-change\""));
}

#[test]
fn a_file_whose_defs_alone_others_reach_is_still_an_event_and_globs_settle_doubt() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, value: serde_json::Value| {
        fs::write(dir.path().join(name), value.to_string()).unwrap();
    };
    write(
        "run.json",
        json!({"$id": "https://schemas.example.com/run/v1.json", "type": "object",
            "properties": {"facet": {"$ref": "facet.json#/$defs/base"}},
            "$defs": {"base": {"type": "object", "properties": {"name": {"type": "string"}}}}}),
    );
    write(
        "facet.json",
        json!({"$id": "https://schemas.example.com/facet/v1.json", "type": "object",
            "properties": {"base": {"$ref": "run.json#/$defs/base"}, "at": {"$ref": "common.json"}},
            "$defs": {"base": {"type": "string"}}}),
    );
    write(
        "common.json",
        json!({"$id": "https://schemas.example.com/common/v1.json", "type": "string"}),
    );
    let mapping = TypeMapping {
        type_templates: vec!["com.example.lineage.{file}.emitted".into()],
        ..TypeMapping::default()
    };
    let types = |mapping: &TypeMapping| -> (Vec<String>, Vec<String>) {
        let registry = Registry::load_mapped(dir.path(), mapping).unwrap();
        (
            registry.files.iter().map(|f| f.relative.clone()).collect(),
            registry.documents.keys().cloned().collect(),
        )
    };
    // `run.json` and `facet.json` reach each other's `$defs` only: both events; the root of
    // `common.json` is referenced: shared.
    assert_eq!(
        types(&mapping),
        (
            vec!["facet.json".to_owned(), "run.json".to_owned()],
            vec!["common.json".to_owned()]
        )
    );
    // Explicit globs settle it either way.
    let settled = TypeMapping {
        events: vec!["common.json".into()],
        shared: vec!["facet.*".into()],
        ..mapping.clone()
    };
    assert_eq!(
        types(&settled),
        (
            vec!["common.json".to_owned(), "run.json".to_owned()],
            vec!["facet.json".to_owned()]
        )
    );
    // `--events` on a file nothing types is an error naming it, with a fix.
    let untyped = TypeMapping {
        type_templates: Vec::new(),
        type_pointer: Some("/properties/type".into()),
        events: vec!["common.json".into()],
        ..TypeMapping::default()
    };
    let Err(CodegenError::Findings(found)) = Registry::load_mapped(dir.path(), &untyped) else {
        panic!("an untyped file under --events is an error");
    };
    assert!(found[0].file.ends_with("common.json"), "{}", found[0]);
    assert!(found[0].message.contains("--events"), "{}", found[0]);
    assert!(found[0].fix.as_deref().unwrap().contains("x-cloudevent"));
}

#[test]
fn json_that_is_no_schema_is_never_a_type_and_is_named_in_one_warning() {
    let dir = fixture("vendor-annotated");
    // A template that would type any file: the example payload still is no type.
    let lock = tempfile::tempdir().unwrap();
    let generated = builder(&dir, &lock)
        .type_template("{/x-amazon-events-source}.{file}")
        .type_template("com.example.{file}")
        .profile(Profile::CloudEvents)
        .generate()
        .unwrap();
    let rust = generated.single_file().unwrap();
    assert!(
        !rust.contains("com.example.instance-state-change"),
        "{rust}"
    );
    let about: Vec<_> = generated
        .warnings
        .iter()
        .filter(|w| w.message.contains("no JSON Schema keyword"))
        .collect();
    assert_eq!(about.len(), 1, "{:?}", generated.warnings);
    assert!(
        about[0]
            .message
            .contains("examples/instance-state-change.json")
    );
    assert!(about[0].fix.as_deref().unwrap().contains("--exclude"));
    // Following the fix silences it.
    let excluded = builder(&dir, &lock)
        .type_template("{/x-amazon-events-source}.{file}")
        .exclude("examples")
        .profile(Profile::CloudEvents)
        .generate()
        .unwrap();
    assert!(
        !excluded
            .warnings
            .iter()
            .any(|w| w.message.contains("no JSON Schema keyword")),
        "{:?}",
        excluded.warnings
    );
}

#[test]
fn a_mapped_type_the_default_profile_refuses_is_pointed_to_the_cloudevents_profile() {
    let lock = tempfile::tempdir().unwrap();
    let Err(CodegenError::Findings(found)) = builder(&fixture("vendor-annotated"), &lock)
        .type_template("{/x-amazon-events-source}.{file}")
        .generate()
    else {
        panic!("the default profile refuses `aws.ec2.instance-state-change`");
    };
    let typed: Vec<_> = found
        .iter()
        .filter(|f| f.message.starts_with("type `"))
        .collect();
    assert_eq!(typed.len(), 2, "{found:#?}");
    for finding in typed {
        assert_eq!(finding.pointer, "/x-amazon-events-source");
        let fix = finding.fix.as_deref().unwrap();
        assert!(fix.contains("--profile cloudevents"), "{fix}");
        assert!(fix.contains("cloudevent-registry.toml"), "{fix}");
    }
    // A type of one's own (`x-cloudevent.type`) keeps the rename the rule proposes.
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("thing.json"),
        json!({"$id": "https://schemas.example.com/thing/v1.json", "type": "object",
            "x-cloudevent": {"type": "com.example.thing"}})
        .to_string(),
    )
    .unwrap();
    let Err(CodegenError::Findings(found)) = builder(dir.path(), &lock).generate() else {
        panic!("three segments are refused");
    };
    assert!(
        !found[0].fix.as_deref().unwrap().contains("--profile"),
        "{}",
        found[0]
    );
}

#[test]
fn skip_refused_with_every_type_refused_says_nothing_is_left() {
    let lock = tempfile::tempdir().unwrap();
    let Err(CodegenError::Findings(found)) = builder(&fixture("vendor-annotated"), &lock)
        .type_template("{/x-amazon-events-source}.{file}")
        .skip_refused(true)
        .generate()
    else {
        panic!("nothing can be generated");
    };
    let last = found.last().unwrap();
    assert!(
        last.message
            .contains("--skip-refused left nothing to generate: all 2 type(s) were refused"),
        "{last}"
    );
}
