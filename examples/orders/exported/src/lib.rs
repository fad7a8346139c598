//! Rust-first events of the order/payment example: these payload types are written by hand and
//! `cargo xtask codegen` exports their schemas into the registry (Rust → schema).
//!
//! The other events go the other way: their schema files are written by hand and the Rust
//! types are generated (schema → Rust, `orders_example::generated`). Each registry file has
//! exactly one direction, shown in the `cargo xtask codegen` table, so the two never fight: an
//! exported schema is never generated back into a second copy of its type in this repository.
//!
//! How the exporter finds these types: an explicit list, [`visit_exported`], kept next to the
//! types. `xtask/src/codegen.rs` passes a visitor that calls
//! `cloudevent_codegen::export_file::<T>()` for each. Nothing is registered behind the scenes:
//! a type is exported when, and only when, it is on the list, and this crate needs no
//! dependency on the code generator (typify stays out of the example's build).
//!
//! The types live in their own small crate, not in `orders-example`, so that `cargo xtask
//! codegen` can always be built, even while the generated modules are stale or broken.
//!
//! ```
//! use cloudevent_runtime::{Attributes, CloudEventData, Event};
//! use orders_exported::{OrderReturned, ReturnReason, ReturnedItem};
//!
//! let returned = OrderReturned {
//!     order_id: "ord-20240611-0042".into(),
//!     tenant: "shop-nl".into(),
//!     returned_at: "2024-06-20T10:00:00Z".parse().unwrap(),
//!     reason: ReturnReason::Damaged,
//!     items: vec![ReturnedItem { sku: "SKU-1".into(), quantity: 1 }],
//!     note: None,
//! };
//! let event = Event::new(returned);
//! assert_eq!(event.ty(), OrderReturned::TYPE);
//! assert_eq!(event.subject(), Some("ord-20240611-0042"));
//! ```

use chrono::{DateTime, Utc};
use cloudevent_runtime::{CloudEvent, CloudEventData};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// Receives each exported type; the exporter implements it.
pub trait ExportVisitor {
    /// Called once for each type on the list.
    fn visit<T: CloudEventData + JsonSchema>(&mut self);
}

/// The explicit list of types exported to the registry: calls `visitor` once for each.
///
/// ```
/// use cloudevent_runtime::CloudEventData;
/// use orders_exported::{ExportVisitor, visit_exported};
///
/// struct Types(Vec<&'static str>);
/// impl ExportVisitor for Types {
///     fn visit<T: CloudEventData + schemars::JsonSchema>(&mut self) {
///         self.0.push(T::TYPE);
///     }
/// }
/// let mut types = Types(Vec::new());
/// visit_exported(&mut types);
/// assert_eq!(types.0, ["com.example.order.returned", "com.example.payment.failed"]);
/// ```
pub fn visit_exported(visitor: &mut impl ExportVisitor) {
    visitor.visit::<OrderReturned>();
    visitor.visit::<PaymentFailed>();
}

/// A customer sent (part of) an order back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, CloudEvent)]
#[cloudevent(
    type = "com.example.order.returned",
    dataschema = "https://schemas.example.com/events/com.example.order.returned/v1.json",
    source = "https://api.example.com/returns"
)]
pub struct OrderReturned {
    /// The order's number, e.g. `ord-20240611-0042`; sent as the event's `subject`.
    #[cloudevent(subject)]
    pub order_id: String,
    /// The shop the event belongs to; sent as the `tenant` extension.
    #[cloudevent(extension = "tenant")]
    pub tenant: String,
    /// When the parcel arrived back at the warehouse (UTC).
    pub returned_at: DateTime<Utc>,
    /// Why the customer sent it back.
    pub reason: ReturnReason,
    /// What came back.
    pub items: Vec<ReturnedItem>,
    /// A free-text remark by the customer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Why an order came back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReturnReason {
    /// Broken on arrival.
    Damaged,
    /// Not what was ordered.
    WrongItem,
    /// The customer changed their mind.
    ChangedMind,
}

/// One returned order line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ReturnedItem {
    /// The article number.
    pub sku: String,
    /// How many came back.
    pub quantity: u32,
}

/// A payment attempt failed. There is no default source: each payment provider's adapter
/// sets its own with `Event::builder(..).source(..)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, CloudEvent)]
#[cloudevent(
    type = "com.example.payment.failed",
    dataschema = "https://schemas.example.com/events/com.example.payment.failed/v1.json"
)]
pub struct PaymentFailed {
    /// The order's number; sent as the event's `subject`.
    #[cloudevent(subject)]
    pub order_id: String,
    /// The shop the event belongs to; sent as the `tenant` extension.
    #[cloudevent(extension = "tenant")]
    pub tenant: String,
    /// The payment attempt.
    pub payment_id: Uuid,
    /// When the provider refused it (UTC).
    pub failed_at: DateTime<Utc>,
    /// The provider's reason, normalised.
    pub code: FailureCode,
    /// Whether trying again may succeed.
    pub retryable: bool,
}

/// Why a payment failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FailureCode {
    /// The issuer said no.
    Declined,
    /// Not enough money on the account.
    InsufficientFunds,
    /// The card is past its expiry date.
    ExpiredCard,
}
