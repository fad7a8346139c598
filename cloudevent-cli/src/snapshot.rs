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
    #[arg(long, default_value = "schemas", conflicts_with_all = ["xregistry", "openapi", "asyncapi"])]
    schemas: PathBuf,
    /// How the folder's (or the OpenAPI or AsyncAPI document's) schemas name their event
    /// types, as for `cloudevent codegen`.
    #[command(flatten)]
    layout: crate::layout::LayoutArgs,
    /// Read the CloudEvents messages of an xRegistry document instead.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["openapi", "asyncapi"])]
    xregistry: Option<PathBuf>,
    /// Read the schemas of an OpenAPI 2 or 3 document instead, typed as
    /// `cloudevent codegen --openapi` types them.
    #[arg(long, value_name = "FILE", conflicts_with = "asyncapi")]
    openapi: Option<PathBuf>,
    /// Read the messages of an AsyncAPI 2 or 3 document instead, typed as
    /// `cloudevent codegen --asyncapi` types them.
    #[arg(long, value_name = "FILE")]
    asyncapi: Option<PathBuf>,
    /// Where to write the snapshot (`-` for stdout).
    #[arg(long, default_value = "-")]
    out: PathBuf,
}

/// Where a registry's schemas are read from: the inputs `snapshot` and `validate` share with
/// `codegen`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Source<'a> {
    /// A folder of schemas, typed by the layout's mapping.
    Folder(&'a Path),
    /// The CloudEvents messages of an xRegistry document.
    XRegistry(&'a Path),
    /// The schemas of an OpenAPI document, typed by the mapping.
    OpenApi(&'a Path),
    /// The messages of an AsyncAPI document, typed by their header or the mapping.
    AsyncApi(&'a Path),
}

/// The registry's entries: every schema made self-contained by codegen's bundler. The error
/// lists every problem (unresolvable refs with file and pointer) on its own line.
pub(crate) fn load_entries(
    source: Source<'_>,
    mapping: &TypeMapping,
) -> Result<Vec<RegistryEntry>, String> {
    let registry = match source {
        Source::Folder(dir) => Registry::load_mapped(dir, mapping),
        Source::XRegistry(file) => Registry::load_xregistry(file),
        Source::OpenApi(file) => Registry::load_openapi(file, mapping),
        Source::AsyncApi(file) => Registry::load_asyncapi(file, mapping),
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
    let source = match (&args.xregistry, &args.openapi, &args.asyncapi) {
        (Some(file), _, _) => Source::XRegistry(file),
        (_, Some(file), _) => Source::OpenApi(file),
        (_, _, Some(file)) => Source::AsyncApi(file),
        _ => Source::Folder(&args.schemas),
    };
    let entries = match load_entries(source, &args.layout.mapping()) {
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
