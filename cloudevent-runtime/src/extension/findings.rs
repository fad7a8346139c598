//! The bridge to `cloudevent-rules`: an event's extensions as the rules see them, and the checks
//! one extension attribute gets wherever it is set (a builder, a setter, a reader). The rules
//! themselves live once, in [`cloudevent_rules::Policy::check_extension`].

use cloudevent_rules::{ExtensionAttributes, Policy, Profile, Violation};

use super::{ExtensionValue, Extensions};

impl ExtensionAttributes for Extensions {
    fn for_each_extension(&self, f: &mut dyn FnMut(&str, ExtensionValue<'_>)) {
        for (name, value) in self {
            f(name, value.as_value());
        }
    }

    fn extension(&self, name: &str) -> Option<ExtensionValue<'_>> {
        self.get(name).map(super::ExtensionValueBuf::as_value)
    }
}

/// Checks one extension (name and value) under a profile's policy, as every reader does.
pub(crate) fn extension_findings(
    name: &str,
    value: ExtensionValue<'_>,
    profile: Profile,
) -> Vec<Violation> {
    Policy::new(profile).check_extension(name, value)
}

/// The canonical string of a value (CE 1.0.2 type system), as binary mode writes it.
pub(crate) fn canonical(value: ExtensionValue<'_>) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    match value {
        ExtensionValue::Boolean(b) => Cow::Borrowed(if b { "true" } else { "false" }),
        ExtensionValue::Integer(i) => Cow::Owned(i.to_string()),
        ExtensionValue::Binary(bytes) => Cow::Owned(crate::Binary::from(bytes).to_string()),
        ExtensionValue::String(s)
        | ExtensionValue::Uri(s)
        | ExtensionValue::UriReference(s)
        | ExtensionValue::Timestamp(s) => Cow::Borrowed(s),
    }
}

/// Long values are cut in messages; a report of a 200 KiB string helps nobody.
pub(crate) fn truncate(text: &str) -> String {
    cloudevent_rules::shorten(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cloudevent_rules::rule;

    #[test]
    fn documented_extensions_keep_their_type() {
        let found =
            extension_findings("sequence", ExtensionValue::Integer(1), Profile::CloudEvents);
        assert!(found.iter().any(|v| v.rule == rule::INTG_R6), "{found:?}");
        assert!(
            extension_findings(
                "sequence",
                ExtensionValue::String("1"),
                Profile::CloudEvents
            )
            .is_empty()
        );
        assert!(
            extension_findings(
                "dataref",
                ExtensionValue::UriReference("/blobs/1"),
                Profile::NlGov
            )
            .is_empty()
        );
    }
}
