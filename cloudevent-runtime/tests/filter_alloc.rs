//! A compiled CESQL filter allocates nothing per event (issue 23 §6), nor does a Subscriptions
//! API `exact`, `prefix` or `suffix` filter, on any attribute but a Binary extension (issue
//! 40); counted with a counting global allocator as `tests/tests/alloc_budget.rs` counts the
//! readers.

// A `GlobalAlloc` can only be implemented with `unsafe`; this wrapper forwards every call to
// the system allocator unchanged and only counts.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use cloudevent_runtime::AnyEvent;
use cloudevent_runtime::filter::{Expression, Filter, SubscriptionFilter};

struct Counting;

thread_local! {
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

fn record() {
    if ACTIVE.try_with(Cell::get).unwrap_or(false) {
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

fn count<R>(f: impl FnOnce() -> R) -> (R, usize) {
    COUNT.with(|c| c.set(0));
    ACTIVE.with(|a| a.set(true));
    let result = f();
    ACTIVE.with(|a| a.set(false));
    (result, COUNT.with(Cell::get))
}

fn event(partitionkey: Option<&str>) -> AnyEvent {
    let mut event = AnyEvent::new(
        "1",
        "https://orders.example.com",
        "com.example.order.created",
    );
    event.extensions_mut().insert("region", "eu");
    if let Some(key) = partitionkey {
        event.extensions_mut().insert("partitionkey", key);
    }
    event
}

#[test]
fn the_typical_filter_allocates_nothing() {
    let filter =
        Expression::parse("type LIKE 'com.example.order.%' AND partitionkey = 'k1'").unwrap();
    for (event, want) in [
        (event(Some("k1")), true),
        (event(Some("k2")), false),
        (event(None), false), // a MissingAttributeError: counted, not collected
    ] {
        let (accepted, allocations) = count(|| filter.accepts(&event));
        assert_eq!(accepted, want);
        assert_eq!(allocations, 0, "{event:?}");
    }
}

#[test]
fn richer_filters_allocate_nothing_either() {
    let e = event(Some("k1"));
    for source in [
        "EXISTS partitionkey AND region IN ('eu', 'us') AND NOT (source LIKE '%.internal%')",
        "id = '1' OR type LIKE '%.deleted'",
        "subject = 'x'", // absent: false, no error list
    ] {
        let filter = Expression::parse(source).unwrap();
        let (_, allocations) = count(|| filter.accepts(&e));
        assert_eq!(allocations, 0, "{source}");
    }
    let subscription = SubscriptionFilter::from_json(&serde_json::json!({
        "all": [{ "prefix": { "type": "com.example." } }, { "exact": { "partitionkey": "k1" } }]
    }))
    .unwrap();
    let (accepted, allocations) = count(|| subscription.accepts(&e));
    assert!(accepted);
    assert_eq!(allocations, 0);
}

/// Issue 40's rows: the three simple dialects on a core attribute, a String extension and an
/// Integer extension (its text written on the stack), passing and failing; and the `cesql!`
/// row, `LIKE` + `IN` + `AND` + `EXISTS`.
#[test]
fn simple_dialects_and_the_like_in_row_allocate_nothing() {
    let mut e = event(Some("k1"));
    e.extensions_mut().insert("priority", -42);
    e.set_subject(Some("order-1".into()));
    for (json, want) in [
        (
            serde_json::json!({ "exact": { "type": "com.example.order.created" } }),
            true,
        ),
        (
            serde_json::json!({ "prefix": { "type": "com.example." } }),
            true,
        ),
        (
            serde_json::json!({ "suffix": { "type": ".created" } }),
            true,
        ),
        (
            serde_json::json!({ "exact": { "type": "com.example.order.deleted" } }),
            false,
        ),
        (serde_json::json!({ "exact": { "region": "eu" } }), true),
        (
            serde_json::json!({ "prefix": { "partitionkey": "k" } }),
            true,
        ),
        (serde_json::json!({ "exact": { "priority": "-42" } }), true),
        (serde_json::json!({ "suffix": { "priority": "2" } }), true),
        (serde_json::json!({ "prefix": { "priority": "42" } }), false),
        (serde_json::json!({ "exact": { "absent": "x" } }), false),
    ] {
        let filter = SubscriptionFilter::from_json(&json).unwrap();
        let (accepted, allocations) = count(|| filter.accepts(&e));
        assert_eq!(accepted, want, "{json}");
        assert_eq!(allocations, 0, "{json}");
    }
    let like_in = cloudevent_runtime::cesql!(
        "type LIKE 'com.example.%' AND source IN ('/orders', 'urn:shop:orders', 'https://orders.example.com') AND EXISTS subject"
    );
    let (accepted, allocations) = count(|| like_in.accepts(&e));
    assert!(accepted);
    assert_eq!(allocations, 0);
    e.set_subject(None);
    let (accepted, allocations) = count(|| like_in.accepts(&e));
    assert!(!accepted);
    assert_eq!(allocations, 0);
}
