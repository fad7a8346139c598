//! The Avro format through every binding's structured mode: a typed event round-trips, the
//! receive path picks the format from the content type, the one policy holds an Avro body to
//! the same verdict as JSON, and a batch in Avro is refused (the format defines none).
#![cfg(all(
    feature = "avro",
    feature = "http",
    feature = "kafka",
    feature = "nats",
    feature = "amqp",
    feature = "mqtt"
))]

use cloudevent_runtime::binding::{StructuredFormat, amqp, http, kafka, mqtt, nats};
use cloudevent_runtime::{AnyEvent, CloudEvent, Event, avro};

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com"
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension)]
    region: String,
}

fn event() -> Event<OrderCreated> {
    Event::new(OrderCreated {
        order_id: "order-1".into(),
        region: "eu".into(),
    })
}

#[test]
fn every_binding_round_trips_a_typed_event_in_avro() {
    let event = event();
    let mut headers = ::http::HeaderMap::new();
    let body = http::write_structured(&event, StructuredFormat::Avro, &mut headers).unwrap();
    assert_eq!(headers["content-type"], avro::MEDIA_TYPE);
    assert_eq!(AnyEvent::from_avro(&body).unwrap().id(), event.id());
    let back: Event<OrderCreated> = http::read_event(&headers, &body).unwrap();
    assert_eq!(back, event);

    let record = kafka::to_structured_record(&event, StructuredFormat::Avro).unwrap();
    assert_eq!(record.key.as_deref(), Some(&b"order-1"[..]));
    assert_eq!(
        kafka::from_record::<Event<OrderCreated>>(&record).unwrap(),
        event
    );

    let (headers, payload) = nats::to_structured_message(&event, StructuredFormat::Avro).unwrap();
    let back: Event<OrderCreated> = nats::from_parts(Some(&headers), &payload).unwrap();
    assert_eq!(back, event);

    let message = amqp::to_structured_message(&event, StructuredFormat::Avro).unwrap();
    assert_eq!(message.content_type.as_deref(), Some(avro::MEDIA_TYPE));
    assert_eq!(
        amqp::from_message::<Event<OrderCreated>>(&message).unwrap(),
        event
    );

    let publish = mqtt::to_structured_publish(&event, StructuredFormat::Avro).unwrap();
    let back: Event<OrderCreated> = mqtt::from_publish(&publish, mqtt::MqttVersion::V5).unwrap();
    assert_eq!(back, event);
}

#[test]
fn an_avro_body_is_held_to_the_same_policy_as_json() {
    let mut any = event().to_any().unwrap();
    any.set_ty("com.example.order.cancelled");
    let mut json_headers = ::http::HeaderMap::new();
    json_headers.insert(
        "content-type",
        StructuredFormat::Json.content_type().parse().unwrap(),
    );
    let json = http::read_event::<Event<OrderCreated>>(&json_headers, &any.to_vec()).unwrap_err();
    let mut headers = ::http::HeaderMap::new();
    headers.insert("content-type", avro::MEDIA_TYPE.parse().unwrap());
    let from_avro =
        http::read_event::<Event<OrderCreated>>(&headers, &any.to_avro().unwrap()).unwrap_err();
    assert_eq!(from_avro.rule(), json.rule());
    assert_eq!(from_avro.to_string(), json.to_string());
}

#[test]
fn avro_has_no_batch_format() {
    assert_eq!(StructuredFormat::Avro.batch_media_type(), None);
    assert_eq!(
        StructuredFormat::from_media_type("application/cloudevents+avro"),
        Some((StructuredFormat::Avro, false))
    );
    assert_eq!(
        StructuredFormat::from_media_type("application/cloudevents-batch+avro"),
        None
    );
    let mut headers = ::http::HeaderMap::new();
    let refused = http::write_batch_in(&[event()], StructuredFormat::Avro, &mut headers);
    assert!(refused.is_err(), "{refused:?}");
}
