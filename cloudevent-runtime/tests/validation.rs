//! Profiles, the validator's reports, batches, size limits and traceability.

use cloudevent_runtime::{
    AnyEvent, Batch, BuildError, CloudEvent, Document, Event, FormatError, Profile, Severity,
    Validator,
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
        let report = Validator::new(profile).validate_slice(GOOD.as_bytes());
        assert!(report.is_valid(), "{profile}: {report}");
        assert_eq!(report.id(), Some("01HZX3KQVB8E72GQJHF5RM6YWN"));
    }
}

#[test]
fn the_standards_invalid_example_lists_every_finding() {
    let report = Validator::new(Profile::IntgStd015).validate_slice(
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
            .validate_slice(short_type.as_bytes())
            .has_rule("INTG-STD-015 R-4")
    );
    assert!(lax.validate_slice(short_type.as_bytes()).is_valid());

    // R-5 / R-14: infrastructure in the source.
    let internal = with(
        "https://orders.example.com/checkout",
        "https://10.0.0.7/checkout",
    );
    let report = strict.validate_slice(internal.as_bytes());
    assert!(!report.is_valid(), "{report}");
    assert!(report.errors().any(|f| f.attribute == "source"));
    assert!(lax.validate_slice(internal.as_bytes()).is_valid());

    // gateway 4: UTC only.
    let offset = with("2026-03-28T14:22:31.482Z", "2026-03-28T15:22:31.482+01:00");
    assert!(!strict.validate_slice(offset.as_bytes()).is_valid());
    assert!(lax.validate_slice(offset.as_bytes()).is_valid());

    // gateway 5: extension names of at most 20 characters starting with a letter.
    let long = with(
        r#""traceparent""#,
        r#""averyveryverylongextensionname":"x","traceparent""#,
    );
    assert!(
        strict
            .validate_slice(long.as_bytes())
            .has_rule("INTG-STD-015 gateway 5")
    );
    let lax_report = lax.validate_slice(long.as_bytes());
    assert!(lax_report.is_valid(), "{lax_report}");
}

#[test]
fn nl_gov_profile_checks_its_own_conventions() {
    let nl = Validator::new(Profile::NlGov);
    let report = nl.validate_slice(GOOD.as_bytes());
    // NL GOV recommends `urn:nld:` sources: a warning, not an error.
    assert!(report.is_valid(), "{report}");
    let urn = with(
        "https://orders.example.com/checkout",
        "urn:nld:oin:00000001234567890000:systeem:orders",
    );
    let report = nl.validate_slice(urn.as_bytes());
    assert!(report.is_valid(), "{report}");
    assert!(
        report.warnings().count()
            <= Validator::new(Profile::NlGov)
                .validate_slice(GOOD.as_bytes())
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
        let report = v.validate_slice(with(replace, by).as_bytes());
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
    let report = v.validate_slice(v2.as_bytes());
    assert!(!report.is_valid(), "{report}");
    let both = v2.replace("com.example.order.created", "com.example.order.created.v2");
    let report = v.validate_slice(both.as_bytes());
    assert!(report.is_valid(), "{report}");
}

#[test]
fn type_prefix_roots_types_at_the_organisation() {
    let v = Validator::new(Profile::IntgStd015).type_prefix("org.example");
    let report = v.validate_slice(GOOD.as_bytes());
    assert!(!report.is_valid());
    assert!(report.errors().any(|f| f.attribute == "type"), "{report}");
    assert!(
        Validator::new(Profile::IntgStd015)
            .type_prefix("com.example")
            .validate_slice(GOOD.as_bytes())
            .is_valid()
    );
}

#[test]
fn the_report_lists_format_problems_and_keeps_going() {
    let json = r#"{"specversion":"1.0","id":"1","id":"2","source":"https://orders.example.com","type":"com.example.order.created","comexampleint":2147483648,"comexamplefloat":1.5,"data":{},"data_base64":"AA=="}"#;
    let report = Validator::new(Profile::CloudEvents).validate_slice(json.as_bytes());
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
    let report = Validator::new(Profile::IntgStd015).validate_slice(json.as_bytes());
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
    let report = v.validate_slice(big_data.as_bytes());
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
    let report = v.validate_slice(too_big.as_bytes());
    assert!(!report.is_valid());
    assert_eq!(report.id(), None, "not parsed");
    assert!(report.has_rule("INTG-STD-015 R-11"));

    let big_attrs = with(
        r#""subject":"order-8842""#,
        &format!(r#""subject":"{}""#, "s".repeat(5000)),
    );
    let report = v.validate_slice(big_attrs.as_bytes());
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
    let adr = Validator::new(Profile::IntgStd015).require_traceability(true);
    assert!(plain.validate_slice(GOOD.as_bytes()).is_valid());
    let report = adr.validate_slice(GOOD.as_bytes());
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
    let report = adr.validate_slice(&event.to_vec().unwrap());
    assert!(report.is_valid(), "{report}");
    let any = AnyEvent::from_slice(&event.to_vec().unwrap()).unwrap();
    assert!(adr.validate(&any).is_valid());

    let empty = with(
        r#""traceparent""#,
        r#""correlationid":"","causationid":5,"traceparent""#,
    );
    let report = adr.validate_slice(empty.as_bytes());
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
    let empty = v.validate_batch_slice(b"[]");
    assert!(empty.is_valid() && empty.events().is_empty());

    let bad = r#"{"specversion":"0.3","id":"2","source":"/s","type":"t"}"#;
    let batch = format!("[{GOOD},{bad}]");
    let report = v.validate_batch_slice(batch.as_bytes());
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
    let report = v.validate_batch_slice(many.as_bytes());
    assert!(report.is_valid());
    assert!(
        report
            .findings()
            .iter()
            .any(|f| f.severity == Severity::Warning && f.rule.as_str() == "INTG-STD-015 R-10")
    );

    let huge = vec![b' '; 1024 * 1024 + 1];
    assert!(!v.validate_batch_slice(&huge).is_valid());
    assert!(matches!(
        Batch::from_slice(&huge),
        Err(FormatError::TooLarge { .. })
    ));

    let not_array = v.validate_batch_slice(b"{}");
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
    let report = Validator::new(Profile::IntgStd015).validate_slice(b"{}");
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
    assert!(event().with_traceparent("not-a-traceparent").is_err());
    assert!(event().with_tracestate("vendor=value").is_ok());
    assert!(event().with_subject("line\nbreak").is_err());
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
    .traceparent("nope")
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
