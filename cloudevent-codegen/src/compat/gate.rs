//! The compatibility gate every door runs before generating (a build script's [`Builder`],
//! `cloudevent codegen`, `cargo xtask codegen`): the registry compared with its baseline (the
//! lock file, or a baseline given) and, when nothing breaks, the lock file written as told.
//!
//! [`Builder`]: crate::Builder

use std::path::Path;

use super::{Baseline, Compat, CompatibilityRow, Lock, check_compatibility};
use crate::error::{CodegenError, Finding};
use crate::registry::Registry;

/// When the gate writes the lock file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LockWrite {
    /// Never: only compare (`cloudevent codegen` without `--update-lock`).
    Never,
    /// When there is none yet (a build script's first build).
    WhenAbsent,
    /// After a passing check, with every changed type's new version appended.
    Update,
}

/// What the compatibility gate found: every type's row against the baseline, the findings
/// that refuse the registry (each breaking change, with the next major version to publish
/// instead) and notes for the user (a lock written, a lock behind the registry).
/// [`Builder::gate`](crate::Builder::gate) returns it; [`GateReport::verdict`] is the
/// decision. The lock file is only written when nothing is refused.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GateReport {
    /// One row a type (empty when there was no lock file to compare with).
    pub rows: Vec<CompatibilityRow>,
    /// The findings that refuse the registry; empty when it passes.
    pub refusals: Vec<Finding>,
    /// Notes about the lock file.
    pub notes: Vec<String>,
}

impl GateReport {
    /// The notes when the registry passes.
    ///
    /// # Errors
    /// [`CodegenError::Findings`] listing [`GateReport::refusals`] when there is one.
    pub fn verdict(self) -> Result<Vec<String>, CodegenError> {
        if self.refusals.is_empty() {
            Ok(self.notes)
        } else {
            Err(CodegenError::Findings(self.refusals))
        }
    }
}

/// Compares `registry` under `compat` (each type may declare its own mode) with `baseline`,
/// or with the lock at `lock_path` when none is given, then writes the lock as `write` says
/// if nothing breaks.
///
/// # Errors
/// An unreadable baseline or lock, an unwritable lock.
pub(crate) fn gate(
    registry: &Registry,
    (lock_path, write): (&Path, LockWrite),
    baseline: Option<&Baseline>,
    compat: Compat,
) -> Result<GateReport, CodegenError> {
    // Under a baseline given, the lock is only read to be written.
    let lock = if baseline.is_none() || write != LockWrite::Never {
        Lock::read(lock_path)?
    } else {
        None
    };
    let mut report = GateReport::default();
    let against = match (baseline, &lock) {
        (Some(baseline), _) => baseline.clone(),
        (None, Some(_)) => Baseline::Lock(lock_path.to_path_buf()),
        (None, None) => {
            report.notes = first_lock(registry, lock_path, write)?;
            return Ok(report);
        }
    };
    (report.rows, report.refusals) = check_compatibility(registry, &against, compat)?;
    if !report.refusals.is_empty() {
        return Ok(report);
    }
    let behind = report
        .rows
        .iter()
        .filter(|r| matches!(r.compatibility.status(), "new" | "compatible"))
        .count();
    match (write, lock) {
        (LockWrite::Update, Some(lock)) => {
            let changed = lock.updated(registry)?.write(lock_path)?;
            if changed {
                report
                    .notes
                    .push(format!("updated the lock file {}", lock_path.display()));
            }
        }
        (LockWrite::Update | LockWrite::WhenAbsent, None) => {
            report.notes = first_lock(registry, lock_path, write)?;
        }
        (_, Some(_)) if behind > 0 && baseline.is_none() => report.notes.push(format!(
            "{behind} type(s) are new or changed compatibly since the lock file {} was written; record them with `cloudevent codegen --update-lock` (or `Builder::update_lock`)",
            lock_path.display()
        )),
        _ => {}
    }
    Ok(report)
}

/// No lock file yet: a note saying so, or the lock written (a source tree that cannot be
/// written, a vendored or packaged crate, builds without the gate rather than failing; the
/// note says so).
fn first_lock(
    registry: &Registry,
    lock_path: &Path,
    write: LockWrite,
) -> Result<Vec<String>, CodegenError> {
    if write == LockWrite::Never {
        return Ok(vec![format!(
            "no lock file at {}: nothing to check compatibility against; write it with `cloudevent codegen --update-lock` (or `Builder::update_lock`) and commit it",
            lock_path.display()
        )]);
    }
    Ok(vec![match Lock::of_registry(registry)?.write(lock_path) {
        Ok(_) => format!(
            "wrote the lock file {} (the baseline of the compatibility check); commit it",
            lock_path.display()
        ),
        Err(error) => format!(
            "could not write the lock file ({error}); nothing to check compatibility against until it exists"
        ),
    }])
}
