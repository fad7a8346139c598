//! An xRegistry document as a registry: its message groups' CloudEvents messages
//! (`envelope: CloudEvents/1.0`), each typed by the `type` of its envelope metadata, with
//! the payload schema its `dataschemauri` names in the document's schema groups (the default
//! or latest version). Refs between schemas of the document (`#/schemagroups/...`) are
//! bundled like any external ref, so a schema shared by several messages is generated once.
//!
//! Both spellings of the metadata are read: `envelopemetadata` (xRegistry 1.0) and
//! `metadata` (the earlier CloudEvents discovery drafts), and `schemaurl` beside
//! `dataschemauri`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{CodegenError, Finding, pointer_segment};
use crate::registry::{EventMeta, Registry, SchemaFile};
use cloudevent_rules::split_type_version;

/// The name the whole document goes by among the registry's documents, so that refs into it
/// (`#/schemagroups/...`) resolve from any of its schemas.
const DOCUMENT: &str = "xregistry.json";

impl Registry {
    /// Loads the CloudEvents messages of an xRegistry document.
    ///
    /// ```
    /// let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/xregistry/catalog.json");
    /// let registry = cloudevent_codegen::Registry::load_xregistry(file).unwrap();
    /// let added = registry.files.iter().find(|f| f.meta.event_type == "Contoso.ERP.Events.EmployeeAdded").unwrap();
    /// // A URI template is no default source.
    /// assert_eq!(added.meta.source, None);
    /// assert_eq!(added.meta.dataschema, "https://schemas.contoso.example/erp/employee-added/v2.json");
    /// ```
    ///
    /// # Errors
    /// An unreadable or invalid document; a message without a type or whose schema is not in
    /// the document (never fetched); a document without a CloudEvents message
    /// ([`CodegenError::NoEventSchemas`]).
    pub fn load_xregistry(path: impl AsRef<Path>) -> Result<Registry, CodegenError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| CodegenError::io(path, e))?;
        let mut document: Value =
            serde_json::from_str(&text).map_err(|source| CodegenError::Json {
                path: path.to_path_buf(),
                source,
            })?;
        rebase_schemas(&mut document);
        let mut files = Vec::new();
        let mut findings = Vec::new();
        let mut messages_seen = 0;
        let groups = document
            .get("messagegroups")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        for (group_id, group) in &groups {
            let Some(messages) = group.get("messages").and_then(Value::as_object) else {
                continue;
            };
            for (message_id, message) in messages {
                messages_seen += 1;
                let at = format!(
                    "/messagegroups/{}/messages/{}",
                    pointer_segment(group_id),
                    pointer_segment(message_id)
                );
                let envelope = message
                    .get("envelope")
                    .or_else(|| group.get("envelope"))
                    .or_else(|| message.get("format"))
                    .or_else(|| group.get("format"))
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                if !envelope.starts_with("CloudEvents/1.0") {
                    continue;
                }
                match message_file(path, &document, message, &at) {
                    Ok(file) => files.push(file),
                    Err(finding) => findings.push(finding),
                }
            }
        }
        if !findings.is_empty() {
            return Err(CodegenError::Findings(findings));
        }
        if files.is_empty() {
            return Err(CodegenError::NoEventSchemas {
                root: path.to_path_buf(),
                looked_for: format!(
                    "messages with `envelope: CloudEvents/1.0` under `messagegroups` ({messages_seen} message(s) read)"
                ),
            });
        }
        files.sort_by(|a, b| a.meta.event_type.cmp(&b.meta.event_type));
        Ok(Registry {
            root: path.parent().map(Path::to_path_buf).unwrap_or_default(),
            files,
            documents: BTreeMap::from([(DOCUMENT.to_owned(), document)]),
            protobuf: Vec::new(),
            mapping: None,
        })
    }
}

fn message_file(
    path: &Path,
    document: &Value,
    message: &Value,
    at: &str,
) -> Result<SchemaFile, Finding> {
    let (metadata_key, metadata) = ["envelopemetadata", "metadata"]
        .iter()
        .find_map(|k| Some((*k, message.get(*k)?)))
        .unwrap_or(("envelopemetadata", &Value::Null));
    let value = |attribute: &str| {
        let entry = metadata
            .get(attribute)
            .or_else(|| metadata.get("attributes").and_then(|a| a.get(attribute)))?;
        entry
            .get("value")
            .unwrap_or(entry)
            .as_str()
            .map(str::to_owned)
    };
    let event_type = value("type").ok_or_else(|| {
        Finding::new(
            path,
            format!("{at}/{metadata_key}/type"),
            "the message names no CloudEvents `type` (`{\"value\": \"...\"}`)",
        )
        .with_fix("give the message's envelope metadata a `type` with a `value`")
    })?;
    let reference = ["dataschemauri", "schemaurl", "dataschema"]
        .iter()
        .find_map(|k| message.get(*k)?.as_str().map(|r| (*k, r)));
    let Some((reference_key, reference)) = reference else {
        return Err(Finding::new(
            path,
            at.to_owned(),
            format!("message `{event_type}` names no payload schema"),
        )
        .with_fix("add `dataschemauri` pointing into the document's `schemagroups`"));
    };
    let schema_at = schema_pointer(document, reference).ok_or_else(|| {
        Finding::new(path, format!("{at}/{reference_key}"), format!("`{reference}` names no schema of this document (codegen never fetches schemas over the network)"))
            .with_fix("point it at `#/schemagroups/<group>/schemas/<schema>` of this document")
    })?;
    let mut schema = document.pointer(&schema_at).cloned().unwrap_or(Value::Null);
    if let Value::String(text) = &schema {
        // A schema held as JSON text.
        schema = serde_json::from_str(text).map_err(|e| {
            Finding::new(
                path,
                schema_at.clone(),
                format!("the schema text is not JSON: {e}"),
            )
        })?;
    }
    refs_into_document(&mut schema);
    if let Some(object) = schema.as_object_mut() {
        // Its refs now reach them in the document, as shared definitions.
        object.remove("definitions");
        object.remove("$defs");
    }
    let dataschema = schema
        .get("$id")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .or_else(|| (!reference.starts_with('#')).then(|| reference.to_owned()))
        .unwrap_or_default();
    let (source, source_template) = match value("source") {
        Some(source) if source.contains('{') => (None, Some(source)),
        source => (source, None),
    };
    let (base, version) = split_type_version(&event_type);
    Ok(SchemaFile {
        path: PathBuf::from(format!("{}#{schema_at}", path.display())),
        relative: DOCUMENT.to_owned(),
        type_dir: base.to_owned(),
        major: 0,
        version,
        type_pointer: Some(format!("{at}/{metadata_key}/type")),
        schema,
        meta: EventMeta {
            event_type,
            dataschema,
            source,
            source_template,
            ..EventMeta::default()
        },
    })
}

/// The pointer of the schema a `dataschemauri` names: a schema resource's default (or latest)
/// version, or a version itself.
fn schema_pointer(document: &Value, reference: &str) -> Option<String> {
    let pointer = reference.strip_prefix('#')?.trim_end_matches('/');
    let target = document.pointer(pointer)?;
    if target.get("schema").is_some() {
        return Some(format!("{pointer}/schema"));
    }
    let versions = target.get("versions")?.as_object()?;
    let chosen = target
        .get("defaultversionid")
        .and_then(Value::as_str)
        .filter(|v| versions.contains_key(*v))
        .map(str::to_owned)
        .or_else(|| latest(versions.keys()))?;
    versions.get(&chosen)?.get("schema")?;
    Some(format!(
        "{pointer}/versions/{}/schema",
        pointer_segment(&chosen)
    ))
}

/// The highest version id, comparing dotted numbers as numbers (`10` after `9`).
fn latest<'a>(ids: impl Iterator<Item = &'a String>) -> Option<String> {
    let key = |id: &str| -> Vec<(u64, String)> {
        id.split(['.', '-'])
            .map(|part| (part.parse().unwrap_or(0), part.to_owned()))
            .collect()
    };
    ids.max_by_key(|id| key(id)).cloned()
}

/// Makes the refs of every schema in the document relative to the document's root: a
/// schema's own `#/definitions/x` becomes `#/schemagroups/.../schema/definitions/x`.
fn rebase_schemas(document: &mut Value) {
    let Some(groups) = document
        .get_mut("schemagroups")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    for (group_id, group) in groups.iter_mut() {
        let Some(schemas) = group.get_mut("schemas").and_then(Value::as_object_mut) else {
            continue;
        };
        for (schema_id, resource) in schemas.iter_mut() {
            let base = format!(
                "/schemagroups/{}/schemas/{}",
                pointer_segment(group_id),
                pointer_segment(schema_id)
            );
            if let Some(schema) = resource.get_mut("schema") {
                rewrite_refs(schema, &|p| rebase(p, &format!("{base}/schema")));
            }
            let Some(versions) = resource.get_mut("versions").and_then(Value::as_object_mut) else {
                continue;
            };
            for (version_id, version) in versions.iter_mut() {
                let at = format!("{base}/versions/{}/schema", pointer_segment(version_id));
                if let Some(schema) = version.get_mut("schema") {
                    rewrite_refs(schema, &|p| rebase(p, &at));
                }
            }
        }
    }
}

fn rebase(reference: &str, schema_at: &str) -> Option<String> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.starts_with("/schemagroups/") {
        None
    } else {
        Some(format!("#{schema_at}{pointer}"))
    }
}

/// A schema taken out of the document reaches the rest of it as the document named
/// [`DOCUMENT`] among the registry's documents.
fn refs_into_document(schema: &mut Value) {
    rewrite_refs(schema, &|reference| {
        reference
            .starts_with('#')
            .then(|| format!("{DOCUMENT}{reference}"))
    });
}

fn rewrite_refs(schema: &mut Value, rewrite: &dyn Fn(&str) -> Option<String>) {
    match schema {
        Value::Object(object) => {
            if let Some(Value::String(reference)) = object.get_mut("$ref")
                && let Some(rewritten) = rewrite(reference)
            {
                *reference = rewritten;
            }
            for (key, sub) in object.iter_mut() {
                if !matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                    rewrite_refs(sub, rewrite);
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                rewrite_refs(item, rewrite);
            }
        }
        _ => {}
    }
}
