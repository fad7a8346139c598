//! The reference event every contestant in the benchmarks builds, writes and reads, in three
//! shapes: this workspace's [`Event<OrderCreated>`](cloudevent_runtime::Event), a plain
//! `#[derive(Serialize, Deserialize)]` struct ([`PlainEvent`], the limit serde_json allows)
//! and, in the bench itself, `cloudevents-sdk` 0.9's `Event`.
//!
//! All three produce the same JSON object (checked by `tests/same_event.rs`), so the
//! timings compare like with like.
//!
//! The README path (issue 13) has its own event, [`OrderPlaced`]: what `Event::new(payload)`
//! writes, a fresh ULID `id`, the current `time` (milliseconds, UTC), `subject` and one
//! extension from the payload, and the ADR-0003 root attributes `correlationid` (a second
//! ULID) and `causationid` (= `id`). The plain and SDK contestants write the same attributes.
//!
//! ```
//! let json = cloudevent_bench::reference_json();
//! assert!((440..=480).contains(&json.len()), "{} bytes", json.len());
//! ```

use cloudevent_runtime::{CloudEvent, Event, Timestamp};
use serde::{Deserialize, Serialize};

/// `id` of the reference event (a ULID).
pub const ID: &str = "01JD6Z3Q8Y7K2M4N5P6R7S8T9V";
/// `source`.
pub const SOURCE: &str = "https://orders.example.com/checkout";
/// `type`.
pub const TYPE: &str = "com.example.order.created";
/// `time` (UTC, microseconds).
pub const TIME: &str = "2026-11-22T10:15:30.123456Z";
/// `subject` (the payload's `order_id`).
pub const SUBJECT: &str = "order-8842";
/// `datacontenttype`.
pub const DATACONTENTTYPE: &str = "application/json";
/// `dataschema`.
pub const DATASCHEMA: &str = "https://schemas.example.com/orders/created/v1.json";
/// The one string extension's name.
pub const EXTENSION: &str = "region";
/// The one string extension's value.
pub const EXTENSION_VALUE: &str = "eu-west-1-zone-b";
/// The payload's `customer_id`.
pub const CUSTOMER: &str = "customer-7731-enterprise-netherlands-01";
/// The payload's `quantity`.
pub const QUANTITY: i64 = 3;
/// The payload's `total`.
pub const TOTAL: f64 = 129.95;
/// The payload's `express`.
pub const EXPRESS: bool = true;

/// The reference payload: two strings, an integer, a float and a bool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com/checkout",
    dataschema = "https://schemas.example.com/orders/created/v1.json",
    datacontenttype = "application/json"
)]
pub struct OrderCreated {
    /// The order, also the event's `subject`.
    #[cloudevent(subject)]
    pub order_id: String,
    /// Who ordered.
    pub customer_id: String,
    /// How many items.
    pub quantity: i64,
    /// The amount.
    pub total: f64,
    /// Express delivery.
    pub express: bool,
}

/// The reference payload, built from the constants (allocates its two strings).
pub fn payload() -> OrderCreated {
    OrderCreated {
        order_id: SUBJECT.to_owned(),
        customer_id: CUSTOMER.to_owned(),
        quantity: QUANTITY,
        total: TOTAL,
        express: EXPRESS,
    }
}

/// Our typed reference event, built the way a producer would (with a fixed id and time so
/// the output is comparable).
///
/// # Panics
/// Never with these constants: they satisfy every rule the builder checks.
pub fn ours() -> Event<OrderCreated> {
    let time = Timestamp::try_from(TIME).expect("the reference time is RFC 3339");
    Event::builder(payload())
        .id(ID)
        .time(time)
        .extension(EXTENSION, EXTENSION_VALUE)
        .without_traceability()
        .build()
        .expect("the reference event is valid")
}

/// The plain serde shape of the payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlainPayload {
    /// See [`OrderCreated::order_id`].
    pub order_id: String,
    /// See [`OrderCreated::customer_id`].
    pub customer_id: String,
    /// See [`OrderCreated::quantity`].
    pub quantity: i64,
    /// See [`OrderCreated::total`].
    pub total: f64,
    /// See [`OrderCreated::express`].
    pub express: bool,
}

/// The plain serde shape of the whole event: every attribute an owned `String`, no checks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlainEvent {
    /// `specversion`.
    pub specversion: String,
    /// `id`.
    pub id: String,
    /// `source`.
    pub source: String,
    /// `type`.
    #[serde(rename = "type")]
    pub ty: String,
    /// `time`.
    pub time: String,
    /// `subject`.
    pub subject: String,
    /// `datacontenttype`.
    pub datacontenttype: String,
    /// `dataschema`.
    pub dataschema: String,
    /// The string extension.
    pub region: String,
    /// `data`.
    pub data: PlainPayload,
}

/// The plain reference event, built from the constants.
pub fn plain() -> PlainEvent {
    PlainEvent {
        specversion: "1.0".to_owned(),
        id: ID.to_owned(),
        source: SOURCE.to_owned(),
        ty: TYPE.to_owned(),
        time: TIME.to_owned(),
        subject: SUBJECT.to_owned(),
        datacontenttype: DATACONTENTTYPE.to_owned(),
        dataschema: DATASCHEMA.to_owned(),
        region: EXTENSION_VALUE.to_owned(),
        data: PlainPayload {
            order_id: SUBJECT.to_owned(),
            customer_id: CUSTOMER.to_owned(),
            quantity: QUANTITY,
            total: TOTAL,
            express: EXPRESS,
        },
    }
}

/// The reference event as JSON (the plain struct's output: attributes in spec order).
pub fn reference_json() -> Vec<u8> {
    serde_json::to_vec(&plain()).unwrap_or_default()
}

/// A JSON batch of `n` copies of the reference event, each with its own id.
pub fn reference_batch_json(n: usize) -> Vec<u8> {
    let events: Vec<PlainEvent> = (0..n)
        .map(|i| {
            let mut event = plain();
            event.id = format!("{}{:04}", &ID[..ID.len() - 4], i);
            event
        })
        .collect();
    serde_json::to_vec(&events).unwrap_or_default()
}

/// `time` of the fixed README-path event (what `Timestamp::now()` writes: milliseconds, UTC).
pub const ROOT_TIME: &str = "2026-11-22T10:15:30.123Z";
/// `correlationid` of the fixed README-path event (a ULID, as `Event::new` makes it).
pub const CORRELATIONID: &str = "01JD6Z3Q8Y7K2M4N5P6R7S8T9W";
/// `type` of the README-path event.
pub const ROOT_TYPE: &str = "com.example.order.placed";
/// `dataschema` of the README-path event.
pub const ROOT_DATASCHEMA: &str = "https://schemas.example.com/orders/placed/v1.json";

/// The README-path payload (issue 13): five fields, one the `subject`, one an extension.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.placed",
    source = "https://orders.example.com/checkout",
    dataschema = "https://schemas.example.com/orders/placed/v1.json",
    datacontenttype = "application/json"
)]
pub struct OrderPlaced {
    /// The order, also the event's `subject`.
    #[cloudevent(subject)]
    pub order_id: String,
    /// Who ordered.
    pub customer_id: String,
    /// How many items.
    pub quantity: i64,
    /// The amount.
    pub total: f64,
    /// Where, also the `region` extension.
    #[cloudevent(extension)]
    pub region: String,
}

/// The README-path payload, built from the constants (allocates its three strings).
pub fn placed() -> OrderPlaced {
    OrderPlaced {
        order_id: SUBJECT.to_owned(),
        customer_id: CUSTOMER.to_owned(),
        quantity: QUANTITY,
        total: TOTAL,
        region: EXTENSION_VALUE.to_owned(),
    }
}

/// The README-path event with a fixed `id`, `time` and `correlationid`, so its JSON is
/// comparable; `causationid` follows the id by the root convention, as in `Event::new`.
///
/// # Panics
/// Never with these constants: they satisfy every rule the builder checks.
pub fn ours_root() -> Event<OrderPlaced> {
    let time = Timestamp::try_from(ROOT_TIME).expect("the reference time is RFC 3339");
    Event::builder(placed())
        .id(ID)
        .time(time)
        .extension("correlationid", CORRELATIONID)
        .build()
        .expect("the README-path event is valid")
}

/// The plain serde shape of [`OrderPlaced`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlainPlaced {
    /// See [`OrderPlaced::order_id`].
    pub order_id: String,
    /// See [`OrderPlaced::customer_id`].
    pub customer_id: String,
    /// See [`OrderPlaced::quantity`].
    pub quantity: i64,
    /// See [`OrderPlaced::total`].
    pub total: f64,
    /// See [`OrderPlaced::region`].
    pub region: String,
}

/// The plain serde shape of the README-path event: every attribute an owned `String`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlainRootEvent {
    /// `specversion`.
    pub specversion: String,
    /// `id`.
    pub id: String,
    /// `source`.
    pub source: String,
    /// `type`.
    #[serde(rename = "type")]
    pub ty: String,
    /// `time`.
    pub time: String,
    /// `subject`.
    pub subject: String,
    /// `datacontenttype`.
    pub datacontenttype: String,
    /// `dataschema`.
    pub dataschema: String,
    /// The payload's extension.
    pub region: String,
    /// ADR-0003 `correlationid`.
    pub correlationid: String,
    /// ADR-0003 `causationid`.
    pub causationid: String,
    /// `data`.
    pub data: PlainPlaced,
}

/// What a hand-rolled producer does for `Event::new`: a fresh ULID for `id` and for
/// `correlationid`, `causationid` = `id`, `time` from `chrono::Utc::now()`, the payload moved
/// in and the subject and extension copied out of it.
pub fn plain_new(data: PlainPlaced) -> PlainRootEvent {
    let id = ulid::Ulid::generate().to_string();
    PlainRootEvent {
        specversion: "1.0".to_owned(),
        causationid: id.clone(),
        id,
        source: SOURCE.to_owned(),
        ty: ROOT_TYPE.to_owned(),
        time: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        subject: data.order_id.clone(),
        datacontenttype: DATACONTENTTYPE.to_owned(),
        dataschema: ROOT_DATASCHEMA.to_owned(),
        region: data.region.clone(),
        correlationid: ulid::Ulid::generate().to_string(),
        data,
    }
}

/// The plain README-path payload, built from the constants.
pub fn plain_placed() -> PlainPlaced {
    PlainPlaced {
        order_id: SUBJECT.to_owned(),
        customer_id: CUSTOMER.to_owned(),
        quantity: QUANTITY,
        total: TOTAL,
        region: EXTENSION_VALUE.to_owned(),
    }
}

/// The fixed README-path event as the plain struct.
pub fn plain_root() -> PlainRootEvent {
    PlainRootEvent {
        id: ID.to_owned(),
        causationid: ID.to_owned(),
        correlationid: CORRELATIONID.to_owned(),
        time: ROOT_TIME.to_owned(),
        ..plain_new(plain_placed())
    }
}

/// The fixed README-path event as JSON.
pub fn root_json() -> Vec<u8> {
    serde_json::to_vec(&plain_root()).unwrap_or_default()
}

/// A JSON batch of `n` README-path events, each with its own `id` (and `causationid`).
pub fn root_batch_json(n: usize) -> Vec<u8> {
    let events: Vec<PlainRootEvent> = (0..n)
        .map(|i| {
            let mut event = plain_root();
            event.id = format!("{}{:04}", &ID[..ID.len() - 4], i);
            event.causationid = event.id.clone();
            event
        })
        .collect();
    serde_json::to_vec(&events).unwrap_or_default()
}

/// Bytes of the gateway event's JSON document ([`gateway_json`]): the 20 KB at which Knative
/// eventing publishes its figure of about 2,000 events a second per core (issue 25).
pub const GATEWAY_EVENT_BYTES: usize = 20_000;

/// The gateway event (issue 25's 20 KB row): the reference event's attributes, valid under
/// INTG-STD-015, with an order of line items as `data`, filled to [`GATEWAY_EVENT_BYTES`]
/// bytes (within 64) as one structured-mode JSON document. Every item has its own `sku`, so
/// no object repeats a member and the strict profile accepts it.
///
/// ```
/// let json = cloudevent_bench::gateway_json();
/// let size = cloudevent_bench::GATEWAY_EVENT_BYTES;
/// assert!(json.len() <= size && json.len() + 64 > size, "{} bytes", json.len());
/// let event = cloudevent_runtime::AnyEvent::from_slice(&json).unwrap();
/// assert!(event.data().is_some());
/// ```
pub fn gateway_json() -> Vec<u8> {
    let item = |i: usize| {
        serde_json::json!({
            "sku": format!("SKU-{i:05}"),
            "description": "Stainless steel water bottle, 750 ml, double walled",
            "quantity": 1 + i % 7,
            "unit_price": {"amount_minor": 1_999 + i, "currency": "EUR"},
        })
    };
    let document = |items: usize| {
        let data = serde_json::json!({
            "order_id": SUBJECT,
            "customer_id": CUSTOMER,
            "express": EXPRESS,
            "items": (0..items).map(item).collect::<Vec<_>>(),
        });
        serde_json::to_vec(&serde_json::json!({
            "specversion": "1.0",
            "id": ID,
            "source": SOURCE,
            "type": TYPE,
            "time": TIME,
            "subject": SUBJECT,
            "datacontenttype": DATACONTENTTYPE,
            "dataschema": DATASCHEMA,
            EXTENSION: EXTENSION_VALUE,
            "data": data,
        }))
        .unwrap_or_default()
    };
    let mut items = 1;
    while document(items + 1).len() <= GATEWAY_EVENT_BYTES {
        items += 1;
    }
    let mut json = document(items);
    // Blanks before the closing brace, which every reader skips, make up the rest.
    let pad = GATEWAY_EVENT_BYTES - json.len();
    let close = json.pop();
    json.extend(std::iter::repeat_n(b' ', pad));
    json.extend(close);
    json
}

/// Bytes of the all-checks gateway event's JSON document ([`registry_event_json`]): issue
/// 40's 1 KiB row.
pub const REGISTRY_EVENT_BYTES: usize = 1024;

/// The registry's `com.example.order.created` schema (`schemas/`), whose `data` check the
/// registry rows and the 1 KiB all-checks gateway apply.
pub const REGISTRY_SCHEMA: &str = include_str!("../../schemas/com.example.order.created/v1.json");

/// The registry row's event (`cloudevent-cli/tests/data/registry/order-created.json`: valid
/// under INTG-STD-015 and against [`REGISTRY_SCHEMA`], nested objects, an array) filled with
/// blanks before its closing brace to [`REGISTRY_EVENT_BYTES`], the 1 KiB of issue 40's
/// all-checks gateway row.
///
/// ```
/// let json = cloudevent_bench::registry_event_json();
/// assert_eq!(json.len(), cloudevent_bench::REGISTRY_EVENT_BYTES);
/// assert!(cloudevent_runtime::AnyEvent::from_slice(&json).is_ok());
/// ```
pub fn registry_event_json() -> Vec<u8> {
    let file: &[u8] = include_bytes!("../../cloudevent-cli/tests/data/registry/order-created.json");
    let mut json = file.trim_ascii_end().to_vec();
    let close = json.pop();
    let pad = REGISTRY_EVENT_BYTES.saturating_sub(json.len() + 1);
    json.extend(std::iter::repeat_n(b' ', pad));
    json.extend(close);
    json
}
