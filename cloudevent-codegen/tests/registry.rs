//! The bundled registry, rule findings on bad schemas, unsupported keywords and breaking-change
//! detection on temporary copies of the registry (the committed files are never edited).

use std::fs;
use std::path::{Path, PathBuf};

use cloudevent_codegen::{
    Baseline, Builder, CodegenError, Compat, Compatibility, GeneratedRust, Registry,
    check_compatibility,
};
use cloudevent_rules::{Policy, Profile};
use serde_json::{Value, json};

fn bundled() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas")
}

fn policy() -> Policy {
    Policy::new(Profile::IntgStd015)
}

/// The generated modules' bodies, one a schema file (no `mod.rs`, no `shared.rs`).
fn modules(rust: &GeneratedRust) -> Vec<String> {
    rust.module_files()
        .into_iter()
        .filter(|(name, _)| name != "mod.rs" && name != "shared.rs")
        .map(|(_, body)| body)
        .collect()
}

fn generate(registry: &Registry) -> Result<GeneratedRust, CodegenError> {
    Builder::new().policy(policy()).generate_from(registry)
}

/// A copy of the bundled registry in a temporary directory.
fn copy_registry() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in fs::read_dir(bundled()).unwrap() {
        let entry = entry.unwrap().path();
        if entry.is_dir() {
            let target = dir.path().join(entry.file_name().unwrap());
            fs::create_dir_all(&target).unwrap();
            for file in fs::read_dir(&entry).unwrap() {
                let file = file.unwrap().path();
                fs::copy(&file, target.join(file.file_name().unwrap())).unwrap();
            }
        }
    }
    dir
}

fn edit(path: &Path, change: impl FnOnce(&mut Value)) {
    let mut schema: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    change(&mut schema);
    fs::write(path, serde_json::to_string_pretty(&schema).unwrap()).unwrap();
}

fn findings(dir: &Path) -> Vec<cloudevent_codegen::Finding> {
    let registry = Registry::load(dir).unwrap();
    match generate(&registry) {
        Err(CodegenError::Findings(found)) => found,
        other => panic!(
            "expected findings, got {:?}",
            other.map(|r| modules(&r).len())
        ),
    }
}

#[test]
fn bundled_registry_has_the_order_domain() {
    let registry = Registry::load(bundled()).unwrap();
    let types: Vec<&str> = registry
        .files
        .iter()
        .map(|f| f.meta.event_type.as_str())
        .collect();
    assert!(types.len() >= 7, "{types:?}");
    for expected in [
        "com.example.order.created",
        "com.example.order.created.v2",
        "com.example.order.cancelled",
        "com.example.order.shipped",
        "com.example.payment.authorized",
        "com.example.payment.captured",
        "com.example.payment.refunded",
    ] {
        assert!(
            types.contains(&expected),
            "{expected} missing from {types:?}"
        );
    }
    let rust = generate(&registry).unwrap();
    assert_eq!(modules(&rust).len(), registry.files.len());
    assert!(rust.warnings.is_empty(), "{:?}", rust.warnings);
}

#[test]
fn one_type_space_a_file_keeps_same_named_types_apart() {
    let registry = Registry::load(bundled()).unwrap();
    let rust = generate(&registry).unwrap();
    let with_money = modules(&rust)
        .iter()
        .filter(|body| body.contains("pub struct Money"))
        .count();
    assert!(
        with_money >= 2,
        "Money should be defined in each module that uses it"
    );
}

#[test]
fn bad_names_are_reported_with_file_pointer_rule_and_fix() {
    let dir = copy_registry();
    let file = dir.path().join("com.example.order.cancelled/v1.json");
    edit(&file, |s| {
        s["x-cloudevent"]["source"] = json!("http://localhost:8080/orders");
        s["x-cloudevent"]["extensions"] = json!({"Tenant_Id": "tenant"});
    });
    let found = findings(dir.path());
    let source = found
        .iter()
        .find(|f| f.pointer == "/x-cloudevent/source")
        .unwrap_or_else(|| panic!("{found:#?}"));
    assert_eq!(source.file, file);
    assert!(
        source
            .rule
            .is_some_and(|r| r.as_str().starts_with("INTG-STD-015")),
        "{source}"
    );
    assert!(source.fix.is_some());
    let extension = found
        .iter()
        .find(|f| f.pointer == "/x-cloudevent/extensions/Tenant_Id")
        .unwrap_or_else(|| panic!("{found:#?}"));
    assert!(extension.rule.is_some(), "{extension}");
    assert!(
        extension
            .to_string()
            .contains("v1.json#/x-cloudevent/extensions/Tenant_Id")
    );
}

#[test]
fn a_bad_type_and_a_version_mismatch_are_reported() {
    let dir = copy_registry();
    edit(&dir.path().join("com.example.order.shipped/v1.json"), |s| {
        s["x-cloudevent"]["type"] = json!("com.Example.order.shipped");
    });
    edit(&dir.path().join("com.example.order.created/v2.json"), |s| {
        s["x-cloudevent"]["type"] = json!("com.example.order.created");
    });
    let found = findings(dir.path());
    assert!(
        found.iter().any(|f| f.pointer == "/x-cloudevent/type"
            && f.file.ends_with("com.example.order.shipped/v1.json")
            && f.rule.is_some_and(|r| r.as_str() == "INTG-STD-015 R-4")),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|f| f.file.ends_with("com.example.order.created/v2.json")
                && f.pointer == "/x-cloudevent/type"),
        "{found:#?}"
    );
}

#[test]
fn unsupported_keywords_name_the_file_and_keyword_without_panicking() {
    let dir = copy_registry();
    let file = dir.path().join("com.example.payment.captured/v1.json");
    edit(&file, |s| {
        s["properties"]["amount"] =
            json!({"$ref": "https://schemas.example.com/common/money.json"});
        s["$defs"] = json!({"node": {"$dynamicAnchor": "node"}});
        s["properties"]["next"] = json!({"$dynamicRef": "#node"});
    });
    let found = findings(dir.path());
    let pointers: Vec<&str> = found.iter().map(|f| f.pointer.as_str()).collect();
    assert!(
        pointers.contains(&"/properties/amount/$ref"),
        "{pointers:?}"
    );
    // `if`/`then` are checked now; dynamic references are still refused by name.
    assert!(
        pointers.contains(&"/$defs/node/$dynamicAnchor"),
        "{pointers:?}"
    );
    assert!(
        pointers.contains(&"/properties/next/$dynamicRef"),
        "{pointers:?}"
    );
    let external = found
        .iter()
        .find(|f| f.pointer == "/properties/amount/$ref")
        .unwrap();
    assert_eq!(external.file, file);
    // An external ref is resolved inside the registry folder, never fetched: this one names
    // no file there, so the finding names its target.
    assert!(
        external
            .message
            .contains("`https://schemas.example.com/common/money.json`")
            && external.message.contains("network"),
        "{external}"
    );
}

#[test]
fn subject_must_name_a_plain_string_property() {
    let dir = copy_registry();
    edit(
        &dir.path().join("com.example.payment.refunded/v1.json"),
        |s| {
            s["x-cloudevent"]["subject"] = json!("refund_id");
        },
    );
    let found = findings(dir.path());
    assert!(
        found.iter().any(|f| f.pointer == "/properties/refund_id"),
        "{found:#?}"
    );
}

#[test]
fn a_compatible_edit_passes() {
    let dir = copy_registry();
    let baseline = Baseline::Dir(bundled());
    edit(
        &dir.path().join("com.example.order.cancelled/v1.json"),
        |s| {
            s["description"] = json!("An order was cancelled (reworded).");
            s["properties"]["cancelled_by"] = json!({"type": "string"});
            s["properties"]["comment"]["maxLength"] = json!(300);
        },
    );
    let registry = Registry::load(dir.path()).unwrap();
    let (rows, findings) = check_compatibility(&registry, &baseline, Compat::default()).unwrap();
    assert!(findings.is_empty(), "{findings:#?}");
    // The same edit narrows what validates: old events may break a new consumer.
    let (_, backward) = check_compatibility(&registry, &baseline, Compat::Backward).unwrap();
    assert_eq!(backward.len(), 2, "{backward:#?}");
    let row = rows
        .iter()
        .find(|r| r.event_type == "com.example.order.cancelled")
        .unwrap();
    assert!(
        matches!(row.compatibility, Compatibility::Compatible(_)),
        "{row:?}"
    );
}

#[test]
fn a_breaking_edit_fails_naming_the_change_pointer_and_new_version() {
    let dir = copy_registry();
    let baseline = Baseline::Dir(bundled());
    edit(
        &dir.path().join("com.example.order.cancelled/v1.json"),
        |s| {
            s["properties"]["reason"]["enum"] = json!([
                "customer_request",
                "payment_failed",
                "out_of_stock",
                "fraud_suspected",
                "duplicate_order"
            ]);
        },
    );
    let registry = Registry::load(dir.path()).unwrap();
    // Under backward, a value added breaks nobody.
    let (_, findings) = check_compatibility(&registry, &baseline, Compat::Backward).unwrap();
    assert!(findings.is_empty(), "{findings:#?}");
    let (_, findings) = check_compatibility(&registry, &baseline, Compat::default()).unwrap();
    assert_eq!(findings.len(), 1, "{findings:#?}");
    let message = findings[0].to_string();
    for expected in [
        "/properties/reason/enum",
        "enum value \"duplicate_order\" added",
        "under `forward` compatibility (breaks forward: consumers generated from the earlier schema would refuse the new producer's events)",
        "com.example.order.cancelled/v2.json",
        "com.example.order.cancelled.v2",
        "https://schemas.example.com/events/com.example.order.cancelled/v2.json",
        "keep `v1.json`",
    ] {
        assert!(
            message.contains(expected),
            "`{expected}` missing from: {message}"
        );
    }
}

#[test]
fn a_new_major_version_file_is_new_not_breaking() {
    let dir = copy_registry();
    let baseline = Baseline::Dir(dir.path().to_path_buf());
    let registry = Registry::load(dir.path()).unwrap();
    fs::remove_dir_all(dir.path().join("com.example.order.created")).unwrap();
    let (rows, findings) = check_compatibility(&registry, &baseline, Compat::default()).unwrap();
    assert!(findings.is_empty());
    let created: Vec<_> = rows
        .iter()
        .filter(|r| r.schema.starts_with("com.example.order.created/"))
        .collect();
    assert_eq!(created.len(), 2);
    assert!(
        created
            .iter()
            .all(|r| r.compatibility == Compatibility::New)
    );
}
