//! `cargo xtask codegen [--check] [--base <rev> | --base-dir <dir>]`.
//!
//! Keeps the two views of the event registry in step, each file in one direction:
//! - schema → Rust: every hand-written `schemas/<type>/v<N>.json` becomes a module of the
//!   orders example (`examples/orders/src/generated/`);
//! - Rust → schema: the hand-written types of `orders-exported` (its explicit list,
//!   `orders_exported::visit_exported`) are exported to `schemas/<type>/v<N>.json` and not
//!   generated back into Rust;
//! - both feed the catalog, `schemas/README.md` and `schemas/asyncapi.yaml`.
//!
//! Before writing, every schema (exported ones in their new form) is compared with its
//! baseline (git `HEAD` unless told otherwise); a breaking change to an existing `vN.json`
//! fails with the change, its JSON pointer and how to publish `v{N+1}` instead. `--check`
//! writes nothing and fails when any output is stale, naming the command that fixes it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cloudevent_codegen::{
    Baseline, CloudEventData, CodegenError, JsonSchema, Layout, RustOptions, SchemaFile,
    check_compatibility, export_file, render_outputs, stale_outputs, write_outputs,
};
use cloudevent_rules::{Policy, Profile};

/// The options of one run.
struct Options {
    check: bool,
    base: Option<String>,
    base_dir: Option<PathBuf>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        check: false,
        base: None,
        base_dir: None,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--check" => options.check = true,
            "--base" => {
                options.base = Some(args.next().ok_or("`--base` needs a git revision")?.clone());
            }
            "--base-dir" => {
                options.base_dir =
                    Some(args.next().ok_or("`--base-dir` needs a directory")?.into());
            }
            other => {
                return Err(format!(
                    "unknown option `{other}` for codegen; expected --check, --base <rev>, --base-dir <dir>"
                ));
            }
        }
    }
    if options.base.is_some() && options.base_dir.is_some() {
        return Err("give `--base` or `--base-dir`, not both".into());
    }
    Ok(options)
}

/// Exports each type on `orders_exported`'s list into the registry directory.
struct Exporter<'a> {
    schemas: &'a Path,
    files: Vec<SchemaFile>,
    errors: Vec<CodegenError>,
}

impl orders_exported::ExportVisitor for Exporter<'_> {
    fn visit<T: CloudEventData + JsonSchema>(&mut self) {
        match export_file::<T>(self.schemas) {
            Ok(file) => self.files.push(file),
            Err(error) => self.errors.push(error),
        }
    }
}

/// This repository's layout of generated files.
fn layout(root: &Path) -> Result<Layout, String> {
    let schemas = root.join("schemas");
    let mut exporter = Exporter {
        schemas: &schemas,
        files: Vec::new(),
        errors: Vec::new(),
    };
    orders_exported::visit_exported(&mut exporter);
    if !exporter.errors.is_empty() {
        let errors: Vec<String> = exporter.errors.iter().map(ToString::to_string).collect();
        return Err(errors.join("\n"));
    }
    let exported = exporter.files;
    Ok(Layout {
        schemas,
        rust_dir: root.join("examples/orders/src/generated"),
        title: "Example order and payment events".into(),
        policy: Policy::new(Profile::IntgStd015),
        options: RustOptions::default(),
        exported,
    })
}

pub(crate) fn run(args: &[String], root: &Path) -> Result<(), String> {
    let mut report = String::new();
    let result = codegen(args, root, &mut report);
    print!("{report}");
    result
}

/// One run, its table and progress written to `report` (also when it fails).
fn codegen(args: &[String], root: &Path, report: &mut String) -> Result<(), String> {
    let options = parse(args)?;
    let layout = layout(root)?;
    let show = |e: CodegenError| e.to_string();
    let registry = layout.registry().map_err(show)?;

    let baseline = match (&options.base, &options.base_dir) {
        (_, Some(dir)) => Baseline::Dir(dir.clone()),
        (rev, None) => {
            Baseline::git(rev.as_deref().unwrap_or("HEAD"), &layout.schemas).map_err(show)?
        }
    };
    let (rows, breaking) = check_compatibility(&registry, &baseline).map_err(show)?;

    let _ = writeln!(
        report,
        "{:<34} {:>7}  {:<15} status",
        "type", "version", "direction"
    );
    for row in &rows {
        let _ = writeln!(
            report,
            "{:<34} {:>7}  {:<15} {}",
            row.event_type,
            format!("v{}", row.major),
            layout.direction(&row.schema).arrow(),
            row.compatibility.status()
        );
    }
    if !breaking.is_empty() {
        let mut message = format!(
            "{} breaking change(s) against the baseline:",
            breaking.len()
        );
        for finding in &breaking {
            message.push_str(&format!("\n  - {finding}"));
        }
        return Err(message);
    }

    let outputs = render_outputs(&layout, &registry).map_err(show)?;
    let relative = |p: &Path| p.strip_prefix(root).unwrap_or(p).display().to_string();
    if options.check {
        let stale = stale_outputs(&layout, &outputs);
        if stale.is_empty() {
            let _ = writeln!(
                report,
                "codegen: {} generated files are up to date",
                outputs.len()
            );
            return Ok(());
        }
        let list: Vec<String> = stale.iter().map(|p| relative(p)).collect();
        return Err(format!(
            "generated files are stale: {}; run `cargo xtask codegen` and commit the result",
            list.join(", ")
        ));
    }
    let changed = write_outputs(&layout, &outputs).map_err(show)?;
    for path in &changed {
        let _ = writeln!(report, "codegen: wrote {}", relative(path));
    }
    let _ = writeln!(
        report,
        "codegen: {} outputs, {} changed",
        outputs.len(),
        changed.len()
    );
    Ok(())
}
