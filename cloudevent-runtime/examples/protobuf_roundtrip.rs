//! The CloudEvents Protobuf format (feature `protobuf`): a producer and a consumer.
//!
//! - A payload that is itself a Protobuf message travels in `proto_data` and is read back
//!   typed ([`Event::to_protobuf_message`], [`Event::from_protobuf_message`]).
//! - A serde payload travels as `text_data` (JSON) in an HTTP structured-mode request with
//!   `Content-Type: application/cloudevents+protobuf`; the receiver picks the format from the
//!   content type, as every binding does.
//!
//! ```sh
//! cargo run -p cloudevent-runtime --example protobuf_roundtrip --features protobuf,http
//! ```

use cloudevent_runtime::binding::{StructuredFormat, http};
use cloudevent_runtime::{AnyEvent, CloudEvent, Event, Protobuf, protobuf};

/// A Protobuf payload, `example.orders.v1.OrderShipped`: `prost::Message` and the derive on
/// one struct, `datacontenttype = "application/protobuf"`; with `prost::Name` it is
/// `protobuf::ProtobufData` and travels in `proto_data`.
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
    #[prost(uint32, tag = "2")]
    parcels: u32,
}

impl prost::Name for OrderShipped {
    const NAME: &'static str = "OrderShipped";
    const PACKAGE: &'static str = "example.orders.v1";
    fn type_url() -> String {
        "type.googleapis.com/example.orders.v1.OrderShipped".to_owned()
    }
}

/// A serde payload, as everywhere else in this crate.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com"
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    total_cents: i64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Producer: a Protobuf payload in `proto_data`.
    let shipped = Event::new(OrderShipped {
        order_id: "order-8842".into(),
        parcels: 2,
    });
    let bytes = protobuf::encode_message(&shipped);
    // Consumer: the strict reader, the policy check, the type and type URL, then the message.
    let received = protobuf::decode_message::<OrderShipped>(&bytes)?;
    assert_eq!(received.data().parcels, 2);
    println!(
        "proto_data: {} {} ({} bytes, {})",
        received.ty(),
        received.id(),
        bytes.len(),
        AnyEvent::decode::<Protobuf>(&bytes)?
            .protobuf_type_url()
            .unwrap_or_default()
    );

    // Producer: a serde payload in structured mode over HTTP, in the Protobuf format.
    let created = Event::new(OrderCreated {
        order_id: "order-8842".into(),
        total_cents: 4999,
    });
    let mut headers = ::http::HeaderMap::new();
    let body = http::write_structured(&created, StructuredFormat::Protobuf, &mut headers)?;
    assert_eq!(headers["content-type"], protobuf::MEDIA_TYPE);
    // Consumer: the content type decides the format.
    let received: Event<OrderCreated> = http::read_event(&headers, &body)?;
    assert_eq!(received, created);
    println!(
        "text_data over HTTP: {} {} ({} bytes; JSON: {} bytes)",
        received.ty(),
        received.id(),
        body.len(),
        serde_json::to_vec(&created)?.len()
    );
    Ok(())
}
