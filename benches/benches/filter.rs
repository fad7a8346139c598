//! The cost of a compiled CESQL filter per event (issue 23 §6): the typical gateway filter
//! `type LIKE 'com.example.order.%' AND partitionkey = 'k1'` on an `AnyEvent` that passes,
//! one that fails on the extension, one without the extension (a MissingAttributeError), and
//! on a typed `Event<T>`; beside it the same selection as a Subscriptions API filter. Criterion
//! reports the time per call, which is ns per event. Issue 40 added one `exact`, `prefix` and
//! `suffix` filter each and a `cesql!` of `LIKE` + `IN` + `AND`. `cloudevent-runtime/tests/filter_alloc.rs`
//! holds the allocation count (none).

use std::hint::black_box;

use cloudevent_runtime::filter::{Expression, Filter, SubscriptionFilter};
use cloudevent_runtime::{AnyEvent, CloudEvent, Event};
use criterion::{Criterion, criterion_group, criterion_main};
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com"
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
}

fn any(partitionkey: Option<&str>) -> AnyEvent {
    let mut event = AnyEvent::new(
        "01J0A9Z7Q2M1V4X8K3N5R6T7W8",
        "https://orders.example.com/checkout",
        "com.example.order.created",
    );
    event
        .extensions_mut()
        .insert("correlationid", "01J0A9Z7Q2M1V4X8K3N5R6T7W8");
    event.extensions_mut().insert("region", "eu");
    if let Some(key) = partitionkey {
        event.extensions_mut().insert("partitionkey", key);
    }
    event
}

fn filter(c: &mut Criterion) {
    let expression =
        Expression::parse("type LIKE 'com.example.order.%' AND partitionkey = 'k1'").unwrap();
    let subscription = SubscriptionFilter::from_json(&serde_json::json!({
        "all": [{ "prefix": { "type": "com.example.order." } }, { "exact": { "partitionkey": "k1" } }]
    }))
    .unwrap();
    let pass = any(Some("k1"));
    let fail = any(Some("k2"));
    let missing = any(None);
    let typed = Event::new(OrderCreated {
        order_id: "o-1".into(),
    })
    .with_extension("partitionkey", "k1")
    .unwrap();
    assert!(expression.accepts(&pass) && expression.accepts(&typed));
    assert!(!expression.accepts(&fail) && !expression.accepts(&missing));

    let mut group = c.benchmark_group("cesql_filter");
    group.bench_function("any_event_pass", |b| {
        b.iter(|| expression.accepts(black_box(&pass)))
    });
    group.bench_function("any_event_fail", |b| {
        b.iter(|| expression.accepts(black_box(&fail)))
    });
    group.bench_function("any_event_missing", |b| {
        b.iter(|| expression.accepts(black_box(&missing)))
    });
    group.bench_function("typed_event_pass", |b| {
        b.iter(|| expression.accepts(black_box(&typed)))
    });
    group.bench_function("subscription_all_pass", |b| {
        b.iter(|| subscription.accepts(black_box(&pass)))
    });
    // The figure BENCHMARKS.md gives: `type LIKE 'com.example.%' AND EXISTS subject`, and the
    // Subscriptions API `all` of two `prefix` filters, on both kinds of event.
    let like_exists = Expression::parse("type LIKE 'com.example.%' AND EXISTS subject").unwrap();
    let all_prefix = SubscriptionFilter::from_json(&serde_json::json!({
        "all": [{ "prefix": { "type": "com.example." } }, { "prefix": { "subject": "o-" } }]
    }))
    .unwrap();
    let mut with_subject = any(Some("k1"));
    with_subject.set_subject(Some("o-1".into()));
    assert!(like_exists.accepts(&with_subject) && like_exists.accepts(&typed));
    assert!(all_prefix.accepts(&with_subject) && all_prefix.accepts(&typed));
    group.bench_function("like_exists_any_event", |b| {
        b.iter(|| like_exists.accepts(black_box(&with_subject)))
    });
    group.bench_function("like_exists_typed_event", |b| {
        b.iter(|| like_exists.accepts(black_box(&typed)))
    });
    group.bench_function("subscription_all_prefix_any_event", |b| {
        b.iter(|| all_prefix.accepts(black_box(&with_subject)))
    });
    group.bench_function("subscription_all_prefix_typed_event", |b| {
        b.iter(|| all_prefix.accepts(black_box(&typed)))
    });
    // Issue 40's rows: one Subscriptions API filter of each simple dialect on `type`, and the
    // `cesql!` row (`LIKE` + `IN` + `AND` + `EXISTS`, no `data`), on an `AnyEvent` that passes.
    for (dialect, value) in [
        ("exact", "com.example.order.created"),
        ("prefix", "com.example."),
        ("suffix", ".created"),
    ] {
        let simple =
            SubscriptionFilter::from_json(&serde_json::json!({ dialect: { "type": value } }))
                .unwrap();
        assert!(simple.accepts(&with_subject));
        group.bench_function(format!("subscription_{dialect}_any_event"), |b| {
            b.iter(|| simple.accepts(black_box(&with_subject)))
        });
    }
    let like_in = cloudevent_runtime::cesql!(
        "type LIKE 'com.example.%' AND source IN ('/orders', 'urn:shop:orders', 'https://orders.example.com/checkout') AND EXISTS subject"
    );
    assert!(like_in.accepts(&with_subject));
    group.bench_function("like_in_exists_any_event", |b| {
        b.iter(|| like_in.accepts(black_box(&with_subject)))
    });
    group.bench_function("parse", |b| {
        b.iter(|| {
            Expression::parse(black_box(
                "type LIKE 'com.example.order.%' AND partitionkey = 'k1'",
            ))
        })
    });
    group.finish();
}

criterion_group!(benches, filter);
criterion_main!(benches);
