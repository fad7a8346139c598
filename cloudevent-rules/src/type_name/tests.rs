use super::*;
use crate::Severity;

fn strict() -> Policy {
    Policy::new(Profile::IntgStd015)
}

fn parts(found: &[Violation]) -> Vec<String> {
    found
        .iter()
        .map(|v| format!("{} | {}", v.part.as_deref().unwrap_or("-"), v.problem))
        .collect()
}

/// Where INTG-STD-015's suffix reader finds a version, the reader of published schemes
/// finds the same one.
#[test]
fn both_version_readers_agree_on_our_suffixes() {
    for ty in [
        "com.example.order.created.v2",
        "com.example.order.created.v10",
        "nl.brp.huwelijk-voltrokken.v0.1.0",
        "nl.vng.zaken.zaak-aangemaakt.v1.2.3",
        "com.example.order.created",
        "com.example.v2x",
        "dev.cdevents.artifact.packaged.0.3.0",
    ] {
        let (name, version) = split_version(ty);
        if let Some(version) = version {
            assert_eq!(
                split_type_version(ty),
                (name, Some(version.to_owned())),
                "{ty}"
            );
        }
    }
}

#[test]
fn strict_accepts() {
    for ok in [
        "com.example.order.created",
        "com.example.order.created.v2",
        "com.example.order-line.item-added",
        "com.example.order.created2",
        "io.a1.b-2-c.d.e.f",
        "nl.brp.persoon.gehuwd",
    ] {
        assert!(
            check_type(ok, &strict()).is_empty(),
            "{ok}: {:?}",
            parts(&check_type(ok, &strict()))
        );
    }
}

#[test]
fn strict_rejects_with_the_broken_segment() {
    for (bad, expected) in [
        (
            "com.Example.order.created",
            "segment `Example` | must be lowercase",
        ),
        (
            "com.example.order_line.created",
            "segment `order_line` | `_` is not allowed; separate words with `-`",
        ),
        (
            "com.example.2order.created",
            "segment `2order` | must start with a letter, not a digit",
        ),
        (
            "com.example.order.created.2",
            "segment `2` | must start with a letter; write a version as `v<major>`",
        ),
        (
            "com.example..created.x",
            "empty segment `..` | segments are separated by a single dot",
        ),
        (
            ".com.example.order.created",
            "leading `.` | must not start with a dot",
        ),
        (
            "com.example.order.created.",
            "trailing `.` | must not end with a dot",
        ),
        (
            "com.example.order-.created",
            "segment `order-` | `-` must sit between letters or digits (single, not leading or trailing)",
        ),
        (
            "com.example.order--line.created",
            "segment `order--line` | `-` must sit between letters or digits (single, not leading or trailing)",
        ),
        (
            "com.example.-order.created",
            "segment `-order` | must start with a letter, not `-`",
        ),
        (
            "my-org.example.order.created",
            "segment `my-org` | the reverse-DNS root segment cannot hold `-`",
        ),
        (
            "com.example.order created.x",
            "segment `order created` | character ` ` (space) is not allowed; use `a-z`, `0-9` and `-`",
        ),
        (
            "com.example.ordér.created",
            "segment `ordér` | character `é` is not allowed; use `a-z`, `0-9` and `-`",
        ),
        (
            "com.example.created",
            "3 segments | needs at least 4 dot-separated segments: `{reverse-dns}.{domain}.{entity}.{action}[.vN]`",
        ),
    ] {
        let found = check_type(bad, &strict());
        assert!(
            parts(&found).contains(&expected.to_owned()),
            "{bad}: {:?}",
            parts(&found)
        );
        assert!(
            found
                .iter()
                .all(|v| v.rule == rule::INTG_R4 && v.severity == Severity::Error)
        );
    }
}

#[test]
fn strict_reports_every_broken_segment_and_the_count() {
    let found = check_type("OrderCreated", &strict());
    assert_eq!(
        parts(&found),
        [
            "segment `OrderCreated` | must be lowercase",
            "1 segment | needs at least 4 dot-separated segments: `{reverse-dns}.{domain}.{entity}.{action}[.vN]`"
        ]
    );
    assert_eq!(
        found[0].hint.as_deref(),
        Some("e.g. `com.example.order.created`")
    );
    assert_eq!(check_type("com.A.B.c", &strict()).len(), 2);
    assert_eq!(check_type("", &strict())[0].problem, "must not be empty");
}

#[test]
fn strict_hints_a_corrected_type() {
    for (bad, hint) in [
        (
            "com.Example.order.created",
            "e.g. `com.example.order.created`",
        ),
        (
            "com.example.order_line.created",
            "e.g. `com.example.order-line.created`",
        ),
        (
            "com.example.order.created.2",
            "e.g. `com.example.order.created.v2`",
        ),
        (
            "com.example..order.created.",
            "e.g. `com.example.order.created`",
        ),
    ] {
        assert_eq!(
            check_type(bad, &strict())[0].hint.as_deref(),
            Some(hint),
            "{bad}"
        );
    }
}

#[test]
fn display_matches_the_style_guide() {
    let found = check_type("com.Example.order.created", &strict());
    assert_eq!(
        found[0].to_string(),
        "type `com.Example.order.created` segment `Example`: must be lowercase (INTG-STD-015 R-4); \
         e.g. `com.example.order.created`"
    );
}

#[test]
fn prefix_is_enforced_on_whole_segments() {
    let policy = strict().with_type_prefix("com.example");
    assert!(check_type("com.example.order.created", &policy).is_empty());
    let found = check_type("com.examplecorp.order.created", &policy);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].problem,
        "must be rooted at the organisation prefix `com.example.`"
    );
    assert_eq!(
        found[0].hint.as_deref(),
        Some("e.g. `com.example.order.created`")
    );
    assert_eq!(check_type("com.example", &policy).len(), 2);
    let trailing_dot = strict().with_type_prefix("com.example.");
    assert!(check_type("com.example.order.created", &trailing_dot).is_empty());
    let ce = Policy::new(Profile::CloudEvents).with_type_prefix("com.example");
    assert_eq!(check_type("org.other.created", &ce)[0].rule, rule::CE_TYPE);
}

#[test]
fn cloudevents_profile() {
    let ce = Policy::new(Profile::CloudEvents);
    for ok in [
        "com.github.pull_request.opened",
        "com.example.object.deleted.v2",
        "com.example.x",
    ] {
        assert!(check_type(ok, &ce).is_empty(), "{ok}");
    }
    for warn in ["OrderCreated", "com.created", "1com.example.x", "com..x"] {
        let found = check_type(warn, &ce);
        assert_eq!(found.len(), 1, "{warn}");
        assert_eq!(found[0].severity, Severity::Warning);
        assert_eq!(found[0].rule, rule::CE_TYPE);
    }
    assert_eq!(
        check_type("OrderCreated", &ce)[0].hint.as_deref(),
        Some("e.g. `com.example.OrderCreated`")
    );
    let control = check_type("com.example.a\u{1}b", &ce);
    assert_eq!(control[0].rule, rule::CE_TYPE_SYSTEM);
    assert_eq!(
        control[0].part.as_deref(),
        Some("character U+0001 at byte 13")
    );
}

#[test]
fn nl_gov_profile() {
    let nl = Policy::new(Profile::NlGov);
    for ok in [
        "nl.brp.persoon-gehuwd",
        "nl.brp.huwelijk-voltrokken.v0.1.0",
        "nl.vng.zgw.zaken.status.create",
        "nl.amsterdam.erfpacht.overdracht.v2",
        "nl.brp.verhuizing.v1.2",
    ] {
        assert!(
            check_type(ok, &nl).is_empty(),
            "{ok}: {:?}",
            parts(&check_type(ok, &nl))
        );
    }
    for (bad, expected, severity) in [
        (
            "nl.BRP.persoon",
            "segment `BRP` | must be lowercase",
            Severity::Error,
        ),
        (
            "nl.brp.persoon_gehuwd",
            "segment `persoon_gehuwd` | `_` is not allowed in a domain label; separate words with `-`",
            Severity::Error,
        ),
        (
            "persoongehuwd",
            "- | must be in reverse domain name notation, at least two labels",
            Severity::Error,
        ),
        (
            "nl.brp.-x",
            "segment `-x` | `-` must sit between letters or digits",
            Severity::Error,
        ),
        (
            "1nl.brp.x",
            "segment `1nl` | the top-level label must start with a letter",
            Severity::Error,
        ),
        (
            "nl.brp.x.v1.2.3.4",
            "version `v1.2.3.4` | a semantic version has at most three numbers, `v<major>.<minor>.<patch>`",
            Severity::Warning,
        ),
        (
            "nl.brp.x.v01.0.0",
            "version `v01.0.0` | semantic version numbers have no leading zeros",
            Severity::Warning,
        ),
        (
            "nl.brp.x.1",
            "segment `1` | a version should be prefixed with `v`",
            Severity::Warning,
        ),
    ] {
        let found = check_type(bad, &nl);
        let index = parts(&found).iter().position(|p| p == expected);
        let index = index.unwrap_or_else(|| panic!("{bad}: {:?}", parts(&found)));
        assert_eq!(found[index].severity, severity, "{bad}");
        assert_eq!(found[index].rule, rule::NL_GOV_TYPE);
    }
}

#[test]
fn versions() {
    for (value, name, version, major) in [
        (
            "com.example.order.created.v2",
            "com.example.order.created",
            Some("v2"),
            Some(2),
        ),
        (
            "nl.brp.huwelijk-voltrokken.v0.1.0",
            "nl.brp.huwelijk-voltrokken",
            Some("v0.1.0"),
            Some(0),
        ),
        (
            "com.example.order.created",
            "com.example.order.created",
            None,
            None,
        ),
        ("com.example.order.1.0", "com.example.order.1.0", None, None),
        ("v2", "v2", None, None),
        (
            "com.example.v99999999999999999999999",
            "com.example",
            Some("v99999999999999999999999"),
            None,
        ),
    ] {
        assert_eq!(split_version(value), (name, version), "{value}");
        assert_eq!(type_version(value), major, "{value}");
    }
}

#[test]
fn prefix_check() {
    assert!(check_type_prefix("com.example", Profile::IntgStd015).is_empty());
    assert!(check_type_prefix("nl.brp", Profile::NlGov).is_empty());
    assert_eq!(
        check_type_prefix("com.example.", Profile::IntgStd015)[0]
            .part
            .as_deref(),
        Some("trailing `.`")
    );
    assert_eq!(
        check_type_prefix("com.my_org", Profile::NlGov)[0].rule,
        rule::NL_GOV_TYPE
    );
}

proptest::proptest! {
    /// Issue 25: the byte scan finds the char the char-by-char search found, and the
    /// printable-ASCII shortcut never hides a control character.
    #[test]
    fn byte_scans_find_what_the_char_search_found(text in "[a-z0-9A-Z_\\-. é\u{7f}\u{85}\t日]{0,12}") {
        let before = text
            .chars()
            .find(|&c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'));
        proptest::prop_assert_eq!(first_outside_label_bytes(&text), before);
        let control = text.chars().any(is_forbidden_control);
        proptest::prop_assert_eq!(!crate::check_string_value("type", &text).is_empty(), control);
    }
}

/// The `split_version` this crate had before issue 25's Protobuf decode row, kept as the
/// oracle: `rfind('.')` through the char searcher.
fn split_version_by_chars(value: &str) -> (&str, Option<&str>) {
    let mut end = value.len();
    loop {
        let Some(dot) = value[..end].rfind('.') else {
            return (value, None);
        };
        let segment = &value[dot + 1..end];
        if is_version_segment(segment) {
            return (&value[..dot], Some(&value[dot + 1..]));
        }
        if !is_number(segment) {
            return (value, None);
        }
        end = dot;
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2_000))]

    /// Issue 25 (Protobuf decode): the byte cuts give what `str::split('.')` and
    /// `rfind('.')` gave (the old code, kept here as the oracle), on types with dots,
    /// versions, empty segments, multi-byte chars and control characters; and the
    /// CloudEvents profile's verdict on the type (every finding) is what the old cuts give.
    #[test]
    fn split_dots_is_str_split(
        text in "(com|nl|Com|v1|v0|0|12|é|日|-|_|\u{7}|\u{85}|x|\\.){0,10}",
    ) {
        let old: Vec<&str> = text.split('.').collect();
        let new: Vec<&str> = split_dots(&text).collect();
        proptest::prop_assert_eq!(new, old);
        proptest::prop_assert_eq!(split_version(&text), split_version_by_chars(&text));
        let old_version = split_version_by_chars(&text)
            .1
            .and_then(|v| v[1..].split('.').next()?.parse::<u64>().ok());
        proptest::prop_assert_eq!(type_version(&text), old_version);
        let mut labels = text.split('.');
        let prefix_ok = matches!(
            (labels.next(), labels.next(), labels.next()),
            (Some(root), Some(second), Some(_))
                if label_problem(0, 3, root).is_none() && label_problem(1, 3, second).is_none()
        );
        let found = check_type(&text, &Policy::new(Profile::CloudEvents));
        let warned = found.iter().any(|v| v.severity == Severity::Warning);
        proptest::prop_assert_eq!(warned, !text.is_empty() && !prefix_ok);
    }
}

/// `label_problem` as it was before issue 25's Protobuf decode row, kept as the oracle.
fn label_problem_before(
    index: usize,
    count: usize,
    label: &str,
) -> Option<(String, Cow<'static, str>)> {
    if label.is_empty() {
        return Some(empty_segment_problem(index, count));
    }
    let part = || format!("segment `{label}`");
    if label.bytes().any(|b| b.is_ascii_uppercase()) {
        return Some((part(), "must be lowercase".into()));
    }
    if let Some(c) = first_outside_label_bytes(label) {
        let problem: Cow<'static, str> = if c == '_' {
            "`_` is not allowed in a domain label; separate words with `-`".into()
        } else {
            format!(
                "character {} is not allowed; use `a-z`, `0-9` and `-`",
                describe_char(c)
            )
            .into()
        };
        return Some((part(), problem));
    }
    if label.starts_with('-') || label.ends_with('-') {
        return Some((part(), "`-` must sit between letters or digits".into()));
    }
    if index == 0 && !label.as_bytes()[0].is_ascii_lowercase() {
        return Some((
            part(),
            "the top-level label must start with a letter".into(),
        ));
    }
    None
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2_000))]

    /// Issue 25 (Protobuf decode): one pass for a label of allowed bytes gives the finding
    /// (part and problem) the two passes gave, uppercase before any other character.
    #[test]
    fn label_problem_is_the_old_one(
        label in "(a|z|0|9|-|A|Q|_|é|\\.| |\u{7}){0,8}",
        index in 0usize..3,
    ) {
        proptest::prop_assert_eq!(label_problem(index, 3, &label), label_problem_before(index, 3, &label));
    }
}

/// The one-pass reading of INTG-STD-015 R-4's pattern that `check_intg` accepts with agrees
/// with the segment-by-segment diagnosis on every string of up to 9 bytes over `a`, `0`, `-`
/// and `.` (and on a sample with the bytes the diagnosis names: uppercase, `_`, a space,
/// non-ASCII): accepted exactly when the diagnosis finds nothing.
#[test]
fn the_strict_type_pass_accepts_exactly_what_the_diagnosis_finds_nothing_in() {
    fn agree(value: &str) {
        assert_eq!(
            is_strict_type(value.as_bytes()),
            diagnose_intg(value).is_empty(),
            "{value:?}"
        );
    }
    let alphabet = [b'a', b'0', b'-', b'.'];
    let mut accepted = 0;
    for len in 0..=9u32 {
        for mut n in 0..alphabet.len().pow(len) {
            let mut bytes = Vec::with_capacity(len as usize);
            for _ in 0..len {
                bytes.push(alphabet[n % alphabet.len()]);
                n /= alphabet.len();
            }
            let value = std::str::from_utf8(&bytes).expect("ASCII");
            agree(value);
            accepted += usize::from(is_strict_type(value.as_bytes()));
        }
    }
    // `a.a.a.a`, `a.a.a.a0`, `a.a-0.a.a`, ...: the pass accepts some, so it can disagree.
    assert!(accepted > 50, "{accepted}");
    for value in [
        "com.example.order.created",
        "com.example.order-line.created.v2",
        "com.Example.order.created",
        "com.example.order_line.created",
        "com.example.order line.created",
        "com.exämple.order.created",
        "com.example.order.created.",
        ".com.example.order.created",
        "com.example..order.created",
        "com-x.example.order.created",
        "com.example.-order.created",
        "com.example.order-.created",
        "com.example.order--line.created",
        "com.example.9order.created",
        "com.example.order.created.2",
        "com.example.created",
        "c.e.o.c",
        "c0.e0.o-1.c-2-3",
        "",
    ] {
        agree(value);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4_000))]

    /// Longer types than the exhaustive test reaches, of segments a type is made of (valid
    /// ones, and ones broken each way the diagnosis names), then a tail of up to two bytes
    /// (a dot, a letter, a digit, `é`, a space, `_`, `-`): the one-pass reading and the
    /// diagnosis agree.
    #[test]
    fn the_strict_type_pass_agrees_on_longer_types(
        segments in proptest::collection::vec(
            "[a-z][a-z0-9]{0,6}(-[a-z0-9]{1,3}){0,2}|[a-z0-9_A-Z-]{0,6}|v[0-9]{1,2}",
            0..9,
        ),
        tail in "[.a-z0-9é _-]{0,2}",
    ) {
        let value = format!("{}{tail}", segments.join("."));
        proptest::prop_assert_eq!(
            is_strict_type(value.as_bytes()),
            diagnose_intg(&value).is_empty(),
            "{:?}", value
        );
    }
}
