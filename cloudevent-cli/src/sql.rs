//! `cloudevent sql` and `cloudevent filter`: CloudEvents SQL v1 from the command line, through
//! the runtime's `filter` module (the rules crate's one parser and evaluator).
//!
//! - `cloudevent sql 'EXPR' [--event FILE]` prints `{"value": ..., "errors": [kinds]}`, the
//!   kinds named as the CESQL TCK names them; exit 2 when the expression does not parse (the
//!   object then holds `false` and `["parse"]`, and stderr the message).
//! - `cloudevent filter --sql EXPR FILES` (or `--subscription JSON`, a Subscriptions API
//!   filter) prints the events that pass as JSON Lines; a file holds one event, a batch
//!   (a JSON array) or JSON Lines.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use cloudevent_runtime::AnyEvent;
use cloudevent_runtime::filter::{Expression, Filter, Filterable, SubscriptionFilter, Value};
use serde_json::json;

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

fn read(path: &PathBuf) -> Result<Vec<u8>, String> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
            .map_err(|e| format!("stdin: {e}"))?;
        return Ok(bytes);
    }
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
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
        Some(path) => match read(path).and_then(|bytes| {
            AnyEvent::from_slice(&bytes).map_err(|e| format!("{}: {e}", path.display()))
        }) {
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
            println!("{}", json!({ "value": false, "errors": ["parse"] }));
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

/// The events of one input: an event, a batch or JSON Lines.
fn events(bytes: &[u8]) -> Result<Vec<AnyEvent>, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8: {e}"))?;
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') {
        return cloudevent_runtime::Batch::from_slice(bytes)
            .map(Vec::from)
            .map_err(|e| e.to_string());
    }
    if let Ok(event) = AnyEvent::from_slice(bytes) {
        return Ok(vec![event]);
    }
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| {
            AnyEvent::from_slice(line.as_bytes()).map_err(|e| format!("line {}: {e}", n + 1))
        })
        .collect()
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
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    for path in &args.files {
        match read(path)
            .and_then(|bytes| events(&bytes).map_err(|e| format!("{}: {e}", path.display())))
        {
            Ok(events) => {
                for event in events.iter().filter(|event| filter.accepts(*event)) {
                    let _ = out.write_all(&event.to_vec());
                    let _ = out.write_all(b"\n");
                }
            }
            Err(message) => {
                eprintln!("error: {message}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}
