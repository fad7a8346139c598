//! `Policy::check_envelope_prechecked` finds the errors `Policy::check_envelope` finds, in
//! the same order, whenever the prechecked constants are a declaration the policy accepts
//! (what `#[derive(CloudEvent)]` guarantees before it fills `PRECHECKED`). Only warnings on
//! the constants may be left out. Envelopes mix the constants with hostile values.

use cloudevent_rules::{
    Declaration, Envelope, ExtensionValue, Mode, Policy, Prechecked, Profile, Violation, has_error,
};
use proptest::prelude::*;

const TYPES: &[&str] = &[
    "com.example.order.created.v1",
    "com.example.order.created",
    "ordercreated",
    "dev.cdevents.artifact.packaged.0.3.0",
    "Com.Example.Order",
    "com.example..x",
    "bad type",
    "",
];
const SOURCES: &[&str] = &[
    "https://orders.example.com/checkout",
    "/orders/checkout",
    "urn:example:orders",
    "http://localhost:8080/x",
    "not a uri",
    "https://orders.example.com/a\u{1}b",
    "",
];
const SCHEMAS: &[&str] = &[
    "https://schemas.example.com/order/created/v1.json",
    "https://schemas.example.com/order/created/v2.json",
    "/schemas/order/v1.json",
    "relative",
    "",
];
const EXTENSION_NAMES: &[&str] = &[
    "region",
    "tenant",
    "Region",
    "sessionid",
    "x_y",
    "averyveryverylongextensionname",
    "correlationid",
    "9lives",
];
/// `time` values: what the Protobuf reader writes, and texts some profile finds fault with.
const TIMES: &[&str] = &[
    "2026-11-23T10:00:00Z",
    "0001-01-01T00:00:00.000000001Z",
    "2026-11-23T10:00:00+01:00",
    "2026-11-23t10:00:00Z",
    "2026-11-23T10:00:00z",
    "2026-02-30T10:00:00Z",
    "2026-11-23T10:00:00.1234567891Z",
    "2026-11-23T10:00:60Z",
    "2026-11-23",
    "",
];
const CONTENT_TYPES: &[&str] = &[
    "application/json",
    "application/cloudevents+json",
    "text/plain; charset=utf-8",
    "bogus",
    "",
];

fn pick(pool: &'static [&'static str]) -> impl Strategy<Value = Option<&'static str>> {
    prop_oneof![Just(None), proptest::sample::select(pool).prop_map(Some)]
}

/// An attribute of the envelope: the prechecked constant itself, or any value of the pool.
fn value(pool: &'static [&'static str]) -> impl Strategy<Value = (bool, Option<&'static str>)> {
    (any::<bool>(), pick(pool))
}

fn errors(found: Vec<Violation>) -> Vec<Violation> {
    found.into_iter().filter(Violation::is_error).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, max_global_rejects: 200_000, ..ProptestConfig::default() })]

    #[test]
    fn prechecked_constants_change_no_error(
        profile in proptest::sample::select(&Profile::ALL[..]),
        declared in (pick(TYPES), pick(SOURCES), pick(SCHEMAS), pick(CONTENT_TYPES)),
        ty in value(TYPES),
        source in value(SOURCES),
        dataschema in value(SCHEMAS),
        datacontenttype in value(CONTENT_TYPES),
        id in pick(&["1", "", "01JD0000000000000000000000"]),
        declared_names in proptest::sample::subsequence(EXTENSION_NAMES, 0..3),
        sent_names in proptest::sample::subsequence(EXTENSION_NAMES, 0..4),
    ) {
        let policy = Policy::new(profile);
        let declared_kinds: Vec<(&str, Option<cloudevent_rules::AttributeKind>)> =
            declared_names.iter().map(|n| (*n, None)).collect();
        let (d_ty, d_source, d_schema, d_content) = declared;
        let declaration = Declaration {
            ty: d_ty,
            source: d_source,
            datacontenttype: d_content,
            dataschema: d_schema,
            subject: None,
            extensions: &declared_kinds,
        };
        // The derive refuses to compile a declaration with an error: no PRECHECKED then.
        prop_assume!(!has_error(&policy.check_declaration(&declaration)));
        let prechecked = Prechecked {
            ty: d_ty,
            source: d_source,
            datacontenttype: d_content,
            dataschema: d_schema,
            extension_names: &declared_names,
            time: None,
        };
        // What the derive made, the policy confirms whole: the shortcut stays.
        prop_assert_eq!(policy.confirm_prechecked(&prechecked), prechecked);
        let extensions: Vec<(&str, ExtensionValue<'_>)> =
            sent_names.iter().map(|n| (*n, ExtensionValue::String("x"))).collect();
        let either = |(constant, other): (bool, Option<&'static str>), declared: Option<&'static str>| {
            if constant && declared.is_some() { declared } else { other }
        };
        let envelope = Envelope {
            specversion: Some("1.0"),
            id,
            source: either(source, d_source),
            ty: either(ty, d_ty),
            datacontenttype: either(datacontenttype, d_content),
            dataschema: either(dataschema, d_schema),
            time: Some("2026-11-23T10:00:00Z"),
            extensions: &extensions,
            ..Envelope::default()
        };
        for mode in [Mode::FirstError, Mode::Collect] {
            prop_assert_eq!(
                errors(policy.check_envelope_prechecked(&envelope, mode, &prechecked)),
                errors(policy.check_envelope(&envelope, mode)),
                "{:?} under {:?}", mode, profile
            );
        }
    }
}

/// The shortcut is taken: a prechecked `type` with a SHOULD finding is not repeated, and
/// nothing prechecked (`Prechecked::NONE`) is the plain check.
#[test]
fn a_prechecked_constant_is_not_checked_again() {
    let policy = Policy::new(Profile::CloudEvents);
    // Not reverse-DNS: a SHOULD finding on `type` under the CloudEvents profile.
    let ty = "ordercreated";
    let envelope = Envelope {
        specversion: Some("1.0"),
        id: Some("1"),
        source: Some("https://orders.example.com/checkout"),
        ty: Some(ty),
        time: Some("2026-11-23T10:00:00Z"),
        ..Envelope::default()
    };
    let plain = policy.check_envelope(&envelope, Mode::Collect);
    assert!(plain.iter().any(|v| v.attribute == "type"), "{plain:?}");
    let none = policy.check_envelope_prechecked(&envelope, Mode::Collect, &Prechecked::NONE);
    assert_eq!(none, plain);
    let known = Prechecked {
        ty: Some(ty),
        ..Prechecked::NONE
    };
    let skipped = policy.check_envelope_prechecked(&envelope, Mode::Collect, &known);
    assert!(skipped.iter().all(|v| v.attribute != "type"), "{skipped:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// A claim nobody checked (a hand-written `PRECHECKED`: any values, broken ones too),
    /// once the policy confirmed it, changes no error either.
    #[test]
    fn a_confirmed_forged_claim_changes_no_error(
        profile in proptest::sample::select(&Profile::ALL[..]),
        claimed in (pick(TYPES), pick(SOURCES), pick(SCHEMAS), pick(CONTENT_TYPES)),
        ty in value(TYPES),
        source in value(SOURCES),
        dataschema in value(SCHEMAS),
        datacontenttype in value(CONTENT_TYPES),
        claimed_names in proptest::sample::subsequence(EXTENSION_NAMES, 0..3),
        sent_names in proptest::sample::subsequence(EXTENSION_NAMES, 0..4),
        claimed_time in pick(TIMES),
        time in value(TIMES),
    ) {
        let policy = Policy::new(profile);
        let (c_ty, c_source, c_schema, c_content) = claimed;
        let forged = Prechecked {
            ty: c_ty,
            source: c_source,
            datacontenttype: c_content,
            dataschema: c_schema,
            extension_names: &claimed_names,
            time: claimed_time,
        };
        let confirmed = policy.confirm_prechecked(&forged);
        let extensions: Vec<(&str, ExtensionValue<'_>)> =
            sent_names.iter().map(|n| (*n, ExtensionValue::String("x"))).collect();
        let either = |(constant, other): (bool, Option<&'static str>), claimed: Option<&'static str>| {
            if constant && claimed.is_some() { claimed } else { other }
        };
        let envelope = Envelope {
            specversion: Some("1.0"),
            id: Some("1"),
            source: either(source, c_source),
            ty: either(ty, c_ty),
            datacontenttype: either(datacontenttype, c_content),
            dataschema: either(dataschema, c_schema),
            time: either(time, claimed_time),
            extensions: &extensions,
            ..Envelope::default()
        };
        for mode in [Mode::FirstError, Mode::Collect] {
            prop_assert_eq!(
                errors(policy.check_envelope_prechecked(&envelope, mode, &confirmed)),
                errors(policy.check_envelope(&envelope, mode)),
                "{:?} under {:?}, forged {:?}", mode, profile, forged
            );
        }
    }
}

/// Text of the shape the Protobuf reader writes for `time` (`Timestamp::utc` of the runtime):
/// an instant of 0001-01-01 to 9999-12-31 in UTC, `YYYY-MM-DDTHH:MM:SS`, a fraction of 0, 3,
/// 6 or 9 digits, `Z`. Every day of every month of every year, leap days included.
fn utc_text() -> impl Strategy<Value = String> {
    (
        1_u32..=9999,
        1_u32..=12,
        1_u32..=31,
        (0_u32..24, 0_u32..60, 0_u32..60),
        (
            proptest::sample::select(&[0_usize, 3, 6, 9][..]),
            0_u32..1_000_000_000,
        ),
    )
        .prop_map(
            |(year, month, day, (hour, minute, second), (digits, nanos))| {
                let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
                let last = match month {
                    2 if leap => 29,
                    2 => 28,
                    4 | 6 | 9 | 11 => 30,
                    _ => 31,
                };
                let day = day.min(last);
                let fraction = match digits {
                    0 => String::new(),
                    digits => format!(".{:09}", nanos)[..=digits].to_owned(),
                };
                format!(
                    "{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}{fraction}Z"
                )
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    /// What a `time` claim skips finds nothing on the text a reader writes from an in-range
    /// instant: neither the `time` rule nor the String rule, under any profile, finds an
    /// error or a warning, so the policy confirms the claim and the whole check (every
    /// finding, warnings included, in order) is the same with and without it. A batch memo,
    /// which remembers an event only when its check found nothing, sees the same lists.
    #[test]
    fn a_time_written_from_an_instant_is_found_clean_everywhere(
        text in utc_text(),
        ty in pick(TYPES),
        source in pick(SOURCES),
        sent_names in proptest::sample::subsequence(EXTENSION_NAMES, 0..3),
    ) {
        prop_assert!(cloudevent_rules::check_string_value("time", &text).is_empty(), "{}", text);
        let extensions: Vec<(&str, ExtensionValue<'_>)> =
            sent_names.iter().map(|n| (*n, ExtensionValue::String("x"))).collect();
        let envelope = Envelope {
            specversion: Some("1.0"),
            id: Some("1"),
            source,
            ty,
            time: Some(&text),
            extensions: &extensions,
            ..Envelope::default()
        };
        for profile in Profile::ALL {
            let policy = Policy::new(profile);
            prop_assert!(cloudevent_rules::check_time(&text, profile).is_empty(), "{} under {:?}", text, profile);
            let claim = Prechecked { time: Some(&text), ..Prechecked::NONE };
            prop_assert_eq!(policy.confirm_prechecked(&claim), claim);
            for mode in [Mode::FirstError, Mode::Collect] {
                prop_assert_eq!(
                    policy.check_envelope_prechecked(&envelope, mode, &claim),
                    policy.check_envelope(&envelope, mode),
                    "{:?} under {:?}", mode, profile
                );
            }
        }
    }
}

/// A `time` claim the policy finds anything on is dropped: an offset (an error under
/// INTG-STD-015 only), a lowercase `t`, a day the calendar has not, and the empty text.
#[test]
fn a_time_claim_with_a_finding_is_not_confirmed() {
    for (text, profile) in [
        ("2026-11-23T10:00:00+01:00", Profile::IntgStd015),
        ("2026-11-23t10:00:00Z", Profile::IntgStd015),
        ("2026-02-30T10:00:00Z", Profile::CloudEvents),
        ("", Profile::CloudEvents),
    ] {
        let claim = Prechecked {
            time: Some(text),
            ..Prechecked::NONE
        };
        assert_eq!(
            Policy::new(profile).confirm_prechecked(&claim).time,
            None,
            "{text}"
        );
    }
    let claim = Prechecked {
        time: Some("2026-11-23T10:00:00+01:00"),
        ..Prechecked::NONE
    };
    assert_eq!(
        Policy::new(Profile::CloudEvents)
            .confirm_prechecked(&claim)
            .time,
        claim.time
    );
}
