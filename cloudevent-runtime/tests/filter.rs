//! CESQL and the Subscriptions API filter dialects on runtime events: `AnyEvent` and
//! `Event<T>` (extensions set on the event and filled from the payload), the dialects with the
//! Subscriptions API spec's own examples (subscriptions/spec.md 3.2.4.1).

use cloudevent_runtime::filter::{
    ErrorKind, Expression, Filter, Filterable, SubscriptionFilter, Value,
};
use cloudevent_runtime::{AnyEvent, CloudEvent, Event};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Debug, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com"
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension)]
    region: String,
}

fn github_push() -> AnyEvent {
    let mut event = AnyEvent::new(
        "1",
        "https://github.com/cloudevents/spec/push",
        "com.github.push",
    );
    event.set_subject(Some("https://github.com/cloudevents/spec".into()));
    event
}

fn filter(json: serde_json::Value) -> SubscriptionFilter {
    SubscriptionFilter::from_json(&json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

#[test]
fn cesql_on_any_event_and_typed_event() {
    let e =
        Expression::parse("type LIKE 'com.example.order.%' AND region = 'eu' AND subject = 'o-1'")
            .unwrap();
    let typed = Event::new(OrderCreated {
        order_id: "o-1".into(),
        region: "eu".into(),
    });
    assert!(
        e.accepts(&typed),
        "the payload's extension and subject are read"
    );
    let other = Event::new(OrderCreated {
        order_id: "o-1".into(),
        region: "us".into(),
    });
    assert!(!e.accepts(&other));
    let typed = typed.with_extension("priority", 3).unwrap();
    let priority = Expression::parse("priority + 1").unwrap();
    assert_eq!(typed.evaluate(&priority).value, Value::Integer(4));

    let any = AnyEvent::from_slice(&serde_json::to_vec(&typed).unwrap()).unwrap();
    assert!(
        e.accepts(&any),
        "the same verdict on the same event read back"
    );
    let missing = Expression::parse("partitionkey = 'k1'").unwrap();
    let result = any.evaluate(&missing);
    assert_eq!(result.value, Value::Boolean(false));
    assert_eq!(result.errors[0].kind, ErrorKind::MissingAttribute);
    assert!(!missing.accepts(&any));
}

#[test]
fn parse_errors_are_the_rules_crates() {
    let error = Expression::parse("type LIKE").unwrap_err();
    assert_eq!(
        error.to_string(),
        cloudevent_runtime::rules::cesql::Expression::parse("type LIKE")
            .unwrap_err()
            .to_string()
    );
    assert_eq!((error.span.start, error.span.end), (9, 9));
}

/// Every example of Subscriptions API 3.2.4.1, on an event it names and one it does not.
#[test]
fn subscription_spec_examples() {
    let push = github_push();
    let mut created = AnyEvent::new(
        "2",
        "https://github.com/cloudevents/spec",
        "com.github.issue.created",
    );
    created.set_subject(Some("https://github.com/cloudevents/spec".into()));
    let mut other = AnyEvent::new("3", "https://example.com/x", "org.example.thing");
    other.set_subject(Some("elsewhere".into()));

    let cases = [
        (
            json!({ "exact": { "type": "com.github.push", "subject": "https://github.com/cloudevents/spec" } }),
            [true, false, false],
        ),
        (
            json!({ "prefix": { "type": "com.github.", "subject": "https://github.com/cloudevents" } }),
            [true, true, false],
        ),
        (
            json!({ "suffix": { "type": ".created", "subject": "/cloudevents/spec" } }),
            [false, true, false],
        ),
        (
            json!({ "all": [
            { "exact": { "type": "com.github.push" } },
            { "exact": { "subject": "https://github.com/cloudevents/spec" } }
        ] }),
            [true, false, false],
        ),
        (
            json!({ "any": [
            { "exact": { "type": "com.github.push" } },
            { "exact": { "subject": "https://github.com/cloudevents/spec" } }
        ] }),
            [true, true, false],
        ),
        (
            json!({ "not": { "exact": { "type": "com.github.push" } } }),
            [false, true, true],
        ),
        (
            json!({ "sql": "source LIKE '%cloudevents%'" }),
            [true, true, false],
        ),
        // 3.2.1's subscription resource: its `filters` array.
        (
            json!([ { "prefix": { "type": "com.example." } } ]),
            [false, false, false],
        ),
        (json!([]), [true, true, true]),
    ];
    for (json, want) in cases {
        let f = filter(json.clone());
        let got = [f.accepts(&push), f.accepts(&created), f.accepts(&other)];
        assert_eq!(got, want, "{json}");
    }
}

#[test]
fn subscription_dialects_compare_strings_and_refuse_what_the_spec_refuses() {
    let mut event = github_push();
    event.extensions_mut().insert("priority", 5);
    event.extensions_mut().insert("urgent", true);
    assert!(filter(json!({ "exact": { "priority": "5", "urgent": "true" } })).accepts(&event));
    assert!(
        !filter(json!({ "exact": { "nothere": "x" } })).accepts(&event),
        "absent fails"
    );
    assert!(!filter(json!({ "prefix": { "nothere": "x" } })).accepts(&event));
    assert!(filter(json!({ "not": { "suffix": { "nothere": "x" } } })).accepts(&event));

    for (json, message) in [
        (
            json!({ "all": [] }),
            "MUST hold at least one filter expression",
        ),
        (json!({ "any": {} }), "takes an array"),
        (
            json!({ "exact": { "type": "" } }),
            "MUST NOT be empty strings",
        ),
        (json!({ "exact": { "type": 5 } }), "the value is a String"),
        (json!({ "exact": {}, "prefix": {} }), "one member"),
        (
            json!({ "cesql": "true" }),
            "unsupported filter dialect `cesql`",
        ),
        (json!({ "sql": "type = " }), "CESQL parse error at 7..7"),
        (json!({ "sql": 5 }), "takes a String"),
    ] {
        let error = SubscriptionFilter::from_json(&json).unwrap_err();
        assert!(error.to_string().contains(message), "{json}: {error}");
    }
    let error = serde_json::from_str::<SubscriptionFilter>(r#"{"regex": {}}"#).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("unsupported filter dialect `regex`"),
        "{error}"
    );
}

/// Issue 38: a subscription's `sql` is anyone's input at a Subscriptions API endpoint. A
/// pattern past the limit is refused when the subscription is read; what an accepted filter
/// makes and scans is bounded when it runs, and an event it cannot afford is not selected.
#[test]
fn subscription_sql_filters_are_held_to_their_limits() {
    use cloudevent_runtime::filter::Limits;

    let hostile = json!({ "sql": format!("subject LIKE '%{}b%'", "a".repeat(64 * 1024)) });
    let error = SubscriptionFilter::from_json(&hostile).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("longer than the limit of 65536 bytes (cesql::Limits::max_expression_bytes)"),
        "{error}"
    );
    let long_pattern =
        json!({ "all": [{ "sql": format!("subject LIKE '%{}b%'", "a".repeat(2000)) }] });
    let error = SubscriptionFilter::from_json(&long_pattern).unwrap_err();
    assert!(
        error
            .sql_error()
            .is_some_and(|e| e.message.contains("max_pattern_bytes")),
        "{error}"
    );
    let roomy = Limits {
        max_pattern_bytes: 4096,
        ..Limits::DEFAULT
    };
    assert!(SubscriptionFilter::from_json_with_limits(&long_pattern, roomy).is_ok());
    let strict = Limits {
        max_expression_bytes: 16,
        ..Limits::DEFAULT
    };
    let error = SubscriptionFilter::from_json_with_limits(
        &json!({ "not": { "sql": "subject = 'a-long-subject'" } }),
        strict,
    )
    .unwrap_err();
    assert!(
        error.to_string().contains("max_expression_bytes"),
        "{error}"
    );

    let mut event = AnyEvent::new(
        "1",
        "https://orders.example.com",
        "com.example.order.created",
    );
    event.set_subject(Some("s".repeat(255 * 1024)));
    let concat = filter(json!({
        "sql": format!("LENGTH(CONCAT({})) > 0", vec!["subject"; 4000].join(","))
    }));
    let started = std::time::Instant::now();
    assert!(
        !concat.accepts(&event),
        "a string past the event size limit is an error"
    );
    let costly = filter(json!({
        "sql": vec![format!("subject LIKE '%{}b%'", "s_".repeat(500)); 60].join(" OR ")
    }));
    assert!(!costly.accepts(&event));
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(5), "{took:?}");
}
