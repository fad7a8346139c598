//! A NATS JetStream producer and consumer: publish typed events with `Nats-Msg-Id` = event id
//! (a repeated publish is dropped by the server), in structured mode (the default) and in
//! binary mode (`ce-` headers, NATS 2.2+); consume both with explicit acks and a
//! `(source, id)` deduplicator so a redelivery does not repeat the side effect (ADR-0003).
//!
//! ```text
//! nats-server -js &
//! NATS_URL=nats://127.0.0.1:4222 cargo run -p cloudevent-runtime --example nats_roundtrip --features nats
//! ```

use cloudevent_runtime::Attributes;
use std::time::Duration;

use async_nats::jetstream;
use async_nats::jetstream::consumer::{AckPolicy, pull};
use cloudevent_runtime::binding::ContentMode;
use cloudevent_runtime::binding::nats::{self, Handled};
use cloudevent_runtime::dedupe::InMemoryDeduplicator;
use cloudevent_runtime::{CloudEvent, Event};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.shipped",
    source = "https://orders.example.com/shipping"
)]
struct OrderShipped {
    #[cloudevent(subject)]
    order_id: String,
    parcels: u8,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let url = std::env::var("NATS_URL").map_err(
        |_| "set NATS_URL, e.g. NATS_URL=nats://127.0.0.1:4222 (start `nats-server -js`)",
    )?;
    let client = async_nats::connect(&url).await?;
    let context = jetstream::new(client);
    let stream = context
        .get_or_create_stream(jetstream::stream::Config {
            name: "CLOUDEVENT_EXAMPLE".into(),
            subjects: vec!["example.orders.>".into()],
            ..Default::default()
        })
        .await?;

    // Producer: the second publish of the same event is dropped by the server.
    let shipped = Event::new(OrderShipped {
        order_id: "order-1".into(),
        parcels: 2,
    });
    for _ in 0..2 {
        let ack = nats::publish_jetstream(
            &context,
            "example.orders.shipped",
            &shipped,
            nats::DEFAULT_MODE,
        )
        .await?;
        println!(
            "published {} seq {} duplicate {}",
            shipped.id(),
            ack.sequence,
            ack.duplicate
        );
    }

    // Binary mode: the attributes travel as `ce-` headers, the payload is the data alone.
    let binary = Event::new(OrderShipped {
        order_id: "order-2".into(),
        parcels: 1,
    });
    let ack = nats::publish_jetstream(
        &context,
        "example.orders.shipped",
        &binary,
        ContentMode::Binary,
    )
    .await?;
    println!(
        "published {} in binary mode, seq {}",
        binary.id(),
        ack.sequence
    );

    // Consumer: one reader for both modes; explicit acks, at-least-once; the deduplicator makes the side effect once.
    let consumer = stream
        .get_or_create_consumer(
            "example-billing",
            pull::Config {
                durable_name: Some("example-billing".into()),
                ack_policy: AckPolicy::Explicit,
                ..Default::default()
            },
        )
        .await?;
    let seen = InMemoryDeduplicator::new(10_000, Duration::from_secs(3600));
    let mut messages = consumer
        .fetch()
        .max_messages(10)
        .expires(Duration::from_secs(2))
        .messages()
        .await?;
    while let Some(message) = messages.next().await {
        let message = message?;
        let handled = nats::handle_once::<Event<OrderShipped>, _, _, _, std::convert::Infallible>(
            &message,
            &seen,
            |event| {
                println!(
                    "shipping {} parcel(s) for {}",
                    event.data().parcels,
                    event.data().order_id
                );
                async { Ok(()) }
            },
        )
        .await?;
        match handled {
            Handled::Processed(event) => println!("processed {}", event.id()),
            Handled::Duplicate(event) => println!("duplicate {} acknowledged", event.id()),
            Handled::Retry(event, _) => println!("will retry {}", event.id()),
        }
    }
    context.delete_stream("CLOUDEVENT_EXAMPLE").await?;
    Ok(())
}
