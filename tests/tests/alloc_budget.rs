//! Allocation budget (issue 6 §2), counted, not timed: a counting global allocator records
//! every allocation the current thread makes inside [`count`].
//!
//! - Serializing a typed event into a pre-sized `Vec` allocates nothing.
//! - Parsing a typed event allocates the payload's own owned fields plus exactly
//!   [`PARSE_OVERHEAD`] for the envelope.
//! - The README path (issue 13): `Event::new` + `serde_json::to_vec` allocates exactly
//!   [`NEW_EVENT`] + [`TO_VEC`] (`Event::to_vec` [`EVENT_TO_VEC`]), a typed parse of that event the payload's strings plus
//!   [`ROOT_PARSE_OVERHEAD`].

// A `GlobalAlloc` can only be implemented with `unsafe`; this wrapper forwards every call to
// the system allocator unchanged and only counts, so the test measures the library without
// changing its behaviour.
#![allow(unsafe_code)]

use cloudevent_runtime::Validate;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use cloudevent_runtime::{AnyEvent, CloudEvent, Event, Timestamp};
use serde::{Deserialize, Serialize};

/// Allocations of a typed parse beyond the payload's own, measured on the reference event:
/// the one extension's name and value, the extension map's node. The `id` (a ULID) and
/// `time` are kept inline (issue 40: the `id` was a `String`, 4 before), `subject` is
/// compared with the payload's without a copy (issue 13), and `source`, `type`,
/// `datacontenttype` and `dataschema` equal the payload type's constants.
const PARSE_OVERHEAD: usize = 3;

/// The reference payload's owned fields (`order_id`, `customer_id`).
const PAYLOAD_OWNED_FIELDS: usize = 2;

struct Counting;

thread_local! {
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

fn record() {
    // `try_with`: the allocator may run while the thread's locals are being torn down.
    let active = ACTIVE.try_with(Cell::get).unwrap_or(false);
    if active {
        let _ = COUNT.try_with(|count| count.set(count.get() + 1));
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record();
        // SAFETY: forwarded unchanged; the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record();
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record();
        // SAFETY: as above; `ptr` came from this allocator, which is `System`'s.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f` and returns its result with the number of allocations (and reallocations) this
/// thread made meanwhile.
fn count<R>(f: impl FnOnce() -> R) -> (R, usize) {
    COUNT.with(|c| c.set(0));
    ACTIVE.with(|a| a.set(true));
    let result = f();
    ACTIVE.with(|a| a.set(false));
    (result, COUNT.with(Cell::get))
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com/checkout",
    dataschema = "https://schemas.example.com/orders/created/v1.json",
    datacontenttype = "application/json"
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    customer_id: String,
    quantity: i64,
    total: f64,
    express: bool,
}

fn payload() -> OrderCreated {
    OrderCreated {
        order_id: "order-8842".into(),
        customer_id: "customer-7731-enterprise-netherlands-01".into(),
        quantity: 3,
        total: 129.95,
        express: true,
    }
}

fn reference() -> Event<OrderCreated> {
    Event::builder(payload())
        .id("01JD6Z3Q8Y7K2M4N5P6R7S8T9V")
        .time(Timestamp::try_from("2026-11-22T10:15:30.123456Z").unwrap())
        .extension("region", "eu-west-1-zone-b")
        .without_traceability()
        .build()
        .unwrap()
}

#[test]
fn the_counter_sees_allocations() {
    // Guards the other tests: a counter that never counts would pass them all.
    let (text, allocations) = count(|| String::from("x").repeat(3));
    assert_eq!(text, "xxx");
    assert!(allocations >= 1, "{allocations}");
}

#[test]
fn serializing_a_typed_event_into_a_presized_vec_allocates_nothing() {
    let event = reference();
    let mut out = Vec::with_capacity(1024);
    let (result, allocations) = count(|| serde_json::to_writer(&mut out, &event));
    result.unwrap();
    assert!(out.len() > 400, "the whole event was written");
    assert_eq!(allocations, 0, "allocations while serializing");
}

#[test]
fn serializing_a_root_event_with_traceability_allocates_nothing() {
    // `Event::new`: fresh ULID, time now, correlationid and causationid (ADR-0003).
    let event = Event::new(payload());
    let mut out = Vec::with_capacity(1024);
    let (result, allocations) = count(|| serde_json::to_writer(&mut out, &event));
    result.unwrap();
    assert!(
        std::str::from_utf8(&out)
            .unwrap()
            .contains("\"causationid\"")
    );
    assert_eq!(allocations, 0, "allocations while serializing");
}

#[test]
fn parsing_a_typed_event_stays_within_the_budget() {
    let json = serde_json::to_vec(&reference()).unwrap();
    let (event, allocations) = count(|| Event::<OrderCreated>::from_slice(&json));
    assert_eq!(event.unwrap(), reference());
    assert_eq!(
        allocations,
        PAYLOAD_OWNED_FIELDS + PARSE_OVERHEAD,
        "budget {PAYLOAD_OWNED_FIELDS} + {PARSE_OVERHEAD}"
    );
}

/// A derived type's claim is confirmed by the rules on its first typed read and the verdict
/// kept in the type's `static` (`CheckedByDerive`): that first read allocates no more than
/// any later one, so the budget above holds whichever test reads a type first. The type is
/// this test's alone, so its first read is the one counted.
#[test]
fn the_first_typed_read_of_a_type_allocates_no_more_than_later_ones() {
    #[derive(Debug, Serialize, Deserialize, CloudEvent)]
    #[cloudevent(
        type = "com.example.order.counted",
        source = "https://orders.example.com/checkout",
        dataschema = "https://schemas.example.com/orders/counted/v1.json"
    )]
    struct OrderCounted {
        #[cloudevent(subject)]
        order_id: String,
    }
    let json = br#"{"specversion":"1.0","id":"01JD6Z3Q8Y7K2M4N5P6R7S8T9V","source":"https://orders.example.com/checkout","type":"com.example.order.counted","subject":"order-1","datacontenttype":"application/json","dataschema":"https://schemas.example.com/orders/counted/v1.json","time":"2026-11-22T10:15:30Z","data":{"order_id":"order-1"}}"#;
    let (first, first_allocations) = count(|| Event::<OrderCounted>::from_slice(json));
    first.expect("the first read");
    let (later, later_allocations) = count(|| Event::<OrderCounted>::from_slice(json));
    later.expect("a later read");
    assert_eq!(
        first_allocations, later_allocations,
        "first read, later read"
    );
}

#[test]
fn parsing_allocates_no_more_than_a_plain_serde_struct() {
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Plain {
        specversion: String,
        id: String,
        source: String,
        #[serde(rename = "type")]
        ty: String,
        time: String,
        subject: String,
        datacontenttype: String,
        dataschema: String,
        region: String,
        data: PlainPayload,
    }
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct PlainPayload {
        order_id: String,
        customer_id: String,
        quantity: i64,
        total: f64,
        express: bool,
    }
    let json = serde_json::to_vec(&reference()).unwrap();
    let (plain, plain_allocations) = count(|| serde_json::from_slice::<Plain>(&json));
    assert!(plain.is_ok());
    let (ours, ours_allocations) = count(|| Event::<OrderCreated>::from_slice(&json));
    assert!(ours.is_ok());
    assert!(
        ours_allocations <= plain_allocations,
        "ours {ours_allocations}, plain serde {plain_allocations}"
    );
}

#[test]
fn any_event_parse_allocation_count_is_bounded() {
    // AnyEvent owns every attribute and keeps `data` as raw JSON: one allocation per present
    // string attribute, the extension (name, value, map node) and the raw data box.
    let json = serde_json::to_vec(&reference()).unwrap();
    let (event, allocations) = count(|| AnyEvent::from_slice(&json));
    assert!(event.is_ok());
    assert!(allocations <= 12, "{allocations} allocations");
}

/// A report on a valid event owns each attribute's value (a `String` each, an extension's
/// value in its own form) and its lists; a core attribute's name and the `id` are not copied
/// again (9 allocations fewer than before issue 40's fourth round).
#[test]
fn a_report_on_a_valid_event_stays_within_its_budget() {
    let event = AnyEvent::from_slice(&serde_json::to_vec(&reference()).unwrap()).unwrap();
    let validator = cloudevent_runtime::Validator::new(cloudevent_runtime::Profile::CloudEvents);
    let (report, allocations) = count(|| validator.validate(&event));
    assert!(report.is_valid(), "{report}");
    let attributes = report.attributes_json().as_object().unwrap().len();
    assert_eq!(attributes, 9, "{report}");
    // 13, where a core attribute's name and the `id` were copied as well: 22.
    assert!(allocations <= 13, "{allocations} allocations");
}

/// `Validator::validate_batch` measures the batch's size (R-10) without writing the batch
/// out: it allocates what validating each event allocates, plus its report's lists, and
/// reports the same size a serialization would give.
#[test]
fn validating_a_batch_does_not_serialize_it() {
    use cloudevent_runtime::{Batch, Data, Profile, Validator};

    let events: Vec<AnyEvent> = (0..150)
        .map(|i| {
            let mut event = AnyEvent::new(
                format!("{i}"),
                "https://orders.example.com/checkout",
                "com.example.order.created",
            );
            event.set_datacontenttype(Some("text/plain".into()));
            event.set_data(Some(Data::Text("é\"\n".repeat(2_000))));
            event
        })
        .collect();
    let batch = Batch::from(events);
    let validator = Validator::new(Profile::CloudEvents);

    let (_, per_event) = count(|| {
        batch
            .iter()
            .map(|event| validator.validate(event))
            .collect::<Vec<_>>()
    });
    let written = batch.to_vec().len();
    let (_, findings) = count(|| cloudevent_runtime::rules::limits::check_batch(written, 150));
    let (size, counting) = count(|| batch.serialized_len());
    assert_eq!((size, counting), (written, 0));

    let (report, allocations) = count(|| validator.validate_batch(&batch));
    assert!(
        allocations <= per_event + findings,
        "validate_batch: {allocations} allocations; its events {per_event}, the R-10 findings {findings}"
    );

    assert!(written > 1024 * 1024, "the batch is over the R-10 limit");
    let size = report
        .findings()
        .iter()
        .find(|v| v.attribute == "batch size")
        .expect("an R-10 size finding");
    assert_eq!(size.value, format!("{written} bytes"), "{size}");
}

// The README path (issue 13): `Event::new(payload)` + `serde_json::to_vec`, and the typed
// parse of that event: five payload fields, `subject` and one extension from the payload,
// and ADR-0003's `correlationid` / `causationid`.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.placed",
    source = "https://orders.example.com/checkout",
    dataschema = "https://schemas.example.com/orders/placed/v1.json",
    datacontenttype = "application/json"
)]
struct OrderPlaced {
    #[cloudevent(subject)]
    order_id: String,
    customer_id: String,
    quantity: i64,
    total: f64,
    #[cloudevent(extension)]
    region: String,
}

fn placed() -> OrderPlaced {
    OrderPlaced {
        order_id: "order-8842".into(),
        customer_id: "customer-7731-enterprise-netherlands-01".into(),
        quantity: 3,
        total: 129.95,
        region: "eu-west-1-zone-b".into(),
    }
}

/// `Event::new(payload)` with the payload already built: the `correlationid` (a ULID), the
/// `causationid` (a copy of the id), the two extension names as map keys, and the extension
/// map's one node. The `id` (a ULID, 26 bytes) and `time` are written inline (issue 40: the
/// `id` was a `String`, 6 before), the source, type, dataschema and datacontenttype are the
/// payload type's constants, and the payload's subject and extension are read from it when
/// written, not copied.
const NEW_EVENT: usize = 5;

/// `serde_json::to_vec` of that event (about 560 bytes): serde_json's `Vec` starts at 128
/// bytes and doubles to 256, 512 and 1024. Nothing else: the writer borrows every value.
const TO_VEC: usize = 4;

/// [`Event::to_vec`] of that event: its buffer sized from the envelope's attributes up front
/// (issue 40), so the text is written without growing it.
const EVENT_TO_VEC: usize = 1;

#[test]
fn event_new_and_to_vec_hold_their_budget() {
    // One event first: what a thread sets up once (with the runtime's `otel` feature, the
    // OpenTelemetry context's thread-local, one allocation) is not the per-event budget.
    drop(Event::new(placed()));
    let payload = placed();
    let ((event, json), allocations) = count(|| {
        let event = Event::new(payload);
        let json = serde_json::to_vec(&event).unwrap();
        (event, json)
    });
    assert!((512..1024).contains(&json.len()), "{} bytes", json.len());
    assert!(event.extensions().contains("correlationid"));
    let (_, new_only) = count(|| Event::new(placed()));
    // `placed()` itself allocates its three strings.
    assert_eq!(new_only - 3, NEW_EVENT, "Event::new");
    assert_eq!(
        allocations,
        NEW_EVENT + TO_VEC,
        "Event::new + serde_json::to_vec"
    );
    let (written, to_vec_only) = count(|| event.to_vec().unwrap());
    assert_eq!(written, json, "the same bytes as serde_json::to_vec");
    assert_eq!(to_vec_only, EVENT_TO_VEC, "Event::to_vec");
}

/// A typed parse of the README-path event, beyond the payload's three strings: the
/// `correlationid` and `causationid` names and values, and the extension map's node.
/// The `id` and `time` are kept inline (issue 40: 8 before, the `id` was a `String`);
/// `subject` and `region` equal the payload's and are compared, not kept (the envelope's
/// `region` is held aside as the input's text until the payload is read, issue 40: it was
/// parsed into the map, 2 allocations, then dropped because the payload writes it);
/// `source`, `type`, `datacontenttype` and `dataschema` equal the payload type's constants.
const ROOT_PARSE_OVERHEAD: usize = 5;

#[test]
fn typed_parse_of_the_readme_event_holds_its_budget() {
    let json = serde_json::to_vec(&Event::new(placed())).unwrap();
    let (event, allocations) = count(|| Event::<OrderPlaced>::from_slice(&json));
    assert_eq!(event.unwrap().data(), &placed());
    assert_eq!(allocations, 3 + ROOT_PARSE_OVERHEAD, "typed parse");
}

/// An HTTP binary-mode request of the README-path event read as `Event<OrderPlaced>`,
/// beyond the payload's three strings: what the typed parse keeps (the `correlationid` and
/// `causationid` names and values, the extension map, the `id` inline; the `region` header
/// held aside as the request's own text, as the typed parse holds its member, issue 40),
/// plus the list of the message's attributes (one `Vec` with room for 16). The header names
/// and values and the body are borrowed from the request, not copied (issue 13: that was 22
/// allocations, a name and a value per attribute, the body and the content type, and the
/// list grew from empty in 3).
const HTTP_BINARY_OVERHEAD: usize = ROOT_PARSE_OVERHEAD + 1;

#[test]
fn http_binary_decode_of_the_readme_event_holds_its_budget() {
    use cloudevent_runtime::binding::{ContentMode, http};

    let event = Event::new(placed());
    let request = http::event_request("http://127.0.0.1/events", &event, ContentMode::Binary)
        .expect("encodes");
    assert!(request.headers().contains_key("ce-correlationid"));
    let (decoded, allocations) = count(|| http::from_request::<Event<OrderPlaced>, _>(&request));
    assert_eq!(decoded.unwrap(), event);
    assert_eq!(allocations, 3 + HTTP_BINARY_OVERHEAD, "HTTP binary decode");
}

/// The in-memory deduplicator (ADR-0003) on the consume path, between growths of its map
/// and queue: a delivery already seen allocates nothing, a new one its key (one `Arc<str>`).
/// Before issue 40 every call built the key as a `String` and a new key copied it into the
/// `Arc`: 1 and 2.
#[test]
fn deduplicating_a_delivery_allocates_at_most_its_key() {
    use cloudevent_runtime::dedupe::{Deduplicator, Delivery, InMemoryDeduplicator};
    use std::time::Duration;

    let seen = InMemoryDeduplicator::new(1_000, Duration::from_secs(3_600));
    // 100 keys: the map and the queue have room for the 101st without growing.
    for n in 0..100 {
        let id = format!("01J0A{n:021}");
        assert_eq!(seen.check("/orders", &id), Ok(Delivery::New));
    }
    let (delivery, allocations) = count(|| seen.check("/orders", "01J0A000000000000000000050"));
    assert_eq!(delivery, Ok(Delivery::Duplicate));
    assert_eq!(allocations, 0, "a delivery already seen");
    let (delivery, allocations) = count(|| seen.check("/orders", "01J0B000000000000000000000"));
    assert_eq!(delivery, Ok(Delivery::New));
    assert_eq!(allocations, 1, "a new delivery");
}
