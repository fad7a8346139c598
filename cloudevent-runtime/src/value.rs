//! Owned attribute values of the CloudEvents type system that `String` does not cover.

use std::fmt;

/// An RFC 3339 timestamp, kept as the string it was given or generated as.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timestamp(String);

impl Timestamp {
    /// The RFC 3339 string.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An absolute URI (RFC 3986 4.3).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Uri(String);

impl Uri {
    /// The URI as a string.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A URI-reference (RFC 3986 4.1): an absolute URI or a relative reference.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UriRef(String);

impl UriRef {
    /// The reference as a string.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Binary data; base64 in the JSON format.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Binary(Vec<u8>);

impl Binary {
    /// Wraps bytes.
    pub fn new(bytes: impl Into<Vec<u8>>) -> Self {
        Binary(bytes.into())
    }

    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}
