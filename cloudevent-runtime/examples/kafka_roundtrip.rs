//! A Kafka producer and consumer group on rdkafka: typed events in structured mode (R-9's
//! default for Kafka) and binary mode (`ce_` headers), keyed by `partitionkey` (R-13), read
//! back by a consumer group that skips a redelivered event with the `(source, id)`
//! deduplicator (ADR-0003).
//!
//! Runs against librdkafka's built-in mock cluster, so it needs no broker; point
//! `KAFKA_BOOTSTRAP` at a real one (with a topic `orders`) to use that instead:
//!
//! ```text
//! cargo run -p cloudevent-runtime --example kafka_roundtrip --features rdkafka
//! ```

use cloudevent_runtime::Attributes;
use std::time::{Duration, Instant};

use cloudevent_runtime::binding::ContentMode;
use cloudevent_runtime::binding::kafka;
use cloudevent_runtime::binding::rdkafka::{base_record, from_message};
use cloudevent_runtime::dedupe::{Deduplicator, Delivery, InMemoryDeduplicator};
use cloudevent_runtime::{CloudEvent, Event};
use rdkafka::consumer::{BaseConsumer, CommitMode, Consumer};
use rdkafka::mocking::MockCluster;
use rdkafka::producer::{BaseProducer, Producer};
use rdkafka::{ClientConfig, Message};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.placed",
    source = "https://orders.example.com/checkout"
)]
struct OrderPlaced {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension = "partitionkey")]
    customer_id: String,
    total_cents: i64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cluster;
    let bootstrap = match std::env::var("KAFKA_BOOTSTRAP") {
        Ok(bootstrap) => bootstrap,
        Err(_) => {
            cluster = MockCluster::new(1)?;
            cluster.create_topic("orders", 3, 1)?;
            cluster.bootstrap_servers()
        }
    };

    // Producer: the record key is `partitionkey` (R-13), so one customer's orders stay in
    // order on one partition.
    let producer: BaseProducer = ClientConfig::new()
        .set("bootstrap.servers", &bootstrap)
        .create()?;
    let orders = [("order-1", 1_500), ("order-2", 2_500)];
    for ((order_id, total_cents), mode) in orders
        .into_iter()
        .zip([ContentMode::Structured, ContentMode::Binary])
    {
        let event = Event::new(OrderPlaced {
            order_id: order_id.into(),
            customer_id: "cust-1029".into(),
            total_cents,
        });
        let record = kafka::to_record(&event, mode)?;
        producer
            .send(base_record("orders", &record))
            .map_err(|(error, _)| error)?;
        println!("produced {} ({mode:?})", event.id());
    }
    producer.flush(Duration::from_secs(10))?;

    // Consumer group: one reader for both modes; commit after the side effect.
    let consumer: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", &bootstrap)
        .set("group.id", "billing")
        .set("auto.offset.reset", "earliest")
        .set("enable.auto.commit", "false")
        .create()?;
    consumer.subscribe(&["orders"])?;
    let seen = InMemoryDeduplicator::new(10_000, Duration::from_secs(3600));
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut handled = 0;
    while handled < orders.len() && Instant::now() < deadline {
        let Some(message) = consumer.poll(Duration::from_millis(200)) else {
            continue;
        };
        let message = message?;
        let event: Event<OrderPlaced> = kafka::from_record(&from_message(&message))?;
        match seen.check(event.source(), event.id())? {
            Delivery::New => println!(
                "billing {} cents for {} (partition {})",
                event.data().total_cents,
                event.data().order_id,
                message.partition()
            ),
            Delivery::Duplicate => println!("duplicate {} skipped", event.id()),
        }
        consumer.commit_message(&message, CommitMode::Sync)?;
        handled += 1;
    }
    if handled < orders.len() {
        return Err(format!("only {handled} of {} events within 20 s", orders.len()).into());
    }
    Ok(())
}
