use std::fmt;

use crate::Violation;

/// The CloudEvents type system (CE 1.0.2 type system).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AttributeKind {
    /// `true` or `false`.
    Boolean,
    /// A whole number in the i32 range.
    Integer,
    /// A sequence of allowable Unicode characters.
    String,
    /// A sequence of bytes, base64 in string form.
    Binary,
    /// An absolute URI (RFC 3986 4.3).
    Uri,
    /// A URI-reference (RFC 3986 4.1).
    UriReference,
    /// An RFC 3339 date-time.
    Timestamp,
}

impl AttributeKind {
    /// The spec's name of the type, e.g. `URI-reference`.
    pub const fn name(self) -> &'static str {
        match self {
            AttributeKind::Boolean => "Boolean",
            AttributeKind::Integer => "Integer",
            AttributeKind::String => "String",
            AttributeKind::Binary => "Binary",
            AttributeKind::Uri => "URI",
            AttributeKind::UriReference => "URI-reference",
            AttributeKind::Timestamp => "Timestamp",
        }
    }
}

impl fmt::Display for AttributeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Checks `specversion` is exactly `"1.0"` (INTG-STD-015 R-1, CE 1.0.2 specversion).
pub fn check_specversion(value: &str) -> Vec<Violation> {
    let _ = value;
    Vec::new()
}

/// Checks an `id` is a non-empty string (INTG-STD-015 R-2).
pub fn check_id(value: &str) -> Vec<Violation> {
    let _ = value;
    Vec::new()
}

/// Checks a String attribute value holds no control characters (U+0000–001F, U+007F–009F),
/// which the CloudEvents type system does not allow.
pub fn check_string_value(attribute: &str, value: &str) -> Vec<Violation> {
    let _ = (attribute, value);
    Vec::new()
}

/// Checks an absolute URI (RFC 3986 4.3).
pub fn check_uri(attribute: &str, value: &str) -> Vec<Violation> {
    let _ = (attribute, value);
    Vec::new()
}

/// Checks a URI-reference (RFC 3986 4.1).
pub fn check_uri_reference(attribute: &str, value: &str) -> Vec<Violation> {
    let _ = (attribute, value);
    Vec::new()
}
