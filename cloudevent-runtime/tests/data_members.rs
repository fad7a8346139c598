//! Issue 27: members named twice inside JSON `data`. serde_json (and Python, JavaScript) keep
//! the last value, other parsers the first, so a producer and a consumer read two events.
//! Under the strict INTG-STD-015 profile every door that reads JSON `data` as written reports
//! it with one verdict (RFC 8259 4, once per member with its count, bounded); the CloudEvents
//! profile does not look inside `data`.
#![cfg(feature = "http")]

use cloudevent_runtime::binding::http::{Received, read_message};
use cloudevent_runtime::{AnyEvent, Json, Profile, Validate, Validator};

const RULE: &str = "RFC 8259 4";

fn event(data: &str) -> String {
    format!(
        r#"{{"specversion":"1.0","id":"1","source":"https://orders.example.com","type":"com.example.order.created","time":"2026-03-28T14:22:31Z","datacontenttype":"application/json","data":{data}}}"#
    )
}

#[test]
fn the_validator_reports_a_repeated_member_of_data_once_with_its_count() {
    let strict = Validator::new(Profile::IntgStd015);
    let report = strict.validate_bytes::<Json>(
        event(r#"{"to":"a","n":[{"k":1,"k":2,"k":3}],"to":"b"}"#).as_bytes(),
    );
    assert!(!report.is_valid(), "{report}");
    let found: Vec<_> = report
        .findings()
        .iter()
        .filter(|f| f.rule.0 == RULE)
        .collect();
    assert_eq!(found.len(), 2, "{report}");
    assert_eq!(found[0].value, "/n/0");
    assert!(found[0].problem.contains("3 times"), "{report}");
    assert_eq!(found[1].value, "");
    assert!(found[1].problem.contains("twice"), "{report}");
    // The same data without the repeat passes; the CloudEvents profile does not look inside.
    assert!(
        strict
            .validate_bytes::<Json>(event(r#"{"to":"a"}"#).as_bytes())
            .is_valid()
    );
    let lenient = Validator::new(Profile::CloudEvents);
    assert!(
        lenient
            .validate_bytes::<Json>(event(r#"{"to":"a","to":"b"}"#).as_bytes())
            .is_valid()
    );
}

#[test]
fn every_door_gives_the_same_verdict() {
    let data = r#"{"amount":1,"amount":1000}"#;
    let strict = Validator::new(Profile::IntgStd015);
    // The structured document, read into an event and validated, and the strict reader.
    let from_bytes = strict.validate_bytes::<Json>(event(data).as_bytes());
    let parsed = AnyEvent::from_slice(event(data).as_bytes()).unwrap();
    let from_event = strict.validate(&parsed);
    // A binary-mode HTTP message whose body is the same data.
    let mut headers = http::HeaderMap::new();
    for (name, value) in [
        ("ce-specversion", "1.0"),
        ("ce-id", "1"),
        ("ce-source", "https://orders.example.com"),
        ("ce-type", "com.example.order.created"),
        ("ce-time", "2026-03-28T14:22:31Z"),
        ("content-type", "application/json"),
    ] {
        headers.insert(name, value.parse().unwrap());
    }
    let Received::Event(binary) = read_message::<AnyEvent>(&headers, data.as_bytes()).unwrap()
    else {
        panic!("one event")
    };
    let from_binary = strict.validate(&binary);
    for report in [&from_bytes, &from_event, &from_binary] {
        let rules: Vec<_> = report.findings().iter().map(|f| f.rule.0).collect();
        assert_eq!(rules, [RULE], "{report}");
        assert!(report.findings()[0].problem.contains("twice"), "{report}");
    }
}

#[test]
fn thousands_of_repeats_make_a_bounded_report() {
    let mut data = String::from("{");
    for i in 0..5_000 {
        data.push_str(&format!("\"m{i}\":0,\"m{i}\":1,"));
    }
    data.push_str("\"x\":{\"y\":0");
    data.push_str(&",\"y\":0".repeat(10_000));
    data.push_str("}}");
    let report =
        Validator::new(Profile::IntgStd015).validate_bytes::<Json>(event(&data).as_bytes());
    let found: Vec<_> = report
        .findings()
        .iter()
        .filter(|f| f.rule.0 == RULE)
        .collect();
    assert_eq!(
        found.len(),
        cloudevent_runtime::rules::MAX_REPEATED_MEMBERS + 1,
        "{report}"
    );
    assert_eq!(found[0].value, "/x");
    assert!(found[0].problem.contains("10001 times"), "{report}");
    assert!(
        found.last().unwrap().problem.contains("more members"),
        "{report}"
    );
}
