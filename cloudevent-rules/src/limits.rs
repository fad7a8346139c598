//! Size limits of INTG-STD-015 R-10 and R-11, in bytes of the serialized form.
//!
//! ```
//! use cloudevent_rules::limits::{self, MAX_EVENT_BYTES};
//!
//! assert!(limits::check_event_size(1024).is_empty());
//! let found = limits::check_event_size(MAX_EVENT_BYTES + 1);
//! assert_eq!(found[0].rule.as_str(), "INTG-STD-015 R-11");
//! ```

use crate::{RuleId, Severity, Violation, rule};

/// A single event, envelope and data, MUST NOT exceed 256 KiB (INTG-STD-015 R-11, gateway 3;
/// HTTP answers 413 above it). Larger payloads use the claim-check pattern.
pub const MAX_EVENT_BYTES: usize = 256 * 1024;
/// The context attributes SHOULD NOT exceed 4 KiB (INTG-STD-015 R-11).
pub const MAX_ATTRIBUTES_BYTES: usize = 4 * 1024;
/// The data payload SHOULD NOT exceed 252 KiB, the event budget minus envelope overhead
/// (INTG-STD-015 R-11).
pub const MAX_DATA_BYTES: usize = 252 * 1024;
/// A batch MUST NOT exceed 1 MiB without a bilateral agreement (INTG-STD-015 R-10).
pub const MAX_BATCH_BYTES: usize = 1024 * 1024;
/// A batch SHOULD hold 100 events or fewer (INTG-STD-015 R-10).
pub const MAX_BATCH_EVENTS: usize = 100;

/// One limit: what it measures, its maximum and what to say when it is passed.
struct Limit {
    rule: RuleId,
    severity: Severity,
    attribute: &'static str,
    max: usize,
    unit: &'static str,
    problem: &'static str,
    hint: &'static str,
}

impl Limit {
    fn check(&self, actual: usize) -> Vec<Violation> {
        let mut found = Vec::new();
        if actual > self.max {
            let mut violation = Violation::error(
                self.rule,
                self.attribute,
                format!("{actual} {}", self.unit),
                self.problem,
            )
            .with_part(format!("over the limit of {} {}", self.max, self.unit))
            .with_hint(self.hint);
            violation.severity = self.severity;
            found.push(violation);
        }
        found
    }
}

/// Checks the serialized size of one event against [`MAX_EVENT_BYTES`] (error).
///
/// ```
/// use cloudevent_rules::limits::check_event_size;
///
/// assert!(check_event_size(256 * 1024).is_empty());
/// assert!(check_event_size(256 * 1024 + 1)[0].is_error());
/// ```
pub fn check_event_size(bytes: usize) -> Vec<Violation> {
    Limit {
        rule: rule::INTG_R11,
        severity: Severity::Error,
        attribute: "event size",
        max: MAX_EVENT_BYTES,
        unit: "bytes",
        problem: "an event must not exceed 256 KiB",
        hint: "store the payload elsewhere and send `claimCheckUri` and `claimCheckContentType` in `data` (claim-check)",
    }
    .check(bytes)
}

/// Checks the serialized size of the context attributes against [`MAX_ATTRIBUTES_BYTES`]
/// (warning).
///
/// ```
/// use cloudevent_rules::{limits::check_attributes_size, Severity};
///
/// assert!(check_attributes_size(4096).is_empty());
/// assert_eq!(check_attributes_size(4097)[0].severity, Severity::Warning);
/// ```
pub fn check_attributes_size(bytes: usize) -> Vec<Violation> {
    Limit {
        rule: rule::INTG_R11,
        severity: Severity::Warning,
        attribute: "attributes size",
        max: MAX_ATTRIBUTES_BYTES,
        unit: "bytes",
        problem: "context attributes should not exceed 4 KiB",
        hint: "move bulky values from extensions into `data`",
    }
    .check(bytes)
}

/// Checks the serialized size of `data` against [`MAX_DATA_BYTES`] (warning).
///
/// ```
/// use cloudevent_rules::limits::check_data_size;
///
/// assert!(check_data_size(252 * 1024).is_empty());
/// assert!(!check_data_size(252 * 1024 + 1).is_empty());
/// ```
pub fn check_data_size(bytes: usize) -> Vec<Violation> {
    Limit {
        rule: rule::INTG_R11,
        severity: Severity::Warning,
        attribute: "data size",
        max: MAX_DATA_BYTES,
        unit: "bytes",
        problem: "data should not exceed 252 KiB, leaving room for the envelope",
        hint: "use the claim-check pattern: `claimCheckUri` and `claimCheckContentType` in `data`",
    }
    .check(bytes)
}

/// Checks a batch's serialized size against [`MAX_BATCH_BYTES`] (error) and its event count
/// against [`MAX_BATCH_EVENTS`] (warning).
///
/// ```
/// use cloudevent_rules::limits::check_batch;
///
/// assert!(check_batch(1024, 10).is_empty());
/// assert_eq!(check_batch(2 * 1024 * 1024, 101).len(), 2);
/// ```
pub fn check_batch(bytes: usize, events: usize) -> Vec<Violation> {
    let mut found = Limit {
        rule: rule::INTG_R10,
        severity: Severity::Error,
        attribute: "batch size",
        max: MAX_BATCH_BYTES,
        unit: "bytes",
        problem: "a batch must not exceed 1 MiB without a bilateral agreement",
        hint: "split it into smaller batches",
    }
    .check(bytes);
    found.extend(
        Limit {
            rule: rule::INTG_R10,
            severity: Severity::Warning,
            attribute: "batch length",
            max: MAX_BATCH_EVENTS,
            unit: "events",
            problem: "a batch should hold 100 events or fewer",
            hint: "split it into smaller batches",
        }
        .check(events),
    );
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_inclusive() {
        assert!(check_event_size(MAX_EVENT_BYTES).is_empty());
        assert!(check_attributes_size(MAX_ATTRIBUTES_BYTES).is_empty());
        assert!(check_data_size(MAX_DATA_BYTES).is_empty());
        assert!(check_batch(MAX_BATCH_BYTES, MAX_BATCH_EVENTS).is_empty());
    }

    #[test]
    fn over_the_limit() {
        let event = check_event_size(MAX_EVENT_BYTES + 1);
        assert_eq!(
            event[0].to_string(),
            "event size `262145 bytes` over the limit of 262144 bytes: an event must not exceed 256 KiB (INTG-STD-015 R-11); store the payload elsewhere and send `claimCheckUri` and `claimCheckContentType` in `data` (claim-check)"
        );
        assert_eq!(
            check_attributes_size(MAX_ATTRIBUTES_BYTES + 1)[0].severity,
            Severity::Warning
        );
        assert_eq!(
            check_data_size(MAX_DATA_BYTES + 1)[0].severity,
            Severity::Warning
        );
        let batch = check_batch(MAX_BATCH_BYTES + 1, MAX_BATCH_EVENTS + 1);
        assert_eq!(
            batch
                .iter()
                .map(|v| (v.rule, v.severity))
                .collect::<Vec<_>>(),
            [
                (rule::INTG_R10, Severity::Error),
                (rule::INTG_R10, Severity::Warning)
            ]
        );
    }
}
