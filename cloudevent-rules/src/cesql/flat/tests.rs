//! The flat form against the tree: the same value or the same first error, on generated
//! expressions (the shapes it compiles, nested, and others it must leave to the tree) and
//! generated events, under the default budget and under budgets small enough to run out.

use proptest::prelude::*;

use super::Stop;
use crate::cesql::{Expression, Functions, Limits, Value};
use crate::{Envelope, ExtensionValue};

/// What the flat form gives on `event`, as [`Expression::matches`] runs it; `None` when the
/// expression has no flat form.
fn flat(expression: &Expression, event: &Envelope<'_>) -> Option<Result<bool, Stop>> {
    let mut budget = expression.limits.max_evaluation_cost;
    Some(expression.flat.as_ref()?.eval(event, &mut budget))
}

#[test]
fn filters_of_the_usual_shapes_are_flat() {
    for source in [
        "type LIKE 'com.example.%' AND source IN ('/orders', 'urn:shop:orders', 'https://orders.example.com/checkout') AND EXISTS subject",
        "type LIKE 'com.example.%' AND EXISTS subject",
        "type LIKE 'com.example.order.%' AND partitionkey = 'k1'",
        "NOT (subject <> 'a' OR region NOT IN ('eu')) XOR FALSE",
        "type NOT LIKE '%a_b%'",
    ] {
        let e = Expression::parse(source).unwrap();
        assert!(e.flat.is_some(), "{source}");
    }
    for source in [
        "n = 3",
        "'a' = subject",
        "subject IN ('a', 1)",
        "subject IN ('a', region)",
        "flag AND TRUE",
        "subject = 'a' = TRUE",
        "LENGTH(subject) > 1 AND EXISTS subject",
        "subject || 'a'",
        "1 < 2",
    ] {
        if let Ok(e) = Expression::parse(source) {
            assert!(e.flat.is_none(), "{source}");
        }
    }
}

#[test]
fn the_tree_decides_what_the_flat_form_does_not_read() {
    let extensions = [
        ("n", ExtensionValue::Integer(7)),
        ("flag", ExtensionValue::Boolean(true)),
        ("bin", ExtensionValue::Binary(b"hi")),
    ];
    let event = Envelope {
        extensions: &extensions,
        ..Envelope::default()
    };
    for (source, verdict) in [
        ("n = '7'", true),
        ("flag LIKE 'tr%'", true),
        ("bin IN ('aGk=')", true),
        ("n IN ('x')", false),
    ] {
        let e = Expression::parse(source).unwrap();
        assert_eq!(flat(&e, &event), Some(Err(Stop::Tree)), "{source}");
        assert_eq!(e.matches(&event), verdict, "{source}");
    }
}

/// Attribute names: core, extensions of every type an event may hold, one never set.
const NAMES: [&str; 8] = [
    "type", "source", "subject", "time", "region", "n", "flag", "bin",
];

fn name() -> impl Strategy<Value = &'static str> {
    prop_oneof![proptest::sample::select(&NAMES[..]), Just("absent")]
}

fn literal() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ab.]{0,3}",
        Just("7".to_owned()),
        Just("true".to_owned()),
        Just("aGk=".to_owned())
    ]
}

fn not(negated: bool) -> &'static str {
    if negated { "NOT " } else { "" }
}

/// One comparison: the shapes the flat form holds, and neighbours it does not.
fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("TRUE".to_owned()),
        Just("FALSE".to_owned()),
        name().prop_map(|n| format!("EXISTS {n}")),
        (name(), "[ab.%_]{0,4}", any::<bool>())
            .prop_map(|(n, p, neg)| format!("{n} {}LIKE '{p}'", not(neg))),
        (
            name(),
            proptest::collection::vec(literal(), 1..4),
            any::<bool>()
        )
            .prop_map(|(n, set, neg)| {
                let set: Vec<String> = set.iter().map(|v| format!("'{v}'")).collect();
                format!("{n} {}IN ({})", not(neg), set.join(", "))
            }),
        (
            name(),
            literal(),
            proptest::sample::select(&["=", "<>", "!="][..])
        )
            .prop_map(|(n, v, op)| format!("{n} {op} '{v}'")),
        // Not flat: the tree evaluates these (and whatever holds them).
        (name(), -3..9i32).prop_map(|(n, i)| format!("{n} = {i}")),
        (name(), literal()).prop_map(|(n, v)| format!("'{v}' = {n}")),
        (name(), name()).prop_map(|(a, b)| format!("{a} IN ('a', {b})")),
        name().prop_map(|n| n.to_owned()),
        name().prop_map(|n| format!("LENGTH({n}) > 1")),
    ]
}

fn expression() -> impl Strategy<Value = String> {
    leaf().prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(|x| format!("NOT ({x})")),
            (
                inner.clone(),
                proptest::collection::vec(
                    (proptest::sample::select(&["AND", "OR", "XOR"][..]), inner),
                    1..4
                )
            )
                .prop_map(|(first, links)| {
                    let mut out = format!("({first})");
                    for (op, right) in links {
                        out.push_str(&format!(" {op} ({right})"));
                    }
                    out
                }),
        ]
    })
}

fn text() -> impl Strategy<Value = Option<String>> {
    proptest::option::of("[ab.]{0,4}")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Where the flat form gives a value, the tree gives that value without an error; where
    /// it stops at an error, the tree's first error is of that kind; and `matches` is the
    /// tree's verdict either way.
    #[test]
    fn the_flat_form_is_the_tree(
        source in expression(),
        budget in prop_oneof![Just(Limits::DEFAULT.max_evaluation_cost), 0..12usize],
        ty in text(),
        source_attribute in text(),
        subject in text(),
        time in any::<bool>(),
        region in text(),
        n in proptest::option::of(prop_oneof![Just(7), -2..3i32]),
        flag in proptest::option::of(any::<bool>()),
        bin in any::<bool>(),
    ) {
        let limits = Limits { max_evaluation_cost: budget, ..Limits::DEFAULT };
        let Ok(expression) = Expression::parse_with_limits(&source, Functions::builtin(), limits) else {
            return Err(TestCaseError::fail(format!("does not parse: {source}")));
        };
        let mut extensions: Vec<(&str, ExtensionValue<'_>)> = Vec::new();
        if let Some(region) = &region {
            extensions.push(("region", ExtensionValue::String(region)));
        }
        if let Some(n) = n {
            extensions.push(("n", ExtensionValue::Integer(n)));
        }
        if let Some(flag) = flag {
            extensions.push(("flag", ExtensionValue::Boolean(flag)));
        }
        if bin {
            extensions.push(("bin", ExtensionValue::Binary(b"hi")));
        }
        let event = Envelope {
            specversion: Some("1.0"),
            id: Some("1"),
            ty: ty.as_deref(),
            source: source_attribute.as_deref(),
            subject: subject.as_deref(),
            time: time.then_some("2026-11-29T10:00:00Z"),
            extensions: &extensions,
            ..Envelope::default()
        };
        let tree = expression.evaluate(&event);
        match flat(&expression, &event) {
            Some(Ok(value)) => {
                prop_assert!(tree.errors.is_empty(), "{}: flat {}, tree {:?}", source, value, tree.errors);
                prop_assert_eq!(&tree.value, &Value::Boolean(value), "{}", source);
            }
            Some(Err(Stop::Error(kind))) => {
                prop_assert_eq!(tree.errors.first().map(|e| e.kind), Some(kind), "{}", source);
            }
            Some(Err(Stop::Tree)) | None => {}
        }
        prop_assert_eq!(
            expression.matches(&event),
            tree.value == Value::Boolean(true) && tree.errors.is_empty(),
            "{}", source
        );
    }
}

/// The generator reaches the flat form, with values, with errors and with the tree deciding,
/// so the property above is not vacuous.
#[test]
fn the_generated_cases_reach_every_outcome() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let extensions = [
        ("region", ExtensionValue::String("a")),
        ("n", ExtensionValue::Integer(7)),
        ("flag", ExtensionValue::Boolean(true)),
        ("bin", ExtensionValue::Binary(b"hi")),
    ];
    let event = Envelope {
        ty: Some("a.b"),
        subject: Some("a"),
        extensions: &extensions,
        ..Envelope::default()
    };
    let (mut values, mut errors, mut tree, mut none) = (0, 0, 0, 0);
    for _ in 0..2000 {
        let source = expression().new_tree(&mut runner).unwrap().current();
        let e = Expression::parse(&source).unwrap();
        match flat(&e, &event) {
            Some(Ok(_)) => values += 1,
            Some(Err(Stop::Error(_))) => errors += 1,
            Some(Err(Stop::Tree)) => tree += 1,
            None => none += 1,
        }
    }
    for (what, count) in [
        ("values", values),
        ("errors", errors),
        ("tree", tree),
        ("not flat", none),
    ] {
        assert!(count >= 20, "{what}: {count} of 2000");
    }
}
