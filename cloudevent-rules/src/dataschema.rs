use crate::{Profile, Violation};

/// Checks a `dataschema`: an absolute URI or URN without fragment; in `intg-std-015` it must
/// hold a version token (INTG-STD-015 R-2: "MUST point to a versioned schema endpoint").
pub fn check_dataschema(value: &str, profile: Profile) -> Vec<Violation> {
    let _ = (value, profile);
    Vec::new()
}

/// The major version named by a dataschema's version token, e.g. `1` for
/// `https://schemas.example.com/orders/created/v1.json`; `None` when it holds none.
pub fn schema_major(dataschema: &str) -> Option<u64> {
    let _ = dataschema;
    None
}

/// Checks that a type's `.vN` suffix and its dataschema's major version agree: a type ending
/// `.vN` requires major N; a schema of major 2 or more requires the type's `.vN` suffix.
pub fn check_type_schema_agreement(event_type: &str, dataschema: &str) -> Vec<Violation> {
    let _ = (event_type, dataschema);
    Vec::new()
}
