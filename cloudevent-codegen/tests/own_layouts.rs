//! Layouts of one's own (issue 26 item 8): shared definitions beside the event schemas in the
//! default layout, and `x-cloudevent` metadata kept under a type mapping, never dropped.

use cloudevent_codegen::{CodegenError, Registry, TypeMapping};
use std::fs;
use std::path::Path;

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn pointer() -> TypeMapping {
    TypeMapping {
        type_pointer: Some("/properties/type".into()),
        ..TypeMapping::default()
    }
}

#[test]
fn a_type_pointer_layout_keeps_x_cloudevent_and_the_files_major() {
    let registry = Registry::load_mapped(fixture("pointer-metadata"), &pointer()).unwrap();
    let file = &registry.files[0];
    assert_eq!(file.meta.event_type, "com.example.shop.order.placed");
    assert_eq!(
        file.meta.source.as_deref(),
        Some("https://shop.example.com/orders")
    );
    assert_eq!(file.meta.subject.as_deref(), Some("order_id"));
    assert_eq!(
        file.meta.extensions.get("tenant").map(String::as_str),
        Some("tenant")
    );
    assert_eq!(file.major, 2, "the file's `v2.json`, not 0");
    assert_eq!(
        file.meta.dataschema,
        "https://schemas.example.com/orders/v2.json"
    );
}

#[test]
fn a_type_in_x_cloudevent_other_than_the_mappings_is_an_error_whose_fix_works() {
    let dir = tempfile::tempdir().unwrap();
    let mut schema: serde_json::Value =
        serde_json::from_slice(&fs::read(fixture("pointer-metadata/orders/v2.json")).unwrap())
            .unwrap();
    schema["x-cloudevent"]["type"] = "com.example.shop.order.created".into();
    fs::create_dir(dir.path().join("orders")).unwrap();
    let at = dir.path().join("orders/v2.json");
    fs::write(&at, serde_json::to_vec(&schema).unwrap()).unwrap();
    let Err(CodegenError::Findings(found)) = Registry::load_mapped(dir.path(), &pointer()) else {
        panic!("a second type is an error");
    };
    assert_eq!(found[0].pointer, "/x-cloudevent/type");
    let fix = found[0].fix.clone().unwrap();
    assert!(fix.contains("or remove it"), "{fix}");
    // Following the fix (removing `x-cloudevent.type`) loads, the rest of the metadata kept.
    schema["x-cloudevent"]
        .as_object_mut()
        .unwrap()
        .remove("type");
    fs::write(&at, serde_json::to_vec(&schema).unwrap()).unwrap();
    let registry = Registry::load_mapped(dir.path(), &pointer()).unwrap();
    assert_eq!(registry.files[0].meta.subject.as_deref(), Some("order_id"));
}

#[test]
fn the_default_layout_reads_shared_definitions_beside_the_events() {
    let registry = Registry::load(fixture("name-collision")).unwrap();
    assert_eq!(registry.files.len(), 1);
    assert_eq!(
        registry.documents.keys().collect::<Vec<_>>(),
        [
            "_defs/address.json",
            "common/address.json",
            "common/order.json",
            "common/order_line.json"
        ]
    );
}

#[test]
fn a_file_without_metadata_that_nothing_reaches_is_still_an_error_whose_fix_works() {
    let dir = tempfile::tempdir().unwrap();
    let event = dir.path().join("com.example.a.done");
    fs::create_dir(&event).unwrap();
    let schema = serde_json::json!({"$id": "https://schemas.example.com/com.example.a.done/v1.json",
        "type": "object", "properties": {"id": {"type": "string"}}});
    fs::write(event.join("v1.json"), schema.to_string()).unwrap();
    let Err(CodegenError::Findings(found)) = Registry::load(dir.path()) else {
        panic!("an event schema without metadata is not skipped");
    };
    let fix = found[0].fix.clone().unwrap();
    assert!(fix.contains("x-cloudevent"), "{fix}");
    // The fix, followed: the `x-cloudevent` object it gives.
    let mut schema = schema;
    schema["x-cloudevent"] = serde_json::json!({"type": "com.example.a.done"});
    fs::write(event.join("v1.json"), schema.to_string()).unwrap();
    assert_eq!(Registry::load(dir.path()).unwrap().files.len(), 1);
}

/// Which file a `$ref` reaches is the bundler's verdict, at load time too: a shared file
/// named by its own `$id`, or by an absolute URI whose path ends with the file, is a shared
/// definition (the loader once matched paths and `$id`s with a simpler resolver of its own,
/// which refused the second as an event schema without metadata while the bundler resolved it).
#[test]
fn a_shared_file_is_the_one_the_bundler_resolves_the_ref_to() {
    let dir = tempfile::tempdir().unwrap();
    for folder in ["com.example.a.done", "common"] {
        fs::create_dir(dir.path().join(folder)).unwrap();
    }
    let shared = |id: &str| {
        serde_json::json!({"$id": id, "type": "object",
        "properties": {"street": {"type": "string"}}})
    };
    fs::write(
        dir.path().join("common/address.json"),
        shared("https://schemas.example.com/shared/address.json").to_string(),
    )
    .unwrap();
    fs::write(
        dir.path().join("common/money.json"),
        shared("money").to_string(),
    )
    .unwrap();
    let event = serde_json::json!({
        "$id": "https://schemas.example.com/com.example.a.done/v1.json",
        "x-cloudevent": {"type": "com.example.a.done"},
        "type": "object",
        "properties": {
            "to": {"$ref": "https://schemas.example.com/shared/address.json"},
            "paid": {"$ref": "https://schemas.example.com/elsewhere/common/money.json"}
        }
    });
    fs::write(
        dir.path().join("com.example.a.done/v1.json"),
        event.to_string(),
    )
    .unwrap();
    let registry = Registry::load(dir.path()).unwrap();
    assert_eq!(registry.files.len(), 1);
    assert_eq!(
        registry.documents.keys().collect::<Vec<_>>(),
        ["common/address.json", "common/money.json"]
    );
}
