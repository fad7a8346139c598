//! What `cloudevent validate` reports on one input ([`Checked`]), kept bounded by the input,
//! and the two ways it is written: text, and one JSON document written input by input.

use std::io::{self, Write};

use cloudevent_runtime::{
    BatchReport, Document, FindingJson, Policy, Profile, Severity, ValidationReport, Violation,
    limits,
};
use serde_json::{Value, json};

use super::sequence::{Sequenced, StreamReport};
use crate::input::{self, Body, Format, Holder, Part, Single};

/// What one input turned out to be.
pub(crate) enum Outcome {
    /// Validated: findings about the input itself, then each event.
    Checked(Checked),
    /// Could not be read (or is in a format not supported yet); the message says why.
    Unreadable(String),
}

/// One input's report: findings about the input, its events in order until their findings
/// reach [`limits::MAX_REPORTED_FINDINGS`], and a count of the events after them.
pub(crate) struct Checked {
    kind: &'static str,
    findings: Vec<Violation>,
    pub(super) events: Vec<EventResult>,
    /// Findings of the events listed so far.
    listed: usize,
    omitted: Omitted,
    /// Whether an event not listed has an error.
    omitted_error: bool,
    /// Every event the validator accepted that has a `sequence`, listed or not, with its line
    /// or index: what `--sequence` takes of the input.
    pub(super) sequenced: Vec<(Option<usize>, Sequenced)>,
}

/// The events of an input its report does not list.
#[derive(Clone, Copy)]
struct Omitted {
    events: usize,
    /// How many of them have an error; `None` when they were not read.
    invalid: Option<usize>,
}

pub(crate) struct EventResult {
    pub(super) index: Option<usize>,
    /// The 1-based line number, for JSON Lines.
    pub(super) line: Option<usize>,
    id: Option<String>,
    findings: Vec<Violation>,
    /// Findings past the bound of one event's report, counted.
    omitted_findings: usize,
    valid: bool,
    /// The attributes the validator read (an object; empty when nothing could be read).
    attributes: Value,
}

/// Takes what `--sequence` needs of every event a batch's read reports, in order (the
/// batch's report lists only the first ones).
#[derive(Default)]
pub(super) struct EveryEvent {
    index: usize,
    pub(super) sequenced: Vec<(Option<usize>, Sequenced)>,
}

impl EveryEvent {
    pub(super) fn see(&mut self, report: &ValidationReport) {
        if let Some(event) = Sequenced::read(report.is_valid(), |name| report.attribute(name)) {
            self.sequenced.push((Some(self.index), event));
        }
        self.index += 1;
    }
}

impl EventResult {
    pub(super) fn from_report(index: Option<usize>, report: &ValidationReport) -> Self {
        EventResult {
            index,
            line: None,
            id: report.id().map(str::to_owned),
            findings: report.findings().to_vec(),
            omitted_findings: report.omitted_findings(),
            valid: report.is_valid(),
            attributes: report.attributes_json(),
        }
    }

    /// An event read and judged by another check than the profile's (`cloudevent verify`):
    /// its id and attributes as the validator read them, and that check's findings.
    pub(crate) fn judged(
        index: Option<usize>,
        report: &ValidationReport,
        findings: Vec<Violation>,
    ) -> Self {
        EventResult {
            index,
            line: None,
            id: report.id().map(str::to_owned),
            valid: !findings.iter().any(Violation::is_error),
            findings,
            omitted_findings: 0,
            attributes: report.attributes_json(),
        }
    }

    /// An event (a Kafka record) that could not be read.
    pub(crate) fn refused(index: Option<usize>, findings: Vec<Violation>) -> Self {
        EventResult {
            index,
            line: None,
            id: None,
            valid: !findings.iter().any(Violation::is_error),
            findings,
            omitted_findings: 0,
            attributes: json!({}),
        }
    }
}

impl Checked {
    /// The report on one input as the one reader ([`input::read`]) finds its parts: `body`
    /// judges the whole input or an HTTP message's body, `single` each JSON Lines line and
    /// each Kafka record (numbered as the input numbers them); a finding about the input as a
    /// whole is its report. `validate` checks, `verify` verifies.
    pub(crate) fn of_input(
        format: Format,
        bytes: &[u8],
        policy: &Policy,
        body: &mut dyn FnMut(Body<'_>) -> Checked,
        single: &mut dyn FnMut(Option<usize>, Single<'_>) -> EventResult,
    ) -> Checked {
        let mut whole = None;
        let mut listed = Checked::listing("lines");
        let read = input::read(format, bytes, policy, &mut |part| match part {
            Part::Whole(part) | Part::Http { body: part, .. } => whole = Some(body(part)),
            Part::Line { index, line, bytes } => listed.add(|| {
                let mut event = single(Some(index), Single::Event(input::Encoding::Json, bytes));
                event.line = Some(line);
                event
            }),
            Part::Record {
                index,
                record,
                value,
            } => listed.add(|| single(index, Single::of_record(record, value))),
            Part::NotARecord { index, findings } => {
                listed.add(|| EventResult::refused(index, findings));
            }
        });
        match read {
            Err(finding) => Checked::refused_with(*finding),
            Ok(Holder::Input | Holder::Message) => whole.unwrap_or(listed),
            Ok(Holder::Lines) => listed,
            Ok(Holder::Record) => Checked {
                kind: "record",
                ..listed
            },
            Ok(Holder::Records) => Checked {
                kind: "records",
                ..listed
            },
        }
    }

    /// An input of `kind` whose events are added one by one ([`Checked::add`]).
    pub(crate) fn listing(kind: &'static str) -> Self {
        Checked {
            kind,
            findings: Vec::new(),
            events: Vec::new(),
            listed: 0,
            omitted: Omitted {
                events: 0,
                invalid: Some(0),
            },
            omitted_error: false,
            sequenced: Vec::new(),
        }
    }

    /// Lists the event while the findings listed stay under the bound; else counts it.
    /// Either way its sequence attributes are kept for `--sequence`.
    pub(crate) fn add(&mut self, event: impl FnOnce() -> EventResult) {
        let event = event();
        let attribute = |name: &str| event.attributes.get(name).and_then(Value::as_str);
        if let Some(sequenced) = Sequenced::read(event.valid, attribute) {
            self.sequenced.push((event.line.or(event.index), sequenced));
        }
        if self.omitted.events == 0 && self.listed < limits::MAX_REPORTED_FINDINGS {
            self.listed += event.findings.len();
            self.events.push(event);
        } else {
            self.omitted.events += 1;
            if !event.valid {
                self.omitted_error = true;
                self.omitted.invalid = self.omitted.invalid.map(|n| n + 1);
            }
        }
    }

    pub(crate) fn is_valid(&self) -> bool {
        !self.omitted_error
            && !self.findings.iter().any(Violation::is_error)
            && self.events.iter().all(|event| event.valid)
    }

    pub(super) fn event(report: &ValidationReport) -> Self {
        let mut checked = Checked::listing("event");
        checked.add(|| EventResult::from_report(None, report));
        checked
    }

    /// A batch as the runtime reported it: the events it lists, and its count of the rest;
    /// `every` took every event's sequence attributes as it was read.
    pub(super) fn batch(report: &BatchReport, every: EveryEvent) -> Self {
        Checked {
            sequenced: every.sequenced,
            findings: report.findings().to_vec(),
            events: report
                .events()
                .iter()
                .enumerate()
                .map(|(index, event)| EventResult::from_report(Some(index), event))
                .collect(),
            omitted: Omitted {
                events: report.omitted(),
                invalid: report.omitted_invalid(),
            },
            omitted_error: report.omitted_invalid().is_some_and(|n| n > 0),
            ..Checked::listing("batch")
        }
    }

    /// Input that could not be read as an event at all, and why.
    pub(crate) fn refused_with(violation: Violation) -> Self {
        Checked {
            findings: vec![violation],
            ..Checked::listing("input")
        }
    }

    /// One event (whose sequence attributes [`Checked::add`] takes), or a batch.
    pub(super) fn document(document: &Document, every: EveryEvent) -> Self {
        match document {
            Document::Event(report) => Checked::event(report),
            Document::Batch(report) => Checked::batch(report, every),
        }
    }

    /// Whether a finding listed (of an event or about the input) is a warning.
    pub(super) fn has_warning(&self) -> bool {
        self.all_findings()
            .any(|finding| finding.severity == Severity::Warning)
    }

    /// The findings listed, of every event and about the input.
    fn all_findings(&self) -> impl Iterator<Item = &Violation> {
        self.findings
            .iter()
            .chain(self.events.iter().flat_map(|event| &event.findings))
    }
}

/// Escapes control characters, so hostile input cannot rewrite the terminal or split lines,
/// and the bidirectional embeddings, overrides and isolates (U+202A-202E, U+2066-2069), so
/// `abc\u{202e}gnp.exe` cannot display as `abcexe.png`.
pub(crate) fn clean(text: &str) -> String {
    let hidden =
        |c: char| c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    if !text.chars().any(hidden) {
        return text.to_owned();
    }
    text.chars()
        .map(|c| {
            if hidden(c) {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// `<file>`, or `<file>#<n>` with an event's 1-based line (JSON Lines) or 0-based index.
pub(super) fn location(name: &str, at: Option<usize>) -> String {
    match at {
        Some(index) => format!("{}#{index}", clean(name)),
        None => clean(name),
    }
}

pub(super) fn write_finding(out: &mut dyn Write, at: &str, finding: &Violation) -> io::Result<()> {
    writeln!(out, "{at}: {}", clean(&finding.report_line().to_string()))
}

/// One input's report in text: a line a finding and a line a valid event, then what was
/// counted without being listed.
pub(crate) fn write_text(out: &mut dyn Write, name: &str, outcome: &Outcome) -> io::Result<()> {
    let Outcome::Checked(checked) = outcome else {
        return Ok(());
    };
    let at = location(name, None);
    for finding in &checked.findings {
        write_finding(out, &at, finding)?;
    }
    for event in &checked.events {
        let at = location(name, event.line.or(event.index));
        for finding in &event.findings {
            write_finding(out, &at, finding)?;
        }
        if event.omitted_findings > 0 {
            writeln!(
                out,
                "{at}: {} more findings not listed",
                event.omitted_findings
            )?;
        }
        if event.valid {
            writeln!(out, "ok {at} {}", clean(event.id.as_deref().unwrap_or("-")))?;
        }
    }
    match checked.omitted {
        Omitted { events: 0, .. } => Ok(()),
        Omitted {
            events,
            invalid: Some(invalid),
        } => writeln!(
            out,
            "{at}: {events} more events not listed, {invalid} of them invalid"
        ),
        Omitted {
            events,
            invalid: None,
        } => writeln!(out, "{at}: {events} more events not read"),
    }
}

/// A finding in the library's one report shape.
pub(super) fn finding_json(finding: &Violation) -> Value {
    serde_json::to_value(FindingJson(finding))
        .expect("a finding (strings and a severity) always makes a JSON value")
}

/// `--output json`, written input by input: `{"profile", "inputs": [...], "valid",
/// "errors", "warnings"}`; each input is `{"file", "kind":
/// "event"|"batch"|"lines"|"record"|"records"|"input", "valid", "findings", "events":
/// [{"index", "line", "id", "valid", "findings"}]}` or `{"file", "kind": "unreadable",
/// "valid": false, "error"}`, with `"omitted": {"events", "invalid"}` when events were
/// counted without being listed (`invalid` is null when they were not read) and an event's
/// `"omitted_findings"` when it has more findings than it lists. `index` counts the input's
/// events from 0 (null for a lone event or record), `line` is the 1-based line of a JSON
/// Lines event, else null. With `--sequence`, `"sequence": {"findings": [{"at", ...}],
/// "omitted": {"findings", "errors"}}` follows `inputs`: the stream's findings, each naming
/// its event (`"at": "<file>#<n>"`), and a count of those not listed. `errors` and
/// `warnings` count the findings listed.
pub(crate) struct JsonReport {
    profile: Profile,
    inputs: usize,
    valid: bool,
    errors: usize,
    warnings: usize,
}

impl JsonReport {
    pub(crate) fn new(profile: Profile) -> Self {
        JsonReport {
            profile,
            inputs: 0,
            valid: true,
            errors: 0,
            warnings: 0,
        }
    }

    /// The document's opening, before the first input.
    pub(crate) fn begin(&self, out: &mut dyn Write) -> io::Result<()> {
        write!(
            out,
            "{{\n  \"profile\": {},\n  \"inputs\": [",
            Value::from(self.profile.name())
        )
    }

    /// One input, on a line of its own.
    pub(crate) fn input(
        &mut self,
        out: &mut dyn Write,
        name: &str,
        outcome: &Outcome,
    ) -> io::Result<()> {
        let input = match outcome {
            Outcome::Checked(checked) => {
                self.valid &= checked.is_valid();
                for finding in checked.all_findings() {
                    match finding.severity {
                        Severity::Error => self.errors += 1,
                        Severity::Warning => self.warnings += 1,
                    }
                }
                let mut input = json!({
                    "file": name,
                    "kind": checked.kind,
                    "valid": checked.is_valid(),
                    "findings": checked.findings.iter().map(finding_json).collect::<Vec<_>>(),
                    // Each event in the library's report shape (`valid`, `profile`, `id`,
                    // `findings`, `attributes`), with where it stood in the input.
                    "events": checked.events.iter().map(|event| {
                        let mut json = json!({
                            "index": event.index,
                            "line": event.line,
                            "valid": event.valid,
                            "profile": self.profile.name(),
                            "id": event.id,
                            "findings": event.findings.iter().map(finding_json).collect::<Vec<_>>(),
                            "attributes": event.attributes,
                        });
                        if event.omitted_findings > 0 {
                            json["omitted_findings"] = event.omitted_findings.into();
                        }
                        json
                    }).collect::<Vec<_>>(),
                });
                if checked.omitted.events > 0 {
                    input["omitted"] = json!({
                        "events": checked.omitted.events,
                        "invalid": checked.omitted.invalid,
                    });
                }
                input
            }
            Outcome::Unreadable(reason) => {
                self.valid = false;
                json!({
                    "file": name,
                    "kind": "unreadable",
                    "valid": false,
                    "error": reason,
                })
            }
        };
        out.write_all(if self.inputs == 0 {
            b"\n    "
        } else {
            b",\n    "
        })?;
        self.inputs += 1;
        serde_json::to_writer(&mut *out, &input).map_err(io::Error::other)
    }

    /// The totals, after the last input, for a report without `--sequence`.
    pub(crate) fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.end(out, None)
    }

    /// The stream's findings (`--sequence`) and the totals, after the last input.
    pub(super) fn end(
        &mut self,
        out: &mut dyn Write,
        stream: Option<&StreamReport>,
    ) -> io::Result<()> {
        let close = if self.inputs == 0 { "]" } else { "\n  ]" };
        write!(out, "{close},")?;
        if let Some(stream) = stream {
            self.valid &= !stream.has_error();
            for finding in stream.findings() {
                match finding.severity {
                    Severity::Error => self.errors += 1,
                    Severity::Warning => self.warnings += 1,
                }
            }
            write!(out, "\n  \"sequence\": ")?;
            serde_json::to_writer(&mut *out, &stream.json()).map_err(io::Error::other)?;
            write!(out, ",")?;
        }
        writeln!(
            out,
            "\n  \"valid\": {},\n  \"errors\": {},\n  \"warnings\": {}\n}}",
            self.valid, self.errors, self.warnings
        )
    }
}
