//! CloudEvents SQL: any text through the one parser, the checker and the evaluator (the
//! collecting `evaluate` and the filter's counting `matches`) never panics, and the two
//! evaluations agree on the filter verdict (CESQL v1 1.2).
#![no_main]

use cloudevent_runtime::rules::cesql::{Expression, Schema, Value};
use cloudevent_runtime::rules::{Envelope, ExtensionValue};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(expression) = Expression::parse(source) else {
        return;
    };
    let _ = expression.check(&Schema::core());
    let extensions = [
        ("partitionkey", ExtensionValue::String("k1")),
        ("n", ExtensionValue::Integer(i32::MIN)),
        ("flag", ExtensionValue::Boolean(true)),
        ("blob", ExtensionValue::Binary(b"\xff\x00")),
    ];
    let event = Envelope {
        specversion: Some("1.0"),
        id: Some("1"),
        source: Some("/orders"),
        ty: Some("com.example.order.created"),
        subject: Some("ünï"),
        extensions: &extensions,
        ..Envelope::default()
    };
    let full = expression.evaluate(&event);
    assert_eq!(
        expression.matches(&event),
        full.value == Value::Boolean(true) && full.errors.is_empty(),
        "filter verdict differs from the evaluation of `{source}`"
    );
});
