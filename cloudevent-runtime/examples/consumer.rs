//! A producer and a consumer of typed events, with no transport in between.
//!
//! The producer emits a root `OrderCreated` and an `OrderShipped` caused by it (ADR-0003:
//! `causationid` = the parent's id, `correlationid` carried), and writes them, plus an event
//! of a type the consumer does not know and a redelivery, as one JSON batch
//! (`application/cloudevents-batch+json`, INTG-STD-015 R-10).
//!
//! The consumer validates the batch against INTG-STD-015 with the ADR-0003 traceability
//! requirement, drops the redelivery with a `(source, id)` deduplicator and dispatches each
//! event to a typed handler; the unknown type arrives as an `AnyEvent`.
//!
//! Run it with `cargo run --example consumer`.

use cloudevent_runtime::Attributes;
use cloudevent_runtime::Validate;
use std::time::Duration;

use cloudevent_runtime::dedupe::{Deduplicator, InMemoryDeduplicator};
use cloudevent_runtime::{AnyEvent, Batch, CloudEvent, Event, Json, Profile, Validator, dispatch};
use serde::{Deserialize, Serialize};

/// An order was placed at checkout.
#[derive(Debug, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    dataschema = "https://schemas.example.com/orders/created/v1.json",
    source = "https://orders.example.com/checkout"
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension = "partitionkey")]
    customer_id: String,
    total_cents: i64,
}

/// An order left the warehouse.
#[derive(Debug, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.shipped",
    source = "https://orders.example.com/shipping"
)]
struct OrderShipped {
    #[cloudevent(subject)]
    order_id: String,
    parcels: u8,
}

dispatch! {
    /// Everything the billing consumer receives.
    enum Inbox {
        Created(OrderCreated),
        Shipped(OrderShipped),
    }
}

fn produce() -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let created = Event::new(OrderCreated {
        order_id: "order-8842".into(),
        customer_id: "cust-1029".into(),
        total_cents: 14_999,
    });
    let shipped = Event::new(OrderShipped {
        order_id: "order-8842".into(),
        parcels: 2,
    })
    .caused_by(&created);

    // A type this consumer does not handle, from another team, with the same workflow ids.
    let mut refunded = AnyEvent::new(
        "01HZX3KQVB8E72GQJHF5RM6YWN",
        "https://payments.example.com/refunds",
        "com.example.payment.refunded",
    );
    refunded
        .extensions_mut()
        .insert("correlationid", created.id().to_owned());
    refunded
        .extensions_mut()
        .insert("causationid", shipped.id().to_owned());

    let mut batch = Batch::default();
    batch.push(created.to_any()?);
    batch.push(shipped.to_any()?);
    batch.push(refunded);
    // At-least-once delivery: the broker hands the consumer the shipped event twice.
    batch.push(shipped.to_any()?);
    Ok(batch.to_vec())
}

fn consume(body: &[u8]) -> Result<(), Box<dyn std::error::Error>> {
    let validator = Validator::new(
        cloudevent_runtime::Policy::new(Profile::IntgStd015).with_required_traceability(true),
    );
    let report = validator.validate_batch_bytes::<Json>(body);
    for finding in report.findings() {
        println!("batch: {}", finding.report_line());
    }
    for (index, event) in report.events().iter().enumerate() {
        for finding in event.findings() {
            println!("#{index}: {}", finding.report_line());
        }
    }
    if !report.is_valid() {
        return Err("the batch breaks INTG-STD-015; rejecting it".into());
    }

    let seen = InMemoryDeduplicator::new(10_000, Duration::from_secs(3600));
    for event in Batch::from_slice(body)? {
        // INTG-STD-015 R-15: log id, source, type and time on receipt.
        println!(
            "received {} from {} type {} at {}",
            event.id(),
            event.source(),
            event.ty(),
            event.time().map_or("-", |time| time.as_str())
        );
        if seen.check(event.source(), event.id())?
            == cloudevent_runtime::dedupe::Delivery::Duplicate
        {
            println!("  duplicate of an event already handled: acknowledged, not processed");
            continue;
        }
        match Inbox::try_from(event)? {
            Inbox::Created(created) => println!(
                "  order {} for {} cents",
                created.data().order_id,
                created.data().total_cents
            ),
            Inbox::Shipped(shipped) => println!(
                "  order {} shipped in {} parcel(s), caused by {}",
                shipped.data().order_id,
                shipped.data().parcels,
                shipped
                    .extension("causationid")
                    .and_then(|value| value.as_str().map(str::to_owned))
                    .unwrap_or_default()
            ),
            Inbox::Other(other) => println!("  not ours: {} kept as AnyEvent", other.ty()),
        }
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let body = produce()?;
    println!("{}", String::from_utf8_lossy(&body));
    consume(&body)
}
