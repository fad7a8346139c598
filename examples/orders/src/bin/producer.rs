//! Writes the example's events to stdout as structured-mode CloudEvents, one a line.

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let lines = match orders_example::producer::produce() {
        Ok(lines) => lines,
        Err(error) => {
            eprintln!("producer: {error}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = std::io::stdout().lock();
    for line in lines {
        if let Err(error) = writeln!(out, "{line}") {
            eprintln!("producer: {error}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
