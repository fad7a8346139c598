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
//! counts lines. `--output json` writes the same as one JSON document. The report is written
//! input by input as each is checked (nothing of an input is kept once its report is out),
//! and bounded by its input: an input's events are listed in order until their findings reach
//! `limits::MAX_REPORTED_FINDINGS`, one event lists at most that many findings, and what
//! follows is counted (`<file>: N more events not listed, M of them invalid`).
//!
//! `--format` (read by `crate::input`, the one reader `sign` and `verify` share):
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
//! Every event the validator accepts is in the stream, listed in its input's report or only
//! counted there. Each input's report is still written as soon as it is checked, and only the
//! group and the number of each event are kept; a gap is known only at the end, so the
//! stream's findings follow the last input's report (`<file>#<n>: error CE sequence: ...`,
//! at most `limits::MAX_REPORTED_FINDINGS`, then `--sequence: N more findings not listed, M
//! of them errors`), and count in the exit status.
//!
//! Exit status: 0 when no event has an error (warnings allowed), 1 when one has, 2 for usage
//! errors and unreadable input (2 wins over 1). An input larger than the batch limit (1 MiB,
//! INTG-STD-015 R-10) is not read past the limit and not parsed; it is reported as an error
//! finding of rule R-10, so it exits 1: the file was readable, it is the content that breaks
//! the standard.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use cloudevent_runtime::Profile;

mod read;
mod registry;
pub(crate) mod report;
mod sequence;

use crate::input::{self, Format};
use registry::Checker;
use report::{Checked, JsonReport, Outcome, clean, write_text};

/// Arguments of `cloudevent validate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The rules to check against.
    #[arg(long, value_enum, default_value_t = ProfileArg::IntgStd015)]
    profile: ProfileArg,
    /// Also require `correlationid` and `causationid` on every event (ADR-0003).
    #[arg(long)]
    require_traceability: bool,
    /// Read the `ce-` header forms of senders that do not percent-encode (a bare `%`, a
    /// leading `"`, raw non-ASCII UTF-8) and Python's `True`/`False` for a Boolean literally,
    /// each reported as a warning (CE HTTP binding 3.1.3.2), instead of refusing them. Never
    /// with `--profile intg-std-015` (the default), which forwards only what the binding allows.
    #[arg(long)]
    tolerate_literal_headers: bool,
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
    /// Exit 1 on a warning too (a SHOULD not met), not only on an error; `lint` sets it.
    #[arg(long)]
    deny_warnings: bool,
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

/// `--output` of `validate` and `verify`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Output {
    /// One line per finding and per valid event.
    Text,
    /// One JSON report.
    Json,
}

/// Exit status for usage errors and unreadable input.
const USAGE: u8 = 2;

/// Arguments of `cloudevent lint`: `validate`'s, with the producer's defaults.
#[derive(Debug, clap::Args)]
pub struct LintArgs {
    /// Let warnings pass (exit 0 when no event has an error), as `validate` does.
    #[arg(long)]
    allow_warnings: bool,
    #[command(flatten)]
    validate: Args,
}

/// `cloudevent lint`: the build-pipeline step INTG-STD-015 "Producer Enforcement" calls
/// linting. It is `validate` with what a producer's pipeline wants by default: the
/// INTG-STD-015 profile (`validate`'s default too), and a warning fails the step, because a
/// SHOULD the producer can meet is one it should meet before it ships (`--allow-warnings`
/// lets them pass).
pub fn run_lint(args: LintArgs) -> ExitCode {
    let mut validate = args.validate;
    validate.deny_warnings |= !args.allow_warnings;
    run(validate)
}

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

/// Validates every input, writing each one's report as soon as it is checked; returns the
/// exit status.
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
    let mut json = JsonReport::new(validator.profile());
    let mut stdin_used = false;
    let mut unreadable = false;
    let mut verdict = Verdict::default();
    let mut stream = args.sequence.then(sequence::Stream::default);
    let mut written = match args.output {
        Output::Text => Ok(()),
        Output::Json => json.begin(stdout),
    };
    for file in files {
        let is_stdin = file.as_os_str() == "-";
        let name = if is_stdin {
            "<stdin>".to_owned()
        } else {
            file.display().to_string()
        };
        let mut outcome = if is_stdin && stdin_used {
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
        match &outcome {
            Outcome::Unreadable(reason) => {
                unreadable = true;
                let _ = writeln!(
                    stderr,
                    "cloudevent validate: {}: {}",
                    clean(&name),
                    clean(reason)
                );
            }
            Outcome::Checked(_) => {}
        }
        if let Outcome::Checked(checked) = &mut outcome {
            let sequenced = std::mem::take(&mut checked.sequenced);
            if let Some(stream) = &mut stream {
                stream.input(&name, sequenced);
            }
        }
        // Written now and dropped: a folder of captured batches is never held at once.
        verdict.note(&outcome, args.deny_warnings);
        written = written.and_then(|()| match args.output {
            Output::Text => write_text(stdout, &name, &outcome),
            Output::Json => json.input(stdout, &name, &outcome),
        });
    }
    let stream = stream.map(sequence::Stream::finish);
    if let Some(stream) = &stream {
        verdict.invalid |= stream.has_error();
        verdict.warned |= args.deny_warnings && stream.has_warning();
        if args.output == Output::Text {
            written = written.and_then(|()| stream.write_text(stdout));
        }
    }
    if args.output == Output::Json {
        written = written.and_then(|()| json.end(stdout, stream.as_ref()));
    }
    if let Err(error) = written.and_then(|()| stdout.flush()) {
        // A closed pipe (`| head`) is not the input's fault, but the report is incomplete.
        let _ = writeln!(
            stderr,
            "cloudevent validate: writing the report failed: {error}"
        );
        return USAGE;
    }
    if unreadable {
        USAGE
    } else {
        u8::from(verdict.invalid || verdict.warned)
    }
}

/// Whether an input so far had an error, or a warning that counts.
#[derive(Default)]
struct Verdict {
    invalid: bool,
    warned: bool,
}

impl Verdict {
    fn note(&mut self, outcome: &Outcome, deny_warnings: bool) {
        if let Outcome::Checked(checked) = outcome {
            self.invalid |= !checked.is_valid();
            self.warned |= deny_warnings && checked.has_warning();
        }
    }
}

/// Reads one input, at most the batch limit, and validates it.
fn check_input(validator: &Checker, format: Format, reader: &mut dyn Read) -> Outcome {
    match input::read_bounded(reader) {
        Err(error) => Outcome::Unreadable(format!("cannot read: {error}")),
        Ok(Err(too_large)) => Outcome::Checked(Checked::refused_with(too_large)),
        Ok(Ok(bytes)) => Outcome::Checked(read::check(validator, format, &bytes)),
    }
}

#[cfg(test)]
mod tests;
