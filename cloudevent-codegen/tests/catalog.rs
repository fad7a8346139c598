//! The AsyncAPI document is valid against the official AsyncAPI 3.0.0 JSON Schema (vendored in
//! `tests/data/`, see its README), after a YAML round trip of the generated text.

use std::path::Path;

use cloudevent_codegen::{Registry, asyncapi_yaml, catalog_markdown};
use serde_json::Value;

fn registry() -> Registry {
    Registry::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas")).unwrap()
}

fn asyncapi_validator() -> jsonschema::Validator {
    let text = include_str!("data/asyncapi-3.0.0.schema.json");
    let schema: Value = serde_json::from_str(text).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

#[test]
fn asyncapi_yaml_is_valid_asyncapi_3() {
    let yaml = asyncapi_yaml(&registry(), "Example order and payment events");
    let document: Value = serde_yaml::from_str(&yaml).unwrap();
    let validator = asyncapi_validator();
    let errors: Vec<String> = validator
        .iter_errors(&document)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let messages = document["components"]["messages"].as_object().unwrap();
    assert_eq!(messages.len(), registry().files.len());
    assert_eq!(
        messages["orderCreatedV2"]["payload"]["properties"]["type"]["const"],
        "com.example.order.created.v2"
    );
}

#[test]
fn the_validator_rejects_a_broken_document() {
    let yaml = asyncapi_yaml(&registry(), "Example");
    let mut document: Value = serde_yaml::from_str(&yaml).unwrap();
    document["operations"]["sendOrderCreatedV1"]["action"] = "publish".into();
    assert!(!asyncapi_validator().is_valid(&document));
}

#[test]
fn markdown_lists_every_version_with_content_mode_and_link() {
    let markdown = catalog_markdown(&registry());
    for file in &registry().files {
        assert!(
            markdown.contains(&format!("](/{})", file.relative))
                || markdown.contains(&format!("]({})", file.relative))
        );
        assert!(markdown.contains(&file.meta.dataschema));
    }
    assert!(markdown.contains("structured (`application/cloudevents+json`"));
    assert!(markdown.contains("`merchantref` ← `merchant_ref`"));
}

#[test]
fn deprecated_types_are_marked_in_both_catalogs() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/deprecated/schemas"
    );
    let deprecated = Registry::load(dir).unwrap();
    let markdown = catalog_markdown(&deprecated);
    assert!(
        markdown.contains("| `com.example.order.expedited` (deprecated) | 1 |"),
        "{markdown}"
    );
    assert!(markdown.contains(
        "- `com.example.order.expedited`: deprecated since 2026-01-01T00:00:00Z; sunset 2026-06-30T00:00:00Z; migration: https://docs.example.com/migrate/order-expedited"
    ), "{markdown}");

    let yaml = asyncapi_yaml(&deprecated, "Deprecated");
    let document: serde_json::Value = serde_yaml::from_str(&yaml).unwrap();
    let validator = asyncapi_validator();
    let errors: Vec<String> = validator
        .iter_errors(&document)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let message = &document["components"]["messages"]["orderExpeditedV1"];
    assert_eq!(message["payload"]["deprecated"], true, "{message}");
    assert_eq!(
        message["x-cloudevent-deprecation"]["deprecationsunset"],
        "2026-06-30T00:00:00Z"
    );
    assert!(
        message["description"]
            .as_str()
            .unwrap()
            .starts_with("Deprecated: ")
    );
    // A registry without deprecations keeps its catalog as it was.
    assert!(!catalog_markdown(&registry()).contains("Deprecated types"));
}

/// Two types that differ only in their organisation segment (`com.example.order.shipped`,
/// `com.contoso.order.shipped`): the catalog used to key messages by a naming of its own
/// (`orderShippedV1` for both), so the second message overwrote the first. The catalog, the
/// AsyncAPI document and the generator now share one naming, lengthened alike on a collision.
#[test]
fn two_types_that_share_a_short_name_both_keep_their_message() {
    let dir = tempfile::tempdir().unwrap();
    let original = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/com.example.order.shipped/v1.json"),
    )
    .unwrap();
    for organisation in ["example", "contoso"] {
        let folder = dir.path().join(format!("com.{organisation}.order.shipped"));
        std::fs::create_dir_all(&folder).unwrap();
        let text = original.replace(
            "com.example.order.shipped",
            &format!("com.{organisation}.order.shipped"),
        );
        std::fs::write(folder.join("v1.json"), text).unwrap();
    }
    let registry = Registry::load(dir.path()).unwrap();
    assert_eq!(registry.files.len(), 2);

    let document: Value =
        serde_yaml::from_str(&asyncapi_yaml(&registry, "Two organisations")).unwrap();
    let messages = document["components"]["messages"].as_object().unwrap();
    let mut keys: Vec<&str> = messages.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        ["contosoOrderShippedV1", "exampleOrderShippedV1"],
        "one message a type"
    );
    assert_eq!(
        messages["contosoOrderShippedV1"]["payload"]["properties"]["type"]["const"],
        "com.contoso.order.shipped"
    );
    assert_eq!(
        messages["exampleOrderShippedV1"]["payload"]["properties"]["type"]["const"],
        "com.example.order.shipped"
    );
    assert_eq!(document["channels"].as_object().unwrap().len(), 2);
    assert!(asyncapi_validator().is_valid(&document));

    // The generator names the modules the same way: the key is the module in lower camel case.
    let rust = cloudevent_codegen::Builder::new()
        .generate_from(&registry)
        .unwrap()
        .single_file()
        .unwrap();
    assert!(rust.contains("pub mod contoso_order_shipped_v1"), "{rust}");
    assert!(rust.contains("pub mod example_order_shipped_v1"), "{rust}");
}
