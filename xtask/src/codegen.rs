//! `cargo xtask codegen [--check] [--base <rev> | --base-dir <dir>] [--compat <mode>]`.
//!
//! Keeps the two views of the event registry in step, each file in one direction:
//! - schema → Rust: every hand-written `schemas/<type>/v<N>.json` becomes a module of the
//!   orders example (`examples/orders/src/generated/`);
//! - Rust → schema: the hand-written types of `orders-exported` (its explicit list,
//!   `orders_exported::visit_exported`) are exported to `schemas/<type>/v<N>.json` and not
//!   generated back into Rust;
//! - both feed the catalog, `schemas/README.md` and `schemas/asyncapi.yaml`.
//!
//! Before writing, every schema (exported ones in their new form) goes through the library's
//! compatibility gate (`Builder::gate`, what a build script runs): compared with its baseline
//! (git `HEAD` unless told otherwise) under its compatibility mode (`forward` unless
//! `--compat` or the type says otherwise, see `docs/compatibility.md`); a breaking change to an
//! existing `vN.json` fails with the change, its JSON pointer and how to publish `v{N+1}`
//! instead. A passing gate updates `cloudevent.lock.json`. `--check` writes nothing and fails when any output is stale, naming the command
//! that fixes it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cloudevent_codegen::{Baseline, Builder, CodegenError, Compat, SchemaFile, export_file};
use cloudevent_rules::{Policy, Profile};
use cloudevent_runtime::CloudEventData;
use schemars::JsonSchema;

use crate::outputs::{Layout, render_outputs, stale_outputs, write_outputs};

/// The options of one run.
struct Options {
    check: bool,
    base: Option<String>,
    base_dir: Option<PathBuf>,
    compat: Compat,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        check: false,
        base: None,
        base_dir: None,
        compat: Compat::default(),
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
            "--compat" => {
                options.compat = args
                    .next()
                    .ok_or("`--compat` needs a mode, e.g. `forward`")?
                    .parse()?;
            }
            other => {
                return Err(format!(
                    "unknown option `{other}` for codegen; expected --check, --base <rev>, --base-dir <dir>, --compat <mode>"
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
pub(crate) fn codegen(args: &[String], root: &Path, report: &mut String) -> Result<(), String> {
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
    // The library's gate, as a build script runs it: compared with the baseline, and the
    // lock the build scripts of this repository (`tests/codegen-build`) compare with updated
    // to what passed (not under `--check`, which writes nothing).
    let gate = Builder::new()
        .schemas(&layout.schemas)
        .baseline(baseline)
        .compat(options.compat)
        .update_lock(!options.check)
        .gate(&registry)
        .map_err(show)?;

    let _ = writeln!(
        report,
        "{:<34} {:>7}  {:<15} {:<8} status",
        "type", "version", "direction", "compat"
    );
    for row in &gate.rows {
        let _ = writeln!(
            report,
            "{:<34} {:>7}  {:<15} {:<8} {}",
            row.event_type,
            format!("v{}", row.major),
            layout.direction(&row.schema).arrow(),
            row.compat.name(),
            row.compatibility.status()
        );
    }
    let notes = match gate.verdict() {
        Ok(notes) => notes,
        Err(CodegenError::Findings(breaking)) => {
            let mut message = format!(
                "{} breaking change(s) against the baseline:",
                breaking.len()
            );
            for finding in &breaking {
                message.push_str(&format!("\n  - {finding}"));
            }
            return Err(message);
        }
        Err(other) => return Err(show(other)),
    };
    for note in &notes {
        let _ = writeln!(report, "codegen: {note}");
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

/// The "done when" of the registry, on temporary copies of `schemas/` and the generated
/// modules (the committed files are only read): a breaking edit fails with the change, its
/// pointer and the fix; a compatible edit passes; a stale or hand-edited output fails the
/// check, naming the command.
#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::{Path, PathBuf};

    use serde_json::{Value, json};

    use super::codegen;

    fn repo() -> PathBuf {
        crate::workspace_root()
    }

    /// A copy of what codegen reads and writes, removed when dropped.
    struct Copy(PathBuf);

    impl Drop for Copy {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn copy_dir(from: &Path, to: &Path) {
        fs::create_dir_all(to).unwrap();
        for entry in fs::read_dir(from).unwrap() {
            let path = entry.unwrap().path();
            let target = to.join(path.file_name().unwrap());
            if path.is_dir() {
                copy_dir(&path, &target);
            } else {
                fs::copy(&path, &target).unwrap();
            }
        }
    }

    fn copy(name: &str) -> Copy {
        let root =
            std::env::temp_dir().join(format!("xtask-codegen-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        copy_dir(&repo().join("schemas"), &root.join("schemas"));
        copy_dir(
            &repo().join("examples/orders/src/generated"),
            &root.join("examples/orders/src/generated"),
        );
        Copy(root)
    }

    fn edit(path: &Path, change: impl FnOnce(&mut Value)) {
        let mut schema: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
        change(&mut schema);
        fs::write(path, serde_json::to_string_pretty(&schema).unwrap()).unwrap();
    }

    /// Runs codegen on the copy against the committed registry; (result, printed table).
    fn run(root: &Path, args: &[&str], baseline: &Path) -> (Result<(), String>, String) {
        let mut args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        args.extend(["--base-dir".to_owned(), baseline.display().to_string()]);
        let mut report = String::new();
        let result = codegen(&args, root, &mut report);
        (result, report)
    }

    const CANCELLED: &str = "schemas/com.example.order.cancelled/v1.json";
    const GENERATED: &str = "examples/orders/src/generated/order_cancelled_v1.rs";

    #[test]
    fn the_committed_registry_is_up_to_date_in_both_directions() {
        let copy = copy("clean");
        let (result, report) = run(&copy.0, &["--check"], &repo().join("schemas"));
        assert_eq!(result, Ok(()), "{report}");
        assert!(report.contains("up to date"), "{report}");
        let row = |ty: &str, direction: &str| {
            report
                .lines()
                .any(|l| l.starts_with(&format!("{ty} ")) && l.contains(direction))
        };
        assert!(
            row("com.example.order.cancelled", "schema → Rust"),
            "{report}"
        );
        assert!(
            row("com.example.order.returned", "Rust → schema"),
            "{report}"
        );
        assert!(
            row("com.example.payment.failed", "Rust → schema"),
            "{report}"
        );
        // Exported schemas are never generated back into the example's Rust.
        let generated = copy.0.join("examples/orders/src/generated");
        assert!(!generated.join("order_returned_v1.rs").exists());
        assert!(!generated.join("payment_failed_v1.rs").exists());
    }

    #[test]
    fn a_breaking_edit_fails_with_the_change_its_pointer_and_the_fix() {
        let copy = copy("breaking");
        edit(&copy.0.join(CANCELLED), |s| {
            s["properties"].as_object_mut().unwrap().remove("comment");
        });
        let before = fs::read_to_string(copy.0.join(GENERATED)).unwrap();
        for args in [&["--check"][..], &[]] {
            let (result, report) = run(&copy.0, args, &repo().join("schemas"));
            let message = result.unwrap_err();
            assert!(report.contains("BREAKING"), "{report}");
            for needle in [
                "property `comment` removed",
                "#/properties/comment",
                "INTG-STD-015 R-4",
                "com.example.order.cancelled/v2.json",
                "com.example.order.cancelled.v2",
                "https://schemas.example.com/events/com.example.order.cancelled/v2.json",
                "keep `v1.json`",
            ] {
                assert!(message.contains(needle), "{needle} not in {message}");
            }
        }
        // Refused before anything was written.
        assert_eq!(fs::read_to_string(copy.0.join(GENERATED)).unwrap(), before);
    }

    #[test]
    fn a_compatible_edit_regenerates_and_then_checks_clean() {
        let copy = copy("compatible");
        edit(&copy.0.join(CANCELLED), |s| {
            s["properties"]["handled_by"] = json!({"type": "string", "description": "Agent."});
            s["properties"]["comment"]["maxLength"] = json!(300);
        });
        let (result, _) = run(&copy.0, &["--check"], &repo().join("schemas"));
        let message = result.unwrap_err();
        assert!(message.contains("order_cancelled_v1.rs"), "{message}");
        assert!(message.contains("run `cargo xtask codegen`"), "{message}");

        let (result, report) = run(&copy.0, &[], &repo().join("schemas"));
        assert_eq!(result, Ok(()), "{report}");
        assert!(
            report.lines().any(|l| l.starts_with("com.example.order.cancelled ") && l.ends_with("compatible")),
            "{report}"
        );
        assert!(
            report.contains("wrote examples/orders/src/generated/order_cancelled_v1.rs"),
            "{report}"
        );
        let generated = fs::read_to_string(copy.0.join(GENERATED)).unwrap();
        assert!(generated.contains("pub handled_by"), "{generated}");
        assert!(generated.contains("> 300usize"), "{generated}");

        let (result, report) = run(&copy.0, &["--check"], &repo().join("schemas"));
        assert_eq!(result, Ok(()), "{report}");
    }

    #[test]
    fn stale_or_hand_edited_outputs_fail_the_check_naming_the_command() {
        let copy = copy("stale");
        let shipped = copy
            .0
            .join("examples/orders/src/generated/order_shipped_v1.rs");
        let mut text = fs::read_to_string(&shipped).unwrap();
        text.push_str("// edited by hand\n");
        fs::write(&shipped, text).unwrap();
        // A Rust-first schema edited by hand: the Rust type is its source, so it is stale too.
        edit(
            &copy.0.join("schemas/com.example.payment.failed/v1.json"),
            |s| {
                s["description"] = json!("edited by hand");
            },
        );
        fs::write(
            copy.0.join("examples/orders/src/generated/leftover_v1.rs"),
            "",
        )
        .unwrap();

        let (result, _) = run(&copy.0, &["--check"], &repo().join("schemas"));
        let message = result.unwrap_err();
        for needle in [
            "examples/orders/src/generated/order_shipped_v1.rs",
            "schemas/com.example.payment.failed/v1.json",
            "examples/orders/src/generated/leftover_v1.rs",
            "run `cargo xtask codegen` and commit the result",
        ] {
            assert!(message.contains(needle), "{needle} not in {message}");
        }
        let (result, report) = run(&copy.0, &[], &repo().join("schemas"));
        assert_eq!(result, Ok(()), "{report}");
        let (result, report) = run(&copy.0, &["--check"], &repo().join("schemas"));
        assert_eq!(result, Ok(()), "{report}");
    }

    /// A Rust-first type is guarded like a schema file: here the baseline has a property the
    /// Rust type no longer has, as if a field had been deleted from `OrderReturned`.
    #[test]
    fn a_breaking_change_to_a_rust_first_type_fails_too() {
        let copy = copy("rust-first");
        let baseline = copy.0.join("baseline");
        copy_dir(&repo().join("schemas"), &baseline);
        edit(&baseline.join("com.example.order.returned/v1.json"), |s| {
            s["properties"]["carrier"] = json!({"type": "string"});
        });
        let (result, report) = run(&copy.0, &["--check"], &baseline);
        let message = result.unwrap_err();
        assert!(
            report
                .lines()
                .any(|l| l.contains("Rust → schema") && l.ends_with("BREAKING")),
            "{report}"
        );
        assert!(message.contains("property `carrier` removed"), "{message}");
        assert!(
            message.contains("com.example.order.returned.v2"),
            "{message}"
        );
    }
}
