//! Registries laid out as others publish them: a folder read with a type pointer, an
//! xRegistry catalog; what each yields, and the errors that say what was looked for.

use cloudevent_codegen::{Builder, CodegenError, Policy, Profile, Registry};
use serde_json::json;

const POINTER: &str = "/properties/context/properties/type";

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_type_pointer_folder_yields_its_events_and_keeps_the_rest_as_documents() {
    let registry =
        Registry::load_type_pointer(fixture("cdevents-shaped/schemas"), POINTER).unwrap();
    let types: Vec<&str> = registry
        .files
        .iter()
        .map(|f| f.meta.event_type.as_str())
        .collect();
    assert_eq!(
        types,
        [
            "dev.cdevents.artifact.packaged.0.3.0",
            "dev.cdevents.incident.detected.0.2.0",
            "dev.cdevents.pipelinerun.finished.0.2.0",
            "dev.cdevents.service.deployed.0.3.0",
            "dev.cdevents.ticket.created.0.2.0",
        ]
    );
    // const, one-value enum with a default, default alone: all read; nested folders too.
    assert!(
        registry
            .files
            .iter()
            .any(|f| f.relative == "custom/incidentdetected.json")
    );
    assert_eq!(
        registry.documents.keys().collect::<Vec<_>>(),
        [
            "links/domainid.json",
            "links/embeddedlinkend.json",
            "links/embeddedlinkpath.json",
            "links/embeddedlinkrelation.json",
            "links/embeddedlinksarray.json",
        ]
    );
    // `registry/providers.json` holds no JSON Schema keyword: no schema, not even a
    // document (issue 39; the generator names it in one warning).
    // `$id` is the dataschema as published: spec-versioned, pre-release or unversioned.
    let dataschemas: Vec<&str> = registry
        .files
        .iter()
        .map(|f| f.meta.dataschema.as_str())
        .collect();
    assert!(dataschemas.contains(&"https://cdevents.dev/0.4.1/schema/pipeline-run-finished-event"));
    assert!(dataschemas.contains(&"https://cdevents.dev/schema/service-deployed-event"));
}

#[test]
fn shared_schemas_are_generated_once_and_unreferenced_documents_not_at_all() {
    let rust = Builder::new()
        .policy(Policy::new(Profile::CloudEvents))
        .generate_from(
            &Registry::load_type_pointer(fixture("cdevents-shaped/schemas"), POINTER).unwrap(),
        )
        .unwrap();
    let files = rust.module_files();
    // Five event modules, `shared.rs` and `mod.rs`.
    assert_eq!(files.len(), 7);
    let (_, shared) = files.iter().find(|(name, _)| name == "shared.rs").unwrap();
    // Each struct's builder (`builder::Embeddedlinkend`) bears its name in the `builder` module.
    let shared = shared.split("pub mod builder").next().unwrap();
    for name in [
        "Embeddedlinksarray",
        "Embeddedlinkend",
        "Embeddedlinkpath",
        "Embeddedlinkrelation",
        "Domainid",
    ] {
        let declared = shared.matches(&format!("pub struct {name} {{")).count()
            + shared.matches(&format!("pub struct {name}(")).count();
        assert_eq!(declared, 1, "{name}");
    }
    assert!(
        !shared.contains("Providers"),
        "an unreferenced document generates nothing"
    );
    let file = rust.single_file().unwrap();
    assert!(file.contains("pub enum RegistryEvent {"));
    assert_eq!(file.matches("pub struct Embeddedlinksarray(").count(), 1);
}

#[test]
fn a_type_that_is_not_fixed_is_a_finding_at_the_pointer() {
    let dir = tempfile::tempdir().unwrap();
    let schema = json!({"properties": {"context": {"properties": {"type":
        {"type": "string", "enum": ["dev.example.a.created", "dev.example.a.deleted"]}}}}});
    std::fs::write(dir.path().join("a.json"), schema.to_string()).unwrap();
    let Err(CodegenError::Findings(findings)) = Registry::load_type_pointer(dir.path(), POINTER)
    else {
        panic!("a two-value enum names no one type");
    };
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0].pointer, POINTER);
    assert!(
        findings[0].message.contains("`enum` of 2 values"),
        "{}",
        findings[0]
    );
}

#[test]
fn no_event_schema_is_an_error_in_every_layout() {
    let dir = tempfile::tempdir().unwrap();
    for result in [
        Registry::load(dir.path()),
        Registry::load_type_pointer(dir.path(), POINTER),
    ] {
        match result {
            Err(error @ CodegenError::NoEventSchemas { .. }) => {
                assert!(error.to_string().contains("looked for"), "{error}");
            }
            other => panic!("{other:?}"),
        }
    }
    let catalog = dir.path().join("catalog.json");
    std::fs::write(&catalog, json!({"messagegroups": {}}).to_string()).unwrap();
    assert!(matches!(
        Registry::load_xregistry(&catalog),
        Err(CodegenError::NoEventSchemas { .. })
    ));
    // The builder says so too, instead of writing an empty file.
    assert!(matches!(
        Builder::new().schemas(dir.path()).generate_string(),
        Err(CodegenError::NoEventSchemas { .. })
    ));
}

#[test]
fn an_xregistry_catalog_takes_the_default_or_latest_version() {
    let registry = Registry::load_xregistry(fixture("xregistry/catalog.json")).unwrap();
    assert_eq!(registry.files.len(), 4, "the MQTT message is skipped");
    let temperature = registry
        .files
        .iter()
        .find(|f| f.meta.event_type == "Fabrikam.SmartOven.TemperatureChanged")
        .unwrap();
    assert!(
        temperature
            .path
            .to_string_lossy()
            .ends_with("/versions/2/schema")
    );
    let added = registry
        .files
        .iter()
        .find(|f| f.meta.event_type == "Contoso.ERP.Events.EmployeeAdded")
        .unwrap();
    assert!(
        added
            .path
            .to_string_lossy()
            .ends_with("/Contoso.ERP.Events.EmployeeAdded/versions/2/schema")
    );
}

/// Serves the fixture folder's files to the validator: a URI names the file its path ends
/// with (as `$id`, as a path relative to `$id`, with or without `.json`). Never the network.
struct Folder(Vec<(String, serde_json::Value)>);

impl jsonschema::Retrieve for Folder {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<serde_json::Value, Box<dyn std::error::Error + Send + Sync>> {
        let path = uri.path().as_str();
        self.0
            .iter()
            .find(|(relative, _)| {
                path.ends_with(&format!("/{relative}"))
                    || path.ends_with(&format!("/{}", relative.trim_end_matches(".json")))
            })
            .map(|(_, schema)| schema.clone())
            .ok_or_else(|| format!("no file of the fixture for `{uri}`").into())
    }
}

/// The fixture's example events are valid under their schemas (checked with the `jsonschema`
/// crate, refs served from the folder), so reading them proves the generated types read
/// schema-valid events.
#[test]
fn the_cdevents_shaped_examples_are_valid_under_their_schemas() {
    let registry =
        Registry::load_type_pointer(fixture("cdevents-shaped/schemas"), POINTER).unwrap();
    let mut served: Vec<(String, serde_json::Value)> = registry
        .documents
        .iter()
        .map(|(relative, schema)| (relative.clone(), schema.clone()))
        .collect();
    served.extend(
        registry
            .files
            .iter()
            .map(|f| (f.relative.clone(), f.schema.clone())),
    );
    let mut checked = 0;
    for entry in std::fs::read_dir(fixture("cdevents-shaped/examples")).unwrap() {
        let path = entry.unwrap().path();
        let event: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let file = registry
            .files
            .iter()
            .find(|f| f.meta.event_type == event["type"])
            .unwrap_or_else(|| panic!("{}: no schema for its type", path.display()));
        // Every file of the folder, under its `$id` and under each URI a ref relative to this
        // schema's path would name it by (`../links/x.json` from `custom/`), with and without
        // `.json`; anything else is served from the folder while the registry is prepared.
        let base = jsonschema::uri::from_str(&file.meta.dataschema).unwrap();
        let depth = file.relative.matches('/').count();
        let mut resources: Vec<(String, serde_json::Value)> = Vec::new();
        for (relative, schema) in &served {
            if let Some(id) = schema.get("$id").and_then(serde_json::Value::as_str) {
                resources.push((id.to_owned(), schema.clone()));
            }
            let path = format!("{}{relative}", "../".repeat(depth));
            for alias in [path.clone(), path.trim_end_matches(".json").to_owned()] {
                let uri = jsonschema::uri::resolve_against(&base.borrow(), &alias).unwrap();
                resources.push((uri.to_string(), schema.clone()));
            }
        }
        let registry = jsonschema::Registry::new()
            .retriever(Folder(served.clone()))
            .extend(resources)
            .and_then(|b| b.add(&file.meta.dataschema, &file.schema))
            .and_then(jsonschema::RegistryBuilder::prepare)
            .unwrap_or_else(|e| panic!("{}: {e}", file.relative));
        let validator = jsonschema::options()
            .with_registry(&registry)
            .build(&file.schema)
            .unwrap_or_else(|e| panic!("{}: {e}", file.relative));
        let errors: Vec<String> = validator
            .iter_errors(&event["data"])
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
        // And an invalid one is refused, so the check can fail.
        let mut broken = event["data"].clone();
        broken["subject"]["content"]["unexpected"] = json!(true);
        assert!(!validator.is_valid(&broken), "{}", path.display());
        checked += 1;
    }
    assert_eq!(checked, 7);
}
