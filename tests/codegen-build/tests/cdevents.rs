//! The done-when of issue 11: the types generated (by `build.rs`, with `--type-pointer` and
//! the `cloudevents` profile) from a folder shaped like the CDEvents specification's schemas
//! compile in this crate, whose own policy is the default `intg-std-015`, and
//! `RegistryEvent::from_slice` reads every example event of the folder as its typed variant.

use cloudevent_runtime::Attributes;
use codegen_build_test::cdevents::RegistryEvent;
use serde_json::Value;

const EXAMPLES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../cloudevent-codegen/tests/fixtures/cdevents-shaped/examples"
);

fn examples() -> Vec<(String, Vec<u8>)> {
    let mut found: Vec<_> = std::fs::read_dir(EXAMPLES)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    found.sort();
    found
}

/// The event's type and its `data` written back by the typed variant.
fn typed(event: &RegistryEvent) -> Option<(&'static str, Value)> {
    use cloudevent_runtime::CloudEventData;
    fn of<T: CloudEventData + serde::Serialize>(
        event: &cloudevent_runtime::Event<T>,
    ) -> Option<(&'static str, Value)> {
        Some((T::TYPE, serde_json::to_value(event.data()).unwrap()))
    }
    match event {
        RegistryEvent::ArtifactPackaged(e) => of(e),
        RegistryEvent::IncidentDetected(e) => of(e),
        RegistryEvent::PipelinerunFinished(e) => of(e),
        RegistryEvent::ServiceDeployed(e) => of(e),
        RegistryEvent::TicketCreated(e) => of(e),
        RegistryEvent::Other(_) => None,
    }
}

/// The subject the typed payload gives (what `Event::new` would send).
fn subject(event: &RegistryEvent) -> Option<&str> {
    use cloudevent_runtime::CloudEventData;
    match event {
        RegistryEvent::ArtifactPackaged(e) => e.data().subject(),
        RegistryEvent::IncidentDetected(e) => e.data().subject(),
        RegistryEvent::PipelinerunFinished(e) => e.data().subject(),
        RegistryEvent::ServiceDeployed(e) => e.data().subject(),
        RegistryEvent::TicketCreated(e) => e.data().subject(),
        RegistryEvent::Other(_) => None,
    }
}

#[test]
fn every_example_reads_as_its_typed_variant() {
    let examples = examples();
    assert_eq!(examples.len(), 7, "the fixture's examples");
    for (path, bytes) in &examples {
        let document: Value = serde_json::from_slice(bytes).unwrap();
        let event = RegistryEvent::from_slice(bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (ty, data) = typed(&event).unwrap_or_else(|| panic!("{path}: read as `Other`"));
        assert_eq!(ty, document["type"], "{path}");
        // `--subject-pointer /subject/id`: the CDEvents binding's subject.
        assert_eq!(subject(&event), document["subject"].as_str(), "{path}");
        assert_eq!(data, document["data"], "{path}: data written back differs");
    }
}

#[test]
fn the_registry_lists_every_type_and_keeps_others_whole() {
    assert_eq!(RegistryEvent::TYPES.len(), 5);
    assert!(RegistryEvent::TYPES.contains(&"dev.cdevents.ticket.created.0.2.0"));
    let other =
        br#"{"specversion":"1.0","id":"1","source":"/s","type":"dev.cdevents.build.queued.0.2.0"}"#;
    assert!(matches!(
        RegistryEvent::from_slice(other),
        Ok(RegistryEvent::Other(_))
    ));
}

#[test]
fn generated_types_carry_the_published_dataschema_and_their_profile() {
    use cloudevent_runtime::{CloudEventData, Profile};
    use codegen_build_test::cdevents::{pipelinerun_finished_v0_2_0, ticket_created_v0_2_0};
    assert_eq!(
        <ticket_created_v0_2_0::TicketCreated as CloudEventData>::DATASCHEMA,
        Some("https://cdevents.dev/0.6.0-draft/schema/ticket-created-event")
    );
    assert_eq!(
        <pipelinerun_finished_v0_2_0::PipelinerunFinished as CloudEventData>::DATASCHEMA,
        Some("https://cdevents.dev/0.4.1/schema/pipeline-run-finished-event")
    );
    assert_eq!(
        <ticket_created_v0_2_0::TicketCreated as CloudEventData>::PROFILE,
        Profile::CloudEvents
    );
}

/// `--id-pointer /context/id --time-pointer /context/timestamp --source-pointer
/// /context/source`: the CDEvents binding's attributes, taken by `Event::new` from the payload.
#[test]
fn event_new_takes_the_cdevents_binding_attributes_from_the_context() {
    use cloudevent_runtime::{Event, HasSource};
    // `HasSource`: the generated types take their source from the payload (`--source-pointer`).
    fn remade<T: HasSource + Clone>(event: &Event<T>) -> (String, String, String) {
        let again = Event::try_new(event.data().clone()).unwrap();
        (
            again.id().to_owned(),
            again.time().unwrap().as_str().to_owned(),
            again.source().to_owned(),
        )
    }
    for (path, bytes) in &examples() {
        let document: Value = serde_json::from_slice(bytes).unwrap();
        let event = RegistryEvent::from_slice(bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (id, time, source) = match &event {
            RegistryEvent::ArtifactPackaged(e) => remade(e),
            RegistryEvent::IncidentDetected(e) => remade(e),
            RegistryEvent::PipelinerunFinished(e) => remade(e),
            RegistryEvent::ServiceDeployed(e) => remade(e),
            RegistryEvent::TicketCreated(e) => remade(e),
            RegistryEvent::Other(_) => panic!("{path}: read as `Other`"),
        };
        assert_eq!(id, document["data"]["context"]["id"], "{path}");
        assert_eq!(id, document["id"], "{path}");
        assert_eq!(time, document["data"]["context"]["timestamp"], "{path}");
        assert_eq!(source, document["data"]["context"]["source"], "{path}");
    }
    // An envelope whose id disagrees with `context.id` is refused (INTG-STD-015 R-7).
    let (_, bytes) = &examples()[0];
    let mut document: Value = serde_json::from_slice(bytes).unwrap();
    document["id"] = "another-id".into();
    let Err(err) = RegistryEvent::from_slice(&serde_json::to_vec(&document).unwrap()) else {
        panic!("an id that disagrees with context.id was read");
    };
    assert!(err.to_string().contains("INTG-STD-015 R-7"), "{err}");
}

/// `build.rs` maps `--extension chainid=/context/chainId` (a nested, optional member): the
/// example that has a `chainId` carries it as the `chainid` extension, the others none.
#[test]
fn the_chain_id_is_an_extension_from_the_context() {
    for (path, bytes) in examples() {
        let event = RegistryEvent::from_slice(&bytes).unwrap();
        let data: Value = serde_json::from_slice::<Value>(&bytes).unwrap()["data"].clone();
        let expected: Option<cloudevent_runtime::ExtensionValueBuf> =
            data["context"]["chainId"].as_str().map(Into::into);
        let chain = match &event {
            RegistryEvent::ArtifactPackaged(e) => e.extension("chainid"),
            RegistryEvent::IncidentDetected(e) => e.extension("chainid"),
            RegistryEvent::PipelinerunFinished(e) => e.extension("chainid"),
            RegistryEvent::ServiceDeployed(e) => e.extension("chainid"),
            RegistryEvent::TicketCreated(e) => e.extension("chainid"),
            RegistryEvent::Other(_) => panic!("{path}: not typed"),
        };
        assert_eq!(chain, expected, "{path}");
    }
    let (_, bytes) = examples()
        .into_iter()
        .find(|(path, _)| path.ends_with("pipelinerun-finished.json"))
        .unwrap();
    let RegistryEvent::PipelinerunFinished(event) = RegistryEvent::from_slice(&bytes).unwrap()
    else {
        panic!("the pipelinerun example reads as its type");
    };
    assert_eq!(event.extension("chainid"), Some("c-77".into()));
    let sent: Value = serde_json::from_slice(
        &cloudevent_runtime::Event::new(event.data().clone())
            .to_vec()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(sent["chainid"], "c-77");
}

#[path = "../../../cloudevent-codegen/tests/oracle/mod.rs"]
mod oracle;

const SCHEMAS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../cloudevent-codegen/tests/fixtures/cdevents-shaped/schemas"
);

/// The schema file of each event type of the fixture: the one whose `context.type` names it
/// (`const`, `default` or a one-value `enum`, as `--type-pointer` reads it).
fn schema_files() -> std::collections::BTreeMap<String, std::path::PathBuf> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![std::path::PathBuf::from(SCHEMAS)];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let schema: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            let Some(at) = schema.pointer("/properties/context/properties/type") else {
                continue;
            };
            let named = at
                .get("const")
                .or_else(|| at.get("default"))
                .or_else(|| at.pointer("/enum/0"));
            if let Some(Value::String(event_type)) = named {
                out.insert(event_type.clone(), path);
            }
        }
    }
    out
}

/// The members `build.rs` maps to attributes.
const MAPPED: [&str; 6] = [
    "/context/id",
    "/context/source",
    "/context/timestamp",
    "/context/chainId",
    "/context/type",
    "/subject/id",
];

/// Issue 37: every mutant of every example's `data` (a leaf's type changed or its value
/// broken, a member dropped, an unknown member added: `oracle::mutants`) read with
/// `RegistryEvent::from_slice` gets the `jsonschema` crate's verdict on the original schema,
/// and what is accepted is written back unchanged.
#[test]
fn every_mutant_gets_the_schemas_verdict() {
    let schemas = schema_files();
    let mut oracle = oracle::Oracle::new(std::path::Path::new(SCHEMAS));
    let (mut total, mut refused, mut by_binding, mut wrong) = (0, 0, 0, Vec::new());
    let mut unresolved = std::collections::BTreeSet::new();
    for (path, bytes) in &examples() {
        let document: Value = serde_json::from_slice(bytes).unwrap();
        let schema = &schemas[document["type"].as_str().unwrap()];
        if let Err(why) = oracle.compile(schema, "") {
            println!("{why}");
            unresolved.insert(schema.strip_prefix(SCHEMAS).unwrap().display().to_string());
            continue;
        }
        for (what, mutant) in oracle::mutants(&document["data"]) {
            let mut event = document.clone();
            event["data"] = mutant.clone();
            let read = RegistryEvent::from_slice(&serde_json::to_vec(&event).unwrap());
            total += 1;
            let read = read.map(|e| typed(&e).map(|(_, data)| data));
            match oracle::compare(
                read.map_err(|e| e.to_string()),
                oracle.verdict(schema, &mutant),
                &mutant,
            ) {
                oracle::Compared::BothAccept => {}
                oracle::Compared::BothRefuse => refused += 1,
                // A member the binding maps to an attribute (`--id-pointer /context/id`, an
                // extension pointer): the envelope's rules judge it too (one value an attribute,
                // INTG-STD-015 R-7; the CloudEvents type system), beyond the schema.
                oracle::Compared::TypedRefuses(_)
                    if MAPPED.iter().any(|m| what.starts_with(&format!("{m}:"))) =>
                {
                    by_binding += 1;
                }
                oracle::Compared::TypedRefuses(error) => wrong.push(format!(
                    "{path} {what}: refused, the schema accepts it: {error}"
                )),
                oracle::Compared::Differs(why) => wrong.push(format!("{path} {what}: {why}")),
            }
        }
    }
    println!(
        "cdevents-shaped: {total} mutants, {refused} refused by jsonschema and the typed reading, \
         {by_binding} valid data refused by the binding's attribute rules"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(
        total > 40 && refused > 0,
        "{total} mutants, {refused} refused"
    );
    // The fixture reaches `links/` by relative file paths written against the file, beside an
    // `$id` of another shape (`../links/embeddedlinksarray.json` beside
    // `.../schema/incident-detected-event`): codegen reads them as paths, JSON Schema against
    // the `$id`, where no schema of the folder is. The `jsonschema` crate gives no verdict on
    // these two, so they are listed here, not judged.
    assert_eq!(
        unresolved.into_iter().collect::<Vec<_>>(),
        ["custom/incidentdetected.json", "servicedeployed.json"],
    );
}
