//! `cloudevent validate --sequence`: the order of a captured stream, per (source,
//! partitionkey) group (INTG-STD-015 R-10; the CloudEvents Sequence extension).
//!
//! The events of every input, in command-line order and in their order within each input
//! (JSON Lines, a batch, Kafka records, ...), are one stream; every event the validator
//! accepts is in it, listed in its input's report or only counted there. A group's first
//! event is its start: a capture may begin anywhere. Under `sequencetype: Integer` each number
//! is judged as the consumer's ordering stage judges it (`order::OrderingStage`, with no bound
//! on what it holds): against the number the group expects next, with the rules crate's
//! `SequenceValue::step`, the half of the circle from that number on ahead and the half
//! before it behind. So one stream gets one verdict, across the wrap from 2147483647 to
//! -2147483648 too. The checker reports, as errors of `CE sequence` naming the event:
//!
//! - a duplicate: a number seen before in the group (names the first occurrence);
//! - out of order: a number that arrives after a higher one (names the highest so far), or
//!   behind the group's start;
//! - a gap: numbers never seen between the group's start and its highest number, reported on
//!   the first event after the gap, with the missing numbers.
//!
//! Without `Integer` the extension gives only string order: a value not greater than the
//! previous one is a warning. Events the validator refused are left out; their findings
//! already say why.
//!
//! A gap is known only once the stream ends, so the stream's findings are written after every
//! input's report, in the order of the events they name, at most
//! `limits::MAX_REPORTED_FINDINGS` of them and a count of the rest. Nothing of an event is kept
//! but what the check needs: per group, where each number stood (8 bytes an event); the group's
//! strings once.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};

use cloudevent_runtime::rules::{SequenceStep, SequenceValue, rule, shorten};
use cloudevent_runtime::{Severity, Violation, limits};
use serde_json::{Value, json};

use super::report::{finding_json, location, write_finding};

/// How many missing numbers a gap lists before it only counts them.
const LISTED: usize = 10;

/// What the check takes of one event the validator accepted: its group and its `sequence`.
pub(super) struct Sequenced {
    source: String,
    partitionkey: Option<String>,
    sequence: String,
    sequencetype: Option<String>,
}

impl Sequenced {
    /// The event's sequence attributes, `attribute` reading each as text; `None` for an event
    /// that is refused or has no `source` or `sequence`.
    pub(super) fn read<'a>(
        valid: bool,
        attribute: impl Fn(&str) -> Option<&'a str>,
    ) -> Option<Sequenced> {
        if !valid {
            return None;
        }
        Some(Sequenced {
            source: attribute("source")?.to_owned(),
            sequence: attribute("sequence")?.to_owned(),
            partitionkey: attribute("partitionkey").map(str::to_owned),
            sequencetype: attribute("sequencetype").map(str::to_owned),
        })
    }
}

/// Where an event stood: its input (in command-line order) and its line or index in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Position {
    input: u32,
    /// The 1-based line (JSON Lines) or the 0-based index, `u32::MAX` for a lone event.
    at: u32,
}

/// The stream of every input's events, checked as they come.
#[derive(Default)]
pub(super) struct Stream {
    names: Vec<String>,
    groups: HashMap<(String, Option<String>), Group>,
    /// The first findings, in the stream's order (the events they name).
    found: Vec<(Position, Violation)>,
    /// Findings past the bound, counted.
    omitted: Counted,
}

/// Findings counted without being listed.
#[derive(Default, Clone, Copy)]
pub(super) struct Counted {
    pub(super) findings: usize,
    pub(super) errors: usize,
    pub(super) warnings: usize,
}

impl Counted {
    fn count(&mut self, finding: &Violation) {
        self.findings += 1;
        match finding.severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
        }
    }
}

impl Stream {
    /// Takes the events of the next input, in order: `(line or index, event)`.
    pub(super) fn input(&mut self, name: &str, events: Vec<(Option<usize>, Sequenced)>) {
        let input = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        self.names.push(name.to_owned());
        for (at, event) in events {
            let position = Position {
                input,
                at: at.and_then(|at| u32::try_from(at).ok()).unwrap_or(u32::MAX),
            };
            if let Some(finding) = self.event(event, position) {
                self.note(position, finding);
            }
        }
    }

    fn event(&mut self, event: Sequenced, position: Position) -> Option<Violation> {
        let Ok(value) = SequenceValue::read(&event.sequence, event.sequencetype.as_deref()) else {
            return None;
        };
        // Looked up by reference first: most events belong to a group already.
        let key = (event.source, event.partitionkey);
        let group = match self.groups.get_mut(&key) {
            Some(group) => group,
            None => self.groups.entry(key).or_default(),
        };
        let names = &self.names;
        let at = |position: Position| where_(names, position);
        match value {
            SequenceValue::Integer(number) => group.integer(number, position, at),
            SequenceValue::Lexicographic(text) => group.text(text, position, at),
        }
    }

    fn note(&mut self, position: Position, finding: Violation) {
        if self.found.len() < limits::MAX_REPORTED_FINDINGS {
            self.found.push((position, finding));
        } else {
            self.omitted.count(&finding);
        }
    }

    /// The end of the stream: the gaps never filled, and every finding in the order of the
    /// events they name, bounded.
    pub(super) fn finish(mut self) -> StreamReport {
        let groups = std::mem::take(&mut self.groups);
        let mut gaps: Vec<(Position, Violation)> = groups
            .iter()
            .flat_map(|((source, partitionkey), group)| group.gaps(source, partitionkey.as_deref()))
            .collect();
        gaps.sort_by_key(|(position, _)| *position);
        // `found` holds the earliest findings of their kind (the stream's order): with every
        // gap, it holds the earliest of all.
        let mut all = std::mem::take(&mut self.found);
        all.extend(gaps);
        all.sort_by_key(|(position, _)| *position);
        let mut omitted = self.omitted;
        for (_, finding) in all.iter().skip(limits::MAX_REPORTED_FINDINGS) {
            omitted.count(finding);
        }
        all.truncate(limits::MAX_REPORTED_FINDINGS);
        StreamReport {
            findings: all
                .into_iter()
                .map(|(position, finding)| (where_(&self.names, position), finding))
                .collect(),
            omitted,
        }
    }
}

/// The event at `position`, as the report names it (`file#line`, `file#index`, `file`).
fn where_(names: &[String], position: Position) -> String {
    let name = names
        .get(position.input as usize)
        .map_or("", String::as_str);
    location(
        name,
        (position.at != u32::MAX).then_some(position.at as usize),
    )
}

/// The stream's findings, written after every input's report.
pub(super) struct StreamReport {
    findings: Vec<(String, Violation)>,
    omitted: Counted,
}

impl StreamReport {
    pub(super) fn has_error(&self) -> bool {
        self.omitted.errors > 0 || self.findings.iter().any(|(_, f)| f.is_error())
    }

    pub(super) fn has_warning(&self) -> bool {
        self.omitted.warnings > 0
            || self
                .findings
                .iter()
                .any(|(_, f)| f.severity == Severity::Warning)
    }

    /// The findings listed.
    pub(super) fn findings(&self) -> impl Iterator<Item = &Violation> {
        self.findings.iter().map(|(_, finding)| finding)
    }

    /// A line a finding, then what was counted.
    pub(super) fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        for (at, finding) in &self.findings {
            write_finding(out, at, finding)?;
        }
        let Counted {
            findings, errors, ..
        } = self.omitted;
        if findings > 0 {
            writeln!(
                out,
                "--sequence: {findings} more findings not listed, {errors} of them errors"
            )?;
        }
        Ok(())
    }

    /// `{"findings": [{"at", ...the finding}], "omitted": {"findings", "errors"}}`.
    pub(super) fn json(&self) -> Value {
        let findings: Vec<Value> = self
            .findings
            .iter()
            .map(|(at, finding)| {
                let mut json = finding_json(finding);
                json["at"] = Value::from(at.as_str());
                json
            })
            .collect();
        let mut report = json!({ "findings": findings });
        if self.omitted.findings > 0 {
            report["omitted"] = json!({
                "findings": self.omitted.findings,
                "errors": self.omitted.errors,
            });
        }
        report
    }
}

/// One group's state: what the ordering stage keeps for it, and where each number stood.
#[derive(Default)]
struct Group {
    /// The group's first Integer number and the number expected next (`None` before the
    /// first).
    numbers: Option<(i32, i32)>,
    /// Where each number from the start up to the one before `next` first stood: the
    /// numbers the stage has delivered.
    delivered: Vec<Position>,
    /// Numbers ahead of the next one (a hole before them), keyed as the ordering stage keys
    /// what it holds: the count of numbers delivered plus how far ahead of the next number
    /// each was when it came, so the keys keep the stream's order however far it moves.
    ahead: BTreeMap<u64, (i32, Position)>,
    last_text: Option<(String, Position)>,
}

impl Group {
    fn integer(
        &mut self,
        number: i32,
        position: Position,
        at: impl Fn(Position) -> String,
    ) -> Option<Violation> {
        let problem = |text: String| {
            Violation::error(rule::CE_SEQUENCE, "sequence", number.to_string(), text)
        };
        let Some((start, next)) = self.numbers else {
            self.numbers = Some((number, SequenceValue::successor(number)));
            self.delivered.push(position);
            return None;
        };
        // The highest number so far, and where it stood.
        let highest = match self.ahead.last_key_value() {
            Some((_, &(number, position))) => (number, position),
            None => (next.wrapping_sub(1), *self.delivered.last()?),
        };
        // The ordering stage's one judgment: against the number expected next.
        let missing = match SequenceValue::step(next, number) {
            SequenceStep::Behind { by } => {
                let first = (by as usize <= self.delivered.len())
                    .then(|| self.delivered[self.delivered.len() - by as usize]);
                return Some(problem(match first {
                    Some(first) => format!("duplicate: `{number}` was already at {}", at(first)),
                    None => format!(
                        "out of order: arrives after `{}`, and before the group's first event `{start}`",
                        highest.0
                    ),
                }));
            }
            SequenceStep::Next => 0,
            SequenceStep::Ahead { missing } => missing,
        };
        let slot = self.delivered.len() as u64 + u64::from(missing);
        if let Some(&(_, first)) = self.ahead.get(&slot) {
            return Some(problem(format!(
                "duplicate: `{number}` was already at {}",
                at(first)
            )));
        }
        let late = self
            .ahead
            .last_key_value()
            .is_some_and(|(&highest, _)| highest > slot);
        if missing == 0 {
            self.delivered.push(position);
            let mut next = SequenceValue::successor(next);
            while let Some(entry) = self.ahead.first_entry() {
                if *entry.key() != self.delivered.len() as u64 {
                    break;
                }
                self.delivered.push(entry.remove().1);
                next = SequenceValue::successor(next);
            }
            self.numbers = Some((start, next));
        } else {
            self.ahead.insert(slot, (number, position));
        }
        late.then(|| {
            problem(format!(
                "out of order: arrives after `{}` ({})",
                highest.0,
                at(highest.1)
            ))
        })
    }

    fn text(
        &mut self,
        text: &str,
        position: Position,
        at: impl Fn(Position) -> String,
    ) -> Option<Violation> {
        let finding = match &self.last_text {
            Some((last, last_at)) if text == last => Some(format!(
                "duplicate: `{}` was already at {}",
                shorten(text),
                at(*last_at)
            )),
            Some((last, last_at)) if text < last.as_str() => Some(format!(
                "out of order: arrives after `{}` ({}); without `sequencetype: Integer` only string order is known",
                shorten(last),
                at(*last_at)
            )),
            _ => None,
        };
        if finding.is_none() {
            self.last_text = Some((text.to_owned(), position));
        }
        finding.map(|problem| Violation::warning(rule::CE_SEQUENCE, "sequence", text, problem))
    }

    /// Every run of numbers never seen between the start and the highest, as a finding on
    /// the event just after the run.
    fn gaps(&self, source: &str, partitionkey: Option<&str>) -> Vec<(Position, Violation)> {
        let Some((_, next)) = self.numbers else {
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
        let delivered = self.delivered.len() as u64;
        // The number at a key: the next number, moved on by the key's distance from it.
        let number_at = |key: u64| next.wrapping_add_unsigned((key - delivered) as u32);
        let mut found = Vec::new();
        let mut expected = delivered;
        for (&slot, &(number, position)) in &self.ahead {
            if slot > expected {
                let count = slot - expected;
                let first = number_at(expected);
                let numbers: Vec<String> = (0..count.min(LISTED as u64))
                    .map(|k| first.wrapping_add_unsigned(k as u32).to_string())
                    .collect();
                let more = if count > LISTED as u64 {
                    format!(", ... ({count} in all)")
                } else {
                    String::new()
                };
                found.push((
                    position,
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
            expected = slot + 1;
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(numbers: &[i32]) -> Vec<String> {
        let mut group = Group::default();
        let at = |position: Position| format!("#{}", position.at);
        let mut found: Vec<String> = numbers
            .iter()
            .enumerate()
            .filter_map(|(i, &n)| {
                let position = Position {
                    input: 0,
                    at: i as u32,
                };
                group.integer(n, position, at)
            })
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
        assert_eq!(
            run(&[1, 3, 3]),
            [
                "duplicate: `3` was already at #1",
                "gap before this event in source `/s`: missing 2"
            ]
        );
        assert_eq!(run(&[1, 3, 2]), ["out of order: arrives after `3` (#1)"]);
        assert_eq!(
            run(&[3, 2]),
            ["out of order: arrives after `3`, and before the group's first event `3`"]
        );
        let long = run(&[1, 100]);
        assert!(long[0].ends_with("10, 11, ... (98 in all)"), "{long:?}");
    }

    /// Issue 38 item 2: the ordering stage's verdict at the wrap. After `0, 2147483647` the
    /// next number is still 1, and `-2147483648` is ahead of it: in order, after the gap.
    #[test]
    fn the_wrap_is_judged_against_the_next_number() {
        assert_eq!(
            run(&[0, i32::MAX, i32::MIN]),
            [
                "gap before this event in source `/s`: missing 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ... (2147483646 in all)"
            ]
        );
        // Behind the next number by more than the stream delivered: before its start.
        assert_eq!(
            run(&[0, -5]),
            ["out of order: arrives after `0`, and before the group's first event `0`"]
        );
    }
}
