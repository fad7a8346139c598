//! `cloudevent snapshot`: a schema registry (any layout codegen reads) as one self-contained
//! `cloudevent-registry/1` JSON document, every `$ref` resolved, for a gateway that checks
//! `data` with `Registry::from_snapshot` and has no access to the schema files.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cloudevent_codegen::{CodegenError, Registry, TypeMapping, registry_snapshot};
use cloudevent_runtime::registry::{RegistryEntry, RegistrySnapshot};

/// Write a registry snapshot for run-time validation of `data`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The registry directory (`<type>/v<major>.json` files, or any folder of schemas with
    /// `--type-pointer`).
    #[arg(long, default_value = "schemas", conflicts_with = "xregistry")]
    schemas: PathBuf,
    /// How the folder's schemas name their event types, as for `cloudevent codegen`.
    #[command(flatten)]
    layout: crate::layout::LayoutArgs,
    /// Read the CloudEvents messages of an xRegistry document instead.
    #[arg(long, value_name = "FILE")]
    xregistry: Option<PathBuf>,
    /// Where to write the snapshot (`-` for stdout).
    #[arg(long, default_value = "-")]
    out: PathBuf,
}

/// The registry's entries: every schema made self-contained by codegen's bundler. The error
/// lists every problem (unresolvable refs with file and pointer) on its own line.
pub(crate) fn load_entries(
    schemas: Option<&Path>,
    mapping: &TypeMapping,
    xregistry: Option<&Path>,
) -> Result<Vec<RegistryEntry>, String> {
    let registry = match (xregistry, schemas) {
        (Some(file), _) => Registry::load_xregistry(file),
        (None, Some(dir)) => Registry::load_mapped(dir, mapping),
        (None, None) => return Err("no registry given".to_owned()),
    };
    registry
        .and_then(|registry| registry_snapshot(&registry))
        .map(|snapshot| snapshot.entries)
        .map_err(|error| match error {
            CodegenError::Findings(findings) => findings
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n  "),
            other => other.to_string(),
        })
}

/// Exit 0 when written, 2 when the registry cannot be read or a `$ref` resolves to nothing.
pub fn run(args: Args) -> ExitCode {
    let entries = match load_entries(
        Some(&args.schemas),
        &args.layout.mapping(),
        args.xregistry.as_deref(),
    ) {
        Ok(entries) => entries,
        Err(reason) => {
            eprintln!("cloudevent snapshot: {reason}");
            return ExitCode::from(2);
        }
    };
    let text = format!("{:#}\n", RegistrySnapshot { entries }.to_json());
    if args.out.as_os_str() == "-" {
        print!("{text}");
        return ExitCode::SUCCESS;
    }
    match std::fs::write(&args.out, text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("cloudevent snapshot: {}: {error}", args.out.display());
            ExitCode::from(2)
        }
    }
}
