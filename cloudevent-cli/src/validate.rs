//! `cloudevent validate`.

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `cloudevent validate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files to validate; `-` or none reads standard input.
    files: Vec<PathBuf>,
}

/// Runs the subcommand.
pub fn run(args: Args) -> ExitCode {
    let _ = args;
    eprintln!("cloudevent validate: not implemented yet");
    ExitCode::from(2)
}
