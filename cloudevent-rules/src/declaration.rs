//! The envelope check applied to a declaration: what a producer fixes before any event exists
//! (the literals of `#[derive(CloudEvent)]`, a schema file's `x-cloudevent`).
//!
//! A declaration is not a second set of rules. [`Policy::check_declaration`] builds the
//! [`Envelope`] such an event would have, with the attributes filled at run time (`id`,
//! `time`, `specversion`, and `type` or `source` when not declared) present but unknown,
//! runs [`Policy::check_envelope`] over it, and keeps the findings about what was declared.
//! So the derive, codegen and the validator name the same rule with the same severity.

use crate::ExtensionValue;
use crate::envelope::{Envelope, Mode};
use crate::extension::documented_extension;
use crate::{AttributeKind, Policy, Violation};

/// What a producer declares about its events before any exists.
///
/// `type` and `source` left `None` are set at run time (the event builder), so nothing is
/// said about them here; the other attributes left `None` are not declared, and whatever an
/// event carries is checked when it is read or validated.
///
/// ```
/// use cloudevent_rules::{Declaration, Policy, Profile};
///
/// let declaration = Declaration {
///     ty: Some("com.example.order.created.v2"),
///     dataschema: Some("https://schemas.example.com/orders/created/v1.json"),
///     ..Declaration::default()
/// };
/// // INTG-STD-015's `.vN` convention: an error there, a warning under `cloudevents`.
/// let strict = Policy::new(Profile::IntgStd015).check_declaration(&declaration);
/// assert!(strict[0].is_error());
/// let lenient = Policy::new(Profile::CloudEvents).check_declaration(&declaration);
/// assert!(!lenient[0].is_error());
/// assert_eq!(strict[0].rule, lenient[0].rule);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Declaration<'a> {
    /// `type`, or `None` when set at run time.
    pub ty: Option<&'a str>,
    /// `source`, or `None` when set at run time.
    pub source: Option<&'a str>,
    /// `datacontenttype`, when declared.
    pub datacontenttype: Option<&'a str>,
    /// `dataschema`, when declared.
    pub dataschema: Option<&'a str>,
    /// `subject`, when declared as a fixed value.
    pub subject: Option<&'a str>,
    /// The extensions the events carry: each name with its type when the declaration knows
    /// it (a schema's string property), `None` when only the run-time value will tell (a
    /// derived field whose Rust type decides).
    pub extensions: &'a [(&'a str, Option<AttributeKind>)],
}

/// Values standing in for what is only known at run time. Each passes every rule under every
/// profile (a unit test holds them to that), so they add no finding of their own.
mod stand_in {
    pub(super) const SPECVERSION: &str = "1.0";
    pub(super) const ID: &str = "x";
    pub(super) const TIME: &str = "1970-01-01T00:00:00Z";
    pub(super) const SOURCE: &str = "urn:nld:example";
    pub(super) const TYPE: &str = "nl.example.event.declared";
    pub(super) const TRACEPARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    pub(super) const TRACESTATE: &str = "congo=t61rcWkgMzE";
}

/// A valid value of `kind` for the extension `name`; `None` takes the kind the extension is
/// documented with (String when it is not documented), so no type finding arises from a kind
/// the declaration does not know.
fn stand_in_value(name: &str, kind: Option<AttributeKind>) -> ExtensionValue<'static> {
    let kind = kind
        .or_else(|| documented_extension(name).map(|d| d.kind))
        .unwrap_or(AttributeKind::String);
    match kind {
        AttributeKind::Boolean => ExtensionValue::Boolean(true),
        AttributeKind::Integer => ExtensionValue::Integer(0),
        AttributeKind::String => ExtensionValue::String(match name {
            "traceparent" => stand_in::TRACEPARENT,
            "tracestate" => stand_in::TRACESTATE,
            "sequence" => "1",
            "sequencetype" => crate::SEQUENCE_TYPE_INTEGER,
            _ => "x",
        }),
        AttributeKind::Binary => ExtensionValue::Binary(&[]),
        AttributeKind::Uri => ExtensionValue::Uri("urn:example:x"),
        AttributeKind::UriReference => ExtensionValue::UriReference("x"),
        AttributeKind::Timestamp => ExtensionValue::Timestamp(stand_in::TIME),
    }
}

impl Policy {
    /// Checks a declaration with [`Policy::check_envelope`] ([`Mode::Collect`]): every
    /// finding about a declared attribute or extension name, with the rule id and severity
    /// this profile gives it, in the envelope check's order. Attributes set at run time,
    /// extension values and ADR-0003 traceability (set per emission) are left to the
    /// run-time check; so is the payload's size.
    ///
    /// ```
    /// use cloudevent_rules::{Declaration, Policy, Profile, Severity};
    ///
    /// let extensions = [("Region", None), ("fulfilmentcentreregion", None)];
    /// let declaration = Declaration {
    ///     ty: Some("com.example.order.created"),
    ///     source: Some("https://localhost/checkout"),
    ///     extensions: &extensions,
    ///     ..Declaration::default()
    /// };
    /// let found = Policy::new(Profile::CloudEvents).check_declaration(&declaration);
    /// let found: Vec<_> = found.iter().map(|v| (v.severity, v.rule.as_str(), v.value.as_str())).collect();
    /// assert_eq!(found, [
    ///     (Severity::Error, "CE 1.0.2 naming", "Region"),
    ///     (Severity::Warning, "CE 1.0.2 naming", "fulfilmentcentreregion"),
    /// ]);
    /// ```
    pub fn check_declaration(&self, declaration: &Declaration<'_>) -> Vec<Violation> {
        let extensions: Vec<(&str, ExtensionValue<'_>)> = declaration
            .extensions
            .iter()
            .map(|&(name, kind)| (name, stand_in_value(name, kind)))
            .collect();
        let envelope = Envelope {
            specversion: Some(stand_in::SPECVERSION),
            id: Some(stand_in::ID),
            source: Some(declaration.source.unwrap_or(stand_in::SOURCE)),
            ty: Some(declaration.ty.unwrap_or(stand_in::TYPE)),
            datacontenttype: declaration.datacontenttype,
            dataschema: declaration.dataschema,
            subject: declaration.subject,
            time: Some(stand_in::TIME),
            extensions: &extensions,
            data: None,
            data_type_url: None,
        };
        let policy = self.clone().with_required_traceability(false);
        let is_run_time = |attribute: &str| match attribute {
            "specversion" | "id" | "time" => true,
            "type" => declaration.ty.is_none(),
            "source" => declaration.source.is_none(),
            // An extension's value (the name's own findings say `extension`).
            name => declaration
                .extensions
                .iter()
                .any(|&(declared, kind)| declared == name && kind.is_none()),
        };
        policy
            .check_envelope(&envelope, Mode::Collect)
            .into_iter()
            .filter(|v| !is_run_time(&v.attribute))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DOCUMENTED_EXTENSIONS, Profile, rule};

    const KINDS: [AttributeKind; 7] = [
        AttributeKind::Boolean,
        AttributeKind::Integer,
        AttributeKind::String,
        AttributeKind::Binary,
        AttributeKind::Uri,
        AttributeKind::UriReference,
        AttributeKind::Timestamp,
    ];

    #[test]
    fn stand_ins_pass_every_rule_under_every_profile() {
        let mut extensions: Vec<(&str, ExtensionValue<'_>)> = DOCUMENTED_EXTENSIONS
            .iter()
            .map(|d| (d.name, stand_in_value(d.name, None)))
            .collect();
        extensions.push(("region", stand_in_value("region", None)));
        let kinds = ["kb", "ki", "ks", "kn", "ku", "kr", "kt"];
        for (name, kind) in kinds.into_iter().zip(KINDS) {
            extensions.push((name, stand_in_value(name, Some(kind))));
        }
        let envelope = Envelope {
            specversion: Some(stand_in::SPECVERSION),
            id: Some(stand_in::ID),
            source: Some(stand_in::SOURCE),
            ty: Some(stand_in::TYPE),
            time: Some(stand_in::TIME),
            extensions: &extensions,
            ..Envelope::default()
        };
        for profile in Profile::ALL {
            let policy = Policy::new(profile).with_required_traceability(true);
            let found = policy.check_envelope(&envelope, Mode::Collect);
            assert!(found.is_empty(), "{profile}: {found:?}");
        }
    }

    #[test]
    fn run_time_attributes_are_not_findings() {
        for profile in Profile::ALL {
            let policy = Policy::new(profile).with_required_traceability(true);
            let found = policy.check_declaration(&Declaration::default());
            assert!(found.is_empty(), "{profile}: {found:?}");
        }
        // A v2 dataschema needs a `.v2` type, but the type is set at run time: not said here.
        let declaration = Declaration {
            dataschema: Some("https://schemas.example.com/orders/created/v2.json"),
            ..Declaration::default()
        };
        let found = Policy::new(Profile::IntgStd015).check_declaration(&declaration);
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn a_declared_kind_is_held_to_the_documented_one() {
        let extensions = [("sequence", Some(AttributeKind::Integer))];
        let declaration = Declaration {
            ty: Some("com.example.order.created"),
            extensions: &extensions,
            ..Declaration::default()
        };
        let found = Policy::new(Profile::CloudEvents).check_declaration(&declaration);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].rule, rule::INTG_R6);
        // Unknown kind: the run-time value decides.
        let extensions = [("sequence", None)];
        let declaration = Declaration {
            extensions: &extensions,
            ..declaration
        };
        assert!(
            Policy::new(Profile::CloudEvents)
                .check_declaration(&declaration)
                .is_empty()
        );
    }

    #[test]
    fn declared_values_are_checked_like_an_event_s() {
        let declaration = Declaration {
            ty: Some(""),
            source: Some("https://orders.example.com/a\u{7}"),
            ..Declaration::default()
        };
        let found = Policy::new(Profile::IntgStd015).check_declaration(&declaration);
        let rules: Vec<_> = found.iter().map(|v| (&*v.attribute, v.rule)).collect();
        assert!(rules.contains(&("type", rule::INTG_R2)), "{found:?}");
        assert!(
            rules.contains(&("source", rule::CE_TYPE_SYSTEM)),
            "{found:?}"
        );
    }
}
