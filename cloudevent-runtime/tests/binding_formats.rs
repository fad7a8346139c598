//! The Protobuf format through every binding's structured mode (and HTTP's batched mode),
//! and the Avro format (feature `avro`) through every structured mode: a typed event
//! round-trips, the receive path picks the format from the content type, the one policy holds
//! both to the JSON verdict, and a receiver names the formats it accepts when it refuses one.
#![cfg(all(
    feature = "protobuf",
    feature = "http",
    feature = "kafka",
    feature = "nats",
    feature = "amqp",
    feature = "mqtt"
))]

use cloudevent_runtime::Attributes;
use cloudevent_runtime::Avro;
use cloudevent_runtime::binding::{
    BindingError, ContentMode, StructuredFormat, amqp, http, kafka, mqtt, nats,
};
use cloudevent_runtime::{AnyEvent, CloudEvent, Event, Protobuf, protobuf};

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
fn http_structured_and_batch_round_trip_in_protobuf() {
    let event = event();
    let mut headers = ::http::HeaderMap::new();
    let body = http::write_structured(&event, StructuredFormat::Protobuf, &mut headers).unwrap();
    assert_eq!(headers["content-type"], protobuf::MEDIA_TYPE);
    assert_eq!(
        AnyEvent::decode::<Protobuf>(&body).unwrap().id(),
        event.id()
    );
    let back: Event<OrderCreated> = http::read_event(&headers, &body).unwrap();
    assert_eq!(back, event);

    let events = vec![
        event.clone(),
        event.clone().with_new_id(cloudevent_runtime::IdKind::Ulid),
    ];
    let mut headers = ::http::HeaderMap::new();
    let body = http::write_batch(&events, StructuredFormat::Protobuf, &mut headers).unwrap();
    assert_eq!(headers["content-type"], protobuf::BATCH_MEDIA_TYPE);
    let http::Received::Batch(back) =
        http::read_message::<Event<OrderCreated>>(&headers, &body).unwrap()
    else {
        panic!("a batch")
    };
    assert_eq!(back, events);
    assert_eq!(http::content_mode(&headers).unwrap(), ContentMode::Batch);
}

#[test]
fn kafka_nats_amqp_mqtt_structured_round_trip_in_protobuf() {
    let event = event();
    let record = kafka::to_structured_record(&event, StructuredFormat::Protobuf).unwrap();
    assert_eq!(record.key.as_deref(), Some(&b"order-1"[..]));
    assert_eq!(
        kafka::from_record::<Event<OrderCreated>>(&record).unwrap(),
        event
    );

    let (headers, payload) =
        nats::to_structured_message(&event, StructuredFormat::Protobuf).unwrap();
    let back: Event<OrderCreated> = nats::from_parts(Some(&headers), &payload).unwrap();
    assert_eq!(back, event);

    let message = amqp::to_structured_message(&event, StructuredFormat::Protobuf).unwrap();
    assert_eq!(message.content_type.as_deref(), Some(protobuf::MEDIA_TYPE));
    assert_eq!(
        amqp::from_message::<Event<OrderCreated>>(&message).unwrap(),
        event
    );

    let publish = mqtt::to_structured_publish(&event, StructuredFormat::Protobuf).unwrap();
    let back: Event<OrderCreated> = mqtt::from_publish(&publish, mqtt::MqttVersion::V5).unwrap();
    assert_eq!(back, event);
}

#[test]
fn a_protobuf_body_is_held_to_the_same_policy() {
    // An event the typed reader refuses in JSON is refused in Protobuf, with the same rule.
    let mut any = event().to_any().unwrap();
    any.set_ty("com.example.order.cancelled");
    let json = http::read_event::<Event<OrderCreated>>(&json_headers(), &any.to_vec()).unwrap_err();
    let mut headers = ::http::HeaderMap::new();
    headers.insert("content-type", protobuf::MEDIA_TYPE.parse().unwrap());
    let proto =
        http::read_event::<Event<OrderCreated>>(&headers, &any.encode::<Protobuf>().unwrap())
            .unwrap_err();
    assert_eq!(proto.rule(), json.rule());
    assert_eq!(proto.to_string(), json.to_string());
}

fn json_headers() -> ::http::HeaderMap {
    let mut headers = ::http::HeaderMap::new();
    headers.insert(
        "content-type",
        StructuredFormat::Json.content_type().parse().unwrap(),
    );
    headers
}

#[test]
fn the_415_names_the_formats_this_receiver_accepts() {
    let mut headers = ::http::HeaderMap::new();
    headers.insert(
        "content-type",
        "application/cloudevents+xml".parse().unwrap(),
    );
    let err = http::read_event::<AnyEvent>(&headers, b"").unwrap_err();
    assert!(matches!(err, BindingError::UnsupportedFormat { .. }));
    let text = err.to_string();
    for accepted in [
        "application/cloudevents+json",
        "application/cloudevents-batch+json",
        "application/cloudevents+protobuf",
        "application/cloudevents-batch+protobuf",
    ] {
        assert!(text.contains(accepted), "{text}");
    }
    assert_eq!(
        StructuredFormat::from_media_type("application/cloudevents-batch+protobuf"),
        Some((StructuredFormat::Protobuf, true))
    );
}

/// The axum extractors read the format the content type names: a typed event, an
/// `AnyEvent`, a batch; a refused one is answered with the reader's rule.
#[cfg(feature = "axum")]
mod axum_extractors {
    use super::*;
    use axum::extract::{FromRequest, Request};
    use axum::response::IntoResponse;
    use cloudevent_runtime::Batch;

    fn post(content_type: &str, body: Vec<u8>) -> Request {
        Request::builder()
            .method("POST")
            .uri("/events")
            .header("content-type", content_type)
            .body(axum::body::Body::from(body))
            .unwrap()
    }

    #[tokio::test]
    async fn extractors_read_protobuf() {
        let event = event();
        let body = event.encode::<Protobuf>().unwrap();
        let typed =
            Event::<OrderCreated>::from_request(post(protobuf::MEDIA_TYPE, body.clone()), &())
                .await
                .unwrap();
        assert_eq!(typed, event);
        let any = AnyEvent::from_request(post(protobuf::MEDIA_TYPE, body), &())
            .await
            .unwrap();
        assert_eq!(any.id(), event.id());

        // Issue 24: a dataschema that is proto_data's type URL passes the extractor too.
        let mut proto = any.clone();
        proto.set_protobuf_data("type.googleapis.com/example.v1.Order", vec![8, 1]);
        proto.set_dataschema(Some("type.googleapis.com/example.v1.Order".into()));
        let read = AnyEvent::from_request(
            post(protobuf::MEDIA_TYPE, proto.encode::<Protobuf>().unwrap()),
            &(),
        )
        .await
        .unwrap();
        assert_eq!(read, proto);

        let batch = Batch::from(vec![any.clone(), any]);
        let read = Batch::from_request(
            post(
                protobuf::BATCH_MEDIA_TYPE,
                batch.encode::<Protobuf>().unwrap(),
            ),
            &(),
        )
        .await
        .unwrap();
        assert_eq!(read, batch);

        let mut truncated = event.encode::<Protobuf>().unwrap();
        truncated.pop();
        let rejection = AnyEvent::from_request(post(protobuf::MEDIA_TYPE, truncated), &())
            .await
            .unwrap_err();
        let response = rejection.into_response();
        assert_eq!(response.status(), 400);
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        let text = String::from_utf8_lossy(&body);
        assert!(text.contains("CE-Protobuf 1.0"), "{text}");
    }
}

/// The derive declares a Protobuf payload: `#[derive(prost::Message, CloudEvent)]` on one
/// struct, `datacontenttype = "application/protobuf"`; with `prost::Name` it is
/// `protobuf::ProtobufData` and travels in `proto_data`, through a binding too.
mod derived_protobuf_payload {
    use super::*;

    #[derive(Clone, PartialEq, prost::Message, CloudEvent)]
    #[cloudevent(
        type = "com.example.order.shipped",
        source = "https://orders.example.com/shipping",
        datacontenttype = "application/protobuf"
    )]
    struct OrderShipped {
        #[prost(string, tag = "1")]
        #[cloudevent(subject)]
        order_id: String,
        #[prost(string, tag = "2")]
        #[cloudevent(extension)]
        region: String,
        #[prost(uint32, tag = "3")]
        parcels: u32,
    }

    impl prost::Name for OrderShipped {
        const NAME: &'static str = "OrderShipped";
        const PACKAGE: &'static str = "example.orders.v1";
    }

    #[test]
    fn round_trips_in_proto_data() {
        let event = Event::new(OrderShipped {
            order_id: "order-1".into(),
            region: "eu".into(),
            parcels: 2,
        });
        let bytes = protobuf::encode_message(&event);
        let any = AnyEvent::decode::<Protobuf>(&bytes).unwrap();
        assert_eq!(
            any.protobuf_type_url(),
            Some("/example.orders.v1.OrderShipped")
        );
        assert_eq!(any.datacontenttype(), Some("application/protobuf"));
        assert_eq!(any.subject(), Some("order-1"));
        assert_eq!(any.extensions().get("region"), Some(&"eu".into()));
        let back = protobuf::decode_message::<OrderShipped>(&bytes).unwrap();
        assert_eq!(back.data(), event.data());
        assert_eq!(back.id(), event.id());
        assert_eq!(back.subject(), Some("order-1"));
        // The same bytes as a structured-mode HTTP body: read as an AnyEvent with the type URL.
        let mut headers = ::http::HeaderMap::new();
        headers.insert("content-type", protobuf::MEDIA_TYPE.parse().unwrap());
        let received: AnyEvent = http::read_event(&headers, &bytes).unwrap();
        assert_eq!(received, any);
    }

    /// Issue 24: `dataschema` = the type URL of `proto_data` (CE Protobuf format 3) passes
    /// every door that reads Protobuf (typed, dynamic, each binding's structured mode), and a
    /// relay to JSON or binary mode carries it as an absolute `dataschema`.
    #[test]
    fn a_type_url_dataschema_passes_every_protobuf_door_and_is_relayed() {
        let event = Event::new(OrderShipped {
            order_id: "order-1".into(),
            region: "eu".into(),
            parcels: 2,
        });
        let mut any = AnyEvent::decode::<Protobuf>(&protobuf::encode_message(&event)).unwrap();
        let url = any.protobuf_type_url().unwrap().to_owned();
        any.set_dataschema(Some(url.clone()));
        let bytes = any.encode::<Protobuf>().unwrap();

        let typed = protobuf::decode_message::<OrderShipped>(&bytes).unwrap();
        assert_eq!(typed.dataschema(), Some(url.as_str()));
        assert_eq!(typed.data(), event.data());
        assert_eq!(AnyEvent::decode::<Protobuf>(&bytes).unwrap(), any);
        let mut headers = ::http::HeaderMap::new();
        headers.insert("content-type", protobuf::MEDIA_TYPE.parse().unwrap());
        assert_eq!(http::read_event::<AnyEvent>(&headers, &bytes).unwrap(), any);
        let record = kafka::to_structured_record(&any, StructuredFormat::Protobuf).unwrap();
        assert_eq!(kafka::from_record::<AnyEvent>(&record).unwrap(), any);
        let (nats_headers, payload) =
            nats::to_structured_message(&any, StructuredFormat::Protobuf).unwrap();
        assert_eq!(
            nats::from_parts::<AnyEvent>(Some(&nats_headers), &payload).unwrap(),
            any
        );
        let message = amqp::to_structured_message(&any, StructuredFormat::Protobuf).unwrap();
        assert_eq!(amqp::from_message::<AnyEvent>(&message).unwrap(), any);
        let publish = mqtt::to_structured_publish(&any, StructuredFormat::Protobuf).unwrap();
        assert_eq!(
            mqtt::from_publish::<AnyEvent>(&publish, mqtt::MqttVersion::V5).unwrap(),
            any
        );

        // Relayed: the type URL as an absolute dataschema, the message as bytes.
        let absolute = format!("https:{url}");
        for mode in [ContentMode::Binary, ContentMode::Structured] {
            let mut headers = ::http::HeaderMap::new();
            let body = http::write_event(&any, mode, &mut headers).unwrap();
            let relayed: AnyEvent = http::read_event(&headers, &body).unwrap();
            assert_eq!(relayed.dataschema(), Some(absolute.as_str()), "{mode:?}");
            assert_eq!(relayed.protobuf_type_url(), None);
            assert_eq!(relayed.datacontenttype(), Some("application/protobuf"));
            if mode == ContentMode::Binary {
                assert_eq!(headers["ce-dataschema"], absolute.as_str());
            }
        }
    }
}

#[cfg(feature = "avro")]
#[test]
fn every_binding_round_trips_a_typed_event_in_avro() {
    let event = event();
    let mut headers = ::http::HeaderMap::new();
    let body = http::write_structured(&event, StructuredFormat::Avro, &mut headers).unwrap();
    assert_eq!(
        headers["content-type"],
        cloudevent_runtime::avro::MEDIA_TYPE
    );
    assert_eq!(AnyEvent::decode::<Avro>(&body).unwrap().id(), event.id());
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
    assert_eq!(
        message.content_type.as_deref(),
        Some(cloudevent_runtime::avro::MEDIA_TYPE)
    );
    assert_eq!(
        amqp::from_message::<Event<OrderCreated>>(&message).unwrap(),
        event
    );

    let publish = mqtt::to_structured_publish(&event, StructuredFormat::Avro).unwrap();
    let back: Event<OrderCreated> = mqtt::from_publish(&publish, mqtt::MqttVersion::V5).unwrap();
    assert_eq!(back, event);
}

#[cfg(feature = "avro")]
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
    headers.insert(
        "content-type",
        cloudevent_runtime::avro::MEDIA_TYPE.parse().unwrap(),
    );
    let from_avro =
        http::read_event::<Event<OrderCreated>>(&headers, &any.encode::<Avro>().unwrap())
            .unwrap_err();
    assert_eq!(from_avro.rule(), json.rule());
    assert_eq!(from_avro.to_string(), json.to_string());
}

#[cfg(feature = "avro")]
#[test]
fn avro_has_no_batch_format() {
    assert_eq!(
        <cloudevent_runtime::Avro as cloudevent_runtime::EventFormat>::BATCH_MEDIA_TYPE,
        None
    );
    assert_eq!(
        StructuredFormat::from_media_type("application/cloudevents+avro"),
        Some((StructuredFormat::Avro, false))
    );
    assert_eq!(
        StructuredFormat::from_media_type("application/cloudevents-batch+avro"),
        None
    );
    let mut headers = ::http::HeaderMap::new();
    let refused = http::write_batch(&[event()], StructuredFormat::Avro, &mut headers);
    assert!(refused.is_err(), "{refused:?}");
}
