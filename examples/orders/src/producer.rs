//! Builds the events of two orders from the generated and the Rust-first payload types and
//! writes them as structured-mode CloudEvents (`application/cloudevents+json`), one a line.
//!
//! The first order is created, paid, shipped, returned and refunded; the second fails payment
//! and is cancelled. Each event is caused by the one before it (ADR-0003: `causationid` = the
//! parent's id, `correlationid` carried through the order). The last line is an event of a
//! type this consumer does not know yet, as a newer producer would send it.
//!
//! Generated payloads are built with their builders (`OrderCreated::builder()`, one setter a
//! member, then `OrderCreated::try_from(builder)`), never with a struct literal: a change to the schema that the
//! compatibility gate calls compatible (a member added, an enum value added, a bound relaxed,
//! a required member made optional) then needs no change here
//! (`docs/codegen-and-compatibility.md`, "Building a generated payload").

use cloudevent_runtime::{AnyEvent, Attributes, Data, Event, IdKind, Traceable};

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
/// A [`cloudevent_runtime::BuildError`] if an event breaks a rule, or a generated module's
/// `ConversionError` if a payload misses a required member or holds a value its schema
/// refuses (neither happens: the derive checked the types, and every member is set).
pub fn produce() -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let mut lines = Vec::new();
    let mut push = |bytes: Vec<u8>| lines.push(String::from_utf8_lossy(&bytes).into_owned());

    // Order 1, from the v1 checkout: created → paid → shipped → returned → refunded.
    let created = Event::new(first_order()?);
    push(created.to_vec()?);
    let authorized = Event::new(payment_authorized_v1::PaymentAuthorized::try_from(
        payment_authorized_v1::PaymentAuthorized::builder()
            .order_id("ord-20240611-0042")
            .tenant(TENANT)
            .merchant_ref("M-0042")
            .payment_id(uuid(2))
            .amount(
                payment_authorized_v1::Money::builder()
                    .amount_minor(2500u64)
                    .currency(payment_authorized_v1::MoneyCurrency::Eur),
            )
            .method(payment_authorized_v1::PaymentAuthorizedMethod::Ideal)
            .authorized_at("2024-06-11T09:31:00Z"),
    )?)
    .caused_by(&created);
    push(authorized.to_vec()?);
    let captured = Event::new(payment_captured_v1::PaymentCaptured::try_from(
        payment_captured_v1::PaymentCaptured::builder()
            .order_id("ord-20240611-0042")
            .tenant(TENANT)
            .merchant_ref("M-0042")
            .payment_id(uuid(2))
            .amount(
                payment_captured_v1::Money::builder()
                    .amount_minor(2500u64)
                    .currency(payment_captured_v1::MoneyCurrency::Eur),
            )
            .captured_at("2024-06-11T09:35:00Z"),
    )?)
    .caused_by(&authorized);
    push(captured.to_vec()?);
    let shipped = Event::new(order_shipped_v1::OrderShipped::try_from(
        order_shipped_v1::OrderShipped::builder()
            .order_id("ord-20240611-0042")
            .tenant(TENANT)
            .shipped_at("2024-06-12T14:00:00Z")
            .carrier(order_shipped_v1::OrderShippedCarrier::Postnl)
            .parcels(vec![order_shipped_v1::OrderShippedParcelsItem::try_from(
                order_shipped_v1::OrderShippedParcelsItem::builder()
                    .parcel_id(uuid(3))
                    .tracking_number("3SABC0042")
                    .weight_grams(800u64)
                    .skus(vec!["SKU-1".to_owned()]),
            )?])
            .estimated_delivery("2024-06-13"),
    )?)
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
    let refunded = Event::new(payment_refunded_v1::PaymentRefunded::try_from(
        payment_refunded_v1::PaymentRefunded::builder()
            .order_id("ord-20240611-0042")
            .tenant(TENANT)
            .merchant_ref("M-0042")
            .payment_id(uuid(2))
            .refund_id(uuid(4))
            .amount(
                payment_refunded_v1::Money::builder()
                    .amount_minor(1250u64)
                    .currency(payment_refunded_v1::MoneyCurrency::Eur),
            )
            .partial(true)
            .reason("damaged")
            .refunded_at("2024-06-20T11:00:00Z"),
    )?)
    .caused_by(&returned);
    push(refunded.to_vec()?);

    // Order 2, from the v2 checkout: created → payment failed → cancelled.
    let created = Event::new(order_created_v2::OrderCreated::try_from(
        order_created_v2::OrderCreated::builder()
            .order_id("ord-20240611-0043")
            .tenant(TENANT)
            .customer(
                order_created_v2::OrderCreatedCustomer::builder()
                    .id(uuid(5))
                    .segment(order_created_v2::OrderCreatedCustomerSegment::Business)
                    .email_verified(true),
            )
            .created_at("2024-06-11T10:00:00Z")
            .channel(order_created_v2::OrderCreatedChannel::Marketplace)
            .items(vec![order_created_v2::LineItem::try_from(
                order_created_v2::LineItem::builder()
                    .sku("SKU-2")
                    .quantity(1u64)
                    .unit_price(v2_money(1000)),
            )?])
            .totals(
                order_created_v2::OrderCreatedTotals::builder()
                    .net(v2_money(1000))
                    .tax(v2_money(210))
                    .gross(v2_money(1210)),
            )
            .shipping_address(
                order_created_v2::Address::builder()
                    .street("Dam 1")
                    .city("Amsterdam")
                    .postal_code("1012 JS")
                    .country("NL"),
            )
            .coupon_codes(vec!["SUMMER".to_owned()]),
    )?);
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
    let cancelled = Event::new(order_cancelled_v1::OrderCancelled::try_from(
        order_cancelled_v1::OrderCancelled::builder()
            .order_id("ord-20240611-0043")
            .tenant(TENANT)
            .cancelled_at("2024-06-11T10:05:00Z")
            .reason(order_cancelled_v1::OrderCancelledReason::PaymentFailed)
            .refund_expected(false),
    )?)
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

/// The payload of the first order's `OrderCreated` event, built the documented way: the
/// generated type's builder, one setter a member, then `try_from`, which names a required
/// member left unset.
///
/// ```
/// let order = orders_example::producer::first_order().unwrap();
/// assert_eq!(order.order_id, "ord-20240611-0042");
/// assert_eq!(order.note, None); // optional members left unset are absent
/// ```
///
/// # Errors
/// The module's `ConversionError` naming the member, if one is missing or its value does not
/// fit the schema (neither happens here).
pub fn first_order()
-> Result<order_created_v1::OrderCreated, order_created_v1::error::ConversionError> {
    order_created_v1::OrderCreated::try_from(
        order_created_v1::OrderCreated::builder()
            .order_id("ord-20240611-0042")
            .tenant(TENANT)
            .customer_id(uuid(1))
            .created_at("2024-06-11T09:30:00Z")
            .channel(order_created_v1::OrderCreatedChannel::Web)
            .items(vec![order_created_v1::LineItem::try_from(
                order_created_v1::LineItem::builder()
                    .sku("SKU-1")
                    .quantity(2u64)
                    .unit_price(v1_money(1250)),
            )?])
            .total(v1_money(2500))
            .shipping_address(
                order_created_v1::Address::builder()
                    .street("Main 1")
                    .city("Utrecht")
                    .postal_code("3511 AA")
                    .country("NL"),
            ),
    )
}

/// An amount in euro cents, for a v1 order (each generated module has its own `Money`).
fn v1_money(amount_minor: u64) -> order_created_v1::builder::Money {
    order_created_v1::Money::builder()
        .amount_minor(amount_minor)
        .currency(order_created_v1::MoneyCurrency::Eur)
}

fn v2_money(amount_minor: u64) -> order_created_v2::builder::Money {
    order_created_v2::Money::builder()
        .amount_minor(amount_minor)
        .currency(order_created_v2::MoneyCurrency::Eur)
}
