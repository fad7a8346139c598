//! `.proto` entries in the gate: each compared with its previous version(s) by field number
//! (`diff_proto`), under the same modes and with the same finding lines as JSON
//! schemas; the next version to publish is `<type>/v<major + 1>.proto`.

use std::collections::BTreeMap;
use std::path::Path;

use super::advice::proto_fix_text;
use super::mode::declared_mode;
use super::{Comparison, Compat, Compatibility, CompatibilityRow, Lock, Outcome, findings_for};
use crate::diff::{Change, ProtoShape, diff_proto};
use crate::error::{CodegenError, Finding};
use crate::protobuf::ProtoFile;
use crate::registry::Registry;

/// The key a `.proto` entry's versions are locked and paired under: `<type>/v<major>`.
pub(crate) fn subject(file: &ProtoFile) -> String {
    format!("{}/v{}", file.type_dir, file.major)
}

/// The entry's own `x-cloudevent.compatibility`, else `default`.
fn mode_of(file: &ProtoFile, default: Compat) -> Result<Compat, Finding> {
    match file.metadata.get("compatibility") {
        None => Ok(default),
        Some(value) => declared_mode(
            &file.path.to_string_lossy(),
            "/x-cloudevent/compatibility".to_owned(),
            value,
        ),
    }
}

/// The findings for the changes that break `compat`, worded as for a JSON schema.
fn breaking(file: &ProtoFile, changes: &[Change], compat: Compat) -> Vec<Finding> {
    findings_for(
        &file.path.to_string_lossy(),
        &format!("`v{}.proto`", file.major),
        &proto_fix_text(file),
        changes,
        compat,
    )
}

/// Every change from each of `old` to `new`, each reported once.
fn changes_against<'a>(old: impl Iterator<Item = &'a ProtoShape>, new: &ProtoShape) -> Vec<Change> {
    let mut all: Vec<Change> = Vec::new();
    for old in old {
        for change in diff_proto(old, new) {
            if !all.contains(&change) {
                all.push(change);
            }
        }
    }
    all
}

/// The rows and findings of [`super::check_compatibility_with`] for the `.proto` entries.
pub(crate) fn check(
    registry: &Registry,
    previous: &Lock,
    compat: Compat,
    rows: &mut Vec<CompatibilityRow>,
    findings: &mut Vec<Finding>,
) {
    for file in &registry.protobuf {
        let mode = match mode_of(file, compat) {
            Ok(mode) => mode,
            Err(finding) => {
                findings.push(finding);
                continue;
            }
        };
        let compatibility = match previous.proto_versions(&subject(file)) {
            None | Some([]) => Compatibility::New,
            Some(versions) => {
                let against = mode.baseline(versions);
                let new = ProtoShape::of(file);
                Compatibility::of(
                    changes_against(against.iter().map(|v| &v.shape), &new),
                    mode,
                )
            }
        };
        if let Compatibility::Breaking(changes) = &compatibility {
            findings.extend(breaking(file, changes, mode));
        }
        rows.push(CompatibilityRow {
            schema: file.relative.clone(),
            event_type: file.meta.event_type.clone(),
            major: file.major,
            compat: mode,
            compatibility,
        });
    }
}

fn comparison(
    file: &ProtoFile,
    mode: Compat,
    old_type: Option<String>,
    changes: Option<Vec<Change>>,
) -> Comparison {
    let (outcome, changes) = match changes {
        None => (Outcome::New, Vec::new()),
        Some(changes) => (Outcome::of(&changes, mode), changes),
    };
    let findings = if outcome == Outcome::Breaking {
        breaking(file, &changes, mode)
    } else {
        Vec::new()
    };
    Comparison {
        subject: subject(file),
        old_type,
        new_type: Some(file.meta.event_type.clone()),
        compat: mode,
        outcome,
        changes,
        findings,
    }
}

/// The `.proto` entries of two registries paired by subject and compared (two registries
/// of one entry each are compared whatever their subjects: `cloudevent diff OLD.proto
/// NEW.proto`).
pub(crate) fn compare(
    old: &Registry,
    new: &Registry,
    compat: Compat,
) -> Result<Vec<Comparison>, CodegenError> {
    let single = old.files.is_empty()
        && new.files.is_empty()
        && old.protobuf.len() == 1
        && new.protobuf.len() == 1;
    let mut olds: BTreeMap<String, &ProtoFile> =
        old.protobuf.iter().map(|f| (subject(f), f)).collect();
    let mut out = Vec::new();
    for file in &new.protobuf {
        let mode = mode_of(file, compat).map_err(|f| CodegenError::Findings(vec![f]))?;
        let before = if single {
            old.protobuf.first()
        } else {
            olds.remove(&subject(file))
        };
        if single {
            olds.clear();
        }
        out.push(match before {
            None => comparison(file, mode, None, None),
            Some(before) => comparison(
                file,
                mode,
                Some(before.meta.event_type.clone()),
                Some(diff_proto(&ProtoShape::of(before), &ProtoShape::of(file))),
            ),
        });
    }
    out.extend(
        olds.into_iter()
            .map(|(key, file)| removed(key, &file.meta.event_type, compat)),
    );
    Ok(out)
}

fn removed(subject: String, event_type: &str, compat: Compat) -> Comparison {
    Comparison {
        subject,
        old_type: Some(event_type.to_owned()),
        new_type: None,
        compat,
        outcome: Outcome::Removed,
        changes: Vec::new(),
        findings: Vec::new(),
    }
}

/// The `.proto` entries of `new` compared with the versions `lock` holds (all of them under a
/// transitive mode).
pub(crate) fn compare_with_lock(
    lock: &Lock,
    new: &Registry,
    compat: Compat,
) -> Result<Vec<Comparison>, CodegenError> {
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for file in &new.protobuf {
        let key = subject(file);
        let mode = mode_of(file, compat).map_err(|f| CodegenError::Findings(vec![f]))?;
        let previous = lock.proto_versions(&key).filter(|v| !v.is_empty());
        seen.insert(key);
        out.push(match previous {
            None => comparison(file, mode, None, None),
            Some(versions) => {
                let against = mode.baseline(versions);
                comparison(
                    file,
                    mode,
                    against.last().map(|v| v.event_type.clone()),
                    Some(changes_against(
                        against.iter().map(|v| &v.shape),
                        &ProtoShape::of(file),
                    )),
                )
            }
        });
    }
    for key in lock.proto_subjects().filter(|k| !seen.contains(*k)) {
        let last = lock.proto_versions(key).and_then(|v| v.last());
        out.push(removed(
            key.to_owned(),
            last.map_or("", |v| v.event_type.as_str()),
            compat,
        ));
    }
    Ok(out)
}

/// One `<type>/v<major>.proto` file as a registry of one entry.
pub(crate) fn load_file(path: &Path) -> Result<Registry, CodegenError> {
    let text = std::fs::read_to_string(path).map_err(|e| CodegenError::io(path, e))?;
    let parent = path.parent().unwrap_or(Path::new("."));
    let root = parent.parent().unwrap_or(Path::new("."));
    let relative = format!(
        "{}/{}",
        parent.file_name().unwrap_or_default().to_string_lossy(),
        path.file_name().unwrap_or_default().to_string_lossy()
    );
    let file = ProtoFile::parse(root, &relative, &text)?;
    Ok(Registry {
        root: root.to_path_buf(),
        files: Vec::new(),
        documents: BTreeMap::new(),
        protobuf: vec![file],
        mapping: None,
        skipped: Vec::new(),
    })
}
