use super::*;
use crate::format::RawData;

#[test]
fn strict_findings_stop_at_the_first_error_lenient_ones_collect() {
    let warning = Violation::warning(rule::INTG_R2, "time", "", "absent");
    let error = Violation::error(rule::INTG_R2, "id", "", "absent");
    let mut strict = Findings::strict();
    assert!(strict.report(warning.clone()).is_ok());
    assert!(strict.report(error.clone()).is_err());
    assert_eq!(strict.take_error(), Some(error.clone()));

    let mut lenient = Findings::lenient();
    assert!(lenient.report(error.clone()).is_ok());
    assert!(lenient.report(error).is_ok());
    assert_eq!(lenient.list.len(), 2);
}

#[test]
fn lenient_parse_reports_every_structural_problem() {
    let input = br#"{"id":"1","id":"2","x":1.5,"y":[1],"data":{},"data_base64":"??"}"#;
    let mut findings = Findings::lenient();
    let (envelope, _) = parse_slice(
        input,
        RawData::default(),
        None,
        &crate::AnyEvent::DEFAULT_POLICY,
        &mut findings,
    )
    .unwrap();
    let attributes: Vec<&str> = findings.list.iter().map(|v| &*v.attribute).collect();
    // The structural problems as they are read, then the envelope check's findings.
    assert_eq!(
        attributes,
        [
            "id",
            "x",
            "y",
            "data_base64",
            "specversion",
            "source",
            "type"
        ]
    );
    assert_eq!(
        envelope.id.as_deref(),
        Some("1"),
        "the first of duplicates is kept"
    );
}

#[test]
fn keys_and_values_borrow_from_the_input_when_unescaped() {
    let input = br#"{"specversion":"1.0","id":"a\"b","source":"/s","type":"t"}"#;
    let mut findings = Findings::strict();
    let (envelope, _) = parse_slice(
        input,
        RawData::default(),
        None,
        &crate::AnyEvent::DEFAULT_POLICY,
        &mut findings,
    )
    .unwrap();
    assert!(matches!(envelope.source, Some(Cow::Borrowed("/s"))));
    assert!(matches!(envelope.id, Some(Cow::Owned(ref id)) if id == "a\"b"));
}

#[test]
fn truncate_cuts_long_values_on_a_char_boundary() {
    assert_eq!(truncate("short"), "short");
    let long = "é".repeat(100);
    let cut = truncate(&long);
    assert!(cut.ends_with("...") && cut.len() <= 83, "{cut}");
}

#[test]
fn integers_outside_the_i32_range_are_refused_with_the_number_as_written() {
    // serde_json hands a negative number over as an i64 and any other as a u64: both
    // reach the rules crate's one Integer range check with their value intact.
    for (number, fits) in [
        ("2147483647", true),
        ("-2147483648", true),
        ("2147483648", false),
        ("-2147483649", false),
        ("18446744073709551615", false),
        ("-9223372036854775808", false),
    ] {
        let input =
            format!(r#"{{"specversion":"1.0","id":"1","source":"/s","type":"t","hops":{number}}}"#);
        let mut findings = Findings::lenient();
        let (envelope, _) = parse_slice(
            input.as_bytes(),
            RawData::default(),
            None,
            &crate::AnyEvent::DEFAULT_POLICY,
            &mut findings,
        )
        .unwrap();
        let refused: Vec<_> = findings
            .list
            .iter()
            .filter(|v| v.attribute == "hops")
            .collect();
        if fits {
            assert!(refused.is_empty(), "{number}: {refused:?}");
            let kept = envelope.extensions.get("hops").map(|v| v.as_value());
            let kept = kept.map(|v| crate::extension::canonical(v).into_owned());
            assert_eq!(kept.as_deref(), Some(number));
        } else {
            assert_eq!(refused.len(), 1, "{number}");
            assert_eq!(refused[0].rule, rule::CE_TYPE_SYSTEM);
            assert_eq!(refused[0].value, number);
            assert_eq!(envelope.extensions.get("hops"), None);
        }
    }
}
