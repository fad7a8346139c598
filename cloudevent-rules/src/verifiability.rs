//! The CloudEvents verifiability extension's rules (`cloudevents/spec`,
//! `cloudevents/extensions/verifiability.md`): what is signed, in which order, in which byte
//! form, and which `signedextattrs` lists are refused.
//!
//! The cryptography (SHA-256, DSSE, the signatures) lives in the runtime's `verify` module;
//! what is decided here is shared with the derive, which refuses at compile time the
//! `signedextattrs` a producer declares, with the verdict the runtime's signer and verifier
//! give at run time.

use std::borrow::Cow;
use std::fmt;

use crate::{ExtensionValue, RuleId, rule};

/// The DSSE `payloadType` of this version of the extension (section "Attributes",
/// `dssematerial`).
pub const DSSE_PAYLOAD_TYPE: &str = "https://cloudevents.io/verifiability/dsse/v0.1";

/// The extension attribute that carries the DSSE envelope.
pub const DSSEMATERIAL: &str = "dssematerial";

/// The member of the verification material that lists the signed extension attributes.
pub const SIGNEDEXTATTRS: &str = "signedextattrs";

/// The context attributes `CORE_DIGEST` covers, in the Signing Protocol's order (steps 3.1 to
/// 3.8); `data` follows them (step 3.9). This is not [`crate::CORE_ATTRIBUTES`]' order.
///
/// ```
/// use cloudevent_rules::DIGEST_ATTRIBUTES;
/// assert_eq!(DIGEST_ATTRIBUTES[0], "id");
/// assert_eq!(DIGEST_ATTRIBUTES[7], "time");
/// ```
pub const DIGEST_ATTRIBUTES: [&str; 8] = [
    "id",
    "source",
    "specversion",
    "type",
    "datacontenttype",
    "dataschema",
    "subject",
    "time",
];

/// Why a `signedextattrs` list is refused: the signer MUST refuse to produce material and the
/// verifier MUST discard the event (section "Attributes", `dssematerial`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignedExtensionProblem {
    /// A name appears twice: "Attribute names MUST NOT contain repetitions".
    Repeated(String),
    /// A core context attribute: "Attribute names MUST NOT include any core context attribute
    /// name".
    CoreAttribute(String),
    /// `dssematerial`: "Attribute names MUST NOT include `dssematerial`".
    Material,
    /// `signedextattrs` itself. The extension text does not list this case (the list is a
    /// member of the verification material, not an attribute); this library refuses it so
    /// that the name of the list is never read as an attribute it covers (issue 42).
    Itself,
}

impl SignedExtensionProblem {
    /// The rule the problem breaks.
    pub const fn rule(&self) -> RuleId {
        rule::CE_VERIFIABILITY
    }

    /// The name the list should not hold.
    ///
    /// ```
    /// use cloudevent_rules::check_signed_extensions;
    /// let problem = check_signed_extensions(["exta", "id"]).unwrap_err();
    /// assert_eq!(problem.name(), "id");
    /// ```
    pub fn name(&self) -> &str {
        match self {
            SignedExtensionProblem::Repeated(name)
            | SignedExtensionProblem::CoreAttribute(name) => name,
            SignedExtensionProblem::Material => DSSEMATERIAL,
            SignedExtensionProblem::Itself => SIGNEDEXTATTRS,
        }
    }
}

impl fmt::Display for SignedExtensionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SignedExtensionProblem::Repeated(name) => write!(
                f,
                "signedextattrs names `{name}` twice: attribute names MUST NOT contain repetitions"
            ),
            SignedExtensionProblem::CoreAttribute(name) => write!(
                f,
                "signedextattrs names the core context attribute `{name}`: attribute names MUST \
                 NOT include any core context attribute name"
            ),
            SignedExtensionProblem::Material => f.write_str(
                "signedextattrs names `dssematerial`: attribute names MUST NOT include \
                 `dssematerial` (the verification material attribute)",
            ),
            SignedExtensionProblem::Itself => f.write_str(
                "signedextattrs names `signedextattrs`: the list of signed extension attributes \
                 is not an attribute it can cover (this library's rule, issue 42)",
            ),
        }?;
        write!(f, " ({})", self.rule())
    }
}

impl std::error::Error for SignedExtensionProblem {}

/// Checks a `signedextattrs` list, the one verdict the derive (at compile time), the signer
/// (Signing Protocol step 2) and the verifier (Verification Protocol step 6.4.1) share; the
/// first problem in list order is returned (see [`signed_extension_problems`] for all). A name
/// not present on the event is valid (its value digest is that of the empty byte sequence).
///
/// ```
/// use cloudevent_rules::{SignedExtensionProblem, check_signed_extensions};
///
/// assert!(check_signed_extensions(["exta", "extb"]).is_ok());
/// assert_eq!(
///     check_signed_extensions(["exta", "exta"]),
///     Err(SignedExtensionProblem::Repeated("exta".into()))
/// );
/// assert_eq!(
///     check_signed_extensions(["time"]),
///     Err(SignedExtensionProblem::CoreAttribute("time".into()))
/// );
/// assert_eq!(check_signed_extensions(["dssematerial"]), Err(SignedExtensionProblem::Material));
/// assert_eq!(check_signed_extensions(["signedextattrs"]), Err(SignedExtensionProblem::Itself));
/// ```
///
/// # Errors
/// The first name that breaks a rule.
pub fn check_signed_extensions<'a>(
    names: impl IntoIterator<Item = &'a str>,
) -> Result<(), SignedExtensionProblem> {
    match problems(names, true).into_iter().next() {
        Some(problem) => Err(problem),
        None => Ok(()),
    }
}

/// Every problem of a `signedextattrs` list, in list order, a repeated name once: what the
/// derive reports together.
///
/// ```
/// use cloudevent_rules::{SignedExtensionProblem, signed_extension_problems};
///
/// assert_eq!(
///     signed_extension_problems(["a", "id", "a", "a", "dssematerial"]),
///     [
///         SignedExtensionProblem::CoreAttribute("id".into()),
///         SignedExtensionProblem::Repeated("a".into()),
///         SignedExtensionProblem::Material,
///     ]
/// );
/// ```
pub fn signed_extension_problems<'a>(
    names: impl IntoIterator<Item = &'a str>,
) -> Vec<SignedExtensionProblem> {
    problems(names, false)
}

fn problems<'a>(
    names: impl IntoIterator<Item = &'a str>,
    first_only: bool,
) -> Vec<SignedExtensionProblem> {
    let mut found = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for name in names {
        let problem = if DIGEST_ATTRIBUTES.contains(&name) {
            Some(SignedExtensionProblem::CoreAttribute(name.to_owned()))
        } else if name == DSSEMATERIAL {
            Some(SignedExtensionProblem::Material)
        } else if name == SIGNEDEXTATTRS {
            Some(SignedExtensionProblem::Itself)
        } else if seen.contains(&name) {
            let repeated = SignedExtensionProblem::Repeated(name.to_owned());
            (!found.contains(&repeated)).then_some(repeated)
        } else {
            None
        };
        seen.push(name);
        if let Some(problem) = problem {
            found.push(problem);
            if first_only {
                break;
            }
        }
    }
    found
}

/// A `Timestamp` as the extension hashes it (section "Canonical Value Serialization"): RFC
/// 3339 in UTC with the `Z` suffix and second precision, any fraction truncated. `None` for
/// text that is not an RFC 3339 date-time (the runtime never holds one as a timestamp).
///
/// ```
/// use cloudevent_rules::utc_seconds;
///
/// assert_eq!(utc_seconds("2020-06-18T19:24:53+02:00").as_deref(), Some("2020-06-18T17:24:53Z"));
/// assert_eq!(utc_seconds("2026-05-13T10:49:12.123456+01:00").as_deref(), Some("2026-05-13T09:49:12Z"));
/// assert_eq!(utc_seconds("1969-12-31T23:59:59.999Z").as_deref(), Some("1969-12-31T23:59:59Z"));
/// assert_eq!(utc_seconds("2020-06-18"), None);
/// ```
pub fn utc_seconds(value: &str) -> Option<String> {
    crate::time::utc_seconds(value)
}

/// An attribute value's bytes as the extension hashes them (section "Canonical Value
/// Serialization"): Boolean `true`/`false`, Integer in decimal, String, URI and URI-reference
/// as their UTF-8 text, Binary as its raw bytes, Timestamp through [`utc_seconds`].
///
/// ```
/// use cloudevent_rules::{ExtensionValue, canonical_value};
///
/// assert_eq!(&*canonical_value(ExtensionValue::Boolean(true)), b"true");
/// assert_eq!(&*canonical_value(ExtensionValue::Integer(-7)), b"-7");
/// assert_eq!(&*canonical_value(ExtensionValue::Binary(&[0xf0, 0x9f])), [0xf0, 0x9f]);
/// assert_eq!(
///     &*canonical_value(ExtensionValue::Timestamp("2020-06-18T19:24:53.5+02:00")),
///     b"2020-06-18T17:24:53Z"
/// );
/// ```
pub fn canonical_value(value: ExtensionValue<'_>) -> Cow<'_, [u8]> {
    match value {
        ExtensionValue::Boolean(true) => Cow::Borrowed(b"true"),
        ExtensionValue::Boolean(false) => Cow::Borrowed(b"false"),
        ExtensionValue::Integer(number) => Cow::Owned(number.to_string().into_bytes()),
        ExtensionValue::String(text)
        | ExtensionValue::Uri(text)
        | ExtensionValue::UriReference(text) => Cow::Borrowed(text.as_bytes()),
        ExtensionValue::Binary(bytes) => Cow::Borrowed(bytes),
        // The runtime holds only checked timestamps; text that is not one is hashed as
        // written, so it can never match a normalized signer's digest by accident.
        ExtensionValue::Timestamp(text) => match utc_seconds(text) {
            Some(utc) => Cow::Owned(utc.into_bytes()),
            None => Cow::Borrowed(text.as_bytes()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_problem_in_list_order_is_reported() {
        assert_eq!(
            check_signed_extensions(["a", "source", "a"]),
            Err(SignedExtensionProblem::CoreAttribute("source".into()))
        );
        assert_eq!(
            check_signed_extensions(["a", "b", "a", "id"]),
            Err(SignedExtensionProblem::Repeated("a".into()))
        );
        for core in DIGEST_ATTRIBUTES {
            assert!(check_signed_extensions([core]).is_err(), "{core}");
        }
        assert!(check_signed_extensions([]).is_ok());
        // Names are compared as written: the extension text names lowercase attributes.
        assert!(check_signed_extensions(["ID", " exta"]).is_ok());
    }

    #[test]
    fn leap_seconds_and_far_offsets_normalize() {
        assert_eq!(
            utc_seconds("2016-12-31T23:59:60Z").as_deref(),
            Some("2016-12-31T23:59:60Z")
        );
        assert_eq!(
            utc_seconds("2020-01-01T00:30:00+01:00").as_deref(),
            Some("2019-12-31T23:30:00Z")
        );
        assert_eq!(
            utc_seconds("2020-06-18t17:24:53z").as_deref(),
            Some("2020-06-18T17:24:53Z")
        );
    }
}
