//! `cloudevent validate`: check events against a profile, as a build-pipeline or gateway
//! linting step (INTG-STD-015 "Producer/Gateway/Consumer Enforcement").
//!
//! Output, one line per finding and one per valid event:
//!
//! ```text
//! <file>[#<index>]: error|warning <rule-id>: <message>
//! ok <file>[#<index>] <id>
//! ```
//!
//! `#<index>` appears for the events of a batch (a JSON array) and the records of an array of
//! Kafka records, counted from 0; for JSON Lines it is the 1-based line number, as an editor
//! counts lines. `--output json` writes the same as one JSON document.
//!
//! `--format`:
//!
//! - `json`: the JSON event format; an object is one event, an array a batch.
//! - `jsonl`: JSON Lines, one event a line. Lines end at `\n` (a `\r` before it is dropped),
//!   blank lines are skipped, and each other line is validated as one event: a line that is
//!   not a JSON object, or is over the event limit (256 KiB, INTG-STD-015 R-11), is an error
//!   finding on that line. The input as a whole keeps the input limit below; a JSON Lines
//!   file is not a batch, so the batch's event count (R-10) does not apply.
//! - `http`: a raw HTTP/1.1 message in structured, binary or batched mode.
//! - `kafka`: a Kafka record as JSON, or an array of them (the runtime's `KafkaRecord::from_json`).
//! - `protobuf`, `protobuf-batch`: one `CloudEvent` or a `CloudEventBatch` message in the
//!   CloudEvents Protobuf format, read strictly (the wire, then the CloudEvents MUSTs, to the
//!   first error), then validated in full under the chosen profile. An HTTP message whose
//!   content type names the Protobuf format is read the same way.
//! - `avro`: one event in the CloudEvents Avro format (which defines no batch), decoded
//!   strictly and validated in full under the chosen profile, every finding listed; an HTTP
//!   message or Kafka record whose content type names the Avro format is read the same way.
//! - `auto` (the default): JSON Lines when the first non-blank line is on its own a complete
//!   JSON object and another non-blank line follows (a pretty-printed event opens with a
//!   line that is not a whole object, so it stays one event); else JSON when the input starts
//!   with `{` or `[`; else an HTTP message when it starts with a request line, a status line
//!   or a header; else JSON, so the parser names what is wrong. Kafka records are never
//!   guessed.
//!
//! `--sequence` also checks the order of every input's events, read as one stream, per
//! (source, partitionkey): gaps, duplicates, out-of-order numbers (`validate/sequence.rs`).
//!
//! Exit status: 0 when no event has an error (warnings allowed), 1 when one has, 2 for usage
//! errors and unreadable input (2 wins over 1). An input larger than the batch limit (1 MiB,
//! INTG-STD-015 R-10) is not read past the limit and not parsed; it is reported as an error
//! finding of rule R-10, so it exits 1: the file was readable, it is the content that breaks
//! the standard.

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use cloudevent_cli::http_message;
use cloudevent_runtime::binding::kafka::{self, KafkaRecord};
use cloudevent_runtime::binding::{
    BindingError, BindingEvent, ContentMode, Detected, StructuredFormat, http,
};
use cloudevent_runtime::rules::rule;
use cloudevent_runtime::{
    AnyEvent, Avro, BatchReport, Document, FindingJson, Json, Profile, Protobuf, RuleId, Severity,
    ValidationReport, Violation, limits,
};
use serde_json::{Value, json};

mod registry;
use registry::Checker;
mod sequence;

/// Arguments of `cloudevent validate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The rules to check against.
    #[arg(long, value_enum, default_value_t = ProfileArg::IntgStd015)]
    profile: ProfileArg,
    /// Also require `correlationid` and `causationid` on every event (ADR-0003).
    #[arg(long)]
    require_traceability: bool,
    /// How the input is encoded. `auto` reads JSON Lines when the first non-blank line is a
    /// whole JSON object and more lines follow, JSON when the input starts with `{` or `[`,
    /// an HTTP message when it starts with a request line or a header.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    format: Format,
    /// `text`: one line per finding and per valid event; `json`: one JSON report.
    #[arg(long, value_enum, default_value_t = Output::Text)]
    output: Output,
    /// `--registry`, `--xregistry`, `--registry-snapshot` and their options.
    #[command(flatten)]
    registry: registry::RegistryArgs,
    /// Also check the order of the events of all inputs, as one stream, per (source,
    /// partitionkey): gaps, duplicates and out-of-order `sequence` numbers (`CE sequence`).
    #[arg(long)]
    sequence: bool,
    /// Files to validate; `-` or none reads standard input. A JSON object is one event, an
    /// array a batch; JSON Lines are reported as `FILE#<line>` (1-based).
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// `--profile`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ProfileArg {
    /// The CloudEvents 1.0.2 MUSTs.
    #[value(name = "cloudevents")]
    CloudEvents,
    /// INTG-STD-015 and its gateway enforcement rules.
    #[value(name = "intg-std-015")]
    IntgStd015,
    /// The NL GOV profile for CloudEvents.
    #[value(name = "nl-gov")]
    NlGov,
}

impl From<ProfileArg> for Profile {
    fn from(profile: ProfileArg) -> Self {
        match profile {
            ProfileArg::CloudEvents => Profile::CloudEvents,
            ProfileArg::IntgStd015 => Profile::IntgStd015,
            ProfileArg::NlGov => Profile::NlGov,
        }
    }
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// JSON Lines when the first line is a whole JSON object and more lines follow, JSON when
    /// the input starts with `{` or `[`, else an HTTP message when it looks like one.
    Auto,
    /// The JSON event format: an object is one event, an array a batch.
    Json,
    /// JSON Lines: one event a line, blank lines skipped, findings by 1-based line number.
    #[value(name = "jsonl")]
    JsonLines,
    /// A raw HTTP/1.1 message (structured, binary or batched mode).
    Http,
    /// A Kafka record as JSON, or an array of them: `{"key": string|null, "headers": {name:
    /// string|null|{"base64": string}}, "value": string|null}`, or `"value_base64": string`
    /// instead of `value` for bytes (standard base64 with padding, RFC 4648 section 4).
    Kafka,
    /// One event in the CloudEvents Protobuf format (`application/cloudevents+protobuf`).
    Protobuf,
    /// A batch in the CloudEvents Protobuf batch format.
    ProtobufBatch,
    /// One event in the CloudEvents Avro format (`application/cloudevents+avro`).
    Avro,
}

/// `--output`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Output {
    /// One line per finding and per valid event.
    Text,
    /// One JSON report.
    Json,
}

/// Exit status for usage errors and unreadable input.
const USAGE: u8 = 2;

/// Runs the subcommand.
pub fn run(args: Args) -> ExitCode {
    let stdout = io::stdout();
    let stderr = io::stderr();
    ExitCode::from(validate(
        &args,
        &mut io::stdin().lock(),
        &mut stdout.lock(),
        &mut stderr.lock(),
    ))
}

/// What one input turned out to be.
enum Outcome {
    /// Validated: findings about the input itself, then each event.
    Checked(Checked),
    /// Could not be read (or is in a format not supported yet); the message says why.
    Unreadable(String),
}

struct Checked {
    kind: &'static str,
    findings: Vec<Violation>,
    events: Vec<EventResult>,
}

struct EventResult {
    index: Option<usize>,
    /// The 1-based line number, for JSON Lines.
    line: Option<usize>,
    id: Option<String>,
    findings: Vec<Violation>,
    /// The attributes the validator read (an object; empty when nothing could be read).
    attributes: Value,
}

impl EventResult {
    fn is_valid(&self) -> bool {
        !self.findings.iter().any(Violation::is_error)
    }
}

impl Checked {
    fn is_valid(&self) -> bool {
        !self.findings.iter().any(Violation::is_error)
            && self.events.iter().all(EventResult::is_valid)
    }

    fn event(report: &ValidationReport) -> Self {
        Checked {
            kind: "event",
            findings: Vec::new(),
            events: vec![EventResult::from_report(None, report)],
        }
    }

    fn batch(report: &BatchReport) -> Self {
        Checked {
            kind: "batch",
            findings: report.findings().to_vec(),
            events: report
                .events()
                .iter()
                .enumerate()
                .map(|(index, event)| EventResult::from_report(Some(index), event))
                .collect(),
        }
    }

    /// Input that could not be read as an event at all: one finding about the input.
    fn refused(attribute: &'static str, rule: RuleId, problem: String) -> Self {
        Checked {
            kind: "input",
            findings: vec![Violation::error(rule, attribute, "", problem)],
            events: Vec::new(),
        }
    }

    fn binding_error(error: &BindingError) -> Self {
        Checked {
            kind: "input",
            findings: vec![binding_violation(error)],
            events: Vec::new(),
        }
    }

    fn document(document: &Document) -> Self {
        match document {
            Document::Event(report) => Checked::event(report),
            Document::Batch(report) => Checked::batch(report),
        }
    }
}

impl EventResult {
    fn from_report(index: Option<usize>, report: &ValidationReport) -> Self {
        EventResult {
            index,
            line: None,
            id: report.id().map(str::to_owned),
            findings: report.findings().to_vec(),
            attributes: report.attributes_json(),
        }
    }
}

/// Validates every input, writes the report, returns the exit status.
fn validate(
    args: &Args,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> u8 {
    let validator = match Checker::from_args(args) {
        Ok(validator) => validator,
        Err(reason) => {
            let _ = writeln!(stderr, "cloudevent validate: {}", clean(&reason));
            return USAGE;
        }
    };
    let stdin_only = [PathBuf::from("-")];
    let files = if args.files.is_empty() {
        &stdin_only[..]
    } else {
        &args.files[..]
    };
    let mut outcomes = Vec::with_capacity(files.len());
    let mut stdin_used = false;
    for file in files {
        let is_stdin = file.as_os_str() == "-";
        let name = if is_stdin {
            "<stdin>".to_owned()
        } else {
            file.display().to_string()
        };
        let outcome = if is_stdin && stdin_used {
            Outcome::Unreadable("standard input can be read only once".to_owned())
        } else if is_stdin {
            stdin_used = true;
            check_input(&validator, args.format, stdin)
        } else {
            match std::fs::File::open(file) {
                Ok(mut reader) => check_input(&validator, args.format, &mut reader),
                Err(error) => Outcome::Unreadable(format!("cannot read: {error}")),
            }
        };
        if let Outcome::Unreadable(reason) = &outcome {
            let _ = writeln!(
                stderr,
                "cloudevent validate: {}: {}",
                clean(&name),
                clean(reason)
            );
        }
        outcomes.push((name, outcome));
    }
    if args.sequence {
        sequence::check(&mut outcomes);
    }
    let written = match args.output {
        Output::Text => write_text(stdout, &outcomes),
        Output::Json => write_json(stdout, validator.profile(), &outcomes),
    };
    if let Err(error) = written.and_then(|()| stdout.flush()) {
        // A closed pipe (`| head`) is not the input's fault, but the report is incomplete.
        let _ = writeln!(
            stderr,
            "cloudevent validate: writing the report failed: {error}"
        );
        return USAGE;
    }
    let unreadable = outcomes
        .iter()
        .any(|(_, outcome)| matches!(outcome, Outcome::Unreadable(_)));
    let invalid = outcomes
        .iter()
        .any(|(_, outcome)| matches!(outcome, Outcome::Checked(checked) if !checked.is_valid()));
    if unreadable { USAGE } else { u8::from(invalid) }
}

/// Reads one input, at most the batch limit, and validates it.
fn check_input(validator: &Checker, format: Format, reader: &mut dyn Read) -> Outcome {
    let limit = limits::MAX_BATCH_BYTES;
    let mut bytes = Vec::new();
    // One byte past the limit tells "exactly the limit" from "more"; nothing further is read.
    let limit_plus_one = u64::try_from(limit).map_or(u64::MAX, |l| l.saturating_add(1));
    if let Err(error) = reader.take(limit_plus_one).read_to_end(&mut bytes) {
        return Outcome::Unreadable(format!("cannot read: {error}"));
    }
    if bytes.len() > limit {
        return Outcome::Checked(Checked {
            kind: "input",
            findings: vec![
                Violation::error(
                    rule::INTG_R10,
                    "input",
                    format!("more than {limit} bytes"),
                    format!(
                        "exceeds the batch limit of {limit} bytes (an event may hold at most {} bytes, R-11); it was not parsed",
                        limits::MAX_EVENT_BYTES
                    ),
                )
                .with_hint("split the batch, or move large payloads out with the claim-check pattern"),
            ],
            events: Vec::new(),
        });
    }
    let format = match format {
        Format::Auto => detect(&bytes),
        other => other,
    };
    match format {
        Format::JsonLines => Outcome::Checked(check_json_lines(validator, &bytes)),
        Format::Http => Outcome::Checked(check_http(validator, &bytes)),
        Format::Kafka => Outcome::Checked(check_kafka(validator, &bytes)),
        Format::Protobuf => Outcome::Checked(check_protobuf(validator, &bytes, false)),
        Format::ProtobufBatch => Outcome::Checked(check_protobuf(validator, &bytes, true)),
        Format::Avro => Outcome::Checked(Checked::event(&validator.validate_bytes::<Avro>(&bytes))),
        Format::Auto | Format::Json => {
            Outcome::Checked(Checked::document(&validator.validate_document(&bytes)))
        }
    }
}

/// `--format auto`: JSON Lines when the first non-blank line is a whole JSON object and
/// another non-blank line follows, JSON when the first non-blank byte opens an object or
/// array, an HTTP message when the first line is a request line, a status line or a header;
/// JSON otherwise, so the parser names what is wrong.
fn detect(bytes: &[u8]) -> Format {
    match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') if is_json_lines(bytes) => Format::JsonLines,
        Some(b'{' | b'[') => Format::Json,
        _ if looks_like_http(bytes) => Format::Http,
        _ => Format::Json,
    }
}

/// Whether the input reads as JSON Lines rather than one JSON document. A pretty-printed
/// event opens with a line that is not a whole object (`{` alone, or the first members), and
/// one event on one line has no second line, so both stay one event.
fn is_json_lines(bytes: &[u8]) -> bool {
    let mut lines = json_lines(bytes);
    let Some((_, first)) = lines.next() else {
        return false;
    };
    lines.next().is_some() && serde_json::from_slice::<Value>(first).is_ok_and(|v| v.is_object())
}

/// The non-blank lines of JSON Lines with their 1-based numbers. `\n` ends a line and a `\r`
/// before it is dropped, so files written on Windows read the same.
fn json_lines(bytes: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(index, line)| (index + 1, line.strip_suffix(b"\r").unwrap_or(line)))
        .filter(|(_, line)| !line.iter().all(u8::is_ascii_whitespace))
}

/// JSON Lines: each non-blank line is one event, validated on its own; a line that is not an
/// event, or is over the event limit (R-11), is a finding on that line, and the other lines
/// are still checked.
fn check_json_lines(validator: &Checker, bytes: &[u8]) -> Checked {
    let events = json_lines(bytes)
        .enumerate()
        .map(|(index, (line, text))| EventResult {
            line: Some(line),
            ..EventResult::from_report(Some(index), &validator.validate_bytes::<Json>(text))
        })
        .collect();
    Checked {
        kind: "lines",
        findings: Vec::new(),
        events,
    }
}

fn looks_like_http(bytes: &[u8]) -> bool {
    http_message::looks_like_http_message(bytes)
}

/// A raw HTTP/1.1 message: structured mode and batches are validated as JSON (every
/// finding); binary mode is read into an event first, so a broken header stops at the first
/// problem, and the event read is then validated in full.
fn check_http(validator: &Checker, bytes: &[u8]) -> Checked {
    let request = match http_message::parse_http_message(bytes) {
        Ok(request) => request,
        Err(error) => return Checked::refused("message", rule::INTG_R8, error.to_string()),
    };
    let (headers, body) = (request.headers(), request.body());
    let format = http::content_type(headers)
        .ok()
        .flatten()
        .and_then(StructuredFormat::from_media_type);
    match format {
        Some((StructuredFormat::Protobuf, batch)) => {
            return check_protobuf(validator, body, batch);
        }
        Some((StructuredFormat::Avro, _)) => {
            return Checked::event(&validator.validate_bytes::<Avro>(body));
        }
        _ => {}
    }
    match http::content_mode(headers) {
        Ok(ContentMode::Structured) => Checked::event(&validator.validate_bytes::<Json>(body)),
        Ok(ContentMode::Batch) => Checked::batch(&validator.validate_batch_bytes::<Json>(body)),
        Ok(ContentMode::Binary) => {
            let event =
                http::read_binary_headers(headers, body.clone()).and_then(AnyEvent::from_binary);
            match event {
                Ok(event) => Checked::event(&validator.validate(&event)),
                Err(error) => Checked::binding_error(&error),
            }
        }
        Err(error) => Checked::binding_error(&error),
    }
}

/// The Protobuf format, one event or a batch: the format's reader collecting every finding
/// (the wire's, the attributes' and the chosen profile's), as for JSON and Avro.
fn check_protobuf(validator: &Checker, bytes: &[u8], batch: bool) -> Checked {
    if batch {
        Checked::batch(&validator.validate_batch_bytes::<Protobuf>(bytes))
    } else {
        Checked::event(&validator.validate_bytes::<Protobuf>(bytes))
    }
}

/// Kafka records in the runtime's JSON record form ([`KafkaRecord::from_json`]): an object is
/// one record, an array several (reported by index). Structured records are validated as
/// JSON; binary ones are read into an event first, as for HTTP.
fn check_kafka(validator: &Checker, bytes: &[u8]) -> Checked {
    let records: Vec<serde_json::Value> = match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Array(records)) => records,
        Ok(record @ Value::Object(_)) => {
            return Checked {
                kind: "record",
                findings: Vec::new(),
                events: vec![check_kafka_record(validator, None, &record)],
            };
        }
        Ok(_) => {
            return Checked::refused(
                "record",
                rule::INTG_R8,
                "is neither a record object nor an array of records".to_owned(),
            );
        }
        Err(error) => {
            return Checked::refused("record", rule::INTG_R8, format!("is not JSON: {error}"));
        }
    };
    let events = records
        .iter()
        .enumerate()
        .map(|(index, record)| check_kafka_record(validator, Some(index), record))
        .collect();
    Checked {
        kind: "records",
        findings: Vec::new(),
        events,
    }
}

fn check_kafka_record(validator: &Checker, index: Option<usize>, record: &Value) -> EventResult {
    let refused = |findings: Vec<Violation>| EventResult {
        index,
        line: None,
        id: None,
        findings,
        attributes: json!({}),
    };
    let record = match KafkaRecord::try_from(record) {
        Ok(record) => record,
        Err(error) => return refused(error.into_violations()),
    };
    let content_type = record
        .header(kafka::CONTENT_TYPE)
        .flatten()
        .and_then(|value| std::str::from_utf8(value).ok());
    let value = record.value.as_deref().unwrap_or_default();
    match content_type.and_then(StructuredFormat::from_media_type) {
        Some((StructuredFormat::Protobuf, _)) => {
            return EventResult::from_report(index, &validator.validate_bytes::<Protobuf>(value));
        }
        Some((StructuredFormat::Avro, _)) => {
            return EventResult::from_report(index, &validator.validate_bytes::<Avro>(value));
        }
        _ => {}
    }
    if let Detected::Mode(ContentMode::Structured) = ContentMode::detect(content_type) {
        return EventResult::from_report(index, &validator.validate_bytes::<Json>(value));
    }
    match kafka::from_record::<AnyEvent>(&record) {
        Ok(event) => EventResult::from_report(index, &validator.validate(&event)),
        Err(error) => refused(vec![binding_violation(&error)]),
    }
}

/// A binding error as a finding: the event's own violation when it has one, else R-8.
fn binding_violation(error: &BindingError) -> Violation {
    match error {
        BindingError::Event(format) if format.violation().is_none() => Violation::error(
            format.rule().unwrap_or(rule::INTG_R8),
            format.attribute().unwrap_or("event").to_owned(),
            "",
            format.to_string(),
        ),
        // The runtime's own mapping, so the CLI and the axum extractors cite the same rule.
        other => other.violation(),
    }
}

/// A finding's message: attribute, the value found, the part at fault, the problem, a hint.
/// The rule id is printed before it, so it is not repeated.
fn message(finding: &Violation) -> String {
    let mut out = finding.attribute.to_string();
    if !finding.value.is_empty() {
        let _ = write!(out, " `{}`", finding.value);
    }
    if let Some(part) = &finding.part {
        let _ = write!(out, " {part}");
    }
    let _ = write!(out, ": {}", finding.problem);
    if let Some(hint) = &finding.hint {
        let _ = write!(out, "; {hint}");
    }
    clean(&out)
}

/// Escapes control characters, so hostile input cannot rewrite the terminal or split lines.
fn clean(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_owned();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// `<file>`, or `<file>#<n>` with an event's 1-based line (JSON Lines) or 0-based index.
fn location(name: &str, at: Option<usize>) -> String {
    match at {
        Some(index) => format!("{}#{index}", clean(name)),
        None => clean(name),
    }
}

fn write_finding(out: &mut dyn Write, at: &str, finding: &Violation) -> io::Result<()> {
    writeln!(
        out,
        "{at}: {} {}: {}",
        finding.severity,
        finding.rule,
        message(finding)
    )
}

fn write_text(out: &mut dyn Write, outcomes: &[(String, Outcome)]) -> io::Result<()> {
    for (name, outcome) in outcomes {
        let Outcome::Checked(checked) = outcome else {
            continue;
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
            if event.is_valid() {
                writeln!(out, "ok {at} {}", clean(event.id.as_deref().unwrap_or("-")))?;
            }
        }
    }
    Ok(())
}

/// A finding in the library's one report shape.
fn finding_json(finding: &Violation) -> Value {
    serde_json::to_value(FindingJson(finding))
        .expect("a finding (strings and a severity) always makes a JSON value")
}

fn count(outcomes: &[(String, Outcome)], severity: Severity) -> usize {
    outcomes
        .iter()
        .filter_map(|(_, outcome)| match outcome {
            Outcome::Checked(checked) => Some(checked),
            Outcome::Unreadable(_) => None,
        })
        .flat_map(|checked| {
            checked
                .findings
                .iter()
                .chain(checked.events.iter().flat_map(|event| &event.findings))
        })
        .filter(|finding| finding.severity == severity)
        .count()
}

/// `{"profile", "valid", "errors", "warnings", "inputs": [...]}`; each input is
/// `{"file", "kind": "event"|"batch"|"lines"|"record"|"records"|"input", "valid", "findings",
/// "events": [{"index", "line", "id", "valid", "findings"}]}` or `{"file", "kind":
/// "unreadable", "valid": false, "error"}`. `index` counts the input's events from 0 (null
/// for a lone event or record), `line` is the 1-based line of a JSON Lines event, else null.
fn write_json(
    out: &mut dyn Write,
    profile: Profile,
    outcomes: &[(String, Outcome)],
) -> io::Result<()> {
    let inputs: Vec<Value> = outcomes
        .iter()
        .map(|(name, outcome)| match outcome {
            Outcome::Checked(checked) => json!({
                "file": name,
                "kind": checked.kind,
                "valid": checked.is_valid(),
                "findings": checked.findings.iter().map(finding_json).collect::<Vec<_>>(),
                // Each event in the library's report shape (`valid`, `profile`, `id`,
                // `findings`, `attributes`), with where it stood in the input.
                "events": checked.events.iter().map(|event| json!({
                    "index": event.index,
                    "line": event.line,
                    "valid": event.is_valid(),
                    "profile": profile.name(),
                    "id": event.id,
                    "findings": event.findings.iter().map(finding_json).collect::<Vec<_>>(),
                    "attributes": event.attributes,
                })).collect::<Vec<_>>(),
            }),
            Outcome::Unreadable(reason) => json!({
                "file": name,
                "kind": "unreadable",
                "valid": false,
                "error": reason,
            }),
        })
        .collect();
    let valid = outcomes
        .iter()
        .all(|(_, outcome)| matches!(outcome, Outcome::Checked(checked) if checked.is_valid()));
    let report = json!({
        "profile": profile.name(),
        "valid": valid,
        "errors": count(outcomes, Severity::Error),
        "warnings": count(outcomes, Severity::Warning),
        "inputs": inputs,
    });
    serde_json::to_writer_pretty(&mut *out, &report).map_err(io::Error::other)?;
    writeln!(out)
}

#[cfg(test)]
mod tests;
