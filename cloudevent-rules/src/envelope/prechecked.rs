//! What a checker that ran the same policy already knows about an envelope's values (the
//! derive's compile-time verdict of a payload type's constants), and the policy's
//! confirmation of such a claim before any check is skipped for it.

use super::has_error;
use crate::{Policy, Violation, dataschema};

/// Attribute values already checked under the policy that is about to check an envelope
/// (see [`Policy::check_envelope_prechecked`]); `None` is nothing known.
///
/// Only a checker that ran the same policy may fill it: `#[derive(CloudEvent)]` does, at
/// compile time, for a payload type's constants. `time` is the one claim a reader makes
/// without running the policy: text it wrote itself from an instant in 0001–9999 as
/// `YYYY-MM-DDTHH:MM:SS[.fff|.ffffff|.fffffffff]Z` (the Protobuf reader, from a
/// `google.protobuf.Timestamp`), which the `time` rule and the String rule pass under every
/// profile without a finding (a property test holds the rules to that).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Prechecked<'a> {
    /// A `source` checked under the policy.
    pub source: Option<&'a str>,
    /// A `type` checked under the policy.
    pub ty: Option<&'a str>,
    /// A `datacontenttype` checked under the policy.
    pub datacontenttype: Option<&'a str>,
    /// A `dataschema` checked under the policy, together with `ty`.
    pub dataschema: Option<&'a str>,
    /// Extension names checked under the policy (the values are checked every time).
    pub extension_names: &'a [&'a str],
    /// A `time` whose checks find nothing under the policy: neither an error nor a warning,
    /// so skipping them changes no verdict and no report.
    pub time: Option<&'a str>,
}

impl Prechecked<'_> {
    /// Nothing known: every attribute is checked.
    pub const NONE: Prechecked<'static> = Prechecked {
        source: None,
        ty: None,
        datacontenttype: None,
        dataschema: None,
        extension_names: &[],
        time: None,
    };
}

impl Policy {
    /// The part of a claim this policy confirms: each value of `claim` is kept only when the
    /// checks [`Policy::check_envelope_prechecked`] would skip for it find no error, so a
    /// claim that no checker made (a hand-written `PRECHECKED`) lets no broken value
    /// through: what is dropped is checked as if it were never claimed. `dataschema` is kept
    /// with a confirmed `type` only when the two agree; the extension names are kept all
    /// together or not at all. A claim the derive made is confirmed whole.
    ///
    /// ```
    /// use cloudevent_rules::{Policy, Prechecked, Profile};
    ///
    /// let claim = Prechecked {
    ///     ty: Some("Not A Type"),
    ///     source: Some("https://orders.example.com/checkout"),
    ///     ..Prechecked::NONE
    /// };
    /// let confirmed = Policy::new(Profile::IntgStd015).confirm_prechecked(&claim);
    /// assert_eq!(confirmed.ty, None);
    /// assert_eq!(confirmed.source, claim.source);
    /// ```
    pub fn confirm_prechecked<'a>(&self, claim: &Prechecked<'a>) -> Prechecked<'a> {
        let profile = self.profile();
        let clean = |found: Vec<Violation>| !has_error(&found);
        // What `run` skips for a known value: its type-system check (and, for an empty
        // value, nothing: an empty claim is never confirmed), then the attribute's own rules.
        let text = |name: &str, value: &str| {
            !value.is_empty() && clean(crate::check_string_value(name, value))
        };
        let source = claim
            .source
            .filter(|v| text("source", v) && clean(crate::check_source(v, profile)));
        let ty = claim
            .ty
            .filter(|v| text("type", v) && clean(crate::check_type(v, self)));
        let datacontenttype = claim
            .datacontenttype
            .filter(|v| text("datacontenttype", v) && clean(crate::check_media_type(v)));
        let dataschema = claim.dataschema.filter(|schema| {
            text("dataschema", schema)
                && ty.is_none_or(|ty| {
                    let (found, major) = dataschema::check_dataschema_and_major(schema, profile);
                    clean(found)
                        && clean(dataschema::agreement_with_major(ty, schema, major, profile))
                })
        });
        let names_clean = claim
            .extension_names
            .iter()
            .all(|name| clean(crate::check_extension_name(name, profile)));
        // Kept only when its checks find nothing at all: a skipped `time` hides no warning.
        let time = claim.time.filter(|v| {
            !v.is_empty()
                && crate::check_string_value("time", v).is_empty()
                && crate::check_time(v, profile).is_empty()
        });
        Prechecked {
            source,
            ty,
            datacontenttype,
            dataschema,
            extension_names: if names_clean {
                claim.extension_names
            } else {
                &[]
            },
            time,
        }
    }
}
