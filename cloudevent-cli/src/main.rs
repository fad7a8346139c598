//! `cloudevent`: validate CloudEvents in build pipelines and gateways.
//!
//! Exit codes: 0 when no event has an error (warnings allowed), 1 when any has, 2 for usage
//! errors or unreadable input.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod codegen;
mod diff;
mod input;
mod layout;
mod snapshot;
mod sql;
mod validate;
mod verify;

/// Typed CloudEvents tooling.
#[derive(Debug, Parser)]
#[command(name = "cloudevent", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate events (JSON, HTTP messages, Kafka records) against a profile, and with
    /// `--registry` their data against a schema registry.
    Validate(validate::Args),
    /// `validate` as a producer's build-pipeline lint (INTG-STD-015 "Producer Enforcement"):
    /// the same checks and flags, and a warning fails too (`--allow-warnings` lets it pass).
    Lint(validate::LintArgs),
    /// Generate Rust payload types from a schema registry (`<type>/v<major>.json`, or any
    /// folder of schemas holding their type at `--type-pointer`).
    Codegen(Box<codegen::Args>),
    /// Compare two versions of a schema file (or two registry folders, or a lock file with a
    /// folder) under a compatibility mode (`--compat`, default forward); exit 1 on a change
    /// that breaks it.
    Diff(diff::Args),
    /// Write a schema registry as one self-contained JSON document (`cloudevent-registry/1`)
    /// for run-time validation of `data` (`Registry::from_snapshot`, `validate
    /// --registry-snapshot`).
    Snapshot(snapshot::Args),
    /// Evaluate a CloudEvents SQL v1 expression on an event; prints `{"value": ...,
    /// "errors": [...]}`, exit 2 when the expression does not parse.
    Sql(sql::SqlArgs),
    /// Sign every event of an input (JSON, JSON Lines, an HTTP message, Kafka records,
    /// Protobuf, Avro) with the CloudEvents verifiability extension (`dssematerial`, DSSE) and
    /// print the input again in the form it was read in.
    Sign(verify::SignArgs),
    /// Verify every signed event of an input (the formats `validate` reads) against a public
    /// key: exit 0 when each verifies, 1 with the findings (the step of the extension's
    /// Verification Protocol) in `validate`'s report otherwise.
    Verify(verify::VerifyArgs),
    /// Print the events of FILES that pass a CloudEvents SQL expression (`--sql`) or a
    /// Subscriptions API filter (`--subscription`), as JSON Lines.
    Filter(sql::FilterArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            // clap prints help and version to stdout with success; usage errors exit 2.
            let _ = error.print();
            return if error.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Command::Validate(args) => validate::run(args),
        Command::Lint(args) => validate::run_lint(args),
        Command::Codegen(args) => codegen::run(*args),
        Command::Diff(args) => diff::run(args),
        Command::Snapshot(args) => snapshot::run(args),
        Command::Sql(args) => sql::run_sql(args),
        Command::Filter(args) => sql::run_filter(args),
        Command::Sign(args) => verify::run_sign(args),
        Command::Verify(args) => verify::run_verify(args),
    }
}
