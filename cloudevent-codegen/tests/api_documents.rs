//! Issue 39 item 5: OpenAPI 2/3 and AsyncAPI 2/3 documents (JSON, and YAML with the `yaml`
//! feature) are registries. Each fixture is loaded, generated and compiled in a scratch crate
//! that depends on the runtime, serde and serde_json only; events are read through the
//! generated `RegistryEvent::from_slice` with the verdict the document's schema gives
//! (the `jsonschema` crate's, on the original JSON document where its dialect is JSON Schema;
//! stated by hand where OpenAPI 2/3.0's `nullable` decides), and accepted data is written
//! back unchanged.

mod oracle;
mod scratch;

use std::path::{Path, PathBuf};

use cloudevent_codegen::{Builder, CodegenError, Profile, Registry, TypeMapping};
use serde_json::{Value, json};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn templates(templates: &[&str]) -> TypeMapping {
    TypeMapping {
        type_templates: templates.iter().map(|t| (*t).to_owned()).collect(),
        ..TypeMapping::default()
    }
}

fn types(registry: &Registry) -> Vec<&str> {
    registry
        .files
        .iter()
        .map(|f| f.meta.event_type.as_str())
        .collect()
}

const EVENT_GRID_TEMPLATE: &str = r"{/description|for an? (\S+) event}";

#[test]
fn an_openapi_2_document_is_typed_by_a_capture_from_each_definitions_description() {
    let registry = Registry::load_openapi(
        fixture("openapi/eventgrid-shaped.json"),
        &templates(&[EVENT_GRID_TEMPLATE]),
    )
    .unwrap();
    assert_eq!(
        types(&registry),
        [
            "Microsoft.Resources.ResourceWriteSuccess",
            "Microsoft.Storage.BlobCreated"
        ]
    );
    // A definition another one `$ref`s is shared, never an event.
    assert!(
        registry
            .documents
            .contains_key("schemas/ResourceAuthorization.json")
    );
    let blob = &registry.files[1];
    assert!(
        blob.path
            .to_string_lossy()
            .ends_with("eventgrid-shaped.json#/definitions/StorageBlobCreatedEventData"),
        "{}",
        blob.path.display()
    );
    // `x-nullable` admits `null`; the schema is read as draft 4, OpenAPI 2's dialect.
    assert_eq!(
        blob.schema["properties"]["eTag"]["type"],
        json!(["string", "null"])
    );
    assert_eq!(
        blob.schema["$schema"],
        "http://json-schema.org/draft-04/schema#"
    );
}

#[test]
fn microsofts_types_under_the_default_profile_point_to_the_cloudevents_profile() {
    let error = Builder::new()
        .openapi(fixture("openapi/eventgrid-shaped.json"))
        .type_template(EVENT_GRID_TEMPLATE)
        .generate()
        .unwrap_err()
        .to_string();
    assert!(error.contains("--profile cloudevents"), "{error}");
    // The finding points at the description the template read, inside its definition.
    assert!(
        error.contains("eventgrid-shaped.json#/definitions/StorageBlobCreatedEventData/description: type `Microsoft.Storage.BlobCreated`"),
        "{error}"
    );
}

#[test]
fn an_asyncapi_3_message_is_typed_by_its_cloudevents_header() {
    let registry =
        Registry::load_asyncapi(fixture("asyncapi/orders-v3.json"), &TypeMapping::default())
            .unwrap();
    assert_eq!(
        types(&registry),
        ["com.example.order.cancelled", "com.example.order.placed"]
    );
    assert!(registry.documents.contains_key("schemas/Money.json"));
}

#[test]
fn a_document_of_the_other_kind_is_refused_with_the_flag_that_reads_it() {
    let error = Registry::load_asyncapi(
        fixture("openapi/eventgrid-shaped.json"),
        &TypeMapping::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("is no AsyncAPI 2 or 3 document (no `asyncapi` version)"),
        "{error}"
    );
    let error = Registry::load_openapi(fixture("asyncapi/orders-v3.json"), &TypeMapping::default())
        .unwrap_err()
        .to_string();
    assert!(error.contains("is no OpenAPI 2 or 3 document"), "{error}");
}

#[test]
fn a_malformed_template_is_refused_before_the_document_is_laid_out() {
    let error = Registry::load_openapi(
        fixture("openapi/eventgrid-shaped.json"),
        &templates(&["{/description|(}"]),
    )
    .unwrap_err();
    assert!(matches!(error, CodegenError::Findings(_)));
    assert!(error.to_string().contains("does not compile"), "{error}");
}

/// Nothing in a document is dropped without a word: a message in another file is left out by
/// name, and a ref to a part of the document that is no schema fails naming the ref.
#[test]
fn a_message_in_another_file_and_a_ref_to_no_schema_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let asyncapi = dir.path().join("split.json");
    std::fs::write(
        &asyncapi,
        json!({
            "asyncapi": "3.0.0",
            "info": {"title": "t", "version": "1"},
            "channels": {"c": {"messages": {
                "here": {"payload": {"type": "object"}},
                "elsewhere": {"$ref": "common/messages.json#/Elsewhere"}
            }}}
        })
        .to_string(),
    )
    .unwrap();
    let rust = Builder::new()
        .asyncapi(&asyncapi)
        .type_template("com.example.{file}")
        .profile(Profile::CloudEvents)
        .lock_file(dir.path().join("lock.json"))
        .generate()
        .unwrap();
    let warnings: Vec<String> = rust.warnings.iter().map(ToString::to_string).collect();
    assert!(
        warnings.iter().any(|w| w
            .contains("message `elsewhere` is `$ref: common/messages.json#/Elsewhere`")
            && w.contains("left out")),
        "{warnings:#?}"
    );
    let openapi = dir.path().join("parameters.json");
    std::fs::write(
        &openapi,
        json!({
            "openapi": "3.0.3",
            "info": {"title": "t", "version": "1"},
            "paths": {},
            "components": {
                "parameters": {"P": {"name": "p", "in": "query"}},
                "schemas": {"E": {"x-event-type": "com.example.e", "type": "object",
                    "properties": {"p": {"$ref": "#/components/parameters/P"}}}}
            }
        })
        .to_string(),
    )
    .unwrap();
    let error = Builder::new()
        .openapi(&openapi)
        .type_template("{/x-event-type}")
        .profile(Profile::CloudEvents)
        .lock_file(dir.path().join("lock2.json"))
        .generate()
        .unwrap_err()
        .to_string();
    assert!(error.contains("#/components/parameters/P"), "{error}");
}

#[cfg(not(feature = "yaml"))]
#[test]
fn yaml_without_the_feature_names_the_feature() {
    let error = Registry::load_openapi(
        fixture("openapi/orders-openapi-3.0.yaml"),
        &TypeMapping::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("the `yaml` feature"), "{error}");
}

#[cfg(feature = "yaml")]
#[test]
fn an_asyncapi_2_yaml_document_types_inline_component_and_structured_messages() {
    let registry = Registry::load_asyncapi(
        fixture("asyncapi/streetlights-v2.yaml"),
        &templates(&["org.example.streetlights.{file}"]),
    )
    .unwrap();
    // `audited` is typed by its structured-mode payload's `type`, the others by the template;
    // `dimmed` (Avro) is left out, by name.
    assert_eq!(
        types(&registry),
        [
            "org.example.streetlights.audited",
            "org.example.streetlights.lightMeasured",
            "org.example.streetlights.turnedOn"
        ]
    );
    let audited = &registry.files[0];
    assert_eq!(
        audited.schema["required"],
        json!(["auditor"]),
        "the `data` schema"
    );
    let rust = Builder::new()
        .asyncapi(fixture("asyncapi/streetlights-v2.yaml"))
        .type_template("org.example.streetlights.{file}")
        .profile(Profile::CloudEvents)
        .lock_file(tempfile::tempdir().unwrap().path().join("lock.json"))
        .generate()
        .unwrap();
    let skipped: Vec<String> = rust
        .warnings
        .iter()
        .map(ToString::to_string)
        .filter(|w| w.contains("left out"))
        .collect();
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert!(
        skipped[0].contains("message `dimmed`")
            && skipped[0].contains("application/vnd.apache.avro"),
        "{skipped:?}"
    );
}

/// One event to read: which document's `RegistryEvent`, its type, its data, and whether the
/// document's schema accepts the data.
struct Case {
    module: &'static str,
    event_type: &'static str,
    data: Value,
    valid: bool,
}

fn case(module: &'static str, event_type: &'static str, data: Value, valid: bool) -> Case {
    Case {
        module,
        event_type,
        data,
        valid,
    }
}

#[test]
fn every_document_generates_compiles_and_reads_with_its_schemas_verdict() {
    let lock = tempfile::tempdir().unwrap();
    let mut documents: Vec<(&str, Builder)> = vec![
        (
            "eventgrid",
            Builder::new()
                .openapi(fixture("openapi/eventgrid-shaped.json"))
                .type_template(EVENT_GRID_TEMPLATE),
        ),
        (
            "orders_v3",
            Builder::new().asyncapi(fixture("asyncapi/orders-v3.json")),
        ),
    ];
    if cfg!(feature = "yaml") {
        documents.push((
            "orders_oas30",
            Builder::new()
                .openapi(fixture("openapi/orders-openapi-3.0.yaml"))
                .type_template("{/x-event-type}"),
        ));
        documents.push((
            "streetlights",
            Builder::new()
                .asyncapi(fixture("asyncapi/streetlights-v2.yaml"))
                .type_template("org.example.streetlights.{file}"),
        ));
    }
    let scratch = scratch::Scratch::new("api-documents");
    let mut reader = scratch::Reader::default();
    for (index, (module, builder)) in documents.into_iter().enumerate() {
        let rust = builder
            .profile(Profile::CloudEvents)
            .lock_file(lock.path().join(format!("{index}.lock.json")))
            .generate()
            .unwrap_or_else(|e| panic!("{module}: {e}"));
        assert!(rust.refused.is_empty(), "{module}: {:?}", rust.refused);
        reader.module(&scratch, module, &rust.single_file().unwrap());
    }

    let money = json!({"amount_minor": 2500, "currency": "EUR"});
    let mut cases = vec![
        // Event Grid (OpenAPI 2): `x-nullable` admits `null`, an unknown member is kept.
        case(
            "eventgrid",
            "Microsoft.Storage.BlobCreated",
            json!({"api": "PutBlob", "url": "https://a/b", "eTag": null, "contentLength": 12, "sequencer": "00"}),
            true,
        ),
        case(
            "eventgrid",
            "Microsoft.Storage.BlobCreated",
            json!({"api": "PutBlob"}),
            false,
        ),
        case(
            "eventgrid",
            "Microsoft.Storage.BlobCreated",
            json!({"api": "PutBlob", "url": "https://a/b", "contentLength": "12"}),
            false,
        ),
        case(
            "eventgrid",
            "Microsoft.Resources.ResourceWriteSuccess",
            json!({"tenantId": "t", "authorization": {"scope": "/s", "evidence": {"role": "owner"}}, "status": "Succeeded"}),
            true,
        ),
        case(
            "eventgrid",
            "Microsoft.Resources.ResourceWriteSuccess",
            json!({"authorization": {"scope": 3}}),
            false,
        ),
        case(
            "eventgrid",
            "Microsoft.Resources.ResourceWriteSuccess",
            json!({"status": "Pending"}),
            false,
        ),
        // AsyncAPI 3: a component message's multi-format payload, refs into `components`.
        case(
            "orders_v3",
            "com.example.order.placed",
            json!({"order_id": "o-1", "total": money}),
            true,
        ),
        case(
            "orders_v3",
            "com.example.order.placed",
            json!({"order_id": "o-1", "total": {"amount_minor": 1, "currency": "euro"}}),
            false,
        ),
        case(
            "orders_v3",
            "com.example.order.placed",
            json!({"order_id": "o-1", "total": {"amount_minor": -1, "currency": "EUR"}}),
            false,
        ),
        case(
            "orders_v3",
            "com.example.order.cancelled",
            json!({"order_id": "o-1", "reason": "customer"}),
            true,
        ),
        case(
            "orders_v3",
            "com.example.order.cancelled",
            json!({"order_id": "o-1", "reason": "bored"}),
            false,
        ),
    ];
    if cfg!(feature = "yaml") {
        cases.extend([
            // OpenAPI 3.0: `nullable: true` admits `null` (also in an `enum`); `example` is
            // no constraint.
            case(
                "orders_oas30",
                "com.example.order.placed",
                json!({"order_id": "o", "total": money, "note": null, "channel": "web"}),
                true,
            ),
            case(
                "orders_oas30",
                "com.example.order.placed",
                json!({"order_id": "o", "total": money, "channel": null}),
                false,
            ),
            case(
                "orders_oas30",
                "com.example.order.shipped",
                json!({"order_id": "o", "carrier": null}),
                true,
            ),
            case(
                "orders_oas30",
                "com.example.order.shipped",
                json!({"order_id": "o", "carrier": "fedex"}),
                false,
            ),
            case(
                "streetlights",
                "org.example.streetlights.lightMeasured",
                json!({"id": 1, "lumens": 3, "sentAt": "2025-01-02T03:04:05+01:00"}),
                true,
            ),
            case(
                "streetlights",
                "org.example.streetlights.lightMeasured",
                json!({"id": 1, "sentAt": "yesterday"}),
                false,
            ),
            case(
                "streetlights",
                "org.example.streetlights.turnedOn",
                json!({"id": 2, "at": "2025-01-02T03:04:05Z"}),
                true,
            ),
            case(
                "streetlights",
                "org.example.streetlights.audited",
                json!({"auditor": "ann"}),
                true,
            ),
            case(
                "streetlights",
                "org.example.streetlights.audited",
                json!({}),
                false,
            ),
        ]);
    }
    // Where the document's dialect is JSON Schema, the `jsonschema` crate's verdict on the
    // original document must be the one stated.
    let mut oracle = oracle::Oracle::new(&fixture("asyncapi"));
    for case in cases.iter().filter(|c| c.module == "orders_v3") {
        let pointer = match case.event_type {
            "com.example.order.placed" => "/components/messages/OrderPlaced/payload/schema",
            _ => "/channels/orders/messages/cancelled/payload",
        };
        let verdict = oracle.verdict_at(&fixture("asyncapi/orders-v3.json"), pointer, &case.data);
        assert_eq!(
            verdict.is_none(),
            case.valid,
            "{} {}: {verdict:?}",
            case.event_type,
            case.data
        );
    }
    for case in &cases {
        reader.event(case.module, case.event_type, &case.data);
    }
    let lines = reader.run(&scratch);
    let wrong: Vec<String> = lines
        .iter()
        .zip(&cases)
        .filter(|(line, case)| (*line == "ok") != case.valid || line.starts_with("differs"))
        .map(|(line, case)| format!("{} {}: {line}", case.event_type, case.data))
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}
