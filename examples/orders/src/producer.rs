//! Builds the events of two orders from the generated and the Rust-first payload types and
//! writes them as structured-mode CloudEvents (`application/cloudevents+json`), one a line.
//!
//! The first order is created, paid, shipped, returned and refunded; the second fails payment
//! and is cancelled. Each event is caused by the one before it (ADR-0003: `causationid` = the
//! parent's id, `correlationid` carried through the order). The last line is an event of a
//! type this consumer does not know yet, as a newer producer would send it.

use cloudevent_runtime::{AnyEvent, Attributes, BuildError, Data, Event, IdKind, Traceable};

use crate::exported::{FailureCode, OrderReturned, PaymentFailed, ReturnReason, ReturnedItem};
use crate::generated::{
    order_cancelled_v1, order_created_v1, order_created_v2, order_shipped_v1,
    payment_authorized_v1, payment_captured_v1, payment_refunded_v1,
};

/// The source of the payment provider adapter: `PaymentFailed` has no default source.
pub const PSP_SOURCE: &str = "https://api.example.com/payments/psp";

/// The type of the event the consumer does not know.
pub const UNKNOWN_TYPE: &str = "com.example.loyalty.points.earned";

const TENANT: &str = "shop-nl";

fn time(text: &str) -> chrono::DateTime<chrono::Utc> {
    // The fixed example times are valid RFC 3339; `default` is never reached.
    text.parse().unwrap_or_default()
}

fn uuid(n: u128) -> uuid::Uuid {
    uuid::Uuid::from_u128(0x0b5e_1d4a_4a39_4b8e_9d8e_2b7c_2f4b_0000 + n)
}

/// Every event of the example flow, each as one line of structured-mode JSON.
///
/// ```
/// let lines = orders_example::producer::produce().unwrap();
/// assert_eq!(lines.len(), 10);
/// assert!(lines[0].starts_with(r#"{"specversion":"1.0""#));
/// assert!(lines.iter().all(|line| !line.contains('\n')));
/// ```
///
/// # Errors
/// A [`BuildError`] if an event breaks a rule (it does not; the derive checked the types).
pub fn produce() -> Result<Vec<String>, BuildError> {
    let mut lines = Vec::new();
    let mut push = |bytes: Vec<u8>| lines.push(String::from_utf8_lossy(&bytes).into_owned());

    // Order 1, from the v1 checkout: created → paid → shipped → returned → refunded.
    let money = |amount_minor| payment_captured_v1::Money {
        amount_minor,
        currency: payment_captured_v1::MoneyCurrency::Eur,
    };
    let created = Event::new(order_created_v1::OrderCreated {
        order_id: "ord-20240611-0042".into(),
        tenant: TENANT.into(),
        customer_id: uuid(1),
        created_at: time("2024-06-11T09:30:00Z"),
        channel: order_created_v1::OrderCreatedChannel::Web,
        items: vec![order_created_v1::LineItem {
            sku: "SKU-1".into(),
            quantity: std::num::NonZeroU64::MIN.saturating_add(1),
            unit_price: order_created_v1::Money {
                amount_minor: 1250,
                currency: order_created_v1::MoneyCurrency::Eur,
            },
        }],
        total: order_created_v1::Money {
            amount_minor: 2500,
            currency: order_created_v1::MoneyCurrency::Eur,
        },
        shipping_address: order_created_v1::Address {
            street: "Main 1".into(),
            city: "Utrecht".into(),
            postal_code: "3511 AA".into(),
            country: "NL".into(),
        },
        note: None,
    });
    push(created.to_vec()?);
    let authorized = Event::new(payment_authorized_v1::PaymentAuthorized {
        order_id: "ord-20240611-0042".into(),
        tenant: TENANT.into(),
        merchant_ref: Some("M-0042".into()),
        payment_id: uuid(2),
        amount: payment_authorized_v1::Money {
            amount_minor: 2500,
            currency: payment_authorized_v1::MoneyCurrency::Eur,
        },
        method: payment_authorized_v1::PaymentAuthorizedMethod::Ideal,
        card: None,
        authorized_at: time("2024-06-11T09:31:00Z"),
        expires_at: None,
    })
    .caused_by(&created);
    push(authorized.to_vec()?);
    let captured = Event::new(payment_captured_v1::PaymentCaptured {
        order_id: "ord-20240611-0042".into(),
        tenant: TENANT.into(),
        merchant_ref: Some("M-0042".into()),
        payment_id: uuid(2),
        amount: money(2500),
        captured_at: time("2024-06-11T09:35:00Z"),
    })
    .caused_by(&authorized);
    push(captured.to_vec()?);
    let shipped = Event::new(order_shipped_v1::OrderShipped {
        order_id: "ord-20240611-0042".into(),
        tenant: TENANT.into(),
        shipped_at: time("2024-06-12T14:00:00Z"),
        carrier: order_shipped_v1::OrderShippedCarrier::Postnl,
        parcels: vec![order_shipped_v1::OrderShippedParcelsItem {
            parcel_id: uuid(3),
            tracking_number: "3SABC0042".into(),
            weight_grams: Some(800),
            skus: vec!["SKU-1".into()],
        }],
        estimated_delivery: "2024-06-13".parse().ok(),
    })
    .caused_by(&captured);
    push(shipped.to_vec()?);
    let returned = Event::new(OrderReturned {
        order_id: "ord-20240611-0042".into(),
        tenant: TENANT.into(),
        returned_at: time("2024-06-20T10:00:00Z"),
        reason: ReturnReason::Damaged,
        items: vec![ReturnedItem {
            sku: "SKU-1".into(),
            quantity: 1,
        }],
        note: Some("one cup was broken".into()),
    })
    .caused_by(&shipped);
    push(returned.to_vec()?);
    let refunded = Event::new(payment_refunded_v1::PaymentRefunded {
        order_id: "ord-20240611-0042".into(),
        tenant: TENANT.into(),
        merchant_ref: Some("M-0042".into()),
        payment_id: uuid(2),
        refund_id: uuid(4),
        amount: payment_refunded_v1::Money {
            amount_minor: 1250,
            currency: payment_refunded_v1::MoneyCurrency::Eur,
        },
        partial: true,
        reason: Some("damaged".into()),
        refunded_at: time("2024-06-20T11:00:00Z"),
    })
    .caused_by(&returned);
    push(refunded.to_vec()?);

    // Order 2, from the v2 checkout: created → payment failed → cancelled.
    let created = Event::new(order_created_v2::OrderCreated {
        order_id: "ord-20240611-0043".into(),
        tenant: TENANT.into(),
        customer: order_created_v2::OrderCreatedCustomer {
            id: uuid(5),
            segment: order_created_v2::OrderCreatedCustomerSegment::Business,
            email_verified: Some(true),
        },
        created_at: time("2024-06-11T10:00:00Z"),
        channel: order_created_v2::OrderCreatedChannel::Marketplace,
        items: vec![order_created_v2::LineItem {
            sku: "SKU-2".into(),
            quantity: std::num::NonZeroU64::MIN,
            unit_price: v2_money(1000),
        }],
        totals: order_created_v2::OrderCreatedTotals {
            net: v2_money(1000),
            tax: v2_money(210),
            gross: v2_money(1210),
        },
        shipping_address: order_created_v2::Address {
            street: "Dam 1".into(),
            city: "Amsterdam".into(),
            postal_code: "1012 JS".into(),
            country: "NL".into(),
        },
        billing_address: None,
        coupon_codes: vec!["SUMMER".into()],
        note: None,
    });
    push(created.to_vec()?);
    let failed = Event::builder(PaymentFailed {
        order_id: "ord-20240611-0043".into(),
        tenant: TENANT.into(),
        payment_id: uuid(6),
        failed_at: time("2024-06-11T10:01:00Z"),
        code: FailureCode::InsufficientFunds,
        retryable: false,
    })
    .source(PSP_SOURCE)
    .caused_by(&created)
    .build()?;
    push(failed.to_vec()?);
    let cancelled = Event::new(order_cancelled_v1::OrderCancelled {
        order_id: "ord-20240611-0043".into(),
        tenant: TENANT.into(),
        cancelled_at: time("2024-06-11T10:05:00Z"),
        reason: order_cancelled_v1::OrderCancelledReason::PaymentFailed,
        comment: None,
        refund_expected: false,
    })
    .caused_by(&failed);
    push(cancelled.to_vec()?);

    // A type from a newer producer; this consumer keeps it as an `AnyEvent`.
    let mut points = AnyEvent::new(
        IdKind::Ulid.generate(),
        "https://api.example.com/loyalty",
        UNKNOWN_TYPE,
    );
    points.set_subject(Some("ord-20240611-0043".into()));
    points.set_data(Data::json(r#"{"points":25}"#).ok());
    let correlation = cancelled.correlationid().unwrap_or_default().into_owned();
    points.extensions_mut().insert("correlationid", correlation);
    points
        .extensions_mut()
        .insert("causationid", cancelled.id().to_owned());
    push(points.to_vec());
    Ok(lines)
}

fn v2_money(amount_minor: u64) -> order_created_v2::Money {
    order_created_v2::Money {
        amount_minor,
        currency: order_created_v2::MoneyCurrency::Eur,
    }
}
