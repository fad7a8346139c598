//! `cloudevent codegen --schemas DIR --out FILE`: Rust payload types from a schema registry.

use std::path::PathBuf;
use std::process::ExitCode;

use cloudevent_codegen::{Builder, CodegenError, Compat};
use cloudevent_runtime::Profile;

/// Generate Rust payload types (one module a schema file, a `shared` module for what their
/// `$ref`s reach, and a `RegistryEvent` dispatch enum) from a schema registry: today's
/// `<type>/v<major>.json` files, or, with `--type-pointer`, any folder of schemas that hold
/// their event type.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The registry directory.
    #[arg(long, default_value = "schemas")]
    schemas: PathBuf,
    #[command(flatten)]
    layout: crate::layout::LayoutArgs,
    /// Read an xRegistry document instead of `--schemas`: its messages with `envelope:
    /// CloudEvents/1.0`, typed by their envelope metadata's `type`, with the payload schema
    /// their `dataschemauri` names in the document (default or latest version).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["openapi", "asyncapi"])]
    xregistry: Option<PathBuf>,
    /// Read an OpenAPI 2 or 3 document (JSON or YAML) instead of `--schemas`: each schema of
    /// `definitions` / `components/schemas` is a file `schemas/<name>.json` of a folder typed
    /// by `--type-template` (`{file}` is the schema's name; Azure Event Grid:
    /// `'{/description|for an? (\S+) event}'`) or its `x-cloudevent.type`; a schema another
    /// `$ref`s is shared.
    #[arg(long, value_name = "FILE", conflicts_with = "asyncapi")]
    openapi: Option<PathBuf>,
    /// Read an AsyncAPI 2 or 3 document (JSON or YAML) instead of `--schemas`: one type a
    /// message with a JSON Schema payload, typed by its CloudEvents header (`ce_type`,
    /// `ce-type`) or `--type-template` (`{file}` is the message's name).
    #[arg(long, value_name = "FILE")]
    asyncapi: Option<PathBuf>,
    /// Fill `subject` from the payload at this JSON pointer (one or two members deep), for
    /// schemas that do not name their subject, e.g. `/subject/id` for CDEvents.
    #[arg(long, value_name = "PTR")]
    subject_pointer: Option<String>,
    /// Fill `id` from the payload at this JSON pointer (a string or integer member, through
    /// object members; an absent optional one gives a fresh id), e.g. `/context/id` for
    /// CDEvents. A schema's `x-cloudevent.attributes.id` wins.
    #[arg(long, value_name = "PTR")]
    id_pointer: Option<String>,
    /// Fill `time` from the payload at this JSON pointer, e.g. `/context/timestamp`.
    #[arg(long, value_name = "PTR")]
    time_pointer: Option<String>,
    /// Fill `source` from the payload at this JSON pointer, e.g. `/context/source`.
    #[arg(long, value_name = "PTR", conflicts_with = "source_template")]
    source_pointer: Option<String>,
    /// Fill `source` from a URI template (RFC 6570 level 1) whose variables name root
    /// members of the payload, e.g. `/tenants/{tenantid}/devices/{deviceid}`.
    #[arg(long, value_name = "TEMPLATE")]
    source_template: Option<String>,
    /// Fill an extension from a member of the payload at any depth: `NAME=POINTER`, e.g.
    /// `region=/region` or `tenantid=/context/tenant/id`. The extension has the member's
    /// type (a string, a boolean, an integer within 32 bits; no conversion to text). A
    /// schema's own `x-cloudevent.extensions` wins for that name. Repeatable.
    #[arg(long = "extension", value_name = "NAME=POINTER", value_parser = name_pointer)]
    extensions: Vec<(String, String)>,
    /// Where to write the Rust file (`-` for stdout).
    #[arg(long, default_value = "-")]
    out: PathBuf,
    /// The profile names are checked against; every generated type carries it
    /// (`#[cloudevent(profile = "...")]`), so the file compiles in any crate. Default: the
    /// registry's `cloudevent-registry.toml` `profile`, else `intg-std-015`.
    #[arg(long)]
    profile: Option<Profile>,
    /// The path of `cloudevent_runtime` in the generated code.
    #[arg(long, default_value = "::cloudevent_runtime")]
    runtime_crate: String,
    /// The compatibility mode the registry is checked under against its lock file (see
    /// `cloudevent diff --compat`); a type's own `x-cloudevent.compatibility` wins. Default:
    /// the registry's `cloudevent-registry.toml` `compatibility`, else `forward`.
    #[arg(long, value_name = "MODE", value_parser = parse_compat)]
    compat: Option<Compat>,
    /// The lock file (default `cloudevent.lock.json` beside the registry folder or document).
    #[arg(long, value_name = "FILE")]
    lock: Option<PathBuf>,
    /// Generate every type that can be, leaving out the refused ones (listed on stderr, each
    /// with its schema, JSON pointer and keyword), and exit 0; without it one refusal fails
    /// the whole registry (every refusal listed). When every type is refused, nothing is
    /// left: it says so in one sentence after the refusals and exits 1, writing no file.
    #[arg(long)]
    skip_refused: bool,
    /// After a passing check, record the registry's schemas in the lock file (written afresh
    /// when there is none).
    #[arg(long)]
    update_lock: bool,
    /// Follow symbolic links inside the registry folder when they stay inside it (a link
    /// leading outside is still refused). By default every link is refused and reported.
    #[arg(long)]
    follow_symlinks: bool,
}

fn parse_compat(text: &str) -> Result<Compat, String> {
    text.parse()
}

/// Exit 0 when written (SHOULD warnings printed to stderr), 1 when a schema breaks a rule or
/// has a shape codegen cannot turn into Rust (every problem of the registry listed; also
/// under `--skip-refused` when every type is refused and nothing is left), 2 when the input
/// cannot be read or holds no event schema.
pub fn run(args: Args) -> ExitCode {
    let mut builder = Builder::new()
        .schemas(&args.schemas)
        .runtime_crate(args.runtime_crate.clone())
        .command(command_line(&args))
        .update_lock(args.update_lock)
        .follow_symlinks(args.follow_symlinks)
        .skip_refused(args.skip_refused);
    if let Some(profile) = args.profile {
        builder = builder.profile(profile);
    }
    if let Some(compat) = args.compat {
        builder = builder.compat(compat);
    }
    if let Some(lock) = &args.lock {
        builder = builder.lock_file(lock);
    }
    if let Some(pointer) = &args.layout.type_pointer {
        builder = builder.type_pointer(pointer.clone());
    }
    for template in &args.layout.type_templates {
        builder = builder.type_template(template.clone());
    }
    if let Some(pointer) = &args.layout.types_pointer {
        builder = builder.types_pointer(pointer.clone());
    }
    if let Some(base) = &args.layout.dataschema_base {
        builder = builder.dataschema_base(base.clone());
    }
    for glob in &args.layout.events {
        builder = builder.events(glob.clone());
    }
    for glob in &args.layout.shared {
        builder = builder.shared(glob.clone());
    }
    for glob in &args.layout.exclude {
        builder = builder.exclude(glob.clone());
    }
    if let Some(file) = &args.xregistry {
        builder = builder.xregistry(file);
    }
    if let Some(file) = &args.openapi {
        builder = builder.openapi(file);
    }
    if let Some(file) = &args.asyncapi {
        builder = builder.asyncapi(file);
    }
    if let Some(pointer) = &args.subject_pointer {
        builder = builder.subject_pointer(pointer.clone());
    }
    if let Some(pointer) = &args.id_pointer {
        builder = builder.id_pointer(pointer.clone());
    }
    if let Some(pointer) = &args.time_pointer {
        builder = builder.time_pointer(pointer.clone());
    }
    if let Some(pointer) = &args.source_pointer {
        builder = builder.source_pointer(pointer.clone());
    }
    if let Some(template) = &args.source_template {
        builder = builder.source_template(template.clone());
    }
    for (name, pointer) in &args.extensions {
        builder = builder.extension_pointer(name.clone(), pointer.clone());
    }
    let generated = builder.generate().and_then(|rust| {
        let text = rust.single_file()?;
        for refusal in &rust.refused {
            eprintln!("cloudevent codegen: left out (--skip-refused): {refusal}");
        }
        Ok((rust.warnings, text))
    });
    let text = match generated {
        Ok((warnings, text)) => {
            for warning in &warnings {
                eprintln!("cloudevent codegen: warning: {warning}");
            }
            text
        }
        Err(error @ CodegenError::Findings(_)) => {
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

/// The command that regenerates the file, for its header.
fn command_line(args: &Args) -> String {
    let mut command = match (&args.xregistry, &args.openapi, &args.asyncapi) {
        (Some(file), _, _) => format!("cloudevent codegen --xregistry {}", file.display()),
        (_, Some(file), _) => format!("cloudevent codegen --openapi {}", file.display()),
        (_, _, Some(file)) => format!("cloudevent codegen --asyncapi {}", file.display()),
        _ => format!("cloudevent codegen --schemas {}", args.schemas.display()),
    };
    command.push_str(&args.layout.flags());
    for (flag, value) in [
        ("--subject-pointer", &args.subject_pointer),
        ("--id-pointer", &args.id_pointer),
        ("--time-pointer", &args.time_pointer),
        ("--source-pointer", &args.source_pointer),
        ("--source-template", &args.source_template),
    ] {
        if let Some(value) = value {
            command.push_str(&format!(" {flag} {value}"));
        }
    }
    for (name, pointer) in &args.extensions {
        command.push_str(&format!(" --extension {name}={pointer}"));
    }
    if let Some(profile) = args.profile {
        command.push_str(&format!(" --profile {profile}"));
    }
    if args.runtime_crate != "::cloudevent_runtime" {
        command.push_str(&format!(" --runtime-crate {}", args.runtime_crate));
    }
    if args.skip_refused {
        command.push_str(" --skip-refused");
    }
    command.push_str(&format!(" --out {}", args.out.display()));
    command
}

/// `NAME=POINTER` of `--extension`.
fn name_pointer(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, pointer)) if !name.is_empty() && pointer.starts_with('/') => {
            Ok((name.to_owned(), pointer.to_owned()))
        }
        _ => Err(format!(
            "`{text}`: expected NAME=POINTER, e.g. `region=/region`"
        )),
    }
}
