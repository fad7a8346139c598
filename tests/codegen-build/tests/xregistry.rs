//! Issue 11's done-when for an xRegistry catalog: the types generated from its CloudEvents
//! messages compile in this crate (default policy) and `RegistryEvent::from_slice` reads every
//! example event as its typed variant, writing `data` back unchanged.

use codegen_build_test::xregistry::RegistryEvent;
use serde_json::Value;

const EXAMPLES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../cloudevent-codegen/tests/fixtures/xregistry/examples"
);

fn typed(event: &RegistryEvent) -> Option<(&'static str, Value)> {
    use cloudevent_runtime::CloudEventData;
    fn of<T: CloudEventData + serde::Serialize>(
        event: &cloudevent_runtime::Event<T>,
    ) -> Option<(&'static str, Value)> {
        Some((T::TYPE, serde_json::to_value(event.data()).unwrap()))
    }
    match event {
        RegistryEvent::EventsEmployeeAdded(e) => of(e),
        RegistryEvent::LumenTurnedOn(e) => of(e),
        RegistryEvent::SmartOvenTurnedOn(e) => of(e),
        RegistryEvent::TemperatureChanged(e) => of(e),
        RegistryEvent::Other(_) => None,
    }
}

#[test]
fn every_catalog_example_reads_as_its_typed_variant() {
    let mut count = 0;
    for entry in std::fs::read_dir(EXAMPLES).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let document: Value = serde_json::from_slice(&bytes).unwrap();
        let event =
            RegistryEvent::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let (ty, data) =
            typed(&event).unwrap_or_else(|| panic!("{}: read as `Other`", path.display()));
        assert_eq!(ty, document["type"], "{}", path.display());
        assert_eq!(data, document["data"], "{}", path.display());
        count += 1;
    }
    assert_eq!(count, 4);
    assert_eq!(
        RegistryEvent::TYPES.len(),
        4,
        "the MQTT message is no CloudEvent"
    );
}

#[test]
fn the_latest_or_default_version_is_generated() {
    use codegen_build_test::xregistry::{events_employee_added, temperature_changed};
    // `TemperatureChanged` has versions 1 and 2, no default: version 2 (a number, a unit).
    let reading: temperature_changed::TemperatureChanged =
        serde_json::from_str(r#"{"celsius": 180.5, "unit": "F"}"#).unwrap();
    // A JSON number is a `serde_json::Number` in imported types (written back as received).
    assert_eq!(reading.celsius.as_f64(), Some(180.5));
    // `EmployeeAdded` names version 2 as its default; its `$id` is its dataschema.
    assert_eq!(
        <events_employee_added::EventsEmployeeAdded as cloudevent_runtime::CloudEventData>::DATASCHEMA,
        Some("https://schemas.contoso.example/erp/employee-added/v2.json")
    );
}

#[path = "../../../cloudevent-codegen/tests/oracle/mod.rs"]
mod oracle;

const CATALOG: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../cloudevent-codegen/tests/fixtures/xregistry/catalog.json"
);

/// The pointer, in the catalog, of the schema each message's `dataschemauri` names: its
/// default version, else its highest.
fn schema_pointers() -> std::collections::BTreeMap<String, String> {
    let catalog: Value = serde_json::from_slice(&std::fs::read(CATALOG).unwrap()).unwrap();
    let mut out = std::collections::BTreeMap::new();
    for group in catalog["messagegroups"].as_object().unwrap().values() {
        for message in group["messages"].as_object().unwrap().values() {
            let (Some(event_type), Some(uri)) = (
                message
                    .pointer("/envelopemetadata/type/value")
                    .and_then(Value::as_str),
                message["dataschemauri"].as_str(),
            ) else {
                continue;
            };
            let at = uri.trim_start_matches('#');
            let schema = catalog.pointer(at).unwrap();
            let version = match schema["defaultversionid"].as_str() {
                Some(version) => version.to_owned(),
                None => schema["versions"]
                    .as_object()
                    .unwrap()
                    .keys()
                    .max_by_key(|v| v.parse::<u64>().unwrap_or(0))
                    .unwrap()
                    .clone(),
            };
            out.insert(
                event_type.to_owned(),
                format!("{at}/versions/{version}/schema"),
            );
        }
    }
    out
}

/// Issue 37: every mutant of the `data` of every example whose message names its schema read
/// with `RegistryEvent::from_slice` gets the `jsonschema` crate's verdict on that schema in the
/// original catalog, and what is accepted is written back unchanged.
#[test]
fn every_mutant_gets_the_schemas_verdict() {
    let pointers = schema_pointers();
    let catalog = std::path::Path::new(CATALOG);
    let mut oracle = oracle::Oracle::new(catalog.parent().unwrap());
    let (mut total, mut refused, mut wrong, mut unresolved) =
        (0, 0, Vec::new(), Vec::<String>::new());
    for entry in std::fs::read_dir(EXAMPLES).unwrap() {
        let path = entry.unwrap().path();
        let document: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let Some(pointer) = pointers.get(document["type"].as_str().unwrap()) else {
            continue;
        };
        if let Err(why) = oracle.compile(catalog, pointer) {
            println!("{why}");
            unresolved.push(pointer.clone());
            continue;
        }
        for (what, mutant) in oracle::mutants(&document["data"]) {
            let mut event = document.clone();
            event["data"] = mutant.clone();
            let read = RegistryEvent::from_slice(&serde_json::to_vec(&event).unwrap());
            total += 1;
            let read = read.map(|e| typed(&e).map(|(_, data)| data));
            let verdict = oracle.verdict_at(catalog, pointer, &mutant);
            match oracle::compare(read.map_err(|e| e.to_string()), verdict, &mutant) {
                oracle::Compared::BothAccept => {}
                oracle::Compared::BothRefuse => refused += 1,
                oracle::Compared::TypedRefuses(error) => wrong.push(format!(
                    "{} {what}: refused, the schema accepts it: {error}",
                    path.display()
                )),
                oracle::Compared::Differs(why) => {
                    wrong.push(format!("{} {what}: {why}", path.display()))
                }
            }
        }
    }
    println!("xregistry: {total} mutants, {refused} refused by jsonschema and the typed reading");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(unresolved.is_empty(), "{unresolved:?}");
    assert!(
        total >= 6 && refused > 0,
        "{total} mutants, {refused} refused"
    );
}
