//! `cloudevent diff [--compat MODE] OLD NEW`: the changes between two versions of a schema
//! file (or of every type of two registry folders), and whether any breaks the mode.

use std::path::PathBuf;
use std::process::ExitCode;

use cloudevent_codegen::{Comparison, Compat, Outcome, compare_paths};

/// Compare two versions of a JSON Schema file (or of a `<type>/v<major>.proto` entry), or two
/// registry folders type by type (`.proto` entries by field number).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The previous version: a schema file, a `.proto` entry, a registry folder, an xRegistry
    /// document, or a lock file (`cloudevent.lock.json`) to compare a registry folder with
    /// every version it holds.
    old: PathBuf,
    /// The new version, of the same kind.
    new: PathBuf,
    /// Who must keep working: `forward` (consumers generated from OLD read NEW's events, the
    /// default), `backward` (consumers of NEW read OLD's events), `full` (both), their
    /// `-transitive` forms (against every version of a lock file given as OLD; otherwise the
    /// same, one old version being given), or `none`. A type's own
    /// `x-cloudevent.compatibility` (or xRegistry `compatibility`) wins.
    #[arg(long, value_name = "MODE", default_value = "forward", value_parser = parse_compat)]
    compat: Compat,
    /// How folders name their event types, as for `cloudevent codegen`.
    #[command(flatten)]
    layout: crate::layout::LayoutArgs,
}

fn parse_compat(text: &str) -> Result<Compat, String> {
    text.parse()
}

/// Exit 0 when nothing breaks the mode, 1 when something does (or the two files declare
/// different event types), 2 when an input cannot be read.
pub fn run(args: Args) -> ExitCode {
    let compared = match compare_paths(&args.old, &args.new, args.compat, args.layout.mapping()) {
        Ok(compared) => compared,
        Err(error) => {
            eprintln!("cloudevent diff: {error}");
            return ExitCode::from(2);
        }
    };
    let single = args.old.is_file() && args.new.is_file() && compared.len() == 1;
    for comparison in &compared {
        print(comparison, single);
    }
    if !single {
        let count = |o: Outcome| compared.iter().filter(|c| c.outcome == o).count();
        println!(
            "{} type(s) under `{}`: {} unchanged, {} compatible, {} breaking, {} new, {} removed",
            compared.len(),
            args.compat,
            count(Outcome::Unchanged),
            count(Outcome::Compatible),
            count(Outcome::Breaking),
            count(Outcome::New),
            count(Outcome::Removed),
        );
    }
    for finding in compared.iter().flat_map(|c| &c.findings) {
        eprintln!("cloudevent diff: {finding}");
    }
    if compared.iter().any(|c| c.outcome.fails()) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// One type: a heading for folders (and for a changed type), then one line a change.
fn print(comparison: &Comparison, single: bool) {
    let types = match (&comparison.old_type, &comparison.new_type) {
        (Some(a), Some(b)) if a != b => format!(" (`{a}` -> `{b}`)"),
        (Some(t), _) | (_, Some(t)) => format!(" (`{t}`)"),
        (None, None) => String::new(),
    };
    let indent = if single { "" } else { "  " };
    match comparison.outcome {
        Outcome::TypeChanged => {
            println!("type changed{types}: not two versions of one schema; not compared");
            return;
        }
        Outcome::NewVersion => println!(
            "new major version{types}: a new event type, so no change below breaks its consumers"
        ),
        _ if !single => println!("{}: {}{types}", comparison.subject, comparison.outcome),
        _ => {}
    }
    if single && comparison.changes.is_empty() && comparison.outcome == Outcome::Unchanged {
        println!("no changes");
    }
    for change in &comparison.changes {
        let breaking =
            comparison.outcome != Outcome::NewVersion && change.breaks_mode(comparison.compat);
        let verdict = if breaking { "breaking" } else { "compatible" };
        let breaks = change.breaks();
        if breaks.backward || breaks.forward {
            println!("{indent}{verdict:<10} {change} [{breaks}]");
        } else {
            println!("{indent}{verdict:<10} {change}");
        }
    }
}
