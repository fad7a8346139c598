//! The registry layout of schema sets published by others: a flat or nested folder of schema
//! files, each event's CloudEvents `type` found inside the schema at a JSON pointer (as the
//! CDEvents specification's schemas hold it at `/properties/context/properties/type`).
//!
//! Files without a type at the pointer are not events: they are kept as documents that
//! `$ref`s may reach (`links/*.json` in CDEvents) and generate only when referenced.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{CodegenError, Finding};
use crate::folder::{Entry, Folder, Links};
use crate::registry::{EventMeta, Registry, SchemaFile};
use cloudevent_rules::split_type_version;

/// What the event type at a pointer is written as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TypeAt {
    /// The pointer names nothing: the file is no event schema.
    Absent,
    /// A `const`, a one-value `enum` or a `default` string.
    Found(String),
    /// The pointer names a schema that does not fix one type.
    Unfixed(String),
}

/// The event type a schema declares at `pointer`: its `const`, its one-value `enum`, or its
/// `default`, in that order.
///
/// # Errors
/// A message when the pointer names a schema whose type is not fixed (several `enum` values,
/// no `const` or `default`).
pub(crate) fn event_type_at(schema: &Value, pointer: &str) -> Result<Option<String>, String> {
    match type_at(schema, pointer) {
        TypeAt::Absent => Ok(None),
        TypeAt::Found(t) => Ok(Some(t)),
        TypeAt::Unfixed(message) => Err(message),
    }
}

pub(crate) fn type_at(schema: &Value, pointer: &str) -> TypeAt {
    let Some(at) = schema.pointer(pointer) else {
        return TypeAt::Absent;
    };
    if let Some(Value::String(t)) = at.get("const") {
        return TypeAt::Found(t.clone());
    }
    if let Some(Value::Array(values)) = at.get("enum") {
        if let [Value::String(t)] = values.as_slice() {
            return TypeAt::Found(t.clone());
        }
        if let Some(Value::String(t)) = at.get("default") {
            return TypeAt::Found(t.clone());
        }
        return TypeAt::Unfixed(format!(
            "the event type at `{pointer}` is an `enum` of {} values and has no `default`",
            values.len()
        ));
    }
    if let Some(Value::String(t)) = at.get("default") {
        return TypeAt::Found(t.clone());
    }
    TypeAt::Unfixed(format!(
        "`{pointer}` holds no `const`, one-value `enum` or `default` string naming the event type"
    ))
}

impl Registry {
    /// Loads every `*.json` file below `root` (any depth): those with an event type at
    /// `pointer` (its `const`, one-value `enum` or `default`) are the registry's events, the others documents that
    /// `$ref`s may reach. `$id` is each event's `dataschema`, as written.
    ///
    /// ```
    /// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/cdevents-shaped/schemas");
    /// let registry = cloudevent_codegen::Registry::load_type_pointer(dir, "/properties/context/properties/type").unwrap();
    /// let ticket = registry.files.iter().find(|f| f.meta.event_type == "dev.cdevents.ticket.created.0.2.0").unwrap();
    /// assert_eq!(ticket.meta.dataschema, "https://cdevents.dev/0.6.0-draft/schema/ticket-created-event");
    /// assert_eq!(ticket.version.as_deref(), Some("0.2.0"));
    /// assert!(registry.documents.contains_key("links/embeddedlinksarray.json"));
    /// ```
    ///
    /// # Errors
    /// Unreadable files, invalid JSON, a pointer that names a type which is not fixed, and a
    /// folder without any event schema ([`CodegenError::NoEventSchemas`]).
    pub fn load_type_pointer(
        root: impl AsRef<Path>,
        pointer: &str,
    ) -> Result<Registry, CodegenError> {
        Registry::load_type_pointer_with(root.as_ref(), pointer, Links::Refuse)
    }

    /// [`Registry::load_type_pointer`], with symbolic links refused or followed inside the
    /// root.
    pub(crate) fn load_type_pointer_with(
        root: &Path,
        pointer: &str,
        links: Links,
    ) -> Result<Registry, CodegenError> {
        let mut paths = Vec::new();
        let mut folder = Folder::new(root, links);
        json_files(root, root, &mut folder, &mut paths)?;
        let mut files = Vec::new();
        let mut documents = BTreeMap::new();
        let mut findings = std::mem::take(&mut folder.findings);
        for (path, relative) in &paths {
            let text = fs::read_to_string(path).map_err(|e| CodegenError::io(path, e))?;
            let schema: Value =
                serde_json::from_str(&text).map_err(|source| CodegenError::Json {
                    path: path.clone(),
                    source,
                })?;
            match type_at(&schema, pointer) {
                TypeAt::Absent => {
                    documents.insert(relative.clone(), schema);
                }
                TypeAt::Unfixed(message) => findings.push(
                    Finding::new(path, pointer, message).with_fix(
                        "give the type one value (`\"const\": \"<type>\"`), or point `--type-pointer` elsewhere",
                    ),
                ),
                TypeAt::Found(event_type) => {
                    files.push(pointer_file(path, relative, pointer, event_type, schema));
                }
            }
        }
        if !findings.is_empty() {
            return Err(CodegenError::Findings(findings));
        }
        if files.is_empty() {
            return Err(CodegenError::NoEventSchemas {
                root: root.to_path_buf(),
                looked_for: format!(
                    "an event type at JSON pointer `{pointer}` (a `const`, a one-value `enum` or a `default` string) in any of the {} `*.json` file(s) below it",
                    paths.len()
                ),
            });
        }
        files.sort_by(|a, b| {
            (&a.meta.event_type, &a.relative).cmp(&(&b.meta.event_type, &b.relative))
        });
        Ok(Registry {
            root: root.to_path_buf(),
            files,
            documents,
            protobuf: Vec::new(),
        })
    }
}

fn pointer_file(
    path: &Path,
    relative: &str,
    pointer: &str,
    event_type: String,
    schema: Value,
) -> SchemaFile {
    let (base, version) = split_type_version(&event_type);
    let major = version
        .as_deref()
        .and_then(|v| {
            v.trim_start_matches(['v', 'V'])
                .split(['.', '-'])
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or(0);
    let meta = EventMeta {
        event_type: event_type.clone(),
        dataschema: schema
            .get("$id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        ..EventMeta::default()
    };
    SchemaFile {
        path: path.to_path_buf(),
        relative: relative.to_owned(),
        type_dir: base.to_owned(),
        major,
        version,
        type_pointer: Some(pointer.to_owned()),
        schema,
        meta,
    }
}

/// Every `*.json` file below `dir`, sorted, with its `/`-separated path relative to `root`.
fn json_files(
    root: &Path,
    dir: &Path,
    folder: &mut Folder,
    out: &mut Vec<(PathBuf, String)>,
) -> Result<(), CodegenError> {
    for Entry { path, is_dir } in folder.entries(dir)? {
        if is_dir {
            json_files(root, &path, folder, out)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            let relative = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            out.push((path, relative));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_type_at_example() {
        let schema = serde_json::json!({"properties": {"context": {"properties": {"type":
            {"type": "string", "enum": ["dev.cdevents.ticket.created.0.2.0"]}}}}});
        let found = event_type_at(&schema, "/properties/context/properties/type");
        assert_eq!(
            found.unwrap().as_deref(),
            Some("dev.cdevents.ticket.created.0.2.0")
        );
        assert_eq!(
            event_type_at(&serde_json::json!({}), "/properties/type").unwrap(),
            None
        );
    }
}
