//! The gate a build script and `cloudevent codegen` run before generating: the registry
//! compared with its lock file.

use std::path::Path;

use super::{Baseline, Compat, Lock, check_compatibility};
use crate::error::CodegenError;
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

/// Compares `registry` with the lock at `lock_path` under `compat` (each type may declare its
/// own mode). Returns notes for the user (a lock written, a lock behind the registry).
///
/// # Errors
/// [`CodegenError::Findings`] with one finding per breaking change (the text
/// `cloudevent diff` prints), an unreadable lock, an unwritable one.
pub(crate) fn gate(
    registry: &Registry,
    lock_path: &Path,
    compat: Compat,
    write: LockWrite,
) -> Result<Vec<String>, CodegenError> {
    let mut notes = Vec::new();
    let Some(lock) = Lock::read(lock_path)? else {
        if write == LockWrite::Never {
            notes.push(format!(
                "no lock file at {}: nothing to check compatibility against; write it with `cloudevent codegen --update-lock` (or `Builder::update_lock`) and commit it",
                lock_path.display()
            ));
        } else {
            // A source tree that cannot be written (a vendored or packaged crate) builds
            // without the gate rather than failing; the note says so.
            match Lock::of_registry(registry)?.write(lock_path) {
                Ok(_) => notes.push(format!(
                    "wrote the lock file {} (the baseline of the compatibility check); commit it",
                    lock_path.display()
                )),
                Err(error) => notes.push(format!(
                    "could not write the lock file ({error}); nothing to check compatibility against until it exists"
                )),
            }
        }
        return Ok(notes);
    };
    let (rows, findings) =
        check_compatibility(registry, &Baseline::Lock(lock_path.to_path_buf()), compat)?;
    if !findings.is_empty() {
        return Err(CodegenError::Findings(findings));
    }
    let behind = rows
        .iter()
        .filter(|r| matches!(r.compatibility.status(), "new" | "compatible"))
        .count();
    if write == LockWrite::Update {
        if lock.updated(registry)?.write(lock_path)? {
            notes.push(format!("updated the lock file {}", lock_path.display()));
        }
    } else if behind > 0 {
        notes.push(format!(
            "{behind} type(s) are new or changed compatibly since the lock file {} was written; record them with `cloudevent codegen --update-lock` (or `Builder::update_lock`)",
            lock_path.display()
        ));
    }
    Ok(notes)
}
