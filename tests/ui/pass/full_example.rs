//! The example, verbatim.
use cloudevent_runtime::CloudEvent;

#[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",                                // required
    dataschema = "https://schemas.example.com/orders/created/v1.json",   // optional
    source = "https://orders.example.com/checkout",                      // optional default source
    datacontenttype = "application/json",                                // optional, default application/json
    crate = "::cloudevent_runtime",                                      // optional path override
)]
pub struct OrderCreated {
    #[cloudevent(subject)] pub order_id: String,                         // copied into `subject`
    #[cloudevent(extension = "partitionkey")] pub customer_id: String,   // copied into that extension
    #[cloudevent(extension)] pub region: String,                         // extension named after the field
    pub total_cents: i64,
}

fn main() {}
