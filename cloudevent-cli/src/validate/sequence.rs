//! `cloudevent validate --sequence`: the order of a captured stream, per (source,
//! partitionkey) group (INTG-STD-015 R-10; the CloudEvents Sequence extension).
//!
//! The events of every input, in command-line order and in their order within each input
//! (JSON Lines, a batch, Kafka records, ...), are one stream. A group's first event is its
//! start: a capture may begin anywhere. Under `sequencetype: Integer` the numbers must follow
//! on by one (wrapping from 2147483647 to -2147483648), so the checker reports, as errors of
//! `CE sequence` on the event concerned:
//!
//! - a duplicate: a number seen before in the group (names the first occurrence);
//! - out of order: a number lower than one already seen (names the highest so far);
//! - a gap: numbers never seen between the group's start and its highest number, reported on
//!   the first event after the gap, with the missing numbers.
//!
//! Without `Integer` the extension gives only string order: a value not greater than the
//! previous one is a warning. Events the validator refused are left out; their findings
//! already say why.

use std::collections::{BTreeMap, HashMap};

use cloudevent_runtime::Violation;
use cloudevent_runtime::rules::{SequenceStep, SequenceValue, rule, shorten};
use serde_json::Value;

use super::report::{Outcome, location};

/// How many missing numbers a gap lists before it only counts them.
const LISTED: usize = 10;

/// Adds the stream's order findings to the events they concern.
pub(super) fn check(outcomes: &mut [(String, Outcome)]) {
    let mut groups: HashMap<(String, Option<String>), Group> = HashMap::new();
    // (input, event) positions of each group's Integer events, for the gap pass.
    for (input, (name, outcome)) in outcomes.iter_mut().enumerate() {
        let Outcome::Checked(checked) = outcome else {
            continue;
        };
        for (index, event) in checked.events.iter_mut().enumerate() {
            if !event.is_valid() {
                continue;
            }
            let text = |key: &str| event.attributes.get(key).and_then(Value::as_str);
            let (Some(source), Some(sequence)) = (text("source"), text("sequence")) else {
                continue;
            };
            let Ok(value) = SequenceValue::read(sequence, text("sequencetype")) else {
                continue;
            };
            let key = (source.to_owned(), text("partitionkey").map(str::to_owned));
            let at = location(name, event.line.or(event.index));
            let group = groups.entry(key).or_default();
            let finding = match value {
                SequenceValue::Integer(number) => group.integer(number, at, (input, index)),
                SequenceValue::Lexicographic(text) => group.text(text, at),
            };
            if let Some(finding) = finding {
                event.add_finding(finding);
            }
        }
    }
    for ((source, partitionkey), group) in groups {
        for (position, finding) in group.gaps(&source, partitionkey.as_deref()) {
            if let Some(Outcome::Checked(checked)) = outcomes.get_mut(position.0).map(|o| &mut o.1)
            {
                if let Some(event) = checked.events.get_mut(position.1) {
                    event.add_finding(finding);
                }
            }
        }
    }
}

#[derive(Default)]
struct Group {
    /// The group's first Integer number: offsets count from it (wrapping).
    start: Option<i32>,
    /// Every Integer offset seen, with where its first occurrence stood.
    seen: BTreeMap<u32, Seen>,
    highest: u32,
    last_text: Option<(String, String)>,
}

struct Seen {
    at: String,
    position: (usize, usize),
}

impl Group {
    fn integer(&mut self, number: i32, at: String, position: (usize, usize)) -> Option<Violation> {
        let start = *self.start.get_or_insert(number);
        let problem = |text: String| {
            Violation::error(rule::CE_SEQUENCE, "sequence", number.to_string(), text)
        };
        let highest = start.wrapping_add_unsigned(self.highest);
        // The ordering stage's judgment (the rules crate's): behind the group's start it
        // cannot be placed; behind the highest number it came out of order.
        if let SequenceStep::Behind { .. } = SequenceValue::step(start, number) {
            return Some(problem(format!(
                "out of order: arrives after `{highest}`, and before the group's first event `{start}`"
            )));
        }
        let offset = SequenceValue::steps(start, number);
        if let Some(first) = self.seen.get(&offset) {
            return Some(problem(format!(
                "duplicate: `{number}` was already at {}",
                first.at
            )));
        }
        let late = matches!(
            SequenceValue::step(highest, number),
            SequenceStep::Behind { .. }
        );
        let at_highest = self
            .seen
            .get(&self.highest)
            .map(|seen| seen.at.clone())
            .unwrap_or_default();
        self.seen.insert(offset, Seen { at, position });
        if late {
            return Some(problem(format!(
                "out of order: arrives after `{highest}` ({at_highest})"
            )));
        }
        self.highest = offset;
        None
    }

    fn text(&mut self, text: &str, at: String) -> Option<Violation> {
        let finding = match &self.last_text {
            Some((last, last_at)) if text == last => Some(format!(
                "duplicate: `{}` was already at {last_at}",
                shorten(text)
            )),
            Some((last, last_at)) if text < last.as_str() => Some(format!(
                "out of order: arrives after `{}` ({last_at}); without `sequencetype: Integer` only string order is known",
                shorten(last)
            )),
            _ => None,
        };
        if finding.is_none() {
            self.last_text = Some((text.to_owned(), at));
        }
        finding.map(|problem| Violation::warning(rule::CE_SEQUENCE, "sequence", text, problem))
    }

    /// Every run of numbers never seen between the start and the highest, as a finding on
    /// the event just after the run.
    fn gaps(&self, source: &str, partitionkey: Option<&str>) -> Vec<((usize, usize), Violation)> {
        let Some(start) = self.start else {
            return Vec::new();
        };
        let group = match partitionkey {
            Some(key) => format!(
                "source `{}`, partitionkey `{}`",
                shorten(source),
                shorten(key)
            ),
            None => format!("source `{}`", shorten(source)),
        };
        let mut found = Vec::new();
        let mut expected = 0u32;
        for (&offset, seen) in &self.seen {
            if offset > expected {
                let count = offset - expected;
                let first = start.wrapping_add_unsigned(expected);
                let numbers: Vec<String> = (0..count.min(LISTED as u32))
                    .map(|k| first.wrapping_add_unsigned(k).to_string())
                    .collect();
                let more = if count as usize > LISTED {
                    format!(", ... ({count} in all)")
                } else {
                    String::new()
                };
                let number = start.wrapping_add_unsigned(offset);
                found.push((
                    seen.position,
                    Violation::error(
                        rule::CE_SEQUENCE,
                        "sequence",
                        number.to_string(),
                        format!(
                            "gap before this event in {group}: missing {}{more}",
                            numbers.join(", ")
                        ),
                    ),
                ));
            }
            expected = offset.wrapping_add(1);
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(numbers: &[i32]) -> Vec<String> {
        let mut group = Group::default();
        let mut found: Vec<String> = numbers
            .iter()
            .enumerate()
            .filter_map(|(i, &n)| group.integer(n, format!("#{i}"), (0, i)))
            .map(|v| v.problem.into_owned())
            .collect();
        found.extend(
            group
                .gaps("/s", None)
                .into_iter()
                .map(|(_, v)| v.problem.into_owned()),
        );
        found
    }

    #[test]
    fn a_contiguous_stream_from_anywhere_is_clean() {
        assert!(run(&[5, 6, 7]).is_empty());
        assert!(run(&[i32::MAX - 1, i32::MAX, i32::MIN, i32::MIN + 1]).is_empty());
    }

    #[test]
    fn gaps_duplicates_and_reordering_are_named() {
        assert_eq!(
            run(&[1, 2, 5]),
            ["gap before this event in source `/s`: missing 3, 4"]
        );
        assert_eq!(run(&[1, 2, 2]), ["duplicate: `2` was already at #1"]);
        assert_eq!(run(&[1, 3, 2]), ["out of order: arrives after `3` (#1)"]);
        assert_eq!(
            run(&[3, 2]),
            ["out of order: arrives after `3`, and before the group's first event `3`"]
        );
        let long = run(&[1, 100]);
        assert!(long[0].ends_with("10, 11, ... (98 in all)"), "{long:?}");
    }
}
