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
