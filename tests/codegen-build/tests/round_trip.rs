//! Every generated type deserializes a sample payload and serializes it back unchanged,
//! carries the metadata of its schema's `x-cloudevent`, and travels as a whole CloudEvent:
//! `Event::new` → JSON → `Event<T>` gives the same payload and attributes, and the JSON passes
//! the INTG-STD-015 validator as an `AnyEvent`.

use cloudevent_runtime::Attributes;
use cloudevent_runtime::Validate;
use std::fmt::Debug;

use cloudevent_runtime::{AnyEvent, CloudEventData, Event, Profile, Validator};
use codegen_build_test::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

fn money(amount: u64) -> Value {
    json!({"amount_minor": amount, "currency": "EUR"})
}

fn address() -> Value {
    json!({"street": "Main 1", "city": "Utrecht", "postal_code": "3511 AA", "country": "NL"})
}

/// The payload alone: sample JSON → `T` → the same JSON.
fn round_trip<T>(sample: Value) -> T
where
    T: CloudEventData + Serialize + DeserializeOwned,
{
    let typed: T =
        serde_json::from_value(sample.clone()).unwrap_or_else(|e| panic!("{}: {e}", T::TYPE));
    assert_eq!(serde_json::to_value(&typed).unwrap(), sample, "{}", T::TYPE);
    typed
}

/// A whole event: JSON → `Event<T>` (through `serde_json` and through `Event::from_slice`)
/// equals the original in every attribute and the payload; the same JSON read as an
/// `AnyEvent` has no INTG-STD-015 error.
fn event_round_trip<T>(event: Event<T>)
where
    T: CloudEventData + Serialize + DeserializeOwned + PartialEq + Debug,
{
    let bytes = serde_json::to_vec(&event).unwrap_or_else(|e| panic!("{}: {e}", T::TYPE));

    let back: Event<T> =
        serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", T::TYPE));
    assert_eq!(back, event, "{}", T::TYPE);
    let back = Event::<T>::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", T::TYPE));
    assert_eq!(back.data(), event.data(), "{}", T::TYPE);
    assert_eq!(
        (
            back.id(),
            back.source(),
            back.ty(),
            back.subject(),
            back.dataschema()
        ),
        (
            event.id(),
            event.source(),
            event.ty(),
            event.subject(),
            event.dataschema()
        ),
        "{}",
        T::TYPE
    );
    assert_eq!(back.time(), event.time(), "{}", T::TYPE);
    assert_eq!(back.extensions(), event.extensions(), "{}", T::TYPE);
    // The payload's extensions (e.g. `tenant`) are on the wire, read from the payload.
    let data = serde_json::to_value(event.data()).unwrap();
    let wire: Value = serde_json::from_slice(&bytes).unwrap();
    for (name, property) in T::EXTENSION_PROPERTIES {
        assert_eq!(wire.get(name), data.get(property), "{}: `{name}`", T::TYPE);
    }

    let any = AnyEvent::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", T::TYPE));
    assert_eq!(any.ty(), T::TYPE);
    assert_eq!(any.dataschema(), T::DATASCHEMA);
    let report = Validator::new(Profile::IntgStd015).validate(&any);
    assert_eq!(report.errors().count(), 0, "{}: {report}", T::TYPE);
}

const ORDER: &str = "ord-20240611-0042";
const UUID: &str = "0b5e1d4a-4a39-4b8e-9d8e-2b7c2f4b9d11";
const TIME: &str = "2024-06-11T09:30:00Z";

#[test]
fn order_created_v1() {
    let payload: order_created_v1::OrderCreated = round_trip(json!({
        "order_id": ORDER, "tenant": "shop-nl", "customer_id": UUID, "created_at": TIME,
        "channel": "web", "items": [{"sku": "SKU-1", "quantity": 2, "unit_price": money(1250)}],
        "total": money(2500), "shipping_address": address(), "note": "leave at the door"
    }));
    assert_eq!(payload.subject(), Some(ORDER));
    assert_eq!(
        order_created_v1::OrderCreated::TYPE,
        "com.example.order.created"
    );
    assert_eq!(
        order_created_v1::OrderCreated::DATASCHEMA,
        Some("https://schemas.example.com/events/com.example.order.created/v1.json")
    );
    assert_eq!(
        order_created_v1::OrderCreated::SOURCE,
        Some("https://api.example.com/orders")
    );
    assert_eq!(order_created_v1::OrderCreated::EXTENSIONS, &["tenant"]);
    event_round_trip(Event::new(payload));
}

#[test]
fn order_created_v2() {
    let payload: order_created_v2::OrderCreated = round_trip(json!({
        "order_id": ORDER, "tenant": "shop-nl",
        "customer": {"id": UUID, "segment": "business", "email_verified": true},
        "created_at": TIME, "channel": "marketplace",
        "items": [{"sku": "SKU-1", "quantity": 1, "unit_price": money(1000)}],
        "totals": {"net": money(1000), "tax": money(210), "gross": money(1210)},
        "shipping_address": address(), "billing_address": address(), "coupon_codes": ["SUMMER"]
    }));
    assert_eq!(payload.subject(), Some(ORDER));
    assert_eq!(
        order_created_v2::OrderCreated::TYPE,
        "com.example.order.created.v2"
    );
    event_round_trip(Event::new(payload));
}

#[test]
fn order_cancelled() {
    let payload: order_cancelled_v1::OrderCancelled = round_trip(json!({
        "order_id": ORDER, "tenant": "shop-nl", "cancelled_at": TIME,
        "reason": "out_of_stock", "comment": "sorry", "refund_expected": true
    }));
    event_round_trip(Event::new(payload));
    // The schema's maxLength is enforced when reading.
    let too_long = json!({
        "order_id": ORDER, "tenant": "t", "cancelled_at": TIME, "reason": "fraud_suspected",
        "comment": "x".repeat(501), "refund_expected": false
    });
    assert!(serde_json::from_value::<order_cancelled_v1::OrderCancelled>(too_long).is_err());
}

#[test]
fn order_shipped() {
    let payload: order_shipped_v1::OrderShipped = round_trip(json!({
        "order_id": ORDER, "tenant": "shop-nl", "shipped_at": TIME, "carrier": "postnl",
        "parcels": [{"parcel_id": UUID, "tracking_number": "3SABC", "weight_grams": 800, "skus": ["SKU-1"]}],
        "estimated_delivery": "2024-06-13"
    }));
    event_round_trip(Event::new(payload));
}

#[test]
fn payment_authorized() {
    let payload: payment_authorized_v1::PaymentAuthorized = round_trip(json!({
        "order_id": ORDER, "tenant": "shop-nl", "merchant_ref": "M-1", "payment_id": UUID,
        "amount": money(1210), "method": "card", "card": {"brand": "visa", "last4": "4242"},
        "authorized_at": TIME, "expires_at": "2024-06-18T09:30:00Z"
    }));
    assert_eq!(
        payment_authorized_v1::PaymentAuthorized::EXTENSIONS,
        &["merchantref", "tenant"]
    );
    event_round_trip(Event::new(payload));
}

#[test]
fn payment_captured() {
    let payload: payment_captured_v1::PaymentCaptured = round_trip(json!({
        "order_id": ORDER, "tenant": "shop-nl", "payment_id": UUID, "amount": money(1210),
        "captured_at": TIME
    }));
    event_round_trip(Event::new(payload));
}

#[test]
fn payment_refunded() {
    let payload: payment_refunded_v1::PaymentRefunded = round_trip(json!({
        "order_id": ORDER, "tenant": "shop-nl", "payment_id": UUID, "refund_id": UUID,
        "amount": money(500), "partial": true, "reason": "damaged", "refunded_at": TIME
    }));
    event_round_trip(Event::new(payload));
}

#[test]
fn an_unknown_enum_value_is_refused() {
    let sample = json!({
        "order_id": ORDER, "tenant": "t", "cancelled_at": TIME, "reason": "bored",
        "refund_expected": false
    });
    assert!(serde_json::from_value::<order_cancelled_v1::OrderCancelled>(sample).is_err());
}

/// The metadata a type declares, as one comparable value.
type Metadata = (
    &'static str,
    Option<&'static str>,
    Option<&'static str>,
    &'static str,
    &'static [&'static str],
    Option<&'static str>,
    &'static [(&'static str, &'static str)],
);

fn metadata<T: CloudEventData>() -> Metadata {
    (
        T::TYPE,
        T::DATASCHEMA,
        T::SOURCE,
        T::DATACONTENTTYPE,
        T::EXTENSIONS,
        T::SUBJECT_PROPERTY,
        T::EXTENSION_PROPERTIES,
    )
}

/// Rust → schema → Rust, compiled: `orders_exported::OrderReturned` is written by hand,
/// `cargo xtask codegen` exported its schema, and build.rs generated
/// `order_returned_v1::OrderReturned` from that schema. Both declare the same metadata, and
/// an event of one is read as an event of the other without loss.
#[test]
fn rust_first_order_returned() {
    use orders_exported::{OrderReturned, ReturnReason, ReturnedItem};
    assert_eq!(
        metadata::<OrderReturned>(),
        metadata::<order_returned_v1::OrderReturned>()
    );
    for note in [None, Some("the box was wet".to_owned())] {
        let original = OrderReturned {
            order_id: ORDER.into(),
            tenant: "shop-nl".into(),
            returned_at: TIME.parse().unwrap(),
            reason: ReturnReason::WrongItem,
            items: vec![ReturnedItem {
                sku: "SKU-1".into(),
                quantity: 2,
            }],
            note,
        };
        let json = serde_json::to_value(&original).unwrap();
        let generated: order_returned_v1::OrderReturned = round_trip(json.clone());
        assert_eq!(generated.subject(), Some(ORDER));

        let event = Event::new(original);
        let bytes = serde_json::to_vec(&event).unwrap();
        let read: Event<order_returned_v1::OrderReturned> = Event::from_slice(&bytes).unwrap();
        assert_eq!(serde_json::to_value(read.data()).unwrap(), json);
        assert_eq!(
            serde_json::to_value(&read).unwrap(),
            serde_json::from_slice::<Value>(&bytes).unwrap()
        );
        event_round_trip(event);
        event_round_trip(read);
    }
}

/// The same for a Rust-first type without a default source: its events are built with the
/// builder, and the generated twin has no default source either.
#[test]
fn rust_first_payment_failed() {
    use orders_exported::{FailureCode, PaymentFailed};
    assert_eq!(
        metadata::<PaymentFailed>(),
        metadata::<payment_failed_v1::PaymentFailed>()
    );
    assert_eq!(payment_failed_v1::PaymentFailed::SOURCE, None);
    let original = PaymentFailed {
        order_id: ORDER.into(),
        tenant: "shop-nl".into(),
        payment_id: UUID.parse().unwrap(),
        failed_at: TIME.parse().unwrap(),
        code: FailureCode::InsufficientFunds,
        retryable: true,
    };
    let json = serde_json::to_value(&original).unwrap();
    let generated: payment_failed_v1::PaymentFailed = round_trip(json.clone());

    let source = "https://api.example.com/payments/psp-adyen";
    let event = Event::builder(original).source(source).build().unwrap();
    let bytes = serde_json::to_vec(&event).unwrap();
    let read: Event<payment_failed_v1::PaymentFailed> = Event::from_slice(&bytes).unwrap();
    assert_eq!(read.data(), &generated);
    assert_eq!(read.source(), source);
    assert_eq!(
        serde_json::to_value(&read).unwrap(),
        serde_json::from_slice::<Value>(&bytes).unwrap()
    );
    event_round_trip(event);
    event_round_trip(Event::builder(generated).source(source).build().unwrap());
}
