//! `cloudevent sql` and `cloudevent filter`: CloudEvents SQL v1 from the command line, through
//! the runtime's `filter` module (the rules crate's one parser and evaluator).
//!
//! - `cloudevent sql 'EXPR' [--event FILE]` prints `{"value": ..., "errors": [kinds]}`, the
//!   kinds named as the CESQL TCK names them; exit 2 when the expression does not parse (the
//!   object then holds `null` and `["parse"]`, and stderr the message).
//! - `cloudevent filter --sql EXPR FILES` (or `--subscription JSON`, a Subscriptions API
//!   filter) prints the events that pass as JSON Lines; a file holds one event, a batch
//!   (a JSON array) or JSON Lines.
//!
//! Inputs are bounded as `validate`'s are (`sql/input.rs`): an event is read no further than
//! 256 KiB (INTG-STD-015 R-11), a batch than 1 MiB. JSON Lines are streamed a line at a
//! time, each line at most one event; a line that is not an event is reported by its number
//! (`<file>: line 3: ...`) and the others are still filtered; exit 2 when anything was not
//! read.

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cloudevent_runtime::filter::{Expression, Filter, Filterable, SubscriptionFilter, Value};
use cloudevent_runtime::{AnyEvent, limits};
use serde_json::json;

mod input;

/// Evaluate a CloudEvents SQL expression.
#[derive(Debug, clap::Args)]
pub struct SqlArgs {
    /// The expression, e.g. `type LIKE 'com.example.%' AND EXISTS subject` (it may start
    /// with `-`).
    #[arg(allow_hyphen_values = true)]
    expression: String,
    /// The event to evaluate it on (a JSON event; `-` for stdin). Without it, a minimal
    /// valid event (`specversion`, `id`, `source`, `type` only).
    #[arg(long, value_name = "FILE")]
    event: Option<PathBuf>,
}

/// Print the events that pass a filter, as JSON Lines.
#[derive(Debug, clap::Args)]
pub struct FilterArgs {
    /// A CloudEvents SQL expression.
    #[arg(long, value_name = "EXPR", required_unless_present = "subscription")]
    sql: Option<String>,
    /// A Subscriptions API filter (`{"prefix": {"type": "com.example."}}`, or a `filters`
    /// array), given inline.
    #[arg(long, value_name = "JSON", conflicts_with = "sql")]
    subscription: Option<String>,
    /// Files holding events: one JSON event, a batch (a JSON array) or JSON Lines; `-` for
    /// stdin.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// The input at `path` (`-`: stdin), buffered.
fn open(path: &Path) -> Result<Box<dyn BufRead>, String> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(io::stdin().lock()));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Box::new(io::BufReader::new(file)))
}

/// The event at `path`, read no further than the event limit.
fn read_event(path: &Path) -> Result<AnyEvent, String> {
    let bytes = input::read_at_most(&mut open(path)?, limits::MAX_EVENT_BYTES)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .ok_or_else(|| format!("{}: {}", path.display(), input::event_too_large()))?;
    AnyEvent::from_slice(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

fn value_json(value: &Value<'_>) -> serde_json::Value {
    match value {
        Value::Boolean(b) => json!(b),
        Value::Integer(i) => json!(i),
        Value::String(s) => json!(s),
    }
}

pub fn run_sql(args: SqlArgs) -> ExitCode {
    let event = match &args.event {
        Some(path) => match read_event(path) {
            Ok(event) => event,
            Err(message) => {
                eprintln!("error: {message}");
                return ExitCode::from(2);
            }
        },
        None => AnyEvent::new("1", "/cloudevent/sql", "cloudevent.sql.evaluate"),
    };
    let expression = match Expression::parse(&args.expression) {
        Ok(expression) => expression,
        Err(error) => {
            // No value was computed: `null`, as for every other error that leaves none.
            println!("{}", json!({ "value": null, "errors": ["parse"] }));
            eprintln!(
                "error: {error}\n  {}\n  {}^",
                args.expression,
                " ".repeat(
                    args.expression
                        .get(..error.span.start)
                        .map_or(0, |t| t.chars().count())
                )
            );
            return ExitCode::from(2);
        }
    };
    let result = event.evaluate(&expression);
    let kinds: Vec<&str> = result.errors.iter().map(|e| e.kind.as_str()).collect();
    println!(
        "{}",
        json!({ "value": value_json(&result.value), "errors": kinds })
    );
    for error in &result.errors {
        eprintln!("{error}");
    }
    ExitCode::SUCCESS
}

pub fn run_filter(args: FilterArgs) -> ExitCode {
    let filter: Box<dyn Filter> = match (&args.sql, &args.subscription) {
        (Some(sql), _) => match Expression::parse(sql) {
            Ok(expression) => Box::new(expression),
            Err(error) => {
                eprintln!("error: {error}");
                return ExitCode::from(2);
            }
        },
        (None, Some(text)) => {
            let parsed = serde_json::from_str::<serde_json::Value>(text)
                .map_err(|e| e.to_string())
                .and_then(|json| SubscriptionFilter::from_json(&json).map_err(|e| e.to_string()));
            match parsed {
                Ok(filter) => Box::new(filter),
                Err(error) => {
                    eprintln!("error: --subscription: {error}");
                    return ExitCode::from(2);
                }
            }
        }
        (None, None) => unreachable!("clap requires --sql or --subscription"),
    };
    let mut out = io::stdout().lock();
    let mut failed = false;
    for path in &args.files {
        let read = open(path).and_then(|mut reader| {
            input::for_each_event(&mut reader, |event| match event {
                Ok(event) => {
                    if filter.accepts(&event) {
                        let _ = out.write_all(&event.to_vec());
                        let _ = out.write_all(b"\n");
                    }
                }
                Err(message) => {
                    eprintln!("error: {}: {message}", path.display());
                    failed = true;
                }
            })
            .map_err(|e| format!("{}: {e}", path.display()))
        });
        if let Err(message) = read {
            eprintln!("error: {message}");
            failed = true;
        }
    }
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}
