use super::*;

fn valid<'a>(extensions: &'a dyn ExtensionAttributes) -> Envelope<'a> {
    Envelope {
        specversion: Some("1.0"),
        id: Some("01HZX3KQVB8E72GQJHF5RM6YWN"),
        source: Some("https://orders.example.com/checkout"),
        ty: Some("com.example.order.created"),
        time: Some("2026-03-28T14:22:31Z"),
        extensions,
        ..Envelope::default()
    }
}

fn rules(found: &[Violation]) -> Vec<&'static str> {
    found.iter().map(|v| v.rule.as_str()).collect()
}

#[test]
fn first_error_is_the_first_of_the_collected_errors() {
    let extensions = [
        ("ExtA", ExtensionValue::String("x")),
        ("userEmail", ExtensionValue::String("a@b")),
    ];
    let envelope = Envelope {
        source: Some("https://localhost:8080/x"),
        time: Some("2026-03-28T14:22:31+01:00"),
        dataschema: Some("https://schemas.example.com/orders/latest.json"),
        ..valid(&extensions)
    };
    for profile in Profile::ALL {
        let policy = Policy::new(profile);
        let all = policy.check_envelope(&envelope, Mode::Collect);
        let first = policy.check_envelope(&envelope, Mode::FirstError);
        let first_error = first.iter().find(|v| v.is_error());
        assert_eq!(first_error, all.iter().find(|v| v.is_error()), "{profile}");
    }
}

#[test]
fn rule_ids_are_decided_per_profile() {
    let envelope = Envelope {
        specversion: None,
        id: None,
        ..valid(&())
    };
    let ce = Policy::new(Profile::CloudEvents).check_envelope(&envelope, Mode::Collect);
    assert_eq!(rules(&ce), ["CE 1.0.2 specversion", "CE 1.0.2 required"]);
    let intg = Policy::new(Profile::IntgStd015).check_envelope(&envelope, Mode::Collect);
    assert_eq!(rules(&intg), ["INTG-STD-015 R-1", "INTG-STD-015 R-2"]);
}

#[test]
fn gateway_rules_apply_only_under_intg_std_015() {
    let extensions = [("authtoken", ExtensionValue::String("x"))];
    let envelope = Envelope {
        source: Some("https://localhost:8080/orders"),
        time: Some("2026-03-28T14:22:31+01:00"),
        dataschema: Some("https://schemas.example.com/orders/latest.json"),
        ..valid(&extensions)
    };
    let ce = Policy::new(Profile::CloudEvents).check_envelope(&envelope, Mode::Collect);
    assert!(!has_error(&ce), "{ce:?}");
    let intg = Policy::new(Profile::IntgStd015).check_envelope(&envelope, Mode::Collect);
    let errors: Vec<_> = intg
        .iter()
        .filter(|v| v.is_error())
        .map(|v| &*v.attribute)
        .collect();
    assert_eq!(
        errors,
        ["source", "source", "dataschema", "time", "extension"],
        "{intg:?}"
    );
}

#[test]
fn type_schema_disagreement_is_an_error_only_under_intg_std_015() {
    let envelope = Envelope {
        ty: Some("com.example.order.created.v2"),
        dataschema: Some("https://schemas.example.com/orders/created/v1.json"),
        ..valid(&())
    };
    for (profile, severity) in [
        (Profile::CloudEvents, Severity::Warning),
        (Profile::NlGov, Severity::Warning),
        (Profile::IntgStd015, Severity::Error),
    ] {
        let found = Policy::new(profile).check_envelope(&envelope, Mode::Collect);
        let agreement = found
            .iter()
            .find(|v| v.rule == rule::INTG_R4 && v.attribute == "type");
        assert_eq!(
            agreement.map(|v| v.severity),
            Some(severity),
            "{profile}: {found:?}"
        );
    }
}

#[test]
fn traceability_is_checked_when_the_policy_requires_it() {
    let policy = Policy::new(Profile::CloudEvents).with_required_traceability(true);
    let found = policy.check_envelope(&valid(&()), Mode::Collect);
    assert_eq!(rules(&found), ["ADR-0003", "ADR-0003"]);
    let extensions = [
        ("correlationid", ExtensionValue::String("c")),
        ("causationid", ExtensionValue::String("p")),
    ];
    assert!(
        policy
            .check_envelope(&valid(&extensions), Mode::Collect)
            .is_empty()
    );
}

#[test]
fn written_lengths_follow_the_canonical_string() {
    for i in [0, 7, -3, 10, 99, 100, i32::MAX, i32::MIN] {
        assert_eq!(
            ExtensionValue::Integer(i).written_len(),
            i.to_string().len(),
            "{i}"
        );
    }
    assert_eq!(ExtensionValue::Boolean(false).written_len(), 5);
    assert_eq!(ExtensionValue::Binary(b"hi").written_len(), "aGk=".len());
}

/// Issue 24: `dataschema` = the type URL of `proto_data` is the Protobuf format's own advice:
/// no finding under the CloudEvents and NL GOV profiles, one warning naming both documents
/// under INTG-STD-015; the same value without that type URL is a relative reference.
#[test]
fn a_dataschema_that_is_the_type_url_of_proto_data() {
    const URL: &str = "type.googleapis.com/com.example.orders.v1.OrderCreated";
    let envelope = Envelope {
        specversion: Some("1.0"),
        id: Some("1"),
        source: Some("https://orders.example.com/checkout"),
        ty: Some("com.example.order.created"),
        datacontenttype: Some("application/protobuf"),
        dataschema: Some(URL),
        time: Some("2026-11-23T10:00:00Z"),
        data: Some(2),
        data_type_url: Some(URL),
        ..Envelope::default()
    };
    for profile in [Profile::CloudEvents, Profile::NlGov] {
        let found = Policy::new(profile).check_envelope(&envelope, Mode::Collect);
        assert!(
            found.iter().all(|v| v.attribute != "dataschema"),
            "{profile:?}: {found:?}"
        );
    }
    let strict = Policy::new(Profile::IntgStd015).check_envelope(&envelope, Mode::FirstError);
    let dataschema: Vec<_> = strict
        .iter()
        .filter(|v| v.attribute == "dataschema")
        .collect();
    assert_eq!(dataschema.len(), 1, "{strict:?}");
    assert_eq!(dataschema[0].severity, Severity::Warning);
    assert_eq!(dataschema[0].rule.as_str(), "INTG-STD-015 R-2");
    let text = dataschema[0].to_string();
    for named in [
        "CloudEvents Protobuf format",
        "CE 1.0.2 dataschema",
        "https://type.googleapis.com/",
    ] {
        assert!(text.contains(named), "{text}");
    }
    for other in [None, Some("type.googleapis.com/example.Other")] {
        let json = Envelope {
            data_type_url: other,
            ..envelope
        };
        let found = Policy::new(Profile::CloudEvents).check_envelope(&json, Mode::FirstError);
        assert_eq!(
            found.last().map(|v| v.rule.as_str()),
            Some("CE 1.0.2 dataschema")
        );
    }
}

/// A control character in `type` is one finding under the type system's rule in every
/// profile (it was reported twice under `cloudevents`: once as a String, once by the type
/// rule; the type-template fuzz target found it).
#[test]
fn a_control_character_in_type_is_said_once() {
    let extensions: [(&str, ExtensionValue<'_>); 0] = [];
    let envelope = Envelope {
        ty: Some("com.example.order\u{19}.created"),
        ..valid(&extensions)
    };
    for profile in Profile::ALL {
        let found = Policy::new(profile).check_envelope(&envelope, Mode::Collect);
        let said = rules(&found)
            .into_iter()
            .filter(|r| *r == "CE 1.0.2 type system")
            .count();
        assert_eq!(said, 1, "{profile}: {found:?}");
    }
}
