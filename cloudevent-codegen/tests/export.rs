//! Rust → schema → Rust: a derived type's exported schema carries the same metadata, passes
//! the registry checks and generates a root type with the same fields and attributes.

use cloudevent_codegen::{
    EventMeta, RustOptions, SchemaFile, check_schema, export, meta_of, module_tokens,
};
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

#[test]
fn exported_schema_carries_the_derive_metadata() {
    let file = exported_file();
    assert_eq!(file.meta, meta_of::<OrderReturned>());
    let expected = EventMeta {
        event_type: "com.example.order.returned".into(),
        dataschema: "https://schemas.example.com/events/com.example.order.returned/v1.json".into(),
        source: Some("https://api.example.com/returns".into()),
        source_template: None,
        subject: Some("order_id".into()),
        extensions: [("tenant".to_owned(), "tenant".to_owned())].into(),
        datacontenttype: Some("application/json".into()),
        contentmode: Default::default(),
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
    let tokens = module_tokens(&exported_file(), &RustOptions::default()).unwrap();
    let file: syn::File = syn::parse2(tokens).unwrap();
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
    expect("note", "::std::option::Option<::std::string::String>");
    expect("quantity", "u32");
    assert_eq!(fields.len(), 5);
    let attrs = quote::quote!(#root).to_string();
    assert!(
        attrs.contains("type = \"com.example.order.returned\""),
        "{attrs}"
    );
    assert!(attrs.contains("cloudevent (subject)"), "{attrs}");
    assert!(attrs.contains("extension = \"tenant\""), "{attrs}");
}
