//! The checks one extension attribute gets wherever it is set: by a builder, a setter, the
//! validator.

use cloudevent_rules::{AttributeKind, Profile, Violation, rule};

use super::ExtensionValue;
use crate::trace::{TRACEPARENT, TRACESTATE};

/// Checks one extension (name and value) the way the derive checks a field extension: the
/// name per profile (CE 1.0.2 naming, R-6, gateway 5, R-14), a documented extension's type
/// "MUST NOT redefine semantics"), the value's type-system format, and W3C formats for
/// `traceparent` / `tracestate`.
pub(crate) fn extension_findings(
    name: &str,
    value: ExtensionValue<'_>,
    profile: Profile,
) -> Vec<Violation> {
    let mut found = cloudevent_rules::check_extension_name(name, profile);
    if let Some(documented) = cloudevent_rules::documented_extension(name) {
        let fits = match documented.kind {
            AttributeKind::UriReference => matches!(
                value,
                ExtensionValue::String(_)
                    | ExtensionValue::Uri(_)
                    | ExtensionValue::UriReference(_)
            ),
            kind => value.kind() == kind,
        };
        if !fits {
            found.push(
                Violation::error(
                    rule::INTG_R6,
                    name.to_owned(),
                    describe(value),
                    format!(
                        "is {}, but the {} defines `{name}` as {}",
                        value.kind(),
                        documented.documented_by,
                        documented.kind
                    ),
                )
                .with_hint("custom extensions must not redefine documented ones; use the documented type or another name"),
            );
        }
    }
    match value {
        ExtensionValue::String(text) => {
            found.extend(cloudevent_rules::check_string_value(name, text));
            match name {
                TRACEPARENT => found.extend(cloudevent_rules::check_traceparent(text)),
                TRACESTATE => found.extend(cloudevent_rules::check_tracestate(text)),
                "dataref" => found.extend(cloudevent_rules::check_uri_reference(name, text)),
                _ => {}
            }
        }
        ExtensionValue::Uri(text) => found.extend(cloudevent_rules::check_uri(name, text)),
        ExtensionValue::UriReference(text) => {
            found.extend(cloudevent_rules::check_uri_reference(name, text));
        }
        ExtensionValue::Timestamp(text) => {
            found.extend(cloudevent_rules::check_time(text, Profile::CloudEvents));
        }
        ExtensionValue::Boolean(_) | ExtensionValue::Integer(_) | ExtensionValue::Binary(_) => {}
    }
    found
}

pub(crate) fn describe(value: ExtensionValue<'_>) -> String {
    match value {
        ExtensionValue::Boolean(b) => b.to_string(),
        ExtensionValue::Integer(i) => i.to_string(),
        ExtensionValue::Binary(bytes) => format!("<{} bytes>", bytes.len()),
        ExtensionValue::String(s)
        | ExtensionValue::Uri(s)
        | ExtensionValue::UriReference(s)
        | ExtensionValue::Timestamp(s) => truncate(s),
    }
}

/// Long values are cut in messages; a report of a 200 KiB string helps nobody.
pub(crate) fn truncate(text: &str) -> String {
    const MAX: usize = 80;
    if text.len() <= MAX {
        return text.to_owned();
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

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
