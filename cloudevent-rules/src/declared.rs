//! An extension value checked against the type a schema registry declares for it.

use crate::{AttributeKind, ExtensionValue, Profile, Violation, rule};

/// Checks an extension value against the type the registry declares for the extension (CE
/// 1.0.2 type system). A value of the declared type passes; so does a String holding the
/// type's canonical string form (`true`/`false`, a decimal i32, base64, an absolute URI, a
/// URI-reference, an RFC 3339 timestamp), which is how binary-mode headers carry every
/// type, so both content modes get the same verdict. Anything else is an error naming the
/// extension.
///
/// ```
/// use cloudevent_rules::{AttributeKind, ExtensionValue, check_declared_extension};
///
/// assert!(check_declared_extension("express", ExtensionValue::Boolean(true), AttributeKind::Boolean).is_none());
/// assert!(check_declared_extension("express", ExtensionValue::String("false"), AttributeKind::Boolean).is_none());
/// let found = check_declared_extension("express", ExtensionValue::String("True"), AttributeKind::Boolean).unwrap();
/// assert_eq!(found.attribute, "express");
/// assert_eq!(found.rule.as_str(), "CE 1.0.2 type system");
/// assert!(check_declared_extension("hops", ExtensionValue::String("12"), AttributeKind::Integer).is_none());
/// assert!(check_declared_extension("hops", ExtensionValue::String("2147483648"), AttributeKind::Integer).is_some());
/// ```
pub fn check_declared_extension(
    name: &str,
    value: ExtensionValue<'_>,
    declared: AttributeKind,
) -> Option<Violation> {
    let fits = match (declared, value) {
        (kind, value) if value.kind() == kind => true,
        (AttributeKind::String, ExtensionValue::Uri(_) | ExtensionValue::UriReference(_)) => true,
        (AttributeKind::String, ExtensionValue::Timestamp(_)) => true,
        (AttributeKind::UriReference, ExtensionValue::Uri(_)) => true,
        (AttributeKind::Uri, ExtensionValue::UriReference(text)) => {
            crate::check_uri(name, text).is_empty()
        }
        (kind, ExtensionValue::String(text)) => canonical_string_fits(name, text, kind),
        _ => false,
    };
    if fits {
        return None;
    }
    Some(
        Violation::error(
            rule::CE_TYPE_SYSTEM,
            name.to_owned(),
            value.shown(),
            format!(
                "is not a {declared}: extension `{name}` is declared {declared} (by the schema registry or the event type)"
            ),
        )
        .with_hint(match declared {
            AttributeKind::Boolean => {
                "send `true` or `false` (lowercase; a JSON boolean in the JSON format)".to_owned()
            }
            AttributeKind::Integer => "send a whole number in the i32 range".to_owned(),
            other => format!("send a {other}"),
        }),
    )
}

/// Whether a String holds the canonical string form of `kind` (CE 1.0.2 type system).
fn canonical_string_fits(name: &str, text: &str, kind: AttributeKind) -> bool {
    match kind {
        AttributeKind::Boolean => matches!(text, "true" | "false"),
        AttributeKind::Integer => {
            let digits = text.strip_prefix('-').unwrap_or(text);
            !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit())
                && text.parse::<i32>().is_ok()
        }
        AttributeKind::String => true,
        AttributeKind::Binary => is_base64(text),
        AttributeKind::Uri => crate::check_uri(name, text).is_empty(),
        AttributeKind::UriReference => crate::check_uri_reference(name, text).is_empty(),
        AttributeKind::Timestamp => crate::check_time(text, Profile::CloudEvents).is_empty(),
    }
}

/// Standard base64 with padding (RFC 4648 §4), the type system's Binary string form.
fn is_base64(text: &str) -> bool {
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return false;
    }
    let body = text.trim_end_matches('=');
    bytes.len() - body.len() <= 2
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms() {
        let check = |value, kind| check_declared_extension("x", value, kind).is_none();
        assert!(check(ExtensionValue::String("aGk="), AttributeKind::Binary));
        assert!(!check(ExtensionValue::String("aGk"), AttributeKind::Binary));
        assert!(check(
            ExtensionValue::String("https://a.example/x"),
            AttributeKind::Uri
        ));
        assert!(!check(
            ExtensionValue::String("/relative"),
            AttributeKind::Uri
        ));
        assert!(check(
            ExtensionValue::String("/relative"),
            AttributeKind::UriReference
        ));
        assert!(check(
            ExtensionValue::String("2026-01-01T00:00:00Z"),
            AttributeKind::Timestamp
        ));
        assert!(!check(
            ExtensionValue::String("yesterday"),
            AttributeKind::Timestamp
        ));
        assert!(!check(ExtensionValue::Boolean(true), AttributeKind::String));
        assert!(!check(ExtensionValue::Integer(1), AttributeKind::Boolean));
        assert!(!check(ExtensionValue::String("+1"), AttributeKind::Integer));
    }
}
