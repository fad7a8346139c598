//! The compatibility gate: each event type of a registry compared with its previous
//! version(s) under a mode ([`Compat`]), breaking changes reported with the next version to
//! publish instead. The same findings, word for word, come out of `cloudevent diff`,
//! `cloudevent codegen`, `cargo xtask codegen` and a build script's [`crate::Builder`].

mod advice;
mod baseline;
mod gate;
mod lock;
mod mode;
mod pair;
mod proto;

use crate::diff::resolve::{Resolved, resolve_registry};
use crate::diff::{Change, diff_documents};
use crate::error::{CodegenError, Finding};
use crate::registry::{Registry, SchemaFile};

pub use baseline::Baseline;
pub use lock::Lock;
pub(crate) use lock::LockedSchema;
pub use pair::{Comparison, Outcome, compare_paths};

pub(crate) use crate::diff::Compat;

pub use gate::GateReport;
pub(crate) use gate::{LockWrite, gate};
pub(crate) use lock::subject;
pub(crate) use mode::compat_of;

/// How one schema file compares with its baseline, in a [`CompatibilityRow`] of
/// [`check_compatibility`].
///
/// ```
/// use cloudevent_codegen::{Baseline, Compat, Compatibility, Registry, check_compatibility};
///
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas");
/// let registry = Registry::load(dir).unwrap();
/// let (rows, _) = check_compatibility(&registry, &Baseline::Dir(dir.into()), Compat::Forward).unwrap();
/// let row = rows.iter().find(|r| r.event_type == "com.example.order.created.v2").unwrap();
/// assert_eq!((row.major, row.compat), (2, Compat::Forward));
/// assert_eq!(row.compatibility, Compatibility::Unchanged);
/// assert_eq!(row.compatibility.status(), "unchanged");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Compatibility {
    /// No baseline: a new file (a new type or a new major version).
    New,
    /// No change that matters.
    Unchanged,
    /// Only changes the mode allows (every change listed).
    Compatible(Vec<Change>),
    /// At least one change the mode refuses; all changes listed.
    Breaking(Vec<Change>),
}

impl Compatibility {
    /// The word shown in the xtask table.
    pub fn status(&self) -> &'static str {
        match self {
            Compatibility::New => "new",
            Compatibility::Unchanged => "unchanged",
            Compatibility::Compatible(_) => "compatible",
            Compatibility::Breaking(_) => "BREAKING",
        }
    }

    fn of(changes: Vec<Change>, compat: Compat) -> Compatibility {
        match Outcome::of(&changes, compat) {
            Outcome::Unchanged => Compatibility::Unchanged,
            Outcome::Breaking => Compatibility::Breaking(changes),
            _ => Compatibility::Compatible(changes),
        }
    }
}

/// The finding for each change that breaks `compat`, telling the author to publish the next
/// major version of the type instead, named in the type's own scheme (INTG-STD-015 R-4,
/// CloudEvents `dataschema`). `cloudevent diff`, the registry check and the build script
/// gate all report through this.
pub(crate) fn breaking_findings(
    file: &SchemaFile,
    changes: &[Change],
    compat: Compat,
) -> Vec<Finding> {
    let fix = advice::fix_text(file);
    let path = file.path.to_string_lossy();
    let path = path.split('#').next().unwrap_or_default().to_owned();
    let name = if file.relative.ends_with(&format!("/v{}.json", file.major)) {
        format!("`v{}.json`", file.major)
    } else if file.meta.event_type.is_empty() {
        format!("`{}`", file.relative)
    } else {
        format!("`{}`", file.meta.event_type)
    };
    findings_for(&path, &name, &fix, changes, compat)
}

/// The finding lines of [`breaking_findings`], shared with `.proto` entries.
fn findings_for(
    path: &str,
    name: &str,
    fix: &str,
    changes: &[Change],
    compat: Compat,
) -> Vec<Finding> {
    changes
        .iter()
        .filter(|c| c.breaks_mode(compat))
        .map(|change| {
            Finding::new(
                path,
                change.pointer.clone(),
                format!(
                    "breaking change to {name} under `{compat}` compatibility ({}: {}): {change}",
                    change.breaks(),
                    compat.who()
                ),
            )
            .with_rule(cloudevent_rules::rule::INTG_R4)
            .with_fix(fix.to_owned())
        })
        .collect()
}

/// One row of the compatibility report (see [`Compatibility`] for an example).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompatibilityRow {
    /// The schema's path in the registry (`<type>/v<major>.json`, or `.proto`).
    pub schema: String,
    /// The event type.
    pub event_type: String,
    /// The major version.
    pub major: u64,
    /// The mode the type was checked under.
    pub compat: Compat,
    /// The result.
    pub compatibility: Compatibility,
}

/// Compares every event type of a registry, resolved (every `$ref` followed, external ones
/// bundled; a `.proto` entry's message with every message and enum it reaches, compared by
/// field number), with its previous version(s) in `baseline`
/// under its mode: the type's own
/// (`x-cloudevent.compatibility`, or xRegistry's `compatibility` attribute), else `compat`.
/// Transitive modes compare with every version the baseline holds (a lock file keeps them
/// all). Returns the rows and the findings for what breaks (empty when nothing does).
///
/// ```
/// use cloudevent_codegen::{Baseline, Compat, Registry, check_compatibility};
///
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas");
/// let registry = Registry::load(dir).unwrap();
/// // The registry compared with itself: nothing changed.
/// let baseline = Baseline::Dir(dir.into());
/// let (rows, findings) = check_compatibility(&registry, &baseline, Compat::default()).unwrap();
/// assert!(findings.is_empty());
/// assert!(rows.iter().all(|r| r.compatibility.status() == "unchanged"));
/// ```
///
/// # Errors
/// An unreadable baseline.
pub fn check_compatibility(
    registry: &Registry,
    baseline: &Baseline,
    compat: Compat,
) -> Result<(Vec<CompatibilityRow>, Vec<Finding>), CodegenError> {
    let previous = baseline.previous(registry)?;
    let (resolved, mut findings) = resolve_registry(registry);
    let mut rows = Vec::new();
    for (file, new) in registry.files.iter().zip(&resolved) {
        let mode = match compat_of(file, registry, compat) {
            Ok(mode) => mode,
            Err(finding) => {
                findings.push(finding);
                continue;
            }
        };
        let compatibility = match previous.versions(&subject(file)) {
            None | Some([]) => Compatibility::New,
            Some(versions) => {
                let against = mode.baseline(versions);
                Compatibility::of(
                    changes_against(against.iter().map(|v| v.resolved()), new),
                    mode,
                )
            }
        };
        if let Compatibility::Breaking(changes) = &compatibility {
            findings.extend(breaking_findings(file, changes, mode));
        }
        rows.push(CompatibilityRow {
            schema: file.relative.clone(),
            event_type: file.meta.event_type.clone(),
            major: file.major,
            compat: mode,
            compatibility,
        });
    }
    proto::check(registry, &previous, compat, &mut rows, &mut findings);
    Ok((rows, findings))
}

/// Every change from each of `old` to `new`, each reported once.
fn changes_against(old: impl Iterator<Item = Resolved>, new: &Resolved) -> Vec<Change> {
    let mut all: Vec<Change> = Vec::new();
    for old in old {
        for change in diff_documents(&old.schema, &new.schema, &new.origins) {
            if !all.contains(&change) {
                all.push(change);
            }
        }
    }
    all
}
