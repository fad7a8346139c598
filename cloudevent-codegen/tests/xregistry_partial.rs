//! Issue 26: an xRegistry document whose messages cannot all be typed is generated for the
//! others (`tests/fixtures/xregistry/partial.json`): a schema given inline (as an object, or
//! as JSON text) is read; a message whose payload is Avro or Protobuf, declared or not, or
//! which has no schema, is left out with a warning naming it and the format.

use cloudevent_codegen::{Builder, Profile, Registry};

const DOCUMENT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/xregistry/partial.json"
);

#[test]
fn inline_schemas_are_read_and_untyped_messages_are_left_out_with_a_warning() {
    let registry = Registry::load_xregistry(DOCUMENT).unwrap();
    let types: Vec<&str> = registry
        .files
        .iter()
        .map(|f| f.meta.event_type.as_str())
        .collect();
    assert_eq!(
        types,
        [
            "com.example.partial.inline",
            "com.example.partial.referenced",
            "com.example.partial.text"
        ]
    );
    let rust = Builder::new()
        .xregistry(DOCUMENT)
        .profile(Profile::CloudEvents)
        .lock_file(std::env::temp_dir().join("cloudevent-xregistry-partial-unused.lock.json"))
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    let text = rust.single_file().unwrap();
    // The inline schema's own definitions, reached by its `#/definitions/...` refs.
    assert!(text.contains("pub celsius"), "{text}");
    assert!(text.contains("pub note"), "{text}");
    let warnings: Vec<String> = rust.warnings.iter().map(ToString::to_string).collect();
    let about = |event_type: &str| {
        warnings
            .iter()
            .find(|w| w.contains(&format!("`{event_type}`")))
            .unwrap_or_else(|| panic!("no warning for {event_type}: {warnings:#?}"))
            .clone()
    };
    assert!(about("com.example.partial.avro").contains("Avro (`Avro/1.9.0`)"));
    assert!(about("com.example.partial.avroundeclared").contains("Avro"));
    assert!(about("com.example.partial.proto").contains("Protobuf (`Protobuf/3`)"));
    assert!(about("com.example.partial.missing").contains("names no payload schema"));
    for warning in &warnings {
        assert!(
            !warning.contains("serde") && !warning.contains("invalid type"),
            "{warning}"
        );
    }
}

#[test]
fn a_document_with_no_typable_message_is_refused_with_every_reason() {
    let dir = std::env::temp_dir().join(format!("xregistry-none-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("none.json");
    std::fs::write(
        &path,
        r#"{"messagegroups": {"G": {"envelope": "CloudEvents/1.0", "messages": {
            "A": {"envelopemetadata": {"type": {"value": "com.example.none.avro"}}, "dataschemaformat": "Avro/1.11"},
            "B": {"envelopemetadata": {"type": {"value": "com.example.none.missing"}}}}}}}"#,
    )
    .unwrap();
    let error = Registry::load_xregistry(&path).unwrap_err().to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        error.contains("com.example.none.avro") && error.contains("Avro"),
        "{error}"
    );
    assert!(error.contains("com.example.none.missing"), "{error}");
}
