//! The bounds on what one expression may cost (issue 38): an expression from outside (a
//! Subscriptions API `sql` filter, `cloudevent sql`) is untrusted input, and CESQL v1 puts no
//! bound on it. `CONCAT(subject, subject, ...)` over a 255 KB subject asked for 980 MB, and a
//! long `LIKE` pattern held a gateway worker 78 s; with these bounds parsing is linear in the
//! expression, a `LIKE` linear in the text, and one evaluation scans and produces at most
//! [`Limits::max_evaluation_cost`] bytes, whatever the expression and the event.

use crate::limits::MAX_EVENT_BYTES;

/// What an expression may cost: checked when it is parsed (its length, each `LIKE`
/// pattern's length) and while it is evaluated (each string it produces, the bytes it scans
/// and produces in all). [`Expression::parse`](super::Expression::parse) holds an expression
/// to [`Limits::DEFAULT`]; [`Expression::parse_with_limits`](super::Expression::parse_with_limits)
/// to others.
///
/// ```
/// use cloudevent_rules::cesql::{Expression, Functions, Limits};
///
/// assert_eq!(Limits::DEFAULT.max_expression_bytes, 64 * 1024);
/// assert_eq!(Limits::DEFAULT.max_string_bytes, 256 * 1024);
/// let strict = Limits { max_expression_bytes: 256, ..Limits::DEFAULT };
/// let long = "subject = 'x' OR ".repeat(20) + "TRUE";
/// let error = Expression::parse_with_limits(&long, &Functions::new(), strict).unwrap_err();
/// assert!(error.message.contains("longer than the limit of 256 bytes"), "{error}");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limits {
    /// The longest expression parsed, in bytes (a parse error past it). Default 64 KiB.
    pub max_expression_bytes: usize,
    /// The longest `LIKE` pattern, in bytes between its quotes (a parse error past it). Default
    /// 1 KiB. The matcher is linear in the text for any pattern; its cost per character
    /// grows with the longest run between two `%` that holds a `_`, one machine word per
    /// 64 characters.
    pub max_pattern_bytes: usize,
    /// The longest string a function may produce, in bytes: past it the call is a
    /// FunctionEvaluationError (CESQL v1 3.3) and gives `""`, without allocating the
    /// string. Default the event size limit, 256 KiB (INTG-STD-015 R-11): no string an
    /// expression needs is longer than the event it reads.
    pub max_string_bytes: usize,
    /// The bytes one evaluation may scan and produce in all (function arguments and
    /// results, `LIKE` texts times the pattern's words, string comparisons and casts): past
    /// it the evaluation stops with a GenericError (CESQL v1 3.3) and the expression's zero
    /// value, so a filter does not select the event. Default 64 events' worth, 16 MiB:
    /// about 20 ms of work in a release build, far inside any request timeout, and a bound on
    /// the memory an evaluation holds.
    pub max_evaluation_cost: usize,
}

impl Limits {
    /// The limits [`Expression::parse`](super::Expression::parse) applies.
    pub const DEFAULT: Limits = Limits {
        max_expression_bytes: 64 * 1024,
        max_pattern_bytes: 1024,
        max_string_bytes: MAX_EVENT_BYTES,
        max_evaluation_cost: 64 * MAX_EVENT_BYTES,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}
