//! `cargo xtask codegen [--check] [--base <rev> | --base-dir <dir>]`.
//!
//! Regenerates what is derived from `schemas/`: the Rust modules of the orders example
//! (`examples/orders/src/generated/`), the catalog `schemas/README.md` and
//! `schemas/asyncapi.yaml`. Before writing, every schema is compared with its baseline (git
//! `HEAD` unless told otherwise); a breaking change to an existing `vN.json` fails with the
//! change, its JSON pointer and how to publish `v{N+1}` instead. `--check` writes nothing and
//! fails when any output is stale, naming the command that fixes it.

use std::path::{Path, PathBuf};

use cloudevent_codegen::{
    Baseline, CodegenError, Layout, Registry, RustOptions, check_compatibility, render_outputs,
    stale_outputs, write_outputs,
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

/// This repository's layout of generated files.
fn layout(root: &Path) -> Layout {
    Layout {
        schemas: root.join("schemas"),
        rust_dir: root.join("examples/orders/src/generated"),
        title: "Example order and payment events".into(),
        policy: Policy::new(Profile::IntgStd015),
        options: RustOptions::default(),
    }
}

pub(crate) fn run(args: &[String], root: &Path) -> Result<(), String> {
    let options = parse(args)?;
    let layout = layout(root);
    let show = |e: CodegenError| e.to_string();
    let registry = Registry::load(&layout.schemas).map_err(show)?;

    let baseline = match (&options.base, &options.base_dir) {
        (_, Some(dir)) => Baseline::Dir(dir.clone()),
        (rev, None) => {
            Baseline::git(rev.as_deref().unwrap_or("HEAD"), &layout.schemas).map_err(show)?
        }
    };
    let (rows, breaking) = check_compatibility(&registry, &baseline).map_err(show)?;
    let outputs = render_outputs(&layout, &registry).map_err(show)?;
    let stale = stale_outputs(&layout, &outputs);

    println!(
        "{:<34} {:>7}  {:<15} status",
        "type", "version", "direction"
    );
    for row in &rows {
        println!(
            "{:<34} {:>7}  {:<15} {}",
            row.event_type,
            format!("v{}", row.major),
            "schema → Rust",
            row.compatibility.status()
        );
    }
    let relative = |p: &Path| p.strip_prefix(root).unwrap_or(p).display().to_string();

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
    if options.check {
        if stale.is_empty() {
            println!("codegen: {} generated files are up to date", outputs.len());
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
        println!("codegen: wrote {}", relative(path));
    }
    println!(
        "codegen: {} outputs, {} changed",
        outputs.len(),
        changed.len()
    );
    Ok(())
}
