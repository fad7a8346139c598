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
