use std::borrow::Cow;

use crate::uri::describe_char;
use crate::{Policy, Profile, RuleId, Violation, rule};

/// A type every profile accepts, quoted in hints when no closer correction exists.
const EXAMPLE: &str = "com.example.order.created";
/// The INTG-STD-015 R-4 pattern, quoted in messages.
const PATTERN: &str = "{reverse-dns}.{domain}.{entity}.{action}[.vN]";
/// An NL GOV example from the profile itself.
const NL_GOV_EXAMPLE: &str = "nl.brp.huwelijk-voltrokken.v0.1.0";

/// Checks an event `type` against the policy's profile.
///
/// - `intg-std-015` (INTG-STD-015 R-4, gateway 1): `^[a-z][a-z0-9]*(\.[a-z][a-z0-9]*(-[a-z0-9]+)*){3,}$`,
///   pattern `{reverse-dns}.{domain}.{entity}.{action}[.vN]`, rooted at the policy's
///   type prefix when one is set. Every broken segment is reported on its own (uppercase,
///   `_`, a leading digit, an empty segment, a leading or trailing dot, a misplaced `-`), and
///   so is a type of fewer than four segments.
/// - `cloudevents` (CE 1.0.2 type): non-empty and free of control characters (error); a
///   reverse-DNS prefix of at least two labels (warning).
/// - `nl-gov` (NL-GOV type): reverse domain name notation of at least two labels; lowercase
///   labels of `a-z`, `0-9` and inner `-` (errors); an optional version suffix `v1`,
///   `v1.2` or semver `v1.2.3`, which spans several dot-separated segments
///   (`nl.brp.huwelijk-voltrokken.v0.1.0`); a version without `v` or with leading zeros warns.
///
/// When the policy has a type prefix, the type must start with that prefix and a dot in every
/// profile (INTG-STD-015 R-4 "rooted at the organization domain"; reported under the
/// profile's own type rule outside `intg-std-015`).
///
/// A valid type returns an empty `Vec` without allocating.
///
/// ```
/// use cloudevent_rules::{check_type, Policy, Profile, Severity};
///
/// let strict = Policy::new(Profile::IntgStd015).with_type_prefix("com.example");
/// assert!(check_type("com.example.order.created.v2", &strict).is_empty());
///
/// let found = check_type("com.example.Order_Line.created", &strict);
/// assert_eq!(
///     found[0].to_string(),
///     "type `com.example.Order_Line.created` segment `Order_Line`: must be lowercase \
///      (INTG-STD-015 R-4); e.g. `com.example.order-line.created`"
/// );
///
/// let found = check_type("com.other.order.created", &strict);
/// assert_eq!(found[0].rule.as_str(), "INTG-STD-015 R-4");
///
/// let nl = Policy::new(Profile::NlGov);
/// assert!(check_type("nl.brp.huwelijk-voltrokken.v0.1.0", &nl).is_empty());
///
/// let ce = Policy::new(Profile::CloudEvents);
/// assert_eq!(check_type("OrderCreated", &ce)[0].severity, Severity::Warning);
/// assert_eq!(check_type("", &ce)[0].severity, Severity::Error);
///
/// // A control character is the type system's finding (CE 1.0.2), once, in every profile.
/// let found = check_type("com.example.a\u{7}b", &ce);
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].rule.as_str(), "CE 1.0.2 type system");
/// ```
pub fn check_type(value: &str, policy: &Policy) -> Vec<Violation> {
    // The characters a String may hold (CE 1.0.2 type system), in every profile: the one
    // check every String attribute gets, so the envelope check does not run it again here.
    let mut found = crate::check_string_value("type", value);
    found.extend(match policy.profile() {
        Profile::IntgStd015 => check_intg(value),
        Profile::CloudEvents => check_cloudevents(value),
        Profile::NlGov => check_nl_gov(value),
    });
    if let Some(prefix) = policy.type_prefix() {
        let prefix = prefix.trim_end_matches('.');
        if !value.is_empty() && !has_prefix(value, prefix) {
            found.push(prefix_violation(value, prefix, policy.profile()));
        }
    }
    found
}

/// Checks an organisation type prefix such as `com.example` (the `type-prefix` key of
/// `[package.metadata.cloudevent]`): one or more segments that the profile accepts in a type.
///
/// ```
/// use cloudevent_rules::{check_type_prefix, Profile};
///
/// assert!(check_type_prefix("com.example", Profile::IntgStd015).is_empty());
/// let found = check_type_prefix("com.Example", Profile::IntgStd015);
/// assert_eq!(found[0].part.as_deref(), Some("segment `Example`"));
/// assert!(!check_type_prefix("", Profile::CloudEvents).is_empty());
/// ```
pub fn check_type_prefix(prefix: &str, profile: Profile) -> Vec<Violation> {
    let mut found = Vec::new();
    let id = type_rule(profile);
    if prefix.is_empty() {
        found.push(
            Violation::error(id, "type-prefix", prefix, "must not be empty")
                .with_hint("e.g. `com.example`"),
        );
        return found;
    }
    let count = prefix.split('.').count();
    for (index, segment) in prefix.split('.').enumerate() {
        let problem = match profile {
            Profile::IntgStd015 => strict_segment_problem(index, count, segment),
            Profile::CloudEvents | Profile::NlGov => label_problem(index, count, segment),
        };
        if let Some((part, problem)) = problem {
            found.push(
                Violation::error(id, "type-prefix", prefix, problem)
                    .with_part(part)
                    .with_hint("e.g. `com.example`"),
            );
        }
    }
    found
}

/// The rule a profile's type checks are reported under.
fn type_rule(profile: Profile) -> RuleId {
    match profile {
        Profile::IntgStd015 => rule::INTG_R4,
        Profile::CloudEvents => rule::CE_TYPE,
        Profile::NlGov => rule::NL_GOV_TYPE,
    }
}

fn has_prefix(value: &str, prefix: &str) -> bool {
    value
        .strip_prefix(prefix)
        .is_some_and(|rest| rest.starts_with('.') && rest.len() > 1)
}

fn prefix_violation(value: &str, prefix: &str, profile: Profile) -> Violation {
    // Keep the type's own tail and swap its root for the prefix: `com.other.order.created`
    // with prefix `com.example` becomes `com.example.order.created`, suggested only when the
    // profile accepts it (else the prefix's own example).
    let prefix_segments = prefix.split('.').count();
    let tail: Vec<&str> = value.split('.').skip(prefix_segments).collect();
    let violation = Violation::error(
        type_rule(profile),
        "type",
        value,
        format!("must be rooted at the organisation prefix `{prefix}.`"),
    );
    let policy = Policy::new(profile).with_type_prefix(prefix);
    let violation = if tail.is_empty() || tail.iter().any(|s| s.is_empty()) {
        violation
    } else {
        violation.with_fix(&format!("{prefix}.{}", tail.join(".")), |fix| {
            check_type(fix, &policy)
        })
    };
    if violation.hint.is_some() {
        violation
    } else {
        violation.with_fix(&format!("{prefix}.order.created"), |fix| {
            check_type(fix, &policy)
        })
    }
}

// Out of line, one function a profile: `check_type` runs one of the three, and inlined
// together their code was interleaved in one 11 KB function (issue 40, the L1i footprint).
#[inline(never)]
fn check_intg(value: &str) -> Vec<Violation> {
    // A valid type, the common case, in one pass over its bytes; anything else is diagnosed
    // segment by segment below (the same verdict: a test compares the two on every short
    // string of the pattern's bytes).
    if is_strict_type(value.as_bytes()) {
        return Vec::new();
    }
    diagnose_intg(value)
}

/// `^[a-z][a-z0-9]*(\.[a-z][a-z0-9]*(-[a-z0-9]+)*){3,}$` (INTG-STD-015 R-4) read in one pass:
/// true exactly when [`diagnose_intg`] finds nothing. The diagnosis splits the type twice
/// and looks at each segment five times (issue 40: 2.1 k instructions for a valid
/// `com.example.order.created`, the largest of a profile's envelope checks).
fn is_strict_type(value: &[u8]) -> bool {
    let mut segments = 1;
    // At a segment's first byte; right after a `-`.
    let (mut at_start, mut after_dash) = (true, false);
    for &b in value {
        match b {
            b'a'..=b'z' => (at_start, after_dash) = (false, false),
            b'0'..=b'9' if !at_start => after_dash = false,
            // Not in the root segment, not first, not doubled.
            b'-' if !at_start && !after_dash && segments > 1 => after_dash = true,
            b'.' if !at_start && !after_dash => {
                segments += 1;
                at_start = true;
            }
            _ => return false,
        }
    }
    !at_start && !after_dash && segments >= 4
}

/// Every INTG-STD-015 R-4 problem of a type, one finding a broken segment.
fn diagnose_intg(value: &str) -> Vec<Violation> {
    let mut found = Vec::new();
    if value.is_empty() {
        found.push(
            Violation::error(rule::INTG_R4, "type", value, "must not be empty")
                .with_hint(format!("expected `{PATTERN}`, e.g. `{EXAMPLE}`")),
        );
        return found;
    }
    let count = value.split('.').count();
    for (index, segment) in value.split('.').enumerate() {
        if let Some((part, problem)) = strict_segment_problem(index, count, segment) {
            found.push(
                Violation::error(rule::INTG_R4, "type", value, problem)
                    .with_part(part)
                    .with_hint(strict_hint(value)),
            );
        }
    }
    if count < 4 {
        found.push(
            Violation::error(
                rule::INTG_R4,
                "type",
                value,
                format!("needs at least 4 dot-separated segments: `{PATTERN}`"),
            )
            .with_part(format!(
                "{count} segment{}",
                if count == 1 { "" } else { "s" }
            ))
            .with_hint(strict_hint(value)),
        );
    }
    found
}

/// What is wrong with one segment under `^[a-z][a-z0-9]*(\.[a-z][a-z0-9]*(-[a-z0-9]+)*){3,}$`:
/// the part to name and the problem. `None` when the segment is fine.
fn strict_segment_problem(
    index: usize,
    count: usize,
    segment: &str,
) -> Option<(String, Cow<'static, str>)> {
    if segment.is_empty() {
        return Some(empty_segment_problem(index, count));
    }
    let part = || format!("segment `{segment}`");
    if segment.bytes().any(|b| b.is_ascii_uppercase()) {
        return Some((part(), "must be lowercase".into()));
    }
    if let Some(c) = first_outside_label_bytes(segment) {
        let problem: Cow<'static, str> = if c == '_' {
            "`_` is not allowed; separate words with `-`".into()
        } else {
            format!(
                "character {} is not allowed; use `a-z`, `0-9` and `-`",
                describe_char(c)
            )
            .into()
        };
        return Some((part(), problem));
    }
    let first = segment.as_bytes()[0];
    if first.is_ascii_digit() {
        let problem = if index + 1 == count && segment.bytes().all(|b| b.is_ascii_digit()) {
            "must start with a letter; write a version as `v<major>`"
        } else {
            "must start with a letter, not a digit"
        };
        return Some((part(), problem.into()));
    }
    if first == b'-' {
        return Some((part(), "must start with a letter, not `-`".into()));
    }
    if index == 0 && segment.contains('-') {
        return Some((
            part(),
            "the reverse-DNS root segment cannot hold `-`".into(),
        ));
    }
    if segment.ends_with('-') || segment.contains("--") {
        return Some((
            part(),
            "`-` must sit between letters or digits (single, not leading or trailing)".into(),
        ));
    }
    None
}

fn empty_segment_problem(index: usize, count: usize) -> (String, Cow<'static, str>) {
    if index == 0 {
        ("leading `.`".to_owned(), "must not start with a dot".into())
    } else if index + 1 == count {
        ("trailing `.`".to_owned(), "must not end with a dot".into())
    } else {
        (
            "empty segment `..`".to_owned(),
            "segments are separated by a single dot".into(),
        )
    }
}

/// The hint for a strict type: the value with its case, `_` and stray characters fixed when
/// that yields a valid type, otherwise the standard's example.
fn strict_hint(value: &str) -> String {
    match strict_correction(value) {
        Some(fixed) => format!("e.g. `{fixed}`"),
        None => format!("e.g. `{EXAMPLE}`"),
    }
}

fn strict_correction(value: &str) -> Option<String> {
    let segments: Vec<&str> = value.split('.').filter(|s| !s.is_empty()).collect();
    let last = segments.len().checked_sub(1)?;
    let mut fixed = Vec::with_capacity(segments.len());
    for (index, segment) in segments.iter().enumerate() {
        let mut out = String::with_capacity(segment.len());
        for c in segment.chars() {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_lowercase() || c.is_ascii_digit() {
                out.push(c);
            } else if matches!(c, '-' | '_' | ' ') && index > 0 && !out.ends_with('-') {
                out.push('-');
            }
        }
        let mut out = out.trim_matches('-').to_owned();
        if index == last && index > 0 && !out.is_empty() && out.bytes().all(|b| b.is_ascii_digit())
        {
            out.insert(0, 'v');
        }
        if !out.is_empty() {
            fixed.push(out);
        }
    }
    let fixed = fixed.join(".");
    let count = fixed.split('.').count();
    let valid = count >= 4
        && fixed
            .split('.')
            .enumerate()
            .all(|(i, s)| strict_segment_problem(i, count, s).is_none());
    (valid && fixed != value).then_some(fixed)
}

// Out of line, one function a profile: `check_type` runs one of the three, and inlined
// together their code was interleaved in one 11 KB function (issue 40, the L1i footprint).
#[inline(never)]
fn check_cloudevents(value: &str) -> Vec<Violation> {
    let mut found = Vec::new();
    if value.is_empty() {
        found.push(
            Violation::error(rule::CE_TYPE, "type", value, "must not be empty")
                .with_hint(format!("e.g. `{EXAMPLE}`")),
        );
        return found;
    }
    let mut labels = split_dots(value);
    let prefix_ok = matches!(
        (labels.next(), labels.next(), labels.next()),
        (Some(root), Some(second), Some(_))
            if label_problem(0, 3, root).is_none() && label_problem(1, 3, second).is_none()
    );
    if !prefix_ok {
        let hint = if value.contains('.') {
            format!("e.g. `{EXAMPLE}`")
        } else {
            format!("e.g. `com.example.{value}`")
        };
        found.push(
            Violation::warning(
                rule::CE_TYPE,
                "type",
                value,
                "should be prefixed with a reverse-DNS name of at least two labels, the organisation that defines the type",
            )
            .with_hint(hint),
        );
    }
    found
}

/// The first char of `text` that is not `a-z`, `0-9` or `-`. Found by bytes: every byte
/// before it is one of those (ASCII), so the first byte outside them starts that char (a
/// multi-byte char's bytes are all 0x80 or above); the chars are decoded only there.
fn first_outside_label_bytes(text: &str) -> Option<char> {
    let at = text
        .bytes()
        .position(|b| !(b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'))?;
    text[at..].chars().next()
}

/// U+0000–001F and U+007F–009F, which the CloudEvents type system excludes from String.
pub(crate) fn is_forbidden_control(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}')
}

/// A reverse-DNS label: `a-z`, `0-9` and inner `-`, lowercase; the root label starts with a
/// letter (top-level domains are alphabetic).
fn label_problem(index: usize, count: usize, label: &str) -> Option<(String, Cow<'static, str>)> {
    if label.is_empty() {
        return Some(empty_segment_problem(index, count));
    }
    let part = || format!("segment `{label}`");
    // An uppercase letter is outside `a-z0-9-` too: looked for only when something is
    // (a label of allowed bytes alone took two passes before).
    let outside = first_outside_label_bytes(label);
    if outside.is_some() && label.bytes().any(|b| b.is_ascii_uppercase()) {
        return Some((part(), "must be lowercase".into()));
    }
    if let Some(c) = outside {
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

// Out of line, one function a profile: `check_type` runs one of the three, and inlined
// together their code was interleaved in one 11 KB function (issue 40, the L1i footprint).
#[inline(never)]
fn check_nl_gov(value: &str) -> Vec<Violation> {
    let mut found = Vec::new();
    let hint = || format!("e.g. `{NL_GOV_EXAMPLE}`");
    if value.is_empty() {
        found.push(
            Violation::error(rule::NL_GOV_TYPE, "type", value, "must not be empty")
                .with_hint(hint()),
        );
        return found;
    }
    let (name, version) = split_version(value);
    let count = name.split('.').count();
    for (index, label) in name.split('.').enumerate() {
        if let Some((part, problem)) = label_problem(index, count, label) {
            found.push(
                Violation::error(rule::NL_GOV_TYPE, "type", value, problem)
                    .with_part(part)
                    .with_hint(hint()),
            );
        }
    }
    if count < 2 {
        found.push(
            Violation::error(
                rule::NL_GOV_TYPE,
                "type",
                value,
                "must be in reverse domain name notation, at least two labels",
            )
            .with_hint(hint()),
        );
    }
    match version {
        Some(version) => {
            let numbers = version[1..].split('.');
            if numbers.clone().count() > 3 {
                found.push(
                    Violation::warning(
                        rule::NL_GOV_TYPE,
                        "type",
                        value,
                        "a semantic version has at most three numbers, `v<major>.<minor>.<patch>`",
                    )
                    .with_part(format!("version `{version}`"))
                    .with_hint(hint()),
                );
            } else if numbers.clone().any(|n| n.len() > 1 && n.starts_with('0')) {
                found.push(
                    Violation::warning(
                        rule::NL_GOV_TYPE,
                        "type",
                        value,
                        "semantic version numbers have no leading zeros",
                    )
                    .with_part(format!("version `{version}`"))
                    .with_hint(hint()),
                );
            }
        }
        None => {
            let last = name.rsplit('.').next().unwrap_or(name);
            if count > 2 && is_number(last) {
                found.push(
                    Violation::warning(
                        rule::NL_GOV_TYPE,
                        "type",
                        value,
                        "a version should be prefixed with `v`",
                    )
                    .with_part(format!("segment `{last}`"))
                    .with_hint(hint()),
                );
            }
        }
    }
    found
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn is_version_segment(s: &str) -> bool {
    s.strip_prefix('v').is_some_and(is_number)
}

/// Splits a type into its name and its version suffix: `com.example.order.created.v2` gives
/// `v2`, `nl.brp.huwelijk-voltrokken.v0.1.0` gives `v0.1.0` (semver spans segments).
pub(crate) fn split_version(value: &str) -> (&str, Option<&str>) {
    let mut end = value.len();
    // Walk back over trailing all-digit segments (`.1.0`), then expect `v<digits>`.
    loop {
        // By bytes: `.` is ASCII, so its byte is never inside another char (what `rfind`
        // with a char pattern found through the char searcher).
        let Some(dot) = value.as_bytes()[..end].iter().rposition(|&b| b == b'.') else {
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

/// The `N` of a type's version suffix: `2` for `com.example.order.created.v2`, `0` for the
/// NL GOV semver suffix of `nl.brp.huwelijk-voltrokken.v0.1.0`; `None` without a suffix.
///
/// ```
/// use cloudevent_rules::type_version;
///
/// assert_eq!(type_version("com.example.order.created.v2"), Some(2));
/// assert_eq!(type_version("nl.brp.huwelijk-voltrokken.v1.2.3"), Some(1));
/// assert_eq!(type_version("com.example.order.created"), None);
/// assert_eq!(type_version("com.example.v2x"), None);
/// ```
pub fn type_version(event_type: &str) -> Option<u64> {
    let (_, version) = split_version(event_type);
    let version = version?;
    let major = split_dots(&version[1..]).next()?;
    major.parse().ok()
}

/// `value.split('.')`, cut at byte positions: `.` is ASCII, so every cut is a char boundary
/// and the pieces are the same; `str::split` with a char pattern went through the char
/// searcher (a `memchr` call a piece), which showed in the Protobuf decode's profile.
/// Held to `str::split` by `type_name::tests::split_dots_is_str_split`.
pub(crate) fn split_dots(value: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(value);
    std::iter::from_fn(move || {
        let text = rest?;
        match text.bytes().position(|b| b == b'.') {
            Some(dot) => {
                rest = Some(&text[dot + 1..]);
                Some(&text[..dot])
            }
            None => {
                rest = None;
                Some(text)
            }
        }
    })
}

/// Splits an event type into its name and its version suffix, when it has one: `v2`,
/// `v1.2.3` (NL GOV), a bare semver `0.3.0` (CDEvents), each possibly with a pre-release
/// (`0.6.0-draft`). This reads the schemes others publish (codegen names modules and
/// advises the next version with it); INTG-STD-015's own suffix is [`type_version`]'s,
/// and the two agree on every type that has one (a unit test holds them to it).
///
/// ```
/// use cloudevent_rules::split_type_version;
///
/// assert_eq!(split_type_version("dev.cdevents.artifact.packaged.0.3.0"), ("dev.cdevents.artifact.packaged", Some("0.3.0".to_owned())));
/// assert_eq!(split_type_version("nl.vng.zaken.zaak-aangemaakt.v1.2.3"), ("nl.vng.zaken.zaak-aangemaakt", Some("v1.2.3".to_owned())));
/// assert_eq!(split_type_version("com.example.order.created.v2"), ("com.example.order.created", Some("v2".to_owned())));
/// assert_eq!(split_type_version("dev.example.build.started.0.6.0-draft"), ("dev.example.build.started", Some("0.6.0-draft".to_owned())));
/// assert_eq!(split_type_version("com.example.order.created"), ("com.example.order.created", None));
/// assert_eq!(split_type_version("com.example.v2x"), ("com.example.v2x", None));
/// ```
pub fn split_type_version(event_type: &str) -> (&str, Option<String>) {
    let segments: Vec<&str> = event_type.split('.').collect();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let pre_release = |s: &str| match s.split_once('-') {
        Some((n, pre)) => {
            digits(n)
                && !pre.is_empty()
                && pre.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        }
        None => digits(s),
    };
    let v_number = |s: &str| s.strip_prefix(['v', 'V']).is_some_and(digits);
    let n = segments.len();
    // `x.y.z` or `vx.y.z`, the last part possibly a pre-release.
    if n > 3
        && pre_release(segments[n - 1])
        && digits(segments[n - 2])
        && (digits(segments[n - 3]) || v_number(segments[n - 3]))
    {
        let split = event_type.len() - segments[n - 3..].iter().map(|s| s.len()).sum::<usize>() - 3;
        return (&event_type[..split], Some(segments[n - 3..].join(".")));
    }
    // `vN` or `vN.M`.
    for take in [2, 1] {
        if n > take
            && v_number(segments[n - take])
            && segments[n - take + 1..].iter().all(|s| digits(s))
        {
            let split = event_type.len()
                - segments[n - take..].iter().map(|s| s.len()).sum::<usize>()
                - take;
            return (&event_type[..split], Some(segments[n - take..].join(".")));
        }
    }
    (event_type, None)
}

#[cfg(test)]
mod tests;
