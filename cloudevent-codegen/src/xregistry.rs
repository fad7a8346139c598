//! An xRegistry document as a registry: its message groups' CloudEvents messages
//! (`envelope: CloudEvents/1.0`), each typed by the `type` of its envelope metadata, with
//! the payload schema its `dataschemauri` names in the document's schema groups (the default
//! or latest version). Refs between schemas of the document (`#/schemagroups/...`) are
//! bundled like any external ref, so a schema shared by several messages is generated once.
//!
//! `dataschemauri` (and `dataschemaxid`) is read in every form the xRegistry specification
//! gives a schema of the same document (`locate`): a path from the registry's root
//! (`/schemagroups/<g>/schemas/<s>`, an `xid`), a `#/` fragment (the document view's `self`),
//! the registry's absolute URL when the document names it (its root `self`), each with or
//! without `/versions/<v>`, and a JSON pointer deep link into a JSON Schema.
//!
//! Both spellings of the metadata are read: `envelopemetadata` (xRegistry 1.0) and
//! `metadata` (the earlier CloudEvents discovery drafts), and `schemaurl` beside
//! `dataschemauri`. A payload schema given inline (the message's `dataschema` object, or its
//! JSON text) is read in place.
//!
//! A message that cannot be typed (its payload schema is Avro, Protobuf or XML Schema, named
//! by `dataschemaformat` or the schema's own `format`; or it has none, or one outside the
//! document) is left out with a finding naming the message and the format
//! (`Registry::skipped`, a warning of the generator); the document's other messages are
//! generated.

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
    /// An unreadable or invalid document; a document without a CloudEvents message
    /// ([`CodegenError::NoEventSchemas`]); a document none of whose messages can be typed (a
    /// message without a type or a JSON Schema payload in the document, never fetched, is
    /// otherwise left out with a finding the generator lists as a warning).
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
        if files.is_empty() && !findings.is_empty() {
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
            skipped: findings,
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
    let format_of_message = ["dataschemaformat", "schemaformat"]
        .iter()
        .find_map(|k| message.get(*k)?.as_str());
    let not_json_schema = |format: &str, at: String| {
        Finding::new(
            path,
            at,
            format!(
                "message `{event_type}`: its payload schema is {} (`{format}`), which codegen does not turn into Rust (it types JSON Schema payloads); the message is left out",
                format_name(format)
            ),
        )
        .with_fix("give the message a JSON Schema payload (`dataschemaformat: JsonSchema/draft-07`), or read its events as `AnyEvent` (an Avro or Protobuf payload is `data_base64` / binary data)")
    };
    if let Some(format) = format_of_message
        && !is_json_schema(format)
    {
        return Err(not_json_schema(format, format!("{at}/dataschemaformat")));
    }
    let mut draft_format = format_of_message.map(str::to_owned);
    let (schema_at, mut schema, url) = match message.get("dataschema") {
        // A schema given inline: an object, or its JSON text.
        Some(inline)
            if inline.is_object()
                || inline
                    .as_str()
                    .is_some_and(|t| t.trim_start().starts_with('{')) =>
        {
            (format!("{at}/dataschema"), inline.clone(), None)
        }
        _ => {
            let reference = ["dataschemauri", "dataschemaxid", "schemaurl", "dataschema"]
                .iter()
                .find_map(|k| message.get(*k)?.as_str().map(|r| (*k, r)));
            let Some((reference_key, reference)) = reference else {
                return Err(Finding::new(
                    path,
                    at.to_owned(),
                    format!("message `{event_type}` names no payload schema; the message is left out"),
                )
                .with_fix("add `dataschemauri` pointing into the document's `schemagroups`, or the schema itself as `dataschema`"));
            };
            let located = locate(document, reference).ok_or_else(|| {
                Finding::new(path, format!("{at}/{reference_key}"), format!("message `{event_type}`: `{reference}` names no schema of this document (codegen never fetches schemas over the network); the message is left out"))
                    .with_fix("point it at a schema of this document: `/schemagroups/<group>/schemas/<schema>[/versions/<version>]` or the same after `#`, or give the schema itself as `dataschema`")
            })?;
            // The schema resource and version say their format too.
            let declared = schema_format(document, &located.version_at);
            if let Some(format) = declared.as_deref()
                && !is_json_schema(format)
            {
                return Err(not_json_schema(format, located.schema_at));
            }
            draft_format = draft_format.or(declared);
            let schema = document
                .pointer(&located.schema_at)
                .cloned()
                .unwrap_or(Value::Null);
            // An absolute reference is the schema's URL; one within the document has the
            // version's URL when the document names one. A deep link has none: a
            // `dataschema` holds no fragment (CE 1.0.2), and the version's URL names the
            // whole schema.
            let whole = located.schema_at == format!("{}/schema", located.version_at);
            let url = if !whole {
                None
            } else if reference.contains("://") {
                Some(reference.to_owned())
            } else {
                version_url(document, &located.version_at)
            };
            (located.schema_at, schema, url)
        }
    };
    if let Value::String(text) = &schema {
        // A schema held as text: JSON, else (a `.proto` or an IDL) not JSON Schema.
        schema = match serde_json::from_str(text) {
            Ok(schema) => schema,
            Err(_) if text.contains("syntax") && text.contains("message") => {
                return Err(not_json_schema("Protobuf", schema_at.clone()));
            }
            Err(_) if text.trim_start().starts_with('<') => {
                return Err(not_json_schema("XSD", schema_at.clone()));
            }
            Err(e) => {
                return Err(Finding::new(
                    path,
                    schema_at.clone(),
                    format!(
                        "message `{event_type}`: the schema text is not JSON: {e}; the message is left out"
                    ),
                ));
            }
        };
    }
    // An Avro schema written as JSON: a `record` (or another Avro type) with `fields`.
    if schema.get("type").and_then(Value::as_str) == Some("record")
        || schema.get("fields").is_some_and(Value::is_array)
    {
        return Err(not_json_schema("Avro", schema_at));
    }
    refs_into_document(&mut schema);
    // The draft the message or the schema resource names (`JsonSchema/draft-07`) is the
    // schema's own when it names none: it decides what the schema asserts (`format` is an
    // assertion up to draft 7), for the generated type's check as for `validate --registry`.
    if let Some(object) = schema.as_object_mut()
        && !object.contains_key("$schema")
        && let Some(draft) = draft_format.as_deref().and_then(draft_uri)
    {
        object.insert("$schema".into(), Value::String(draft.to_owned()));
    }
    if let Some(object) = schema.as_object_mut() {
        // Its refs now reach them in the document, as shared definitions.
        object.remove("definitions");
        object.remove("$defs");
    }
    let dataschema = schema
        .get("$id")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .or(url)
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

/// Whether a `dataschemaformat` (or a schema's `format`) names JSON Schema:
/// `JsonSchema/draft-07`, `JSONSchema`, `application/schema+json`.
fn is_json_schema(format: &str) -> bool {
    let format = format.to_ascii_lowercase();
    format.starts_with("jsonschema") || format.contains("schema+json")
}

/// The meta-schema URI of the JSON Schema draft a format names (`JsonSchema/draft-07`,
/// `JSONSchema/Draft-07`, `JsonSchema/2020-12`); `None` for one it does not name.
fn draft_uri(format: &str) -> Option<&'static str> {
    let format = format.to_ascii_lowercase();
    let version = format.strip_prefix("jsonschema")?.trim_start_matches('/');
    let version = version
        .trim_start_matches("draft")
        .trim_start_matches(['-', '/']);
    Some(match version {
        "04" | "4" => "http://json-schema.org/draft-04/schema#",
        "06" | "6" => "http://json-schema.org/draft-06/schema#",
        "07" | "7" => "http://json-schema.org/draft-07/schema#",
        "2019-09" => "https://json-schema.org/draft/2019-09/schema",
        "2020-12" => "https://json-schema.org/draft/2020-12/schema",
        _ => return None,
    })
}

/// The family a schema format names, for the finding: `Avro/1.9.0` is Avro.
fn format_name(format: &str) -> &'static str {
    let format = format.to_ascii_lowercase();
    if format.starts_with("avro") {
        "Avro"
    } else if format.starts_with("protobuf") || format.starts_with("proto") {
        "Protobuf"
    } else if format.starts_with("xsd") || format.contains("xml") {
        "XML Schema"
    } else {
        "not JSON Schema"
    }
}

/// The `format` (or `schemaformat`) the version at `version_at`, or its schema resource,
/// declares.
fn schema_format(document: &Value, version_at: &str) -> Option<String> {
    let mut at = Some(version_at);
    while let Some(pointer) = at {
        let node = document.pointer(pointer)?;
        if let Some(format) = ["format", "schemaformat"]
            .iter()
            .find_map(|k| node.get(*k)?.as_str())
        {
            return Some(format.to_owned());
        }
        // A version's resource: `.../schemas/<id>/versions/<v>` -> `.../schemas/<id>`.
        at = pointer
            .rsplit_once("/versions/")
            .map(|(resource, _)| resource)
            .filter(|r| *r != pointer);
    }
    None
}

/// The schema a `dataschemauri` (or `dataschemaxid`) names in the document.
struct Located {
    /// The pointer of the schema object itself (`.../versions/<v>/schema`, and a deep link's
    /// pointer into it).
    schema_at: String,
    /// The pointer of the version holding it (or of the resource, when the resource holds its
    /// default version's `schema` inline).
    version_at: String,
}

/// Finds the schema a reference names in the document, in each form xRegistry gives a
/// schema of the same document (`core/spec.md` `self` and `xid`, `schema/spec.md` 4.3,
/// `message/spec.md` `dataschemauri`, `dataschemaxid`):
///
/// - a fragment, `#/schemagroups/<g>/schemas/<s>` (the document view's `self`);
/// - a path from the registry's root, `/schemagroups/<g>/schemas/<s>` (an `xid`, the form
///   the spec's own scenario samples use);
/// - the registry's absolute URL followed by that path, when the document names its root
///   (`self` at the top);
///
/// each with or without `/versions/<v>` (without: the resource's `defaultversionid`, in
/// `meta` or on the resource, else the latest version). A JSON Schema may be deep-linked: a
/// JSON pointer after the version in a fragment (`.../versions/1/definitions/Employee`, with
/// or without `/schema` before it), or as the path form's own fragment
/// (`/schemagroups/<g>/schemas/<s>/versions/1#/definitions/Employee`). An Avro or Protobuf
/// `:{record-name}` suffix is dropped when the id does not hold it, so the format is found.
fn locate(document: &Value, reference: &str) -> Option<Located> {
    let (segments, deep) = entity_segments(document, reference)?;
    let [first, group, schemas, schema, rest @ ..] = segments.as_slice() else {
        return None;
    };
    if first != "schemagroups" || schemas != "schemas" {
        return None;
    }
    let resources = document
        .get("schemagroups")?
        .get(group.as_str())?
        .get("schemas")?;
    let (schema, resource) = with_suffix_dropped(schema, rest.is_empty(), |id| {
        resources.get(id).map(|r| (id.to_owned(), r))
    })?;
    let resource_at = format!(
        "/schemagroups/{}/schemas/{}",
        pointer_segment(group),
        pointer_segment(&schema)
    );
    let (version_at, rest) = match rest {
        [versions, version, rest @ ..] if versions == "versions" => {
            let versions = resource.get("versions")?;
            let version = with_suffix_dropped(version, rest.is_empty(), |id| {
                versions.get(id).map(|_| id.to_owned())
            })?;
            (
                format!("{resource_at}/versions/{}", pointer_segment(&version)),
                rest,
            )
        }
        rest if resource.get("schema").is_some() => (resource_at, rest),
        rest => {
            let versions = resource.get("versions")?.as_object()?;
            let chosen = [resource.get("meta"), Some(resource)]
                .into_iter()
                .flatten()
                .find_map(|holder| holder.get("defaultversionid")?.as_str())
                .filter(|v| versions.contains_key(*v))
                .map(str::to_owned)
                .or_else(|| latest(versions.keys()))?;
            (
                format!("{resource_at}/versions/{}", pointer_segment(&chosen)),
                rest,
            )
        }
    };
    let rest = match rest {
        [schema, rest @ ..] if schema == "schema" => rest,
        rest => rest,
    };
    let mut schema_at = format!("{version_at}/schema");
    document.pointer(&schema_at)?;
    for segment in rest {
        schema_at.push('/');
        schema_at.push_str(&pointer_segment(segment));
    }
    schema_at.push_str(&deep);
    document.pointer(&schema_at)?;
    Some(Located {
        schema_at,
        version_at,
    })
}

/// The segments of the entity path a reference names (unescaped), and the JSON pointer of a
/// deep link given as the path form's own fragment (escaped, as written).
fn entity_segments(document: &Value, reference: &str) -> Option<(Vec<String>, String)> {
    if let Some(pointer) = reference.strip_prefix('#') {
        let segments = pointer.strip_prefix('/')?.trim_end_matches('/').split('/');
        return Some((
            segments
                .map(|s| percent_decoded(s).replace("~1", "/").replace("~0", "~"))
                .collect(),
            String::new(),
        ));
    }
    let path = match reference.strip_prefix('/') {
        Some(path) => path,
        None => {
            // The registry's own absolute URL: the document's root `self`.
            let root = document.get("self")?.as_str()?.trim_end_matches('/');
            if !root.contains("://") {
                return None;
            }
            reference.strip_prefix(root)?.strip_prefix('/')?
        }
    };
    let (path, deep) = path.split_once('#').unwrap_or((path, ""));
    if !deep.is_empty() && !deep.starts_with('/') {
        return None;
    }
    let segments = path
        .trim_end_matches('/')
        .split('/')
        .map(percent_decoded)
        .collect();
    Some((segments, percent_decoded(deep)))
}

/// An id as found: itself, else (when it ends the reference) without the `:{name}` suffix
/// xRegistry appends to name an Avro record or a Protobuf message inside a schema.
fn with_suffix_dropped<T>(id: &str, last: bool, find: impl Fn(&str) -> Option<T>) -> Option<T> {
    find(id).or_else(|| {
        let (id, _) = id.rsplit_once(':').filter(|_| last)?;
        find(id)
    })
}

/// A URI's `%XX` escapes decoded; text that does not decode to UTF-8 is kept as written.
fn percent_decoded(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(high), Some(low)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((high * 16 + low) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

/// The absolute URL of the version a root-relative reference names, for the event's
/// `dataschema`: the version's own `self` when absolute, else the registry's root `self`
/// followed by the version's path (the `self` URL the schema spec's 1.2 puts in
/// `dataschema`). `None` when the document names no absolute URL.
fn version_url(document: &Value, version_at: &str) -> Option<String> {
    let absolute = |v: &Value| v.as_str().filter(|s| s.contains("://")).map(str::to_owned);
    if let Some(own) = document
        .pointer(&format!("{version_at}/self"))
        .and_then(absolute)
    {
        return Some(own);
    }
    let root = document.get("self").and_then(absolute)?;
    // The pointer's segments are ids, which hold no `/`: only `~` was escaped.
    let path = version_at.replace("~0", "~");
    Some(format!("{}{path}", root.trim_end_matches('/')))
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
    if let Some(groups) = document
        .get_mut("messagegroups")
        .and_then(Value::as_object_mut)
    {
        for (group_id, group) in groups.iter_mut() {
            let Some(messages) = group.get_mut("messages").and_then(Value::as_object_mut) else {
                continue;
            };
            for (message_id, message) in messages.iter_mut() {
                let at = format!(
                    "/messagegroups/{}/messages/{}/dataschema",
                    pointer_segment(group_id),
                    pointer_segment(message_id)
                );
                if let Some(schema @ Value::Object(_)) = message.get_mut("dataschema") {
                    rewrite_refs(schema, &|p| rebase(p, &at));
                }
            }
        }
    }
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

#[cfg(test)]
mod tests {
    use super::draft_uri;

    #[test]
    fn a_format_names_its_draft() {
        assert_eq!(
            draft_uri("JSONSchema/Draft-07"),
            Some("http://json-schema.org/draft-07/schema#")
        );
        assert_eq!(
            draft_uri("JsonSchema/draft-04"),
            Some("http://json-schema.org/draft-04/schema#")
        );
        assert_eq!(
            draft_uri("JsonSchema/2020-12"),
            Some("https://json-schema.org/draft/2020-12/schema")
        );
        assert_eq!(draft_uri("JsonSchema"), None);
        assert_eq!(draft_uri("Avro/1.9.0"), None);
    }
}
