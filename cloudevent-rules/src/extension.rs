use crate::{AttributeKind, Profile, Violation};

/// The core context attribute names an extension may not take.
pub const CORE_ATTRIBUTES: [&str; 8] = [
    "specversion",
    "id",
    "source",
    "type",
    "datacontenttype",
    "dataschema",
    "subject",
    "time",
];

/// An extension documented by CloudEvents or ADR-0003, with the type it must keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocumentedExtension {
    /// The extension's name, e.g. `partitionkey`.
    pub name: &'static str,
    /// The type the documenting spec gives it.
    pub kind: AttributeKind,
    /// Where it is documented, e.g. "CloudEvents Partitioning extension".
    pub documented_by: &'static str,
}

/// The documented extension of that name: `partitionkey`, `sequence`, `sequencetype`,
/// `traceparent`, `tracestate`, `correlationid`, `causationid` (strings) and `dataref`
/// (URI-reference).
pub fn documented_extension(name: &str) -> Option<DocumentedExtension> {
    let _ = name;
    None
}

/// Checks an extension attribute name.
///
/// All profiles (CE 1.0.2 naming): `[a-z0-9]` only (ASCII, not Unicode digits), not `data` or
/// `data_base64`, not a core attribute name; a name over 20 characters warns.
/// `intg-std-015` (INTG-STD-015 R-6, gateway 5): `^[a-z][a-z0-9]{0,19}$`, and R-14: names that
/// announce credentials, tokens, session identifiers or personal data are refused.
pub fn check_extension_name(name: &str, profile: Profile) -> Vec<Violation> {
    let _ = (name, profile);
    Vec::new()
}
