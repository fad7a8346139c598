use std::path::{Path, PathBuf};
use std::process::Command;

use crate::diff::{Change, diff_schemas};
use crate::error::{CodegenError, Finding};
use crate::registry::{Registry, SchemaFile};

/// Where the previous version of each schema file comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Baseline {
    /// The file as committed at a git revision (`HEAD` by default), read with `git show`.
    Git {
        /// The revision, e.g. `HEAD` or `origin/main`.
        rev: String,
        /// The registry directory relative to the repository root, with `/` separators.
        registry_in_repo: String,
        /// Where to run git.
        repo: PathBuf,
    },
    /// Another registry directory holding the previous versions.
    Dir(PathBuf),
}

impl Baseline {
    /// The previous text of `<type>/v<major>.json`, or `None` when the file is new.
    ///
    /// # Errors
    /// git failing for another reason than a missing file, or an unreadable file.
    pub fn read(&self, relative: &str) -> Result<Option<String>, CodegenError> {
        match self {
            Baseline::Dir(dir) => {
                let path = dir.join(relative);
                match std::fs::read_to_string(&path) {
                    Ok(text) => Ok(Some(text)),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                    Err(e) => Err(CodegenError::io(path, e)),
                }
            }
            Baseline::Git {
                rev,
                registry_in_repo,
                repo,
            } => {
                let spec = if registry_in_repo.is_empty() {
                    format!("{rev}:{relative}")
                } else {
                    format!("{rev}:{registry_in_repo}/{relative}")
                };
                let output = Command::new("git")
                    .args(["show", &spec])
                    .current_dir(repo)
                    .output()
                    .map_err(|e| CodegenError::Git {
                        args: format!("show {spec}"),
                        message: e.to_string(),
                    })?;
                if output.status.success() {
                    return Ok(Some(String::from_utf8_lossy(&output.stdout).into_owned()));
                }
                let stderr = String::from_utf8_lossy(&output.stderr);
                // A file that is new since `rev` has no baseline; that is not an error.
                if stderr.contains("does not exist")
                    || stderr.contains("exists on disk, but not in")
                {
                    Ok(None)
                } else {
                    Err(CodegenError::Git {
                        args: format!("show {spec}"),
                        message: stderr.trim().to_owned(),
                    })
                }
            }
        }
    }

    /// The git baseline at `rev` for a registry directory inside a git work tree.
    ///
    /// # Errors
    /// When `git rev-parse --show-toplevel` fails (not a git work tree).
    pub fn git(rev: impl Into<String>, registry: &Path) -> Result<Baseline, CodegenError> {
        let output = Command::new("git")
            .args(["rev-parse", "--show-prefix"])
            .current_dir(registry)
            .output()
            .map_err(|e| CodegenError::Git {
                args: "rev-parse --show-prefix".into(),
                message: e.to_string(),
            })?;
        if !output.status.success() {
            return Err(CodegenError::Git {
                args: "rev-parse --show-prefix".into(),
                message: String::from_utf8_lossy(&output.stderr).trim().to_owned(),
            });
        }
        let prefix = String::from_utf8_lossy(&output.stdout)
            .trim()
            .trim_end_matches('/')
            .to_owned();
        Ok(Baseline::Git {
            rev: rev.into(),
            registry_in_repo: prefix,
            repo: registry.to_path_buf(),
        })
    }
}

/// How one schema file compares with its baseline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Compatibility {
    /// No baseline: a new file (a new type or a new major version).
    New,
    /// No change that matters.
    Unchanged,
    /// Only compatible changes.
    Compatible(Vec<Change>),
    /// At least one breaking change; all changes listed.
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
}

/// Compares one schema file with its baseline text.
///
/// # Errors
/// A baseline that is not JSON.
pub fn compare(file: &SchemaFile, baseline: Option<&str>) -> Result<Compatibility, CodegenError> {
    let Some(text) = baseline else {
        return Ok(Compatibility::New);
    };
    let old: serde_json::Value =
        serde_json::from_str(text).map_err(|source| CodegenError::Json {
            path: PathBuf::from(format!("baseline of {}", file.relative)),
            source,
        })?;
    let changes = diff_schemas(&old, &file.schema);
    Ok(if changes.is_empty() {
        Compatibility::Unchanged
    } else if changes.iter().any(Change::is_breaking) {
        Compatibility::Breaking(changes)
    } else {
        Compatibility::Compatible(changes)
    })
}

/// The finding for each breaking change, telling the author to publish a new major version
/// instead (INTG-STD-015 R-4, CloudEvents `dataschema`).
pub fn breaking_findings(file: &SchemaFile, changes: &[Change]) -> Vec<Finding> {
    let next = file.major + 1;
    let base = file.meta.base_type();
    let new_id = next_dataschema(&file.meta.dataschema, file.major, next);
    changes
        .iter()
        .filter(|c| c.is_breaking())
        .map(|change| {
            Finding::new(
                &file.path,
                change.pointer.clone(),
                format!("breaking change to `v{}.json`: {}", file.major, change.kind),
            )
            .with_rule(cloudevent_rules::rule::INTG_R4)
            .with_fix(format!(
                "revert it here and publish it as a new major version: add `{base}/v{next}.json` with type `{base}.v{next}` and `$id` `{new_id}`; keep `v{}.json` as it was",
                file.major
            ))
        })
        .collect()
}

fn next_dataschema(current: &str, major: u64, next: u64) -> String {
    let token = format!("v{major}");
    match current.rfind(&token) {
        Some(at) => format!("{}v{next}{}", &current[..at], &current[at + token.len()..]),
        None => format!("{current} with a `v{next}` version token"),
    }
}

/// One row of the compatibility report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompatibilityRow {
    /// `<type>/v<major>.json`.
    pub schema: String,
    /// The event type.
    pub event_type: String,
    /// The major version.
    pub major: u64,
    /// The result.
    pub compatibility: Compatibility,
}

/// Compares every file of a registry with its baseline. Returns the rows and, separately,
/// the findings for the breaking ones (empty when every change is compatible).
///
/// ```
/// use cloudevent_codegen::{Baseline, Registry, check_compatibility};
///
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas");
/// let registry = Registry::load(dir).unwrap();
/// // The registry compared with itself: nothing changed.
/// let (rows, findings) = check_compatibility(&registry, &Baseline::Dir(dir.into())).unwrap();
/// assert!(findings.is_empty());
/// assert!(rows.iter().all(|r| r.compatibility.status() == "unchanged"));
/// ```
///
/// # Errors
/// An unreadable baseline.
pub fn check_compatibility(
    registry: &Registry,
    baseline: &Baseline,
) -> Result<(Vec<CompatibilityRow>, Vec<Finding>), CodegenError> {
    let mut rows = Vec::new();
    let mut findings = Vec::new();
    for file in &registry.files {
        let text = baseline.read(&file.relative)?;
        let compatibility = compare(file, text.as_deref())?;
        if let Compatibility::Breaking(changes) = &compatibility {
            findings.extend(breaking_findings(file, changes));
        }
        rows.push(CompatibilityRow {
            schema: file.relative.clone(),
            event_type: file.meta.event_type.clone(),
            major: file.major,
            compatibility,
        });
    }
    Ok((rows, findings))
}
