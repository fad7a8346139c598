//! Issue 11, item 8: a typed event re-emits its `data` as received. Every example of the
//! webhook-shaped, CDEvents-shaped and xRegistry fixtures is read as its typed variant and
//! its `data` written back: equal as JSON values, and with exactly the same members present
//! at every depth (a materialised default, a dropped `null` or `[]`, or a lost unknown member
//! would each show).

use serde_json::{Value, json};

fn examples(dir: &str) -> Vec<(String, Vec<u8>)> {
    let dir = format!(
        "{}/../../cloudevent-codegen/tests/fixtures/{dir}/examples",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut found: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    found.sort();
    found
}

/// Every member path of a JSON value (`/a/b`, `/list/0/c`), so presence is compared even
/// where the values would compare equal.
fn member_paths(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                let path = format!("{at}/{key}");
                out.push(path.clone());
                member_paths(value, path, out);
            }
        }
        Value::Array(items) => {
            for (index, value) in items.iter().enumerate() {
                member_paths(value, format!("{at}/{index}"), out);
            }
        }
        _ => {}
    }
}

fn assert_same_data(path: &str, received: &Value, written: &Value) {
    assert_eq!(written, received, "{path}: data written back differs");
    let (mut a, mut b) = (Vec::new(), Vec::new());
    member_paths(received, String::new(), &mut a);
    member_paths(written, String::new(), &mut b);
    assert_eq!(b, a, "{path}: members present differ");
}

fn data_of<T: cloudevent_runtime::CloudEventData + serde::Serialize>(
    event: &cloudevent_runtime::Event<T>,
) -> Value {
    serde_json::to_value(event.data()).unwrap()
}

#[test]
fn webhook_shaped_events_keep_nulls_empty_arrays_offsets_and_unknown_members() {
    use codegen_build_test::webhook::RegistryEvent;
    let examples = examples("webhook-shaped");
    assert_eq!(examples.len(), 2);
    for (path, bytes) in &examples {
        let document: Value = serde_json::from_slice(bytes).unwrap();
        let written =
            match RegistryEvent::from_slice(bytes).unwrap_or_else(|e| panic!("{path}: {e}")) {
                RegistryEvent::PullRequestOpened(event) => data_of(&event),
                RegistryEvent::Other(_) => panic!("{path}: read as `Other`"),
            };
        assert_same_data(path, &document["data"], &written);
    }
}

#[test]
fn cdevents_shaped_events_keep_their_data() {
    assert_eq!(examples("cdevents-shaped").len(), 7);
    use codegen_build_test::cdevents::RegistryEvent;
    for (path, bytes) in &examples("cdevents-shaped") {
        let document: Value = serde_json::from_slice(bytes).unwrap();
        let written =
            match RegistryEvent::from_slice(bytes).unwrap_or_else(|e| panic!("{path}: {e}")) {
                RegistryEvent::ArtifactPackaged(e) => data_of(&e),
                RegistryEvent::IncidentDetected(e) => data_of(&e),
                RegistryEvent::PipelinerunFinished(e) => data_of(&e),
                RegistryEvent::ServiceDeployed(e) => data_of(&e),
                RegistryEvent::TicketCreated(e) => data_of(&e),
                RegistryEvent::Other(_) => panic!("{path}: read as `Other`"),
            };
        assert_same_data(path, &document["data"], &written);
    }
}

#[test]
fn xregistry_events_keep_their_data() {
    use codegen_build_test::xregistry::RegistryEvent;
    let examples = examples("xregistry");
    assert_eq!(examples.len(), 4);
    for (path, bytes) in &examples {
        let document: Value = serde_json::from_slice(bytes).unwrap();
        let written =
            match RegistryEvent::from_slice(bytes).unwrap_or_else(|e| panic!("{path}: {e}")) {
                RegistryEvent::EventsEmployeeAdded(e) => data_of(&e),
                RegistryEvent::LumenTurnedOn(e) => data_of(&e),
                RegistryEvent::SmartOvenTurnedOn(e) => data_of(&e),
                RegistryEvent::TemperatureChanged(e) => data_of(&e),
                RegistryEvent::Other(_) => panic!("{path}: read as `Other`"),
            };
        assert_same_data(path, &document["data"], &written);
    }
}

/// Issue 37: our own layout (`schemas/<type>/v<major>.json`, no type mapping) is held to the
/// same rule as a published set: a `null` received for an optional member, a member the
/// schema does not name, a `date-time` with an offset and a fraction, a `date` and an
/// upper-case `uuid` are each written back as received.
#[test]
fn own_layout_events_keep_nulls_unknown_members_and_text() {
    use codegen_build_test::{order_returned_v1, order_shipped_v1};
    let returned = json!({
        "order_id": "ord-1",
        "tenant": "shop-nl",
        "returned_at": "2024-06-20T12:00:00.5+02:00",
        "reason": "damaged",
        "items": [{"sku": "SKU-1", "quantity": 1}],
        "note": null,
        "gift_wrap": true
    });
    let typed: order_returned_v1::OrderReturned = serde_json::from_value(returned.clone()).unwrap();
    assert_eq!(typed.note, Some(None), "a `null` received is kept");
    assert_same_data(
        "order.returned",
        &returned,
        &serde_json::to_value(&typed).unwrap(),
    );
    let without_note = json!({
        "order_id": "ord-1",
        "tenant": "shop-nl",
        "returned_at": "2024-06-20T10:00:00Z",
        "reason": "damaged",
        "items": []
    });
    let typed: order_returned_v1::OrderReturned =
        serde_json::from_value(without_note.clone()).unwrap();
    assert_same_data(
        "order.returned",
        &without_note,
        &serde_json::to_value(&typed).unwrap(),
    );

    let shipped = json!({
        "order_id": "ord-1",
        "tenant": "shop-nl",
        "shipped_at": "2024-06-12T16:00:00+02:00",
        "carrier": "postnl",
        "estimated_delivery": "2024-06-13",
        "parcels": [{
            "parcel_id": "0B5E1D4A-4A39-4B8E-9D8E-2B7C2F4B0003",
            "tracking_number": "3SABC0042",
            "skus": ["SKU-1"],
            "insured": true
        }],
        "signature_required": false
    });
    let typed: order_shipped_v1::OrderShipped = serde_json::from_value(shipped.clone()).unwrap();
    assert_same_data(
        "order.shipped",
        &shipped,
        &serde_json::to_value(&typed).unwrap(),
    );
    // An optional member whose schema does not admit `null` refuses it (it was read as absent
    // and written back without the member).
    let mut null = shipped.clone();
    null["estimated_delivery"] = Value::Null;
    assert!(serde_json::from_value::<order_shipped_v1::OrderShipped>(null).is_err());
    // A `date-time` that is not RFC 3339 is refused on read, as `validate --registry` refuses it.
    let mut bad = shipped;
    bad["shipped_at"] = json!("2024-06-12 16:00");
    assert!(serde_json::from_value::<order_shipped_v1::OrderShipped>(bad).is_err());
}
