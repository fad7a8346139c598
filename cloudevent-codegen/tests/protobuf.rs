//! `.proto` registry entries: the generated Rust (committed in `fixtures/protobuf/generated.rs`
//! by the unit tests of `src/protobuf/`, which also hold the reader's and the checks' cases),
//! compiled here, its events round-tripped through the Protobuf format, and the catalog naming
//! each event's data format.

use std::path::{Path, PathBuf};

use cloudevent_codegen::{Profile, Registry, asyncapi_yaml, catalog_markdown};
use cloudevent_runtime::{AnyEvent, Event, Protobuf, protobuf};
use serde_json::Value;

#[allow(
    clippy::all,
    reason = "generated code, included as a user's crate would"
)]
mod generated {
    include!("fixtures/protobuf/generated.rs");
}

use generated::order_packed_v1::{Carrier, OrderPacked, Parcel};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/protobuf")
}

fn registry() -> Registry {
    Registry::load(fixture().join("schemas")).unwrap()
}

#[test]
fn the_builder_writes_json_and_proto_entries_into_one_file() {
    let text = cloudevent_codegen::Builder::new()
        .schemas(fixture().join("schemas"))
        .profile(Profile::IntgStd015)
        .generate_string()
        .unwrap();
    assert!(text.contains("pub mod order_created_v1"));
    assert!(text.contains("pub mod order_packed_v1"));
    assert!(text.contains("impl ::prost::Name for OrderPacked"));
}

fn packed() -> OrderPacked {
    OrderPacked {
        order_id: "order-8842".into(),
        warehouse: "ams1".into(),
        parcels: vec![
            Parcel {
                label: "1/2".into(),
                weight_grams: 1200,
            },
            Parcel {
                label: "2/2".into(),
                weight_grams: 800,
            },
        ],
        carrier: Carrier::Courier as i32,
        note: Some("fragile".into()),
        checksum: vec![0xde, 0xad],
        dimensions: vec![-3, 40, 25],
    }
}

#[test]
fn a_generated_event_round_trips_through_the_protobuf_format() {
    let event = Event::new(packed());
    assert_eq!(event.subject(), Some("order-8842"));
    let bytes = protobuf::encode_message(&event);

    let back = protobuf::decode_message::<OrderPacked>(&bytes).unwrap();
    assert_eq!(back.data(), event.data());
    assert_eq!(back.id(), event.id());
    assert_eq!(back.subject(), Some("order-8842"));
    assert_eq!(back.datacontenttype(), "application/protobuf");
    assert_eq!(
        back.dataschema(),
        Some("https://schemas.example.com/events/com.example.order.packed/v1.proto")
    );

    // What any consumer sees: the type URL in `proto_data` and the extension.
    let any = AnyEvent::decode::<Protobuf>(&bytes).unwrap();
    assert_eq!(any.ty(), "com.example.order.packed");
    assert_eq!(
        any.protobuf_type_url(),
        Some("type.googleapis.com/example.warehouse.v1.OrderPacked")
    );
    assert_eq!(
        any.extensions().get("warehouse").and_then(|v| v.as_str()),
        Some("ams1")
    );
}

#[test]
fn another_message_in_proto_data_is_refused_by_the_typed_reader() {
    let mut any = AnyEvent::new(
        "1",
        "https://warehouse.example.com/packing",
        "com.example.order.packed",
    );
    any.set_protobuf_data(
        "type.googleapis.com/example.warehouse.v1.Parcel",
        vec![0x0a, 0x01, b'x'],
    );
    let err =
        protobuf::decode_message::<OrderPacked>(&any.encode::<Protobuf>().unwrap()).unwrap_err();
    assert_eq!(err.attribute(), Some("data"));
}

#[test]
fn the_catalog_names_each_events_data_format() {
    let registry = registry();
    let markdown = catalog_markdown(&registry);
    assert!(
        markdown.contains("structured (`application/cloudevents+json`, data `application/json`)"),
        "{markdown}"
    );
    let row = markdown
        .lines()
        .find(|l| l.starts_with("| `com.example.order.packed` |"))
        .expect("a row for the .proto entry");
    for expected in [
        "Protobuf message",
        "`example.warehouse.v1.OrderPacked`",
        "`type.googleapis.com/example.warehouse.v1.OrderPacked`",
        "application/cloudevents+protobuf",
        "[com.example.order.packed/v1.proto](com.example.order.packed/v1.proto)",
    ] {
        assert!(row.contains(expected), "{row} lacks {expected}");
    }

    let yaml = asyncapi_yaml(&registry, "Warehouse events");
    let document: Value = serde_yaml::from_str(&yaml).unwrap();
    let schema: Value =
        serde_json::from_str(include_str!("data/asyncapi-3.0.0.schema.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&document)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let message = &document["components"]["messages"]["orderPackedV1"];
    assert_eq!(message["contentType"], "application/cloudevents+protobuf");
    assert_eq!(
        message["payload"]["schemaFormat"],
        "application/vnd.google.protobuf;version=3"
    );
    assert_eq!(
        message["payload"]["schema"]["$ref"],
        "./com.example.order.packed/v1.proto"
    );
    assert_eq!(
        message["x-cloudevent-typeurl"],
        "type.googleapis.com/example.warehouse.v1.OrderPacked"
    );
    assert_eq!(
        document["components"]["messages"]["orderCreatedV1"]["contentType"],
        "application/cloudevents+json"
    );
}
