//! The CloudEvents Sequence extension (`sequence`, `sequencetype`), as the NL GOV profile
//! carries it, and the one reading of a `sequence` value every consumer shares.
//!
//! The extension: `sequence` is a non-empty, lexicographically orderable string; when
//! `sequencetype` is `Integer` it is a string-encoded signed 32-bit integer that starts at `1`,
//! grows by one and wraps from 2147483647 to -2147483648. Any other `sequencetype`, or none,
//! leaves the meaning to an out-of-band agreement: consumers can only compare the strings.
//! INTG-STD-015 R-10: "Consumers MUST NOT assume ordering unless events share the same
//! partitionkey and include sequence values".
//!
//! The envelope check ([`crate::Policy::check_envelope`]) calls [`check_sequence`]; the
//! runtime's ordering stage and `cloudevent validate --sequence` read values with
//! [`SequenceValue::read`], so a value the check refuses is never ordered.

use crate::{Violation, rule};

/// The `sequencetype` the Sequence extension defines.
pub const SEQUENCE_TYPE_INTEGER: &str = "Integer";

/// A `sequence` value as its `sequencetype` gives it meaning.
///
/// ```
/// use cloudevent_rules::SequenceValue;
///
/// assert_eq!(SequenceValue::read("7", Some("Integer")), Ok(SequenceValue::Integer(7)));
/// // The NL GOV profile's example writes `integer`: read as `Integer` (with a warning from the check).
/// assert_eq!(SequenceValue::read("-2147483648", Some("integer")), Ok(SequenceValue::Integer(i32::MIN)));
/// assert_eq!(SequenceValue::read("b", None), Ok(SequenceValue::Lexicographic("b")));
/// let refused = SequenceValue::read("two", Some("Integer")).unwrap_err();
/// assert_eq!(refused.rule.as_str(), "CE sequence");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SequenceValue<'a> {
    /// `sequencetype: Integer`: contiguous from 1, +1 each event, wrapping at `i32::MAX`.
    Integer(i32),
    /// No `sequencetype`, or one this spec does not define: only string order is known.
    Lexicographic(&'a str),
}

impl<'a> SequenceValue<'a> {
    /// Reads `sequence` under `sequencetype` (`Integer`, also spelt `integer`).
    ///
    /// # Errors
    /// Under `Integer`, a value that is not a decimal i32 (`-?(0|[1-9][0-9]*)` in range), as
    /// the `CE sequence` error the envelope check gives.
    pub fn read(sequence: &'a str, sequencetype: Option<&str>) -> Result<Self, Box<Violation>> {
        if !sequencetype.is_some_and(is_integer_type) {
            return Ok(SequenceValue::Lexicographic(sequence));
        }
        parse_decimal_i32(sequence)
            .map(SequenceValue::Integer)
            .ok_or_else(|| Box::new(not_an_integer(sequence)))
    }
}

/// Where an Integer `sequence` number stands against the number its group expects next:
/// the one order judgment of the ordering stage and `cloudevent validate --sequence`.
///
/// Integer numbers live on the wrapping i32 circle (… 2147483647, -2147483648, …), so "ahead"
/// and "behind" are halves of that circle: the 2^31 numbers from `expected` onwards are ahead
/// (`Next` is the first of them), the 2^31 before it are behind.
///
/// ```
/// use cloudevent_rules::{SequenceStep, SequenceValue};
///
/// assert_eq!(SequenceValue::step(5, 5), SequenceStep::Next);
/// assert_eq!(SequenceValue::step(5, 8), SequenceStep::Ahead { missing: 3 });
/// assert_eq!(SequenceValue::step(5, 4), SequenceStep::Behind { by: 1 });
/// // Across the wrap: after 2147483647 comes -2147483648.
/// assert_eq!(SequenceValue::step(i32::MAX, i32::MIN), SequenceStep::Ahead { missing: 1 });
/// assert_eq!(SequenceValue::step(i32::MIN, i32::MAX), SequenceStep::Behind { by: 1 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SequenceStep {
    /// The number expected: it follows on without a hole.
    Next,
    /// Ahead of the expected number: `missing` numbers come between (a gap, or events still
    /// on their way).
    Ahead {
        /// How many numbers lie between the expected one and this one.
        missing: u32,
    },
    /// Behind the expected number: already passed (a duplicate, a replay, a late event).
    Behind {
        /// How many numbers before the expected one it stands (1 = the one just before).
        by: u32,
    },
}

impl SequenceValue<'_> {
    /// The Integer number after `number`: `+1`, wrapping from 2147483647 to -2147483648.
    ///
    /// ```
    /// use cloudevent_rules::SequenceValue;
    ///
    /// assert_eq!(SequenceValue::successor(1), 2);
    /// assert_eq!(SequenceValue::successor(i32::MAX), i32::MIN);
    /// ```
    #[must_use]
    pub const fn successor(number: i32) -> i32 {
        number.wrapping_add(1)
    }

    /// How many successors lead from `from` to `to` on the wrapping circle (0 to 2^32 - 1).
    ///
    /// ```
    /// use cloudevent_rules::SequenceValue;
    ///
    /// assert_eq!(SequenceValue::steps(1, 4), 3);
    /// assert_eq!(SequenceValue::steps(i32::MAX, i32::MIN + 1), 2);
    /// assert_eq!(SequenceValue::steps(2, 1), u32::MAX);
    /// ```
    #[must_use]
    pub const fn steps(from: i32, to: i32) -> u32 {
        to.wrapping_sub(from) as u32
    }

    /// Where `number` stands against `expected` (see [`SequenceStep`]).
    #[must_use]
    pub const fn step(expected: i32, number: i32) -> SequenceStep {
        let distance = number.wrapping_sub(expected);
        if distance == 0 {
            SequenceStep::Next
        } else if distance > 0 {
            SequenceStep::Ahead {
                missing: distance as u32,
            }
        } else {
            SequenceStep::Behind {
                by: distance.unsigned_abs(),
            }
        }
    }
}

/// `Integer`, or a spelling that differs only in case (the NL GOV example's `integer`).
fn is_integer_type(sequencetype: &str) -> bool {
    sequencetype.eq_ignore_ascii_case(SEQUENCE_TYPE_INTEGER)
}

/// A CloudEvents Integer in its string encoding: the integer part of a JSON number
/// (CE 1.0.2 type system, RFC 7159 section 6), so no `+`, no leading zeros, no spaces.
fn parse_decimal_i32(text: &str) -> Option<i32> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let well_formed = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    if !well_formed {
        return None;
    }
    text.parse().ok()
}

fn not_an_integer(sequence: &str) -> Violation {
    Violation::error(
        rule::CE_SEQUENCE,
        "sequence",
        sequence,
        "must be a decimal signed 32-bit integer (-2147483648 to 2147483647) under `sequencetype: Integer`",
    )
    .with_hint("e.g. `1`, the first event of a source (then `2`, `3`, ...)")
}

/// Checks the Sequence extension's two attributes together (CloudEvents Sequence extension,
/// carried by the NL GOV profile): `None` is absent. Only String values are checked here; a
/// value of another type is already refused by the documented extension's type (R-6).
///
/// - `sequence` present: not empty (error); under `Integer` a decimal i32 (error).
/// - `sequencetype` present: not empty (error); `Integer` in another case is read as
///   `Integer` (warning: the spec's value is `Integer`); another value (warning: its
///   semantics are not defined, consumers can only compare strings).
/// - `sequence` without `sequencetype`: warning, the order is lexicographic only.
/// - `sequencetype` without `sequence`: error, the extension requires `sequence`.
///
/// ```
/// use cloudevent_rules::{check_sequence, Severity};
///
/// assert!(check_sequence(Some("1"), Some("Integer")).is_empty());
/// let found = check_sequence(Some("two"), Some("Integer"));
/// assert_eq!((found[0].rule.as_str(), found[0].severity), ("CE sequence", Severity::Error));
/// let found = check_sequence(Some("2"), Some("integer"));
/// assert_eq!(found[0].severity, Severity::Warning);
/// let found = check_sequence(Some("0001"), None);
/// assert_eq!(found[0].severity, Severity::Warning);
/// assert!(check_sequence(None, None).is_empty());
/// ```
pub fn check_sequence(sequence: Option<&str>, sequencetype: Option<&str>) -> Vec<Violation> {
    let mut found = Vec::new();
    match sequencetype {
        None => {}
        Some("") => found.push(Violation::error(
            rule::CE_SEQUENCE,
            "sequencetype",
            "",
            "must be a non-empty string when present",
        )),
        Some(SEQUENCE_TYPE_INTEGER) => {}
        Some(kind) if is_integer_type(kind) => found.push(
            Violation::warning(
                rule::CE_SEQUENCE,
                "sequencetype",
                kind,
                "should be spelt `Integer`, the value the Sequence extension defines; read as `Integer`",
            )
            .with_hint("e.g. `Integer`"),
        ),
        Some(kind) => found.push(
            Violation::warning(
                rule::CE_SEQUENCE,
                "sequencetype",
                kind,
                "is not defined by the Sequence extension: the order semantics are not known, consumers can only compare `sequence` lexicographically",
            )
            .with_hint("e.g. `Integer`"),
        ),
    }
    match sequence {
        None if sequencetype.is_some() => found.push(Violation::error(
            rule::CE_SEQUENCE,
            "sequence",
            "",
            "is required by the Sequence extension when `sequencetype` is set",
        )),
        None => {}
        Some("") => found.push(Violation::error(
            rule::CE_SEQUENCE,
            "sequence",
            "",
            "must be a non-empty, lexicographically orderable string",
        )),
        Some(value) => {
            if let Err(violation) = SequenceValue::read(value, sequencetype) {
                found.push(*violation);
            } else if sequencetype.is_none() {
                found.push(
                    Violation::warning(
                        rule::CE_SEQUENCE,
                        "sequence",
                        value,
                        "has no `sequencetype`: the order semantics are not known, consumers can only compare it lexicographically",
                    )
                    .with_hint("add `sequencetype: Integer` for a contiguous count from 1"),
                );
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    #[test]
    fn integer_values_are_the_json_integer_grammar_in_range() {
        for (text, want) in [
            ("1", Some(1)),
            ("0", Some(0)),
            ("-0", Some(0)),
            ("2147483647", Some(i32::MAX)),
            ("-2147483648", Some(i32::MIN)),
            ("2147483648", None),
            ("-2147483649", None),
            ("+1", None),
            ("01", None),
            ("", None),
            ("-", None),
            (" 1", None),
            ("1.0", None),
            ("1e3", None),
            ("two", None),
            ("١", None),
        ] {
            assert_eq!(parse_decimal_i32(text), want, "{text:?}");
        }
    }

    #[test]
    fn the_circle_splits_into_two_halves_at_the_expected_number() {
        let half = 1u32 << 31;
        assert_eq!(
            SequenceValue::step(0, i32::MAX),
            SequenceStep::Ahead { missing: half - 1 }
        );
        assert_eq!(
            SequenceValue::step(0, i32::MIN),
            SequenceStep::Behind { by: half }
        );
        // A restart from 1 after the wrap's top is far behind, not a gap of two numbers.
        assert_eq!(
            SequenceValue::step(i32::MAX, 1),
            SequenceStep::Behind { by: half - 2 }
        );
        for (expected, number) in [
            (1, 2),
            (i32::MAX, i32::MIN),
            (-1, 0),
            (i32::MIN, i32::MIN + 5),
        ] {
            match SequenceValue::step(expected, number) {
                SequenceStep::Ahead { missing } => {
                    assert_eq!(missing, SequenceValue::steps(expected, number));
                    assert_eq!(
                        SequenceValue::step(number, expected),
                        SequenceStep::Behind { by: missing }
                    );
                }
                other => panic!("{expected} -> {number}: {other:?}"),
            }
        }
    }

    #[test]
    fn every_finding_names_the_rule() {
        let cases: [(Option<&str>, Option<&str>, &[Severity]); 9] = [
            (Some("1"), Some("Integer"), &[]),
            (Some("two"), Some("Integer"), &[Severity::Error]),
            (Some("2147483648"), Some("Integer"), &[Severity::Error]),
            (
                Some("x"),
                Some("integer"),
                &[Severity::Warning, Severity::Error],
            ),
            (Some("b"), Some("Lamport"), &[Severity::Warning]),
            (Some("b"), None, &[Severity::Warning]),
            (Some(""), None, &[Severity::Error]),
            (None, Some("Integer"), &[Severity::Error]),
            (Some("1"), Some(""), &[Severity::Error]),
        ];
        for (sequence, kind, want) in cases {
            let found = check_sequence(sequence, kind);
            let got: Vec<Severity> = found.iter().map(|v| v.severity).collect();
            assert_eq!(got, want, "{sequence:?} {kind:?}: {found:?}");
            assert!(found.iter().all(|v| v.rule == rule::CE_SEQUENCE));
        }
    }
}
