//! The lock file: the registry's resolved schemas per type and major version, committed next
//! to the registry, so a build script checks compatibility without git.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::diff::ProtoShape;
use crate::diff::resolve::{Resolved, resolve_registry};
use crate::error::{CodegenError, Finding};
use crate::registry::{Registry, SchemaFile};

/// The lock file's default name, next to the registry folder (or the xRegistry document).
pub(crate) const LOCK_FILE: &str = "cloudevent.lock.json";

const COMMENT: &str = "Written by cloudevent-codegen (`cloudevent codegen --update-lock`, `Builder::update_lock`): each event type's resolved schema per major version, oldest first (`protobuf`: the same for `.proto` entries, each message with its field numbers, types and reserved numbers); the baseline of the compatibility check. Commit it; do not edit.";

/// One locked version of a type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LockedSchema {
    /// The event type as it was (`dev.cdevents.ticket.created.0.2.0`).
    pub event_type: String,
    /// The schema with every external `$ref` bundled under `$bundled`.
    pub schema: Value,
    /// Where each bundled definition came from.
    pub origins: BTreeMap<String, String>,
}

impl LockedSchema {
    pub(crate) fn resolved(&self) -> Resolved {
        Resolved {
            schema: self.schema.clone(),
            origins: self.origins.clone(),
        }
    }
}

/// One locked version of a `.proto` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LockedProto {
    /// The event type as it was.
    pub event_type: String,
    /// Its event message and every message and enum that reaches.
    pub shape: ProtoShape,
}

/// The versions of every type, by subject (`<type without version>/v<major>`), oldest first.
///
/// ```
/// use cloudevent_codegen::{Lock, Registry};
///
/// let registry = Registry::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas")).unwrap();
/// let lock = Lock::of_registry(&registry).unwrap();
/// assert!(lock.subjects().any(|s| s == "com.example.order.created/v2"));
/// // Written and read back unchanged.
/// assert_eq!(Lock::from_value(&lock.to_value()).unwrap(), lock);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Lock {
    subjects: BTreeMap<String, Vec<LockedSchema>>,
    protobuf: BTreeMap<String, Vec<LockedProto>>,
}

/// The key a type's versions are locked and paired under: the type without its version
/// suffix and the major version, so `0.2.0` and `0.3.0` of a CDEvents type are one subject.
pub(crate) fn subject(file: &SchemaFile) -> String {
    let major = file
        .version
        .as_deref()
        .and_then(|v| {
            v.trim_start_matches(['v', 'V'])
                .split(['.', '-'])
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or(file.major);
    format!("{}/v{major}", file.type_dir)
}

impl Lock {
    /// The default lock file of a registry path (a folder or an xRegistry document):
    /// `cloudevent.lock.json` beside it, in its parent folder.
    ///
    /// ```
    /// use std::path::Path;
    /// use cloudevent_codegen::Lock;
    ///
    /// assert_eq!(Lock::default_path(Path::new("api/schemas")), Path::new("api/cloudevent.lock.json"));
    /// assert_eq!(Lock::default_path(Path::new("schemas")), Path::new("./cloudevent.lock.json"));
    /// ```
    pub fn default_path(registry_path: &Path) -> PathBuf {
        let parent = registry_path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        parent.join(LOCK_FILE)
    }

    /// A lock of every type of `registry`, one version each.
    ///
    /// # Errors
    /// [`CodegenError::Findings`] for refs that name nothing.
    pub fn of_registry(registry: &Registry) -> Result<Lock, CodegenError> {
        Lock::default().updated(registry)
    }

    /// This lock with the registry's current schemas appended where they differ from the
    /// last locked version (new types added; types no longer in the registry kept).
    ///
    /// # Errors
    /// [`CodegenError::Findings`] for refs that name nothing.
    pub fn updated(&self, registry: &Registry) -> Result<Lock, CodegenError> {
        let (resolved, findings) = resolve_registry(registry);
        if !findings.is_empty() {
            return Err(CodegenError::Findings(findings));
        }
        let mut lock = self.clone();
        for (file, resolved) in registry.files.iter().zip(resolved) {
            let versions = lock.subjects.entry(subject(file)).or_default();
            let current = LockedSchema {
                event_type: file.meta.event_type.clone(),
                schema: resolved.schema,
                origins: resolved.origins,
            };
            if versions.last() != Some(&current) {
                versions.push(current);
            }
        }
        for file in &registry.protobuf {
            let versions = lock
                .protobuf
                .entry(super::proto::subject(file))
                .or_default();
            let current = LockedProto {
                event_type: file.meta.event_type.clone(),
                shape: ProtoShape::of(file),
            };
            if versions.last() != Some(&current) {
                versions.push(current);
            }
        }
        Ok(lock)
    }

    /// The subjects of `.proto` entries locked, sorted.
    pub fn proto_subjects(&self) -> impl Iterator<Item = &str> {
        self.protobuf.keys().map(String::as_str)
    }

    /// The locked versions of a `.proto` entry's subject (`<type>/v<major>`), oldest first.
    pub(crate) fn proto_versions(&self, subject: &str) -> Option<&[LockedProto]> {
        self.protobuf.get(subject).map(Vec::as_slice)
    }

    /// The subjects locked, sorted.
    pub fn subjects(&self) -> impl Iterator<Item = &str> {
        self.subjects.keys().map(String::as_str)
    }

    /// The locked versions of a subject (`<type>/v<major>`), oldest first.
    pub(crate) fn versions(&self, subject: &str) -> Option<&[LockedSchema]> {
        self.subjects.get(subject).map(Vec::as_slice)
    }

    /// The lock as the JSON written to the file.
    pub fn to_value(&self) -> Value {
        let subjects: Map<String, Value> = self
            .subjects
            .iter()
            .map(|(subject, versions)| {
                let list = versions
                    .iter()
                    .map(
                        |v| json!({"type": v.event_type, "schema": v.schema, "origins": v.origins}),
                    )
                    .collect();
                (subject.clone(), Value::Array(list))
            })
            .collect();
        let mut value = json!({"$comment": COMMENT, "lockversion": 1, "subjects": subjects});
        if !self.protobuf.is_empty() {
            let protobuf: Map<String, Value> = self
                .protobuf
                .iter()
                .map(|(subject, versions)| {
                    let list = versions
                        .iter()
                        .map(|v| json!({"type": v.event_type, "proto": v.shape}))
                        .collect();
                    (subject.clone(), Value::Array(list))
                })
                .collect();
            value["protobuf"] = Value::Object(protobuf);
        }
        value
    }

    /// Reads the JSON of [`Lock::to_value`].
    ///
    /// # Errors
    /// A message naming what is missing or mistyped.
    pub fn from_value(value: &Value) -> Result<Lock, String> {
        if value.get("lockversion") != Some(&json!(1)) {
            return Err("`lockversion` is not 1".into());
        }
        let subjects = value
            .get("subjects")
            .and_then(Value::as_object)
            .ok_or("`subjects` is not an object")?;
        let mut lock = Lock::default();
        for (subject, versions) in subjects {
            let versions = versions
                .as_array()
                .ok_or_else(|| format!("`subjects/{subject}` is not an array"))?;
            let mut list = Vec::new();
            for v in versions {
                let event_type = v
                    .get("type")
                    .and_then(Value::as_str)
                    .ok_or_else(|| format!("a version of `{subject}` has no `type`"))?;
                let origins = v
                    .get("origins")
                    .and_then(Value::as_object)
                    .map(|o| {
                        o.iter()
                            .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
                            .collect()
                    })
                    .unwrap_or_default();
                list.push(LockedSchema {
                    event_type: event_type.to_owned(),
                    schema: v.get("schema").cloned().unwrap_or(Value::Bool(true)),
                    origins,
                });
            }
            lock.subjects.insert(subject.clone(), list);
        }
        // Written only when the registry has `.proto` entries; older locks have none.
        let protobuf = match value.get("protobuf") {
            None => return Ok(lock),
            Some(p) => p.as_object().ok_or("`protobuf` is not an object")?,
        };
        for (subject, versions) in protobuf {
            let versions = versions
                .as_array()
                .ok_or_else(|| format!("`protobuf/{subject}` is not an array"))?;
            let mut list = Vec::new();
            for v in versions {
                let event_type = v
                    .get("type")
                    .and_then(Value::as_str)
                    .ok_or_else(|| format!("a version of `protobuf/{subject}` has no `type`"))?;
                let shape = v
                    .get("proto")
                    .cloned()
                    .ok_or_else(|| format!("a version of `protobuf/{subject}` has no `proto`"))
                    .and_then(|p| {
                        serde_json::from_value(p).map_err(|e| format!("`protobuf/{subject}`: {e}"))
                    })?;
                list.push(LockedProto {
                    event_type: event_type.to_owned(),
                    shape,
                });
            }
            lock.protobuf.insert(subject.clone(), list);
        }
        Ok(lock)
    }

    /// Reads a lock file; `Ok(None)` when there is none.
    ///
    /// # Errors
    /// An unreadable file, or one that is not a lock ([`CodegenError::Findings`] naming it).
    pub fn read(path: &Path) -> Result<Option<Lock>, CodegenError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(CodegenError::io(path, e)),
        };
        let value: Value = serde_json::from_str(&text).map_err(|source| CodegenError::Json {
            path: path.to_path_buf(),
            source,
        })?;
        Lock::from_value(&value).map(Some).map_err(|message| {
            CodegenError::Findings(vec![
                Finding::new(path, "", format!("not a cloudevent lock file: {message}"))
                    .with_fix("delete it and run `cloudevent codegen --update-lock` (or rebuild) to write it afresh from the committed schemas"),
            ])
        })
    }

    /// Writes the lock (pretty JSON, a trailing newline), only when its text changed.
    ///
    /// # Errors
    /// An unwritable file.
    pub fn write(&self, path: &Path) -> Result<bool, CodegenError> {
        let mut text = serde_json::to_string_pretty(&self.to_value()).map_err(|source| {
            CodegenError::Json {
                path: path.to_path_buf(),
                source,
            }
        })?;
        text.push('\n');
        if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
            return Ok(false);
        }
        std::fs::write(path, text).map_err(|e| CodegenError::io(path, e))?;
        Ok(true)
    }
}
