//! Quick start: a payload struct, `#[derive(CloudEvent)]`, and a typed event printed in the
//! CloudEvents JSON format.
//!
//! Run it with `cargo run -p quickstart-example --example quickstart`.

use cloudevent_runtime::{CloudEvent, Event};

/// An order was placed at checkout.
#[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    dataschema = "https://schemas.example.com/orders/created/v1.json",
    source = "https://orders.example.com/checkout",
    datacontenttype = "application/json",
    crate = "::cloudevent_runtime"
)]
pub struct OrderCreated {
    /// Copied into `subject`.
    #[cloudevent(subject)]
    pub order_id: String,
    /// Copied into the `partitionkey` extension.
    #[cloudevent(extension = "partitionkey")]
    pub customer_id: String,
    /// Copied into the `region` extension.
    #[cloudevent(extension)]
    pub region: String,
    /// Stays in the payload only.
    pub total_cents: i64,
}

fn main() -> Result<(), serde_json::Error> {
    let order = OrderCreated {
        order_id: "order-8842".into(),
        customer_id: "cust-1029".into(),
        region: "eu-west".into(),
        total_cents: 14_999,
    };
    println!("{}", serde_json::to_string_pretty(&Event::new(order))?);
    Ok(())
}
