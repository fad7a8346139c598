//! Typed events through the broker-neutral bindings (Kafka, AMQP, MQTT) in each of their
//! modes: what is written reads back as the same `Event<T>`, typed extensions included
//! (headers and properties are text, the payload's field types restore them).
#![cfg(all(feature = "kafka", feature = "amqp", feature = "mqtt"))]

use cloudevent_runtime::binding::amqp::{self, PropertyPrefix};
use cloudevent_runtime::binding::mqtt::{self, MqttVersion};
use cloudevent_runtime::binding::{BindingEvent, ContentMode, kafka};
use cloudevent_runtime::{AnyEvent, CloudEvent, Event, ExtensionValueBuf, Timestamp, UriRef};

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.shipped",
    dataschema = "https://schemas.example.com/orders/shipped/v1.json",
    source = "https://orders.example.com/shipping"
)]
struct OrderShipped {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension = "partitionkey")]
    customer_id: String,
    #[cloudevent(extension)]
    parcels: i32,
    #[cloudevent(extension)]
    express: bool,
    #[cloudevent(extension)]
    promised: Option<Timestamp>,
    #[cloudevent(extension = "dataref")]
    label: Option<UriRef>,
    carrier: String,
}

fn event() -> Event<OrderShipped> {
    Event::new(OrderShipped {
        order_id: "order-8842".into(),
        customer_id: "cust-1029 ☕".into(),
        parcels: -3,
        express: true,
        promised: Some(Timestamp::try_from("2026-12-01T09:00:00Z").unwrap()),
        label: Some(UriRef::try_from("/labels/8842.pdf").unwrap()),
        carrier: "Post \"NL\" 100%".into(),
    })
    .with_extension("region", "eu-west")
    .unwrap()
}

const MODES: [ContentMode; 2] = [ContentMode::Binary, ContentMode::Structured];

#[test]
fn kafka_records_carry_typed_events_in_both_modes() {
    let event = event();
    for mode in MODES {
        let record = kafka::to_record(&event, mode).unwrap();
        // the key is `partitionkey` when the event has one, before `subject`.
        assert_eq!(record.key.as_deref(), Some("cust-1029 ☕".as_bytes()));
        let read: Event<OrderShipped> = kafka::from_record(&record).unwrap();
        assert_eq!(read, event, "{mode:?}");
        assert_eq!(
            read.extension("parcels"),
            Some(ExtensionValueBuf::Integer(-3))
        );
    }
}

#[test]
fn amqp_messages_carry_typed_events_in_both_modes_and_prefixes() {
    let event = event();
    for prefix in [PropertyPrefix::Colon, PropertyPrefix::Underscore] {
        for mode in MODES {
            let message = amqp::to_message(&event, mode, prefix).unwrap();
            let read: Event<OrderShipped> = amqp::from_message(&message).unwrap();
            assert_eq!(read, event, "{mode:?} {prefix:?}");
        }
    }
    // Binary is AMQP's default.
    let message = amqp::to_message(&event, amqp::DEFAULT_MODE, PropertyPrefix::Colon).unwrap();
    assert!(
        message
            .application_properties
            .iter()
            .any(|(name, _)| name == "cloudEvents:express")
    );
}

#[test]
fn mqtt_publishes_carry_typed_events_in_every_allowed_mode() {
    let event = event();
    for (version, mode) in [
        (MqttVersion::V5, ContentMode::Binary),
        (MqttVersion::V5, ContentMode::Structured),
        (MqttVersion::V3_1_1, ContentMode::Structured),
    ] {
        let publish = mqtt::to_publish(&event, version, mode).unwrap();
        let read: Event<OrderShipped> = mqtt::from_publish(&publish, version).unwrap();
        assert_eq!(read, event, "{version:?} {mode:?}");
    }
}

#[test]
fn a_record_of_another_type_is_refused_naming_both_types() {
    let mut record = kafka::to_record(&event(), ContentMode::Binary).unwrap();
    for (name, value) in &mut record.headers {
        if name == "ce_type" {
            *value = Some(b"com.example.order.cancelled".to_vec());
        }
    }
    let error = kafka::from_record::<Event<OrderShipped>>(&record).unwrap_err();
    let text = error.to_string();
    assert!(
        text.contains("com.example.order.shipped") && text.contains("com.example.order.cancelled"),
        "{text}"
    );
}

#[test]
fn typed_binary_parts_are_the_parts_of_the_event_as_written() {
    // `Event<T>` writes binary parts straight from the event (no JSON detour); they must be
    // what the JSON event format route gives, extensions in name order included.
    let event = event();
    let direct = event.to_binary().unwrap();
    let through_json = event.to_any_event().unwrap().to_binary().unwrap();
    assert_eq!(direct, through_json);
    assert_eq!(direct.attribute("parcels"), Some("-3"));
    assert_eq!(direct.attribute("express"), Some("true"));
    assert_eq!(direct.attribute("subject"), Some("order-8842"));

    // A payload value the format refuses is still refused, with the format's message.
    let mut bad = event.clone();
    bad.data_mut().customer_id = "line\nbreak".into();
    let error = bad.to_binary().unwrap_err().to_string();
    assert!(error.contains("partitionkey"), "{error}");
    assert!(error.contains("control character"), "{error}");
}

/// A change made to an event through `AnyEvent`'s unchecked setters.
type Edit = dyn Fn(&mut AnyEvent);

#[test]
fn typed_binary_parts_refuse_what_the_strict_reader_refuses() {
    // `AnyEvent`'s setters do not check and `into_typed` keeps what they set, so an `Event<T>`
    // can hold values the format forbids. Writing it in binary mode must fail as the JSON
    // event format route does, never send invalid or duplicated `ce-` headers.
    let typed = |edit: &Edit| -> Event<OrderShipped> {
        let mut any = event().to_any_event().unwrap();
        edit(&mut any);
        any.into_typed().unwrap()
    };
    let cases: [(&str, &Edit); 5] = [
        ("empty dataschema", &|e| {
            e.set_dataschema(Some(String::new()))
        }),
        ("control character in dataschema", &|e| {
            e.set_dataschema(Some("https://schemas.example.com/\u{1}/v1.json".into()))
        }),
        ("extension named like a core attribute", &|e| {
            e.extensions_mut().insert("id", "2");
        }),
        ("extension named data", &|e| {
            e.extensions_mut().insert("data", "2");
        }),
        ("control character in an extension", &|e| {
            e.extensions_mut().insert("region", "eu\u{7f}west");
        }),
    ];
    for (name, edit) in cases {
        let event = typed(edit);
        assert!(
            event.to_binary().is_err(),
            "{name}: {:?}",
            event.to_binary()
        );
        assert!(
            event.to_any_event().is_err(),
            "{name}: the JSON route refuses it too"
        );
    }

    // The builder refuses a control character in a given id at once.
    let error = Event::builder(event().data().clone())
        .id("a\u{1}b")
        .build()
        .unwrap_err();
    assert!(
        error.to_string().contains("CE 1.0.2 type system"),
        "{error}"
    );
}

/// A payload that does not serialize (a map keyed by tuples: JSON keys are strings) is an
/// error in every mode, the one `Event::to_vec` reports, never an empty body.
#[test]
fn a_payload_that_does_not_serialize_is_an_error_in_every_mode() {
    use std::collections::BTreeMap;

    #[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
    #[cloudevent(
        type = "com.example.grid.cells.filled",
        source = "https://grid.example.com"
    )]
    struct CellsFilled {
        cells: BTreeMap<(u8, u8), String>,
    }

    let event = Event::new(CellsFilled {
        cells: BTreeMap::from([((1, 2), "x".to_owned())]),
    });
    let expected = event.to_vec().unwrap_err().to_string();
    assert!(expected.contains("cannot be serialized"), "{expected}");
    for mode in [ContentMode::Binary, ContentMode::Structured] {
        let error = kafka::to_record(&event, mode).unwrap_err();
        assert_eq!(error.to_string(), expected, "{mode:?}");
    }
    let error = event.to_binary().unwrap_err();
    assert!(
        matches!(
            error,
            cloudevent_runtime::binding::BindingError::Build(
                cloudevent_runtime::BuildError::Payload(_)
            )
        ),
        "{error:?}"
    );
}
