//! `RegistryEvent` of a registry holding a JSON Schema entry and a `.proto` entry: the
//! Builder's whole file (committed in `fixtures/protobuf/registry.rs`, compiled here) has a
//! typed variant for each, and an event of the `.proto` type, read with the Protobuf reader or
//! as JSON, comes back as its typed variant.

use cloudevent_runtime::Attributes;
use std::path::{Path, PathBuf};

use cloudevent_codegen::{Builder, Profile};
use cloudevent_runtime::{AnyEvent, Event, FromFormat, Protobuf, protobuf};

#[allow(
    clippy::all,
    dead_code,
    reason = "generated code, included as a user's crate would"
)]
mod generated {
    include!("fixtures/protobuf/registry.rs");
}

use generated::RegistryEvent;
use generated::order_created_v1::OrderCreated;
use generated::order_packed_v1::{Carrier, OrderPacked, Parcel};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/protobuf")
}

#[test]
fn the_builders_file_is_up_to_date() {
    let text = Builder::new()
        .schemas(fixture().join("schemas"))
        .profile(Profile::IntgStd015)
        .command("`UPDATE_GENERATED=1 cargo test -p cloudevent-codegen --test protobuf_dispatch`")
        .generate_string()
        .unwrap();
    let path = fixture().join("registry.rs");
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap();
    assert!(
        committed == text,
        "{} is stale; run `UPDATE_GENERATED=1 cargo test -p cloudevent-codegen --test protobuf_dispatch` and review the diff",
        path.display()
    );
    assert!(
        text.contains("OrderPacked(order_packed_v1::OrderPacked),"),
        "{text}"
    );
}

fn packed() -> OrderPacked {
    OrderPacked {
        order_id: "order-8842".into(),
        warehouse: "ams1".into(),
        parcels: vec![Parcel {
            label: "1/1".into(),
            weight_grams: 1200,
        }],
        carrier: Carrier::Post as i32,
        note: None,
        checksum: Vec::new(),
        dimensions: vec![30, 20],
    }
}

#[test]
fn both_kinds_of_entry_are_listed() {
    assert_eq!(
        RegistryEvent::TYPES,
        ["com.example.order.created", "com.example.order.packed"]
    );
}

#[test]
fn a_protobuf_event_dispatches_to_its_typed_variant() {
    let event = Event::new(packed());
    let bytes = protobuf::encode_message(&event);
    let any = AnyEvent::decode::<Protobuf>(&bytes).unwrap();
    match RegistryEvent::try_from(any.clone()).unwrap() {
        RegistryEvent::OrderPacked(back) => {
            assert_eq!(back.data(), event.data());
            assert_eq!(back.id(), event.id());
            assert_eq!(back.subject(), Some("order-8842"));
        }
        _ => panic!("not the OrderPacked variant"),
    }
    // In one call, from the Protobuf bytes.
    match RegistryEvent::decode::<Protobuf>(&bytes).unwrap() {
        RegistryEvent::OrderPacked(back) => assert_eq!(back.data(), event.data()),
        _ => panic!("not the OrderPacked variant"),
    }
    // The same event in JSON (the message's bytes in `data_base64`), through `from_slice`.
    let json = serde_json::to_vec(&any).unwrap();
    match RegistryEvent::from_slice(&json).unwrap() {
        RegistryEvent::OrderPacked(back) => assert_eq!(back.data(), event.data()),
        _ => panic!("not the OrderPacked variant"),
    }
}

#[test]
fn a_json_event_still_dispatches_to_its_serde_variant() {
    // The builder, as the docs ask: it keeps compiling when the schema gains a member.
    let event =
        Event::new(OrderCreated::try_from(OrderCreated::builder().order_id("order-1")).unwrap());
    let bytes = serde_json::to_vec(&event).unwrap();
    match RegistryEvent::from_slice(&bytes).unwrap() {
        RegistryEvent::OrderCreated(back) => assert_eq!(back.data().order_id, "order-1"),
        _ => panic!("not the OrderCreated variant"),
    }
    // The JSON type in the Protobuf format (its data as JSON text in `text_data`).
    let any = AnyEvent::decode::<Protobuf>(&event.encode::<Protobuf>().unwrap()).unwrap();
    assert!(matches!(
        RegistryEvent::try_from(any),
        Ok(RegistryEvent::OrderCreated(_))
    ));
}

#[test]
fn another_message_under_the_type_is_refused_naming_data() {
    let mut any = AnyEvent::new(
        "1",
        "https://warehouse.example.com/packing",
        "com.example.order.packed",
    );
    any.set_protobuf_data(
        "type.googleapis.com/example.warehouse.v1.Parcel",
        vec![0x0a, 0x01, b'x'],
    );
    let err = RegistryEvent::try_from(
        AnyEvent::decode::<Protobuf>(&any.encode::<Protobuf>().unwrap()).unwrap(),
    )
    .err()
    .expect("refused");
    assert_eq!(err.attribute(), Some("data"));
    assert!(err.to_string().contains("CE-Protobuf"), "{err}");
}
