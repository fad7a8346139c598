use crate::{Profile, Violation};

/// Checks a `source`: a non-empty RFC 3986 URI-reference in every profile.
///
/// `intg-std-015` adds hygiene: no private or loopback IP literals (in any numeric
/// form), no `localhost`, no `.internal` / `.local` host, no `k8s://`, no explicit port.
/// `nl-gov` warns when the source is not a `urn:nld:` URN.
pub fn check_source(value: &str, profile: Profile) -> Vec<Violation> {
    let _ = (value, profile);
    Vec::new()
}
