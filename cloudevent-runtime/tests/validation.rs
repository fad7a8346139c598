//! Profiles, the validator's reports, batches, size limits and traceability.

use cloudevent_runtime::Attributes;
use cloudevent_runtime::Json;
use cloudevent_runtime::Validate;
use cloudevent_runtime::{
    AnyEvent, Batch, BuildError, CloudEvent, Document, Event, FormatError, Profile, Severity,
    Timestamp, Validator,
};

#[derive(Debug, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    dataschema = "https://schemas.example.com/orders/created/v1.json",
    source = "https://orders.example.com/checkout"
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
}

#[derive(Debug, serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(type = "com.example.order.shipped")]
struct OrderShipped {
    order_id: String,
}

const GOOD: &str = r#"{"specversion":"1.0","id":"01HZX3KQVB8E72GQJHF5RM6YWN","source":"https://orders.example.com/checkout","type":"com.example.order.created","time":"2026-03-28T14:22:31.482Z","datacontenttype":"application/json","dataschema":"https://schemas.example.com/orders/created/v1.json","subject":"order-8842","traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","data":{"orderId":"order-8842"}}"#;

fn with(replace: &str, by: &str) -> String {
    assert!(GOOD.contains(replace), "{replace}");
    GOOD.replacen(replace, by, 1)
}

fn rules(report: &cloudevent_runtime::ValidationReport) -> Vec<(&'static str, Severity, String)> {
    report
        .findings()
        .iter()
        .map(|f| (f.rule.as_str(), f.severity, f.attribute.to_string()))
        .collect()
}

#[test]
fn the_standards_example_event_is_valid_in_every_profile() {
    for profile in Profile::ALL {
        let report = Validator::new(profile).validate_bytes::<Json>(GOOD.as_bytes());
        assert!(report.is_valid(), "{profile}: {report}");
        assert_eq!(report.id(), Some("01HZX3KQVB8E72GQJHF5RM6YWN"));
    }
}

#[test]
fn the_standards_invalid_example_lists_every_finding() {
    let report = Validator::new(Profile::IntgStd015).validate_bytes::<Json>(
        br#"{"id":"evt-100","type":"OrderCreated","data":{"orderId":"order-100"}}"#,
    );
    assert!(!report.is_valid());
    let found = rules(&report);
    let has = |rule: &str, attribute: &str| {
        found
            .iter()
            .any(|(r, s, a)| *r == rule && *s == Severity::Error && a == attribute)
    };
    assert!(has("INTG-STD-015 R-1", "specversion"), "{report}");
    assert!(has("INTG-STD-015 R-2", "source"), "{report}");
    assert!(has("INTG-STD-015 R-4", "type"), "{report}");
}

#[test]
fn profiles_differ_on_type_source_time_and_extension_names() {
    let strict = Validator::new(Profile::IntgStd015);
    let lax = Validator::new(Profile::CloudEvents);

    // gateway 1 / R-4: the type pattern.
    let short_type = with("com.example.order.created", "com.example.created");
    assert!(
        strict
            .validate_bytes::<Json>(short_type.as_bytes())
            .has_rule("INTG-STD-015 R-4")
    );
    assert!(lax.validate_bytes::<Json>(short_type.as_bytes()).is_valid());

    // R-5 / R-14: infrastructure in the source.
    let internal = with(
        "https://orders.example.com/checkout",
        "https://10.0.0.7/checkout",
    );
    let report = strict.validate_bytes::<Json>(internal.as_bytes());
    assert!(!report.is_valid(), "{report}");
    assert!(report.errors().any(|f| f.attribute == "source"));
    assert!(lax.validate_bytes::<Json>(internal.as_bytes()).is_valid());

    // gateway 4: UTC only.
    let offset = with("2026-03-28T14:22:31.482Z", "2026-03-28T15:22:31.482+01:00");
    assert!(!strict.validate_bytes::<Json>(offset.as_bytes()).is_valid());
    assert!(lax.validate_bytes::<Json>(offset.as_bytes()).is_valid());

    // gateway 5: extension names of at most 20 characters starting with a letter.
    let long = with(
        r#""traceparent""#,
        r#""averyveryverylongextensionname":"x","traceparent""#,
    );
    assert!(
        strict
            .validate_bytes::<Json>(long.as_bytes())
            .has_rule("INTG-STD-015 gateway 5")
    );
    let lax_report = lax.validate_bytes::<Json>(long.as_bytes());
    assert!(lax_report.is_valid(), "{lax_report}");
}

#[test]
fn nl_gov_profile_checks_its_own_conventions() {
    let nl = Validator::new(Profile::NlGov);
    let report = nl.validate_bytes::<Json>(GOOD.as_bytes());
    // NL GOV recommends `urn:nld:` sources: a warning, not an error.
    assert!(report.is_valid(), "{report}");
    let urn = with(
        "https://orders.example.com/checkout",
        "urn:nld:oin:00000001234567890000:systeem:orders",
    );
    let report = nl.validate_bytes::<Json>(urn.as_bytes());
    assert!(report.is_valid(), "{report}");
    assert!(
        report.warnings().count()
            <= Validator::new(Profile::NlGov)
                .validate_bytes::<Json>(GOOD.as_bytes())
                .warnings()
                .count()
    );
}

#[test]
fn every_attribute_rule_is_checked_at_run_time() {
    let v = Validator::new(Profile::IntgStd015);
    for (replace, by, attribute) in [
        (r#""id":"01HZX3KQVB8E72GQJHF5RM6YWN""#, r#""id":"""#, "id"),
        ("application/json", "json", "datacontenttype"),
        (
            "https://schemas.example.com/orders/created/v1.json",
            "https://schemas.example.com/orders/created/latest.json",
            "dataschema",
        ),
        (
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-XYZ-00f067aa0ba902b7-01",
            "traceparent",
        ),
        (
            r#""traceparent""#,
            r#""Region":"eu","traceparent""#,
            "Region",
        ),
        (
            r#""traceparent""#,
            r#""password":"hunter2","traceparent""#,
            "password",
        ),
        (
            r#""traceparent""#,
            r#""partitionkey":7,"traceparent""#,
            "partitionkey",
        ),
        (
            r#""traceparent""#,
            r#""dataref":"not a uri ref","traceparent""#,
            "dataref",
        ),
    ] {
        let report = v.validate_bytes::<Json>(with(replace, by).as_bytes());
        assert!(
            // Name findings say `extension` and carry the name as the value.
            report
                .errors()
                .any(|f| f.attribute == attribute || f.value == attribute),
            "{attribute}: {report}"
        );
    }
}

#[test]
fn type_and_dataschema_versions_agree() {
    let v = Validator::new(Profile::IntgStd015);
    let v2 = with("orders/created/v1.json", "orders/created/v2.json");
    let report = v.validate_bytes::<Json>(v2.as_bytes());
    assert!(!report.is_valid(), "{report}");
    let both = v2.replace("com.example.order.created", "com.example.order.created.v2");
    let report = v.validate_bytes::<Json>(both.as_bytes());
    assert!(report.is_valid(), "{report}");
}

#[test]
fn type_prefix_roots_types_at_the_organisation() {
    let v = Validator::new(
        cloudevent_runtime::Policy::new(Profile::IntgStd015).with_type_prefix("org.example"),
    );
    let report = v.validate_bytes::<Json>(GOOD.as_bytes());
    assert!(!report.is_valid());
    assert!(report.errors().any(|f| f.attribute == "type"), "{report}");
    assert!(
        Validator::new(
            cloudevent_runtime::Policy::new(Profile::IntgStd015).with_type_prefix("com.example")
        )
        .validate_bytes::<Json>(GOOD.as_bytes())
        .is_valid()
    );
}

#[test]
fn the_report_lists_format_problems_and_keeps_going() {
    let json = r#"{"specversion":"1.0","id":"1","id":"2","source":"https://orders.example.com","type":"com.example.order.created","comexampleint":2147483648,"comexamplefloat":1.5,"data":{},"data_base64":"AA=="}"#;
    let report = Validator::new(Profile::CloudEvents).validate_bytes::<Json>(json.as_bytes());
    let attributes: Vec<String> = report.errors().map(|f| f.attribute.to_string()).collect();
    for expected in ["id", "comexampleint", "comexamplefloat", "data_base64"] {
        assert!(
            attributes.iter().any(|a| a == expected),
            "{expected}: {report}"
        );
    }
    assert_eq!(report.id(), Some("1"));
}

#[test]
fn warnings_do_not_invalidate() {
    let json = r#"{"specversion":"1.0","id":"1","source":"https://orders.example.com","type":"com.example.order.created","data":{}}"#;
    let report = Validator::new(Profile::IntgStd015).validate_bytes::<Json>(json.as_bytes());
    assert!(report.is_valid(), "{report}");
    // No time, no datacontenttype: both SHOULDs of R-2.
    let warned: Vec<String> = report.warnings().map(|f| f.attribute.to_string()).collect();
    assert!(warned.contains(&"time".to_owned()), "{report}");
    assert!(warned.contains(&"datacontenttype".to_owned()), "{report}");
}

#[test]
fn size_limits() {
    let v = Validator::new(Profile::IntgStd015);
    let big_data = with(
        r#"{"orderId":"order-8842"}"#,
        &format!(r#""{}""#, "a".repeat(253 * 1024)),
    );
    let report = v.validate_bytes::<Json>(big_data.as_bytes());
    assert!(
        report
            .warnings()
            .any(|f| f.rule.as_str() == "INTG-STD-015 R-11"),
        "{report}"
    );

    let too_big = with(
        r#"{"orderId":"order-8842"}"#,
        &format!(r#""{}""#, "a".repeat(256 * 1024)),
    );
    let report = v.validate_bytes::<Json>(too_big.as_bytes());
    assert!(!report.is_valid());
    assert_eq!(report.id(), None, "not parsed");
    assert!(report.has_rule("INTG-STD-015 R-11"));

    let big_attrs = with(
        r#""subject":"order-8842""#,
        &format!(r#""subject":"{}""#, "s".repeat(5000)),
    );
    let report = v.validate_bytes::<Json>(big_attrs.as_bytes());
    assert!(report.is_valid(), "{report}");
    assert!(
        report
            .warnings()
            .any(|f| f.rule.as_str() == "INTG-STD-015 R-11"),
        "{report}"
    );
}

#[test]
fn traceability_is_required_on_request() {
    let plain = Validator::new(Profile::IntgStd015);
    let adr = Validator::new(
        cloudevent_runtime::Policy::new(Profile::IntgStd015).with_required_traceability(true),
    );
    assert!(plain.validate_bytes::<Json>(GOOD.as_bytes()).is_valid());
    let report = adr.validate_bytes::<Json>(GOOD.as_bytes());
    let missing: Vec<String> = report
        .errors()
        .filter(|f| f.rule.as_str() == "ADR-0003")
        .map(|f| f.attribute.to_string())
        .collect();
    assert_eq!(missing, ["correlationid", "causationid"], "{report}");

    // Events this crate builds carry both.
    let event = Event::new(OrderCreated {
        order_id: "o-1".into(),
    });
    let report = adr.validate_bytes::<Json>(&event.to_vec().unwrap());
    assert!(report.is_valid(), "{report}");
    let any = AnyEvent::from_slice(&event.to_vec().unwrap()).unwrap();
    assert!(adr.validate(&any).is_valid());

    let empty = with(
        r#""traceparent""#,
        r#""correlationid":"","causationid":5,"traceparent""#,
    );
    let report = adr.validate_bytes::<Json>(empty.as_bytes());
    assert_eq!(
        report
            .errors()
            .filter(|f| f.rule.as_str() == "ADR-0003")
            .count(),
        2,
        "{report}"
    );
}

#[test]
fn batches() {
    let v = Validator::new(Profile::IntgStd015);
    let empty = v.validate_batch_bytes::<Json>(b"[]");
    assert!(empty.is_valid() && empty.events().is_empty());

    let bad = r#"{"specversion":"0.3","id":"2","source":"/s","type":"t"}"#;
    let batch = format!("[{GOOD},{bad}]");
    let report = v.validate_batch_bytes::<Json>(batch.as_bytes());
    assert!(!report.is_valid());
    assert!(report.events()[0].is_valid());
    assert!(report.events()[1].has_rule("INTG-STD-015 R-1"));

    let err = Batch::from_slice(batch.as_bytes()).unwrap_err();
    assert!(
        matches!(err, FormatError::InBatch { index: 1, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("#1"));
    let ok = Batch::from_slice(format!("[{GOOD},{GOOD}]").as_bytes()).unwrap();
    assert_eq!(ok.len(), 2);

    let many = format!("[{}]", vec![GOOD; 101].join(","));
    let report = v.validate_batch_bytes::<Json>(many.as_bytes());
    assert!(report.is_valid());
    assert!(
        report
            .findings()
            .iter()
            .any(|f| f.severity == Severity::Warning && f.rule.as_str() == "INTG-STD-015 R-10")
    );

    let huge = vec![b' '; 1024 * 1024 + 1];
    assert!(!v.validate_batch_bytes::<Json>(&huge).is_valid());
    assert!(matches!(
        Batch::from_slice(&huge),
        Err(FormatError::TooLarge { .. })
    ));

    let not_array = v.validate_batch_bytes::<Json>(b"{}");
    assert!(!not_array.is_valid());
}

#[test]
fn documents_are_events_or_batches() {
    let v = Validator::new(Profile::CloudEvents);
    assert!(matches!(v.validate_document(GOOD.as_bytes()), Document::Event(r) if r.is_valid()));
    let batch = format!("\n [{GOOD}]");
    assert!(matches!(v.validate_document(batch.as_bytes()), Document::Batch(r) if r.is_valid()));
}

#[test]
fn reports_serialize_for_machines() {
    let report = Validator::new(Profile::IntgStd015).validate_bytes::<Json>(b"{}");
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["valid"], false);
    assert!(json["findings"][0]["rule"].is_string());
    assert!(
        json["findings"][0]["message"]
            .as_str()
            .unwrap()
            .contains(json["findings"][0]["rule"].as_str().unwrap())
    );
}

#[test]
fn a_source_is_required_to_build() {
    let err = Event::builder(OrderShipped {
        order_id: "o".into(),
    })
    .build()
    .unwrap_err();
    assert!(matches!(
        err,
        BuildError::MissingSource {
            event_type: "com.example.order.shipped"
        }
    ));
    assert!(err.to_string().contains("R-2"));

    let err = Event::builder(OrderShipped {
        order_id: "o".into(),
    })
    .source("http://localhost:8080/orders")
    .build()
    .unwrap_err();
    assert!(!err.violations().is_empty(), "{err}");
    assert!(err.violations().iter().all(|v| v.attribute == "source"));

    let event = Event::builder(OrderShipped {
        order_id: "o".into(),
    })
    .source("https://orders.example.com/shipping")
    .build()
    .unwrap();
    assert_eq!(event.source(), "https://orders.example.com/shipping");
}

#[test]
fn setters_check_values_with_the_rules() {
    let event = || {
        Event::new(OrderCreated {
            order_id: "o-1".into(),
        })
    };
    let err = event().with_extension("partitionkey", 7).unwrap_err();
    assert!(
        err.violations()
            .iter()
            .any(|v| v.rule.as_str() == "INTG-STD-015 R-6"),
        "{err}"
    );
    assert!(
        event()
            .with_extension("traceparent", "not-a-traceparent")
            .is_err()
    );
    assert!(event().with_extension("tracestate", "vendor=value").is_ok());
    assert!(event().with_subject("line\nbreak").is_err());
    let offset = Timestamp::try_from("2026-03-28T15:22:31+01:00").unwrap();
    let err = event().with_time(offset.clone()).unwrap_err();
    assert!(
        err.violations()
            .iter()
            .any(|v| v.rule.as_str() == "INTG-STD-015 gateway 4" && v.attribute == "time"),
        "{err}"
    );
    assert!(
        event()
            .with_time(Timestamp::try_from("2026-03-28T14:22:31Z").unwrap())
            .is_ok()
    );
    let err = Event::builder(OrderCreated {
        order_id: "o".into(),
    })
    .time(offset)
    .build()
    .unwrap_err();
    assert!(err.to_string().contains("gateway 4"), "{err}");
    assert!(
        event()
            .with_source("https://orders.internal/checkout")
            .is_err()
    );

    // The builder reports every error at once.
    let err = Event::builder(OrderCreated {
        order_id: "o".into(),
    })
    .extension("Bad_Name", "x")
    .extension("token", "secret")
    .extension("traceparent", "nope")
    .build()
    .unwrap_err();
    for expected in ["Bad_Name", "token", "traceparent"] {
        assert!(
            err.violations()
                .iter()
                .any(|v| v.attribute == expected || v.value == expected),
            "{expected}: {err}"
        );
    }
}

/// What the validator must say about one event under one profile.
#[derive(Debug, Clone, Copy)]
enum Expect {
    /// No error (warnings allowed).
    Valid,
    /// Valid, with a warning citing this rule.
    Warns(&'static str),
    /// An error citing this rule.
    Refused(&'static str),
}

use Expect::{Refused, Valid, Warns};

const R1: &str = "INTG-STD-015 R-1";
const R2: &str = "INTG-STD-015 R-2";
const R4: &str = "INTG-STD-015 R-4";
const R5: &str = "INTG-STD-015 R-5";
const R6: &str = "INTG-STD-015 R-6";
const R7: &str = "INTG-STD-015 R-7";
const R11: &str = "INTG-STD-015 R-11";
const R14: &str = "INTG-STD-015 R-14";
const GW4: &str = "INTG-STD-015 gateway 4";
const GW5: &str = "INTG-STD-015 gateway 5";
const NAMING: &str = "CE 1.0.2 naming";
const TYPE_SYSTEM: &str = "CE 1.0.2 type system";
const CE_SOURCE: &str = "CE 1.0.2 source";
const CE_TIME: &str = "CE 1.0.2 time";
const CE_DATASCHEMA: &str = "CE 1.0.2 dataschema";
const CE_DATACONTENTTYPE: &str = "CE 1.0.2 datacontenttype";
const CE_TYPE: &str = "CE 1.0.2 type";
const CE_SUBJECT: &str = "CE 1.0.2 subject";
const CE_SPECVERSION: &str = "CE 1.0.2 specversion";
const CE_REQUIRED: &str = "CE 1.0.2 required";
const NL_TYPE: &str = "NL-GOV type";
const W3C: &str = "W3C trace-context";

/// Adds members just before `data`.
fn with_members(members: &str) -> String {
    with(r#","data":"#, &format!(r#",{members},"data":"#))
}

/// Every rule of docs/rules.md's table that a JSON event can break, at run time, through the
/// validator, in every profile: one event that keeps the rule and one that breaks it, per
/// row. (HTTP and Kafka binary mode are the bindings' tests; the consumer log is R-15's.)
#[test]
fn every_rule_of_the_design_table_accepts_and_rejects_per_profile() {
    let big_subject = format!(r#""subject":"{}""#, "s".repeat(4100));
    let huge_data = format!(r#""{}""#, "a".repeat(256 * 1024));
    #[rustfmt::skip]
    let cases: Vec<(&str, String, [Expect; 3])> = vec![
        // [cloudevents, intg-std-015, nl-gov]
        ("specversion ok", GOOD.to_owned(), [Valid, Valid, Valid]),
        ("specversion 1.0.2", with(r#""specversion":"1.0""#, r#""specversion":"1.0.2""#), [Refused(CE_SPECVERSION), Refused(R1), Refused(CE_SPECVERSION)]),
        ("specversion absent", with(r#""specversion":"1.0","#, ""), [Refused(CE_SPECVERSION), Refused(R1), Refused(CE_SPECVERSION)]),
        ("id ulid", GOOD.to_owned(), [Valid; 3]),
        ("id any non-empty string", with("01HZX3KQVB8E72GQJHF5RM6YWN", "order-8842-created"), [Valid; 3]),
        ("id empty", with("01HZX3KQVB8E72GQJHF5RM6YWN", ""), [Refused(CE_REQUIRED), Refused(R2), Refused(CE_REQUIRED)]),
        ("id absent", with(r#""id":"01HZX3KQVB8E72GQJHF5RM6YWN","#, ""), [Refused(CE_REQUIRED), Refused(R2), Refused(CE_REQUIRED)]),
        ("source urn", with("https://orders.example.com/checkout", "urn:example:orders:checkout"), [Valid; 3]),
        ("source relative", with("https://orders.example.com/checkout", "/orders/checkout"), [Valid, Warns(R5), Valid]),
        ("source empty", with("https://orders.example.com/checkout", ""), [Refused(CE_REQUIRED), Refused(R2), Refused(CE_REQUIRED)]),
        ("source not a URI-reference", with("https://orders.example.com/checkout", "has space"), [Refused(CE_SOURCE), Refused(R5), Refused(CE_SOURCE)]),
        ("source host named like localhost", with("orders.example.com", "localhost.example.com"), [Valid; 3]),
        ("source private IP", with("orders.example.com", "10.0.0.7"), [Valid, Refused(R14), Valid]),
        ("source numeric private IP", with("orders.example.com", "3232235777"), [Valid, Refused(R14), Valid]),
        ("source IPv6 loopback", with("orders.example.com", "[::1]"), [Valid, Refused(R14), Valid]),
        ("source localhost", with("orders.example.com", "localhost"), [Valid, Refused(R14), Valid]),
        ("source .internal", with("orders.example.com", "orders.internal"), [Valid, Refused(R14), Valid]),
        ("source .local", with("orders.example.com", "orders.local"), [Valid, Refused(R14), Valid]),
        ("source port", with("orders.example.com", "orders.example.com:8443"), [Valid, Refused(R5), Valid]),
        ("source k8s", with("https://orders.example.com/checkout", "k8s://prod/orders"), [Valid, Refused(R14), Valid]),
        ("type strict ok with version", with(r#""type":"com.example.order.created""#, r#""type":"com.example.order.created.v1""#), [Valid; 3]),
        ("type three segments", with(r#""type":"com.example.order.created""#, r#""type":"com.example.created""#), [Valid, Refused(R4), Valid]),
        ("type uppercase", with("com.example.order.created", "com.example.Order.created"), [Valid, Refused(R4), Refused(NL_TYPE)]),
        ("type no reverse-DNS", with("com.example.order.created", "OrderCreated"), [Warns(CE_TYPE), Refused(R4), Refused(NL_TYPE)]),
        ("type empty", with("com.example.order.created", ""), [Refused(CE_REQUIRED), Refused(R2), Refused(CE_REQUIRED)]),
        ("type NL GOV semver", with("com.example.order.created", "nl.example.order-line.created.v1.2.3"), [Valid, Refused(R4), Valid]),
        ("extension name ok", with_members(r#""region":"eu""#), [Valid; 3]),
        ("extension name uppercase", with_members(r#""Region":"eu""#), [Refused(NAMING); 3]),
        ("extension name underscore", with_members(r#""tenant_id":"t""#), [Refused(NAMING); 3]),
        ("extension name over 20", with_members(r#""averyveryverylongextensionname":"x""#), [Warns(NAMING), Refused(GW5), Warns(NAMING)]),
        ("extension name leading digit", with_members(r#""1region":"eu""#), [Valid, Refused(GW5), Valid]),
        ("extension name credential", with_members(r#""accesstoken":"abc""#), [Valid, Refused(R14), Valid]),
        ("extension name password", with_members(r#""password":"hunter2""#), [Valid, Refused(R14), Valid]),
        ("extension values of the type system", with_members(r#""flag":true,"count":2147483647,"low":-2147483648,"label":"x""#), [Valid; 3]),
        ("extension integer past i32", with_members(r#""count":2147483648"#), [Refused(TYPE_SYSTEM); 3]),
        ("extension integer below i32", with_members(r#""count":-2147483649"#), [Refused(TYPE_SYSTEM); 3]),
        ("extension float", with_members(r#""ratio":0.5"#), [Refused(TYPE_SYSTEM); 3]),
        ("extension object", with_members(r#""meta":{"a":1}"#), [Refused(TYPE_SYSTEM); 3]),
        ("extension array", with_members(r#""tags":["a"]"#), [Refused(TYPE_SYSTEM); 3]),
        ("documented extension retyped", with_members(r#""sequence":7"#), [Refused(R6); 3]),
        ("traceparent malformed", with("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "00-xyz-01"), [Refused(W3C); 3]),
        ("time with offset", with("2026-03-28T14:22:31.482Z", "2026-03-28T15:22:31.482+01:00"), [Valid, Refused(GW4), Valid]),
        ("time nanoseconds", with("2026-03-28T14:22:31.482Z", "2026-03-28T14:22:31.123456789Z"), [Valid; 3]),
        ("time not RFC 3339", with("2026-03-28T14:22:31.482Z", "28/03/2026"), [Refused(CE_TIME), Refused(GW4), Refused(CE_TIME)]),
        ("time not a calendar day", with("2026-03-28T14:22:31.482Z", "2023-02-29T00:00:00Z"), [Refused(CE_TIME), Refused(GW4), Refused(CE_TIME)]),
        ("time absent", with(r#""time":"2026-03-28T14:22:31.482Z","#, ""), [Valid, Warns(R2), Valid]),
        ("dataschema urn", with("https://schemas.example.com/orders/created/v1.json", "urn:example:schema:order:v1"), [Valid; 3]),
        ("dataschema without version", with("orders/created/v1.json", "orders/created/latest.json"), [Valid, Refused(R2), Valid]),
        ("dataschema relative", with("https://schemas.example.com/orders/created/v1.json", "/orders/created/v1.json"), [Refused(CE_DATASCHEMA); 3]),
        ("dataschema fragment", with("v1.json", "v1.json#order"), [Refused(CE_DATASCHEMA); 3]),
        ("dataschema v2 without type suffix", with("orders/created/v1.json", "orders/created/v2.json"), [Warns(R4), Refused(R4), Warns(R4)]),
        ("datacontenttype +json with parameters", with(r#""application/json""#, r#""application/vnd.foo+json; charset=utf-8""#), [Valid; 3]),
        ("datacontenttype not a media type", with(r#""application/json""#, r#""json""#), [Refused(CE_DATACONTENTTYPE); 3]),
        ("data_base64 without datacontenttype", with(r#""datacontenttype":"application/json","#, "").replace(r#""data":{"orderId":"order-8842"}"#, r#""data_base64":"eyAieHl6IjogMTIzIH0=""#), [Valid, Warns(R2), Valid]),
        ("data and data_base64", with(r#""data":"#, r#""data_base64":"AA==","data":"#), [Refused(R7); 3]),
        ("subject empty", with(r#""subject":"order-8842""#, r#""subject":"""#), [Refused(CE_SUBJECT); 3]),
        ("attributes over 4 KiB", with(r#""subject":"order-8842""#, &big_subject), [Warns(R11); 3]),
        ("event over 256 KiB", with(r#"{"orderId":"order-8842"}"#, &huge_data), [Refused(R11); 3]),
    ];
    let mut failures = Vec::new();
    for (name, json, expected) in &cases {
        for (profile, expect) in Profile::ALL.into_iter().zip(expected) {
            let report = Validator::new(profile).validate_bytes::<Json>(json.as_bytes());
            let ok = match *expect {
                Valid => report.is_valid(),
                Warns(rule) => {
                    report.is_valid() && report.warnings().any(|f| f.rule.as_str() == rule)
                }
                Refused(rule) => report.errors().any(|f| f.rule.as_str() == rule),
            };
            if !ok {
                failures.push(format!(
                    "{name} [{profile}] expected {expect:?}, got:\n{report}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
