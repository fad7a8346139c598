use crate::Violation;

/// Checks a `datacontenttype` has the RFC 2046 shape `type/subtype[; param=value]*`.
pub fn check_media_type(value: &str) -> Vec<Violation> {
    let _ = value;
    Vec::new()
}

/// Whether a media type is JSON: `*/json` or `*/*+json`, parameters ignored,
/// case-insensitive.
pub fn is_json_media_type(value: &str) -> bool {
    let _ = value;
    false
}
