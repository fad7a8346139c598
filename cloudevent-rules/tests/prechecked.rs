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
    ) {
        let policy = Policy::new(profile);
        let (c_ty, c_source, c_schema, c_content) = claimed;
        let forged = Prechecked {
            ty: c_ty,
            source: c_source,
            datacontenttype: c_content,
            dataschema: c_schema,
            extension_names: &claimed_names,
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
            time: Some("2026-11-23T10:00:00Z"),
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
