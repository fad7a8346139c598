//! Size limits of INTG-STD-015 R-10 and R-11, re-exported from `cloudevent-rules` (their one
//! home) so users of the runtime need not depend on the rules crate.
//!
//! ```
//! use cloudevent_runtime::limits;
//!
//! assert_eq!(limits::MAX_EVENT_BYTES, 256 * 1024);
//! assert_eq!(limits::MAX_BATCH_BYTES, 1024 * 1024);
//! ```

pub use cloudevent_rules::limits::{
    MAX_ATTRIBUTES_BYTES, MAX_BATCH_BYTES, MAX_BATCH_EVENTS, MAX_DATA_BYTES, MAX_EVENT_BYTES,
};

/// The most findings a report lists, so that a report stays bounded by its input: one
/// event's report lists at most this many (the rest are counted,
/// [`ValidationReport::omitted_findings`](crate::ValidationReport::omitted_findings)), and a
/// batch's report lists its events in order until their findings reach this many (the
/// events after them are counted, [`BatchReport::omitted`](crate::BatchReport::omitted)).
/// A repeated member is one finding with its count. Not a rule of a standard: a bound on
/// what a hostile input can make a gateway or a linter write.
///
/// ```
/// use cloudevent_runtime::Validate;
/// use cloudevent_runtime::{Json, Profile, Validator, limits};
///
/// // 1,000 empty events, four findings each: the first 25 are listed, 975 counted.
/// let batch = format!("[{}]", vec!["{}"; 1000].join(","));
/// let report = Validator::new(Profile::CloudEvents).validate_batch_bytes::<Json>(batch.as_bytes());
/// let listed: usize = report.events().iter().map(|event| event.findings().len()).sum();
/// assert!(listed <= limits::MAX_REPORTED_FINDINGS);
/// assert_eq!(report.events().len() + report.omitted(), 1000);
/// assert!(!report.is_valid());
/// ```
pub const MAX_REPORTED_FINDINGS: usize = 100;
