//! Two registries (or two schema files) paired type by type and compared: what
//! `cloudevent diff OLD NEW` reports.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Compat, Lock, LockedSchema, breaking_findings, changes_against, compat_of, subject};
use crate::diff::resolve::resolve_registry;
use crate::diff::{Change, diff_documents};
use crate::error::{CodegenError, Finding};
use crate::layout::event_type_at;
use crate::registry::{EventMeta, METADATA_KEY, Registry, SchemaFile, TypeMapping};
use cloudevent_rules::split_type_version;

/// What happened to one type between the old and the new side ([`Comparison::outcome`]).
///
/// ```
/// use cloudevent_codegen::{Compat, Outcome, diff_schemas};
/// use serde_json::json;
///
/// let changes = diff_schemas(&json!({"enum": ["x"]}), &json!({"enum": ["x", "y"]}));
/// assert_eq!(Outcome::of(&changes, Compat::Forward), Outcome::Breaking);
/// assert_eq!(Outcome::of(&changes, Compat::Backward), Outcome::Compatible);
/// assert_eq!(Outcome::of(&[], Compat::Full), Outcome::Unchanged);
/// assert!(Outcome::Breaking.fails() && !Outcome::NewVersion.fails());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Only on the new side.
    New,
    /// Only on the old side (consumers of it receive nothing more; not a schema change).
    Removed,
    /// No change.
    Unchanged,
    /// Only changes the mode allows.
    Compatible,
    /// A change the mode refuses.
    Breaking,
    /// The new file is a later major version of the old file's type: a new type, which old
    /// consumers never receive, so its changes break nobody.
    NewVersion,
    /// The two files declare different event types: not two versions of one schema.
    TypeChanged,
}

impl Outcome {
    /// The outcome of `changes` between two versions of one type under `mode`: unchanged
    /// with none, breaking when one breaks the mode, else compatible. Every comparison (JSON
    /// and `.proto`, folders, locks, the gate) decides here.
    pub fn of(changes: &[Change], mode: Compat) -> Outcome {
        if changes.is_empty() {
            Outcome::Unchanged
        } else if changes.iter().any(|c| c.breaks_mode(mode)) {
            Outcome::Breaking
        } else {
            Outcome::Compatible
        }
    }

    /// Whether `cloudevent diff` exits 1 for it.
    pub fn fails(self) -> bool {
        matches!(self, Outcome::Breaking | Outcome::TypeChanged)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::New => "new",
            Outcome::Removed => "removed",
            Outcome::Unchanged => "unchanged",
            Outcome::Compatible => "compatible",
            Outcome::Breaking => "BREAKING",
            Outcome::NewVersion => "new major version",
            Outcome::TypeChanged => "TYPE CHANGED",
        })
    }
}

/// One type compared by [`compare_paths`].
///
/// ```
/// use cloudevent_codegen::{Compat, Outcome, compare_paths};
///
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas");
/// let old = format!("{dir}/com.example.order.created/v1.json");
/// let new = format!("{dir}/com.example.order.created/v2.json");
/// let compared = compare_paths(old.as_ref(), new.as_ref(), Compat::Forward, None).unwrap();
/// // v2 is a new major version: a new type, whose changes break no consumer of v1.
/// assert_eq!(compared[0].outcome, Outcome::NewVersion);
/// assert_eq!(compared[0].new_type.as_deref(), Some("com.example.order.created.v2"));
/// assert!(compared[0].findings.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// `<type without version>/v<major>`, or the file compared.
    pub subject: String,
    /// The type on the old side.
    pub old_type: Option<String>,
    /// The type on the new side.
    pub new_type: Option<String>,
    /// The mode it was compared under (the type's own, else the one asked for).
    pub compat: Compat,
    /// The verdict.
    pub outcome: Outcome,
    /// Every change, compatible or not (empty for new, removed and changed types).
    pub changes: Vec<Change>,
    /// For a breaking change, one finding per change with the fix; for a changed type, one.
    pub findings: Vec<Finding>,
}

/// Compares two registries type by type (paired by type without version and major version,
/// so `ticket.created.0.2.0` and `ticket.created.0.3.0` are compared).
///
/// # Errors
/// Refs of either side that name nothing ([`CodegenError::Findings`]), a type's
/// `compatibility` that names no mode.
pub(crate) fn compare_registries(
    old: &Registry,
    new: &Registry,
    compat: Compat,
) -> Result<Vec<Comparison>, CodegenError> {
    let (old_resolved, mut problems) = resolve_registry(old);
    let (new_resolved, found) = resolve_registry(new);
    problems.extend(found);
    if !problems.is_empty() {
        return Err(CodegenError::Findings(problems));
    }
    let mut olds: BTreeMap<String, usize> = old
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| (subject(f), i))
        .collect();
    let single = old.files.len() == 1 && new.files.len() == 1;
    let mut out = Vec::new();
    for (j, file) in new.files.iter().enumerate() {
        let key = subject(file);
        let mode = compat_of(file, new, compat).map_err(|f| CodegenError::Findings(vec![f]))?;
        // Two single files are compared whatever their types, to say how they differ.
        let i = if single {
            olds.clear();
            Some(0)
        } else {
            olds.remove(&key)
        };
        let Some(i) = i else {
            out.push(Comparison {
                subject: key,
                old_type: None,
                new_type: Some(file.meta.event_type.clone()),
                compat: mode,
                outcome: Outcome::New,
                changes: Vec::new(),
                findings: Vec::new(),
            });
            continue;
        };
        let old_file = &old.files[i];
        let changes = diff_documents(
            &old_resolved[i].schema,
            &new_resolved[j].schema,
            &new_resolved[j].origins,
        );
        let (old_type, new_type) = (&old_file.meta.event_type, &file.meta.event_type);
        let mut comparison = Comparison {
            subject: key.clone(),
            old_type: Some(old_type.clone()).filter(|t| !t.is_empty()),
            new_type: Some(new_type.clone()).filter(|t| !t.is_empty()),
            compat: mode,
            outcome: Outcome::Unchanged,
            changes: Vec::new(),
            findings: Vec::new(),
        };
        if !old_type.is_empty()
            && !new_type.is_empty()
            && subject(old_file) != key
            && old_type != new_type
        {
            if old_file.type_dir == file.type_dir && major(file) > major(old_file) {
                comparison.outcome = Outcome::NewVersion;
                comparison.changes = changes;
            } else {
                comparison.outcome = Outcome::TypeChanged;
                comparison.findings.push(
                    Finding::new(
                        file.path.to_string_lossy().split('#').next().unwrap_or_default(),
                        file.type_pointer.clone().unwrap_or_else(|| format!("/{METADATA_KEY}/type")),
                        format!("the event type changed from `{old_type}` to `{new_type}`: consumers subscribed to `{old_type}` never receive `{new_type}`, so these are two event types, not two versions of one schema (their schemas were not compared)"),
                    )
                    .with_fix(format!("compare two versions of one type; to retire `{old_type}`, keep publishing it until its consumers have moved, then remove it")),
                );
            }
        } else {
            comparison.outcome = Outcome::of(&changes, mode);
            if comparison.outcome == Outcome::Breaking {
                comparison.findings = breaking_findings(file, &changes, mode);
            }
            comparison.changes = changes;
        }
        out.push(comparison);
    }
    for (key, i) in olds {
        out.push(Comparison {
            subject: key,
            old_type: Some(old.files[i].meta.event_type.clone()),
            new_type: None,
            compat,
            outcome: Outcome::Removed,
            changes: Vec::new(),
            findings: Vec::new(),
        });
    }
    out.extend(super::proto::compare(old, new, compat)?);
    Ok(out)
}

fn major(file: &SchemaFile) -> u64 {
    let key = subject(file);
    key.rsplit_once("/v")
        .and_then(|(_, m)| m.parse().ok())
        .unwrap_or(0)
}

/// Compares two schema files (JSON Schema or `<type>/v<major>.proto`), two registry folders or two xRegistry documents, or a lock file
/// ([`Lock`], every locked version under a transitive mode) with a registry folder: what
/// `cloudevent diff OLD NEW` does. Folders are read as `<type>/v<major>.json` registries, or
/// as [`TypeMapping`] says (a `type_pointer` alone: `Some("/ptr")`, or `None`); a schema file's
/// external refs are resolved against the `*.json` files below its folder.
///
/// ```
/// use cloudevent_codegen::{Compat, Outcome, compare_paths};
///
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas");
/// let compared = compare_paths(dir.as_ref(), dir.as_ref(), Compat::Forward, None).unwrap();
/// assert!(compared.iter().all(|c| c.outcome == Outcome::Unchanged));
/// ```
///
/// # Errors
/// A path that does not exist, a folder compared with a file, unreadable or invalid JSON, a
/// folder without event schemas, refs that name nothing.
pub fn compare_paths(
    old: &Path,
    new: &Path,
    compat: Compat,
    mapping: impl Into<TypeMapping>,
) -> Result<Vec<Comparison>, CodegenError> {
    let mapping: TypeMapping = mapping.into();
    let type_pointer = mapping.type_pointer.as_deref();
    let kind = |p: &Path| {
        std::fs::metadata(p).map(|m| m.is_dir()).map_err(|e| {
            let e = if e.kind() == std::io::ErrorKind::NotFound {
                std::io::Error::new(e.kind(), "no such file or folder")
            } else {
                e
            };
            CodegenError::io(p, e)
        })
    };
    let (old_dir, new_dir) = (kind(old)?, kind(new)?);
    let load_new = |p: &Path| Registry::load_mapped(p, &mapping);
    if !old_dir && new_dir && is_lock(old) {
        return compare_with_lock(old, &load_new(new)?, compat);
    }
    if old_dir != new_dir {
        let (dir, file) = if old_dir { (old, new) } else { (new, old) };
        return Err(CodegenError::io(
            file,
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "is a file while `{}` is a folder; give two schema files or two registry folders",
                    dir.display()
                ),
            ),
        ));
    }
    let load = |p: &Path| -> Result<Registry, CodegenError> {
        if !old_dir && p.extension().is_some_and(|e| e == "proto") {
            return super::proto::load_file(p);
        }
        if old_dir {
            Registry::load_mapped(p, &mapping)
        } else {
            load_file(p, type_pointer)
        }
    };
    compare_registries(&load(old)?, &load(new)?, compat)
}

fn is_lock(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .is_some_and(|v| v.get("lockversion").is_some())
}

/// Every type of `new` compared with the versions a lock file holds (all of them under a
/// transitive mode, the last one otherwise).
fn compare_with_lock(
    lock: &Path,
    new: &Registry,
    compat: Compat,
) -> Result<Vec<Comparison>, CodegenError> {
    let lock = Lock::read(lock)?.unwrap_or_default();
    let (resolved, problems) = resolve_registry(new);
    if !problems.is_empty() {
        return Err(CodegenError::Findings(problems));
    }
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (file, resolved) in new.files.iter().zip(&resolved) {
        let key = subject(file);
        seen.insert(key.clone());
        let mode = compat_of(file, new, compat).map_err(|f| CodegenError::Findings(vec![f]))?;
        let mut comparison = Comparison {
            subject: key.clone(),
            old_type: None,
            new_type: Some(file.meta.event_type.clone()),
            compat: mode,
            outcome: Outcome::New,
            changes: Vec::new(),
            findings: Vec::new(),
        };
        if let Some(versions) = lock.versions(&key).filter(|v| !v.is_empty()) {
            let against = mode.baseline(versions);
            comparison.old_type = against.last().map(|v| v.event_type.clone());
            let changes = changes_against(against.iter().map(LockedSchema::resolved), resolved);
            comparison.outcome = Outcome::of(&changes, mode);
            if comparison.outcome == Outcome::Breaking {
                comparison.findings = breaking_findings(file, &changes, mode);
            }
            comparison.changes = changes;
        }
        out.push(comparison);
    }
    for key in lock.subjects().filter(|k| !seen.contains(*k)) {
        out.push(Comparison {
            subject: key.to_owned(),
            old_type: lock
                .versions(key)
                .and_then(|v| v.last())
                .map(|v| v.event_type.clone()),
            new_type: None,
            compat,
            outcome: Outcome::Removed,
            changes: Vec::new(),
            findings: Vec::new(),
        });
    }
    out.extend(super::proto::compare_with_lock(&lock, new, compat)?);
    Ok(out)
}

/// One schema file (or xRegistry document) as a registry, with the `*.json` files below its
/// folder as the documents its refs may reach.
fn load_file(path: &Path, type_pointer: Option<&str>) -> Result<Registry, CodegenError> {
    let text = std::fs::read_to_string(path).map_err(|e| CodegenError::io(path, e))?;
    let schema: Value = serde_json::from_str(&text).map_err(|source| CodegenError::Json {
        path: path.to_path_buf(),
        source,
    })?;
    if schema.get("messagegroups").is_some() {
        return Registry::load_xregistry(path);
    }
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // In a `<type>/v<major>.json` registry: read as the registry reads it.
    if type_pointer.is_none()
        && let (Some(dir), Some(root)) = (parent.file_name(), parent.parent())
    {
        let relative = format!("{}/{name}", dir.to_string_lossy());
        // Only when the folder is named for the type, as in a registry.
        if let Ok(file) = SchemaFile::parse(root, &relative, &text)
            && file.type_dir == file.meta.base_type()
        {
            return Ok(with_documents(root, file));
        }
    }
    let event_type = match type_pointer {
        Some(pointer) => event_type_at(&schema, pointer)
            .map_err(|message| CodegenError::Findings(vec![Finding::new(path, pointer, message)]))?
            .unwrap_or_default(),
        None => schema
            .get(METADATA_KEY)
            .and_then(|m| m.get("type"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
    };
    let (base, version) = split_type_version(&event_type);
    let type_dir = if base.is_empty() {
        name.clone()
    } else {
        base.to_owned()
    };
    let file = SchemaFile {
        path: path.to_path_buf(),
        relative: name,
        type_dir,
        // A type without a version suffix is its first major version, as `v1.json` is.
        major: version
            .as_deref()
            .and_then(|v| {
                v.trim_start_matches(['v', 'V'])
                    .split(['.', '-'])
                    .next()?
                    .parse()
                    .ok()
            })
            .unwrap_or(1),
        version,
        type_pointer: Some(
            type_pointer.map_or_else(|| format!("/{METADATA_KEY}/type"), str::to_owned),
        ),
        meta: EventMeta {
            event_type,
            dataschema: schema
                .get("$id")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            ..EventMeta::default()
        },
        schema,
    };
    Ok(with_documents(parent, file))
}

/// A one-file registry whose documents are the other `*.json` files below `root` (at most a
/// few thousand, hidden folders skipped), for its refs.
fn with_documents(root: &Path, file: SchemaFile) -> Registry {
    let mut documents = BTreeMap::new();
    let mut stack: Vec<PathBuf> = vec![root.to_path_buf()];
    let mut budget = 5_000usize;
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let hidden = entry.file_name().to_string_lossy().starts_with('.');
            if hidden || budget == 0 {
                continue;
            }
            budget -= 1;
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "json") && path != file.path {
                let relative = path
                    .strip_prefix(root)
                    .unwrap_or(&path)
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                if let Some(value) = std::fs::read_to_string(&path)
                    .ok()
                    .and_then(|t| serde_json::from_str(&t).ok())
                {
                    documents.insert(relative, value);
                }
            }
        }
    }
    Registry {
        root: root.to_path_buf(),
        files: vec![file],
        documents,
        protobuf: Vec::new(),
        mapping: None,
        skipped: Vec::new(),
    }
}
