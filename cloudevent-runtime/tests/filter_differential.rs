//! The filters' verdicts held to their definitions over random events (issue 40): the
//! Subscriptions API dialects resolve each attribute name once and read an Integer's text
//! without allocating, and CESQL reads literal and attribute operands without entering the
//! evaluator's node dispatch; none of that may change a verdict.
//!
//! - `exact`/`prefix`/`suffix` against the definition on the event's JSON form (CE-JSON: every
//!   attribute a member, its String form the member's text);
//! - CESQL's `=`, `LIKE 'x%'`, `LIKE '%x'` and `IN` against the Subscriptions API dialect that
//!   means the same (`exact`, `prefix`, `suffix`, `any` of `exact`), two implementations of one
//!   selection;
//! - `Expression::matches` (counting errors) against `Expression::evaluate` (collecting them).

use cloudevent_runtime::AnyEvent;
use cloudevent_runtime::filter::{Expression, Filter, Filterable, SubscriptionFilter, Value};
use proptest::prelude::*;
use serde_json::json;

/// Names a filter may read: core attributes, the extensions an event may carry, one never set.
const NAMES: [&str; 9] = [
    "id", "source", "type", "subject", "region", "n", "flag", "time", "absent",
];

fn text() -> impl Strategy<Value = String> {
    "[abc./-]{1,6}"
}

prop_compose! {
    fn event()(
        id in text(),
        source in text(),
        ty in text(),
        subject in proptest::option::of(text()),
        region in proptest::option::of(text()),
        n in proptest::option::of(prop_oneof![Just(i32::MIN), Just(0), Just(-7), any::<i32>()]),
        flag in proptest::option::of(any::<bool>()),
        time in any::<bool>(),
    ) -> AnyEvent {
        let mut event = AnyEvent::new(id, source, ty);
        event.set_subject(subject);
        if time {
            event.set_time(Some("2026-11-29T10:00:00Z".parse().expect("valid")));
        }
        let extensions = event.extensions_mut();
        if let Some(region) = region {
            extensions.insert("region", region);
        }
        if let Some(n) = n {
            extensions.insert("n", n);
        }
        if let Some(flag) = flag {
            extensions.insert("flag", flag);
        }
        event
    }
}

/// The attribute's String form read from the event's JSON document; `None` when absent.
fn written(event: &AnyEvent, name: &str) -> Option<String> {
    let json: serde_json::Value = serde_json::from_slice(&event.to_vec()).expect("JSON");
    match json.get(name)? {
        serde_json::Value::String(text) => Some(text.clone()),
        other => Some(other.to_string()),
    }
}

/// A value to compare with: a piece of what the event carries, or something else.
fn probe(event: &AnyEvent, name: &str, pick: usize, cut: usize) -> String {
    match (written(event, name), pick % 3) {
        (Some(text), 0) => text,
        (Some(text), 1) if text.len() > 1 => {
            let at = 1 + cut % (text.len() - 1);
            if cut.is_multiple_of(2) {
                text[..at].to_owned()
            } else {
                text[at..].to_owned()
            }
        }
        _ => ["a", "b.", "-7", "true", "c/"][cut % 5].to_owned(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn simple_dialects_are_their_definition(
        event in event(),
        name in 0..NAMES.len(),
        dialect in 0..3usize,
        pick in any::<usize>(),
        cut in any::<usize>(),
    ) {
        let name = NAMES[name];
        let want = probe(&event, name, pick, cut);
        let dialect = ["exact", "prefix", "suffix"][dialect];
        let filter = SubscriptionFilter::from_json(&json!({ dialect: { name: want } }))
            .expect("non-empty name and value");
        let definition = written(&event, name).is_some_and(|text| match dialect {
            "exact" => text == want,
            "prefix" => text.starts_with(&want),
            _ => text.ends_with(&want),
        });
        prop_assert_eq!(filter.accepts(&event), definition, "{} {} {:?}", dialect, name, want);
        // An `AnyEvent` is read attribute by attribute; the view built once gives the same
        // verdict, nested too.
        let nested = SubscriptionFilter::from_json(&json!({ "any": [
            { "not": { dialect: { name: want } } },
            { "all": [{ dialect: { name: want } }, { "sql": format!("EXISTS {name}") }] },
        ]})).expect("reads");
        for filter in [&filter, &nested] {
            let mut once = false;
            event.with_envelope(&mut |envelope| once = filter.accepts_envelope(envelope));
            prop_assert_eq!(filter.accepts(&event), once);
        }
    }

    #[test]
    fn cesql_and_subscription_dialects_agree(
        event in event(),
        name in 0..NAMES.len(),
        pick in any::<usize>(),
        cut in any::<usize>(),
        others in proptest::collection::vec(text(), 0..3),
    ) {
        let name = NAMES[name];
        // Letters, digits and `./-` only: nothing a LIKE pattern or a string literal escapes.
        let want = probe(&event, name, pick, cut);
        let pairs = [
            (format!("{name} = '{want}'"), json!({ "exact": { name: want } })),
            (format!("{name} LIKE '{want}%'"), json!({ "prefix": { name: want } })),
            (format!("{name} LIKE '%{want}'"), json!({ "suffix": { name: want } })),
        ];
        // A String attribute only: `n = '-7'` casts the Integer, which no dialect does.
        let string = !matches!(name, "n" | "flag");
        for (sql, subscription) in pairs {
            let expression = Expression::parse(&sql).expect("parses");
            let subscription = SubscriptionFilter::from_json(&subscription).expect("reads");
            if string {
                prop_assert_eq!(expression.accepts(&event), subscription.accepts(&event), "{}", sql);
            }
            let evaluated = event.evaluate(&expression);
            prop_assert_eq!(
                expression.accepts(&event),
                evaluated.value == Value::Boolean(true) && evaluated.errors.is_empty(),
                "{}", sql
            );
        }
        let mut set: Vec<String> = others;
        set.push(want);
        let list = set.iter().map(|v| format!("'{v}'")).collect::<Vec<_>>().join(", ");
        let sql = format!("{name} IN ({list}) AND EXISTS {name}");
        let expression = Expression::parse(&sql).expect("parses");
        let any = SubscriptionFilter::from_json(&json!({
            "any": set.iter().map(|v| json!({ "exact": { name: v } })).collect::<Vec<_>>()
        })).expect("reads");
        if string {
            prop_assert_eq!(expression.accepts(&event), any.accepts(&event), "{}", sql);
        }
        let evaluated = event.evaluate(&expression);
        prop_assert_eq!(
            expression.accepts(&event),
            evaluated.value == Value::Boolean(true) && evaluated.errors.is_empty(),
            "{}", sql
        );
    }
}
