//! `cloudevent diff OLD NEW`: the changes between two versions of a schema file, and whether
//! any breaks consumers of the old one.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::Value;

/// Compare two versions of one JSON Schema file.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The previous version.
    old: PathBuf,
    /// The new version.
    new: PathBuf,
}

fn read(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not valid JSON: {e}", path.display()))
}

/// The new file as a registry schema, when it lies at `<registry>/<type>/v<major>.json` and
/// carries its `x-cloudevent` metadata.
fn registry_file(path: &Path) -> Option<cloudevent_codegen::SchemaFile> {
    let file_name = path.file_name()?.to_str()?;
    let type_dir = path.parent()?;
    let relative = format!("{}/{file_name}", type_dir.file_name()?.to_str()?);
    let root = type_dir.parent()?;
    let text = std::fs::read_to_string(path).ok()?;
    cloudevent_codegen::SchemaFile::parse(root, &relative, &text).ok()
}

/// Exit 0 when every change is compatible, 1 when any breaks, 2 when a file cannot be read.
pub fn run(args: Args) -> ExitCode {
    let (old, new) = match (read(&args.old), read(&args.new)) {
        (Ok(old), Ok(new)) => (old, new),
        (Err(error), _) | (_, Err(error)) => {
            eprintln!("cloudevent diff: {error}");
            return ExitCode::from(2);
        }
    };
    let changes = cloudevent_codegen::diff_schemas(&old, &new);
    if changes.is_empty() {
        println!("no changes");
        return ExitCode::SUCCESS;
    }
    for change in &changes {
        let verdict = if change.is_breaking() {
            "breaking"
        } else {
            "compatible"
        };
        println!("{verdict:<10} {change}");
    }
    if changes.iter().any(|c| c.is_breaking()) {
        match registry_file(&args.new) {
            // In a registry (`<type>/v<major>.json` with `x-cloudevent`), name the next file,
            // type and `$id` exactly, as `cargo xtask codegen` does.
            Some(file) => {
                for finding in cloudevent_codegen::breaking_findings(&file, &changes) {
                    eprintln!("cloudevent diff: {finding}");
                }
            }
            None => eprintln!(
                "cloudevent diff: breaking change(s): publish a new major version (v{{N+1}}.json, type suffix .v{{N+1}}, new dataschema URI) and keep the old one"
            ),
        }
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
