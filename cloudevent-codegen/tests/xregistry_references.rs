//! Issue 39 item 4: a message's `dataschemauri` is read in every form xRegistry gives a schema
//! of the same document (`tests/fixtures/xregistry/references.json`): a path from the
//! registry's root (`/schemagroups/<g>/schemas/<s>`, the form of the spec's own scenario
//! samples), a `#/` fragment, the registry's absolute URL (the document's root `self`) and
//! `dataschemaxid`, each with or without `/versions/<v>` (without: `meta.defaultversionid`),
//! and a JSON pointer deep link into a JSON Schema. A message whose schema is XML Schema, Avro
//! or Protobuf, declared by `dataschemaformat` or by the schema resource's `format`, is left
//! out with a warning naming the message and the format, never an error of the document.

use cloudevent_codegen::{Builder, Profile, Registry};

const DOCUMENT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/xregistry/references.json"
);

const READING: &str = "/schemagroups/Example.References/schemas/Reading";

#[test]
fn every_form_of_a_reference_into_the_document_finds_its_schema() {
    let registry = Registry::load_xregistry(DOCUMENT).unwrap_or_else(|e| panic!("{e}"));
    let schema_of = |event_type: &str| -> String {
        let file = registry
            .files
            .iter()
            .find(|f| f.meta.event_type == event_type)
            .unwrap_or_else(|| panic!("`{event_type}` was not read"));
        let path = file.path.to_string_lossy();
        path.split_once('#').unwrap().1.to_owned()
    };
    let v1 = format!("{READING}/versions/1/schema");
    let v2 = format!("{READING}/versions/2/schema");
    // Without a version: the resource's `meta.defaultversionid` (1), not the latest (2).
    assert_eq!(schema_of("com.example.references.path"), v1);
    assert_eq!(schema_of("com.example.references.fragment"), v1);
    for event_type in [
        "com.example.references.pathversion",
        "com.example.references.fragmentversion",
        "com.example.references.xid",
        "com.example.references.absolute",
    ] {
        assert_eq!(schema_of(event_type), v2, "{event_type}");
    }
    let location = format!("{v2}/definitions/location");
    assert_eq!(schema_of("com.example.references.deeplink"), location);
    assert_eq!(
        schema_of("com.example.references.fragmentdeeplink"),
        location
    );
}

#[test]
fn a_reference_within_the_document_gives_the_version_url_as_dataschema() {
    let registry = Registry::load_xregistry(DOCUMENT).unwrap_or_else(|e| panic!("{e}"));
    let dataschema = |event_type: &str| {
        registry
            .files
            .iter()
            .find(|f| f.meta.event_type == event_type)
            .map(|f| f.meta.dataschema.clone())
            .unwrap_or_else(|| panic!("`{event_type}` was not read"))
    };
    let base = "https://registry.example.com/reg";
    assert_eq!(
        dataschema("com.example.references.path"),
        format!("{base}{READING}/versions/1")
    );
    assert_eq!(
        dataschema("com.example.references.fragmentversion"),
        format!("{base}{READING}/versions/2")
    );
    assert_eq!(
        dataschema("com.example.references.absolute"),
        format!("{base}{READING}/versions/2")
    );
    // A `dataschema` holds no fragment, and the version's URL names the whole schema.
    assert_eq!(dataschema("com.example.references.deeplink"), "");
}

#[test]
fn schemas_in_other_formats_are_skipped_with_a_warning_naming_message_and_format() {
    let rust = Builder::new()
        .xregistry(DOCUMENT)
        .profile(Profile::CloudEvents)
        .lock_file(std::env::temp_dir().join("cloudevent-xregistry-references-unused.lock.json"))
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    let text = rust.single_file().unwrap();
    for member in ["pub first", "pub second", "pub room"] {
        assert!(text.contains(member), "no `{member}` in\n{text}");
    }
    let warnings: Vec<String> = rust.warnings.iter().map(ToString::to_string).collect();
    let about = |event_type: &str| {
        warnings
            .iter()
            .find(|w| w.contains(&format!("`{event_type}`")))
            .unwrap_or_else(|| panic!("no warning for {event_type}: {warnings:#?}"))
            .clone()
    };
    for (event_type, format) in [
        ("com.example.references.xsd", "XML Schema (`XMLSchema/1.1`)"),
        (
            "com.example.references.xsdundeclared",
            "XML Schema (`XSD/1.1`)",
        ),
        ("com.example.references.avro", "Avro (`Avro/1.11`)"),
        (
            "com.example.references.protobufundeclared",
            "Protobuf (`Protobuf/3`)",
        ),
    ] {
        let warning = about(event_type);
        assert!(
            warning.contains(format) && warning.contains("left out"),
            "{warning}"
        );
    }
    // A schema outside the document is never fetched: that message alone is left out.
    assert!(about("com.example.references.elsewhere").contains("names no schema of this document"));
    assert!(rust.refused.is_empty(), "{:?}", rust.refused);
}
