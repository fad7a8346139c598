//! Every generated type deserializes a sample payload and serializes it back unchanged, and
//! carries the metadata of its schema's `x-cloudevent`.

use cloudevent_runtime::CloudEventData;
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

fn round_trip<T>(sample: Value) -> T
where
    T: CloudEventData + Serialize + DeserializeOwned,
{
    let typed: T =
        serde_json::from_value(sample.clone()).unwrap_or_else(|e| panic!("{}: {e}", T::TYPE));
    assert_eq!(serde_json::to_value(&typed).unwrap(), sample, "{}", T::TYPE);
    typed
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
}

#[test]
fn order_cancelled() {
    round_trip::<order_cancelled_v1::OrderCancelled>(json!({
        "order_id": ORDER, "tenant": "shop-nl", "cancelled_at": TIME,
        "reason": "out_of_stock", "comment": "sorry", "refund_expected": true
    }));
    // The schema's maxLength is enforced when reading.
    let too_long = json!({
        "order_id": ORDER, "tenant": "t", "cancelled_at": TIME, "reason": "fraud_suspected",
        "comment": "x".repeat(501), "refund_expected": false
    });
    assert!(serde_json::from_value::<order_cancelled_v1::OrderCancelled>(too_long).is_err());
}

#[test]
fn order_shipped() {
    round_trip::<order_shipped_v1::OrderShipped>(json!({
        "order_id": ORDER, "tenant": "shop-nl", "shipped_at": TIME, "carrier": "postnl",
        "parcels": [{"parcel_id": UUID, "tracking_number": "3SABC", "weight_grams": 800, "skus": ["SKU-1"]}],
        "estimated_delivery": "2024-06-13"
    }));
}

#[test]
fn payment_authorized() {
    round_trip::<payment_authorized_v1::PaymentAuthorized>(json!({
        "order_id": ORDER, "tenant": "shop-nl", "merchant_ref": "M-1", "payment_id": UUID,
        "amount": money(1210), "method": "card", "card": {"brand": "visa", "last4": "4242"},
        "authorized_at": TIME, "expires_at": "2024-06-18T09:30:00Z"
    }));
    assert_eq!(
        payment_authorized_v1::PaymentAuthorized::EXTENSIONS,
        &["merchantref", "tenant"]
    );
}

#[test]
fn payment_captured() {
    round_trip::<payment_captured_v1::PaymentCaptured>(json!({
        "order_id": ORDER, "tenant": "shop-nl", "payment_id": UUID, "amount": money(1210),
        "captured_at": TIME
    }));
}

#[test]
fn payment_refunded() {
    round_trip::<payment_refunded_v1::PaymentRefunded>(json!({
        "order_id": ORDER, "tenant": "shop-nl", "payment_id": UUID, "refund_id": UUID,
        "amount": money(500), "partial": true, "reason": "damaged", "refunded_at": TIME
    }));
}

#[test]
fn an_unknown_enum_value_is_refused() {
    let sample = json!({
        "order_id": ORDER, "tenant": "t", "cancelled_at": TIME, "reason": "bored",
        "refund_expected": false
    });
    assert!(serde_json::from_value::<order_cancelled_v1::OrderCancelled>(sample).is_err());
}
