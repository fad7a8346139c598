//! `cloudevent codegen --schemas DIR --out FILE`: Rust payload types from a schema registry.

use std::path::PathBuf;
use std::process::ExitCode;

use cloudevent_runtime::{Policy, Profile};

/// Generate Rust payload types (one module a schema file) from `<type>/v<major>.json` files.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The registry directory.
    #[arg(long, default_value = "schemas")]
    schemas: PathBuf,
    /// Where to write the Rust file (`-` for stdout).
    #[arg(long, default_value = "-")]
    out: PathBuf,
    /// The profile names are checked against.
    #[arg(long, default_value = "intg-std-015")]
    profile: Profile,
    /// The path of `cloudevent_runtime` in the generated code.
    #[arg(long, default_value = "::cloudevent_runtime")]
    runtime_crate: String,
}

/// Exit 0 when written, 1 when a schema breaks a rule, 2 when the input cannot be read.
pub fn run(args: Args) -> ExitCode {
    let generated = cloudevent_codegen::Builder::new()
        .schemas(&args.schemas)
        .policy(Policy::new(args.profile))
        .runtime_crate(args.runtime_crate)
        .generate_string();
    let text = match generated {
        Ok(text) => text,
        Err(error @ cloudevent_codegen::CodegenError::Findings(_)) => {
            eprintln!("cloudevent codegen: {error}");
            return ExitCode::FAILURE;
        }
        Err(error) => {
            eprintln!("cloudevent codegen: {error}");
            return ExitCode::from(2);
        }
    };
    if args.out.as_os_str() == "-" {
        print!("{text}");
        return ExitCode::SUCCESS;
    }
    match std::fs::write(&args.out, text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("cloudevent codegen: {}: {error}", args.out.display());
            ExitCode::from(2)
        }
    }
}
