use crate::Violation;

/// Checks a W3C `traceparent`: `00-<32 hex>-<16 hex>-<2 hex>`, lowercase, not all zeros.
pub fn check_traceparent(value: &str) -> Vec<Violation> {
    let _ = value;
    Vec::new()
}

/// Checks a W3C `tracestate`: up to 32 comma-separated `key=value` members.
pub fn check_tracestate(value: &str) -> Vec<Violation> {
    let _ = value;
    Vec::new()
}
