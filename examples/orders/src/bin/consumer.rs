//! Reads structured-mode CloudEvents from stdin, one a line, and dispatches each by type.
//! Exits 1 when any line was rejected.

use std::process::ExitCode;

fn main() -> ExitCode {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match orders_example::consumer::consume(stdin, stdout) {
        Ok(summary) => {
            eprintln!(
                "consumer: {} typed, {} other, {} rejected",
                summary.typed, summary.other, summary.rejected
            );
            if summary.rejected == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(error) => {
            eprintln!("consumer: {error}");
            ExitCode::from(2)
        }
    }
}
