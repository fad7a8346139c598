//! Rust → schema → Rust: a derived type's exported schema carries the same metadata, passes
//! the registry checks and generates a root type with the same fields and attributes.

use cloudevent_codegen::{Builder, EventMeta, Registry, SchemaFile, check_schema, export};
use cloudevent_rules::{Policy, Profile};
use cloudevent_runtime::CloudEvent;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, schemars::JsonSchema, CloudEvent)]
#[cloudevent(
    type = "com.example.order.returned",
    dataschema = "https://schemas.example.com/events/com.example.order.returned/v1.json",
    source = "https://api.example.com/returns"
)]
struct OrderReturned {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension = "tenant")]
    tenant: String,
    parcels: Vec<String>,
    note: Option<String>,
    quantity: u32,
}

fn exported_file() -> SchemaFile {
    let text = serde_json::to_string_pretty(&export::<OrderReturned>()).unwrap();
    SchemaFile::parse(
        "schemas".as_ref(),
        "com.example.order.returned/v1.json",
        &text,
    )
    .unwrap()
}

/// The Rust `builder` generates for `file` alone, as a build would write it (the file put in a
/// registry folder of its own): its module's items.
fn generated(file: &SchemaFile, builder: Builder) -> syn::File {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(&file.relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, file.text()).unwrap();
    let registry = Registry::load(dir.path()).unwrap();
    let rust = builder.generate_from(&registry).unwrap();
    let (_, body) = rust
        .module_files()
        .into_iter()
        .find(|(name, _)| name != "mod.rs")
        .unwrap();
    syn::parse_file(&body).unwrap()
}

#[test]
fn exported_schema_carries_the_derive_metadata() {
    let file = exported_file();
    let expected = EventMeta {
        event_type: "com.example.order.returned".into(),
        dataschema: "https://schemas.example.com/events/com.example.order.returned/v1.json".into(),
        source: Some("https://api.example.com/returns".into()),
        source_template: None,
        subject: Some("order_id".into()),
        extensions: [("tenant".to_owned(), "tenant".to_owned())].into(),
        datacontenttype: Some("application/json".into()),
        contentmode: Default::default(),
        ..EventMeta::default()
    };
    assert_eq!(file.meta, expected);
    assert_eq!(
        file.schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
}

#[test]
fn exported_schema_passes_the_registry_checks() {
    let findings = check_schema(&exported_file(), &Policy::new(Profile::IntgStd015));
    assert!(findings.is_empty(), "{findings:#?}");
}

#[test]
fn schema_back_to_rust_gives_an_equivalent_type() {
    let file = generated(&exported_file(), Builder::new());
    let root = file
        .items
        .iter()
        .find_map(|item| match item {
            syn::Item::Struct(s) if s.ident == "OrderReturned" => Some(s),
            _ => None,
        })
        .expect("root struct");
    let fields: Vec<(String, String)> = root
        .fields
        .iter()
        .map(|f| {
            let ty = &f.ty;
            (
                f.ident.as_ref().unwrap().to_string(),
                quote::quote!(#ty).to_string().replace(' ', ""),
            )
        })
        .collect();
    let expect = |name: &str, ty: &str| {
        assert!(
            fields.iter().any(|(n, t)| n == name && t == ty),
            "{name}: {ty} not in {fields:?}"
        );
    };
    expect("order_id", "::std::string::String");
    expect("tenant", "::std::string::String");
    expect("parcels", "::std::vec::Vec<::std::string::String>");
    // An `Option<String>` is exported as `["string", "null"]` and not required: the generated
    // type keeps a `null` received apart from an absent member, so both are written back.
    expect(
        "note",
        "::std::option::Option<::std::option::Option<::std::string::String>>",
    );
    expect("quantity", "u32");
    // The exported schema is open (no `additionalProperties: false`): members it does not
    // name are kept and written back.
    expect(
        "extra",
        "::serde_json::Map<::std::string::String,::serde_json::Value>",
    );
    assert_eq!(fields.len(), 6);
    let attrs = quote::quote!(#root).to_string();
    assert!(
        attrs.contains("type = \"com.example.order.returned\""),
        "{attrs}"
    );
    assert!(attrs.contains("cloudevent (subject)"), "{attrs}");
    assert!(attrs.contains("extension = \"tenant\""), "{attrs}");
}

/// Attributes and extensions filled from members below the root (issue 11, attribute
/// mapping): the export names them in `x-cloudevent` (`attributes`, extension pointers), and
/// codegen reads them back, winning over the options' defaults.
#[derive(Serialize, Deserialize, schemars::JsonSchema, CloudEvent)]
#[cloudevent(
    type = "com.example.device.registered",
    dataschema = "https://schemas.example.com/events/com.example.device.registered/v1.json",
    source = "https://api.example.com/devices"
)]
struct DeviceRegistered {
    #[cloudevent(id = "id", time = "registered_at")]
    #[cloudevent(extension(name = "tenantid", member = "tenant"))]
    #[cloudevent(extension(name = "zone", member = "site?.zone"))]
    context: DeviceContext,
    #[cloudevent(extension)]
    region: String,
}

#[derive(Serialize, Deserialize, schemars::JsonSchema)]
struct DeviceContext {
    id: String,
    registered_at: String,
    tenant: String,
    site: Option<DeviceSite>,
}

#[derive(Serialize, Deserialize, schemars::JsonSchema)]
struct DeviceSite {
    zone: String,
}

#[test]
fn nested_mapping_survives_export_and_codegen() {
    let schema = export::<DeviceRegistered>();
    let meta = &schema["x-cloudevent"];
    assert_eq!(
        meta["attributes"],
        serde_json::json!({"id": "/context/id", "time": "/context/registered_at"})
    );
    assert_eq!(
        meta["extensions"],
        serde_json::json!({
            "region": "region",
            "tenantid": "/context/tenant",
            "zone": "/context/site/zone",
        })
    );
    let text = serde_json::to_string_pretty(&schema).unwrap();
    let file = SchemaFile::parse(
        "schemas".as_ref(),
        "com.example.device.registered/v1.json",
        &text,
    )
    .unwrap();
    let exported = cloudevent_codegen::export_file::<DeviceRegistered>("schemas".as_ref()).unwrap();
    assert_eq!(file.meta, exported.meta, "read back as written");
    let findings = check_schema(&file, &Policy::new(Profile::IntgStd015));
    assert!(findings.is_empty(), "{findings:#?}");

    // The schema's mapping wins over the options' defaults for the same attribute or name.
    let builder = Builder::new()
        .id_pointer("/region")
        // Not in the schema's mapping: taken, through the optional `site`.
        .source_pointer("/context/site/zone")
        .extension_pointer("zone", "/region");
    let generated = generated(&file, builder);
    let code = quote::quote!(#generated).to_string();
    for expected in [
        "cloudevent (id = \"id\")",
        "cloudevent (time = \"registered_at\")",
        // `site` is an `Option<DeviceSite>` exported as nullable: its generated member is an
        // `Option<Option<DeviceSite>>` (absent and `null` kept apart), reached through both.
        "cloudevent (source = \"site??.zone\")",
        "cloudevent (extension (name = \"tenantid\" , member = \"tenant\"))",
        "cloudevent (extension (name = \"zone\" , member = \"site??.zone\"))",
        "cloudevent (extension = \"region\")",
    ] {
        assert!(code.contains(expected), "{expected} not in {code}");
    }
    assert_eq!(code.matches("cloudevent (extension").count(), 3, "{code}");
    assert!(!code.contains("id = \"region\""), "{code}");
}

#[test]
fn a_schema_pointer_that_names_nothing_is_a_finding() {
    let mut schema = export::<DeviceRegistered>();
    schema["x-cloudevent"]["extensions"]["zone"] = "/context/site/floor".into();
    schema["x-cloudevent"]["attributes"]["source"] = "context/source".into();
    let text = serde_json::to_string_pretty(&schema).unwrap();
    let error = SchemaFile::parse(
        "schemas".as_ref(),
        "com.example.device.registered/v1.json",
        &text,
    )
    .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("/x-cloudevent/attributes/source"),
        "{error}"
    );
    schema["x-cloudevent"]["attributes"]["source"] = "/context/tenant".into();
    let text = serde_json::to_string_pretty(&schema).unwrap();
    let file = SchemaFile::parse(
        "schemas".as_ref(),
        "com.example.device.registered/v1.json",
        &text,
    )
    .unwrap();
    let findings = check_schema(&file, &Policy::new(Profile::IntgStd015));
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(findings[0].pointer, "/x-cloudevent/extensions/zone");
    assert!(findings[0].message.contains("no `floor`"), "{findings:#?}");
}
