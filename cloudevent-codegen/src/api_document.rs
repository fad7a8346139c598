//! OpenAPI and AsyncAPI documents as registries (issue 39, item 5), in JSON or (feature
//! `yaml`) YAML. A document is laid out as the folder it describes, and read by the same
//! stage as a folder of schema files ([`Registry::from_schemas`]): one abstraction, so the
//! type mapping (`--type-template` with `{file}` and `{/pointer}` or `{/pointer|regex}`
//! placeholders, `x-cloudevent.type`), `--events`, `--shared` and `--exclude` mean what they
//! mean for a folder.
//!
//! - **OpenAPI 2** (`definitions`) and **OpenAPI 3** (`components/schemas`): each schema is
//!   the file `schemas/<name>.json`; a schema no other one `$ref`s is an event when the mapping
//!   types it (Azure Event Grid names the type in each definition's description:
//!   `--type-template '{/description|for an? (\S+) event}'`), the others are shared.
//! - **AsyncAPI 2 and 3**: each message with a payload is the file `messages/<name>.json`, an
//!   event; `components/schemas` are `schemas/<name>.json`, shared. A message's type is the one
//!   its CloudEvents header fixes (`ce_type`, `ce-type`, `cloudEvents:type`: a `const`, a
//!   one-value `enum` or a `default` in its `headers` or a trait's), else the mapping's
//!   (`--type-template 'com.example.{file}'`: `{file}` is the message's name). A payload that is
//!   a structured-mode CloudEvent (`specversion`, `type` and `data` members) gives its `type`
//!   and its `data` schema.
//!
//! Refs into the document (`#/definitions/X`, `#/components/schemas/X/properties/y`,
//! `#/components/messages/M/payload`) become refs between those files. What a schema object of
//! the document means beyond JSON Schema is read as the document's version says: OpenAPI 2 and
//! 3.0's `nullable: true` (and `x-nullable`) admits `null`; their annotations (`discriminator`,
//! `example`, `xml`, `externalDocs`) are dropped; each schema gets the `$schema` of its dialect
//! (draft 4 for OpenAPI 2/3.0, the document's `jsonSchemaDialect` or 2020-12 for 3.1, draft 7
//! for AsyncAPI). A message whose payload is not JSON Schema (`schemaFormat` Avro, RAML,
//! Protobuf) is left out with a finding naming it, a warning of the generator.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::error::{CodegenError, Finding, pointer_segment};
use crate::registry::{Registry, TypeMapping};

/// The folder a document's schemas are laid out in.
const SCHEMAS: &str = "schemas";
/// The folder an AsyncAPI document's messages are laid out in.
const MESSAGES: &str = "messages";
/// Where a laid-out message holds the type its header fixes (the project's own metadata,
/// read in any layout).
const OWN_TYPE: &str = "/x-cloudevent/type";

/// Which kind of document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ApiKind {
    OpenApi,
    AsyncApi,
}

impl ApiKind {
    fn flag(self) -> &'static str {
        match self {
            ApiKind::OpenApi => "--openapi",
            ApiKind::AsyncApi => "--asyncapi",
        }
    }
}

impl Registry {
    /// Loads the schemas of an OpenAPI 2 or 3 document (JSON, or YAML with the `yaml`
    /// feature): each schema of `definitions` / `components/schemas` that no other one `$ref`s
    /// and that `mapping` types is an event, the others are shared definitions.
    ///
    /// ```
    /// use cloudevent_codegen::{Registry, TypeMapping};
    ///
    /// let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/openapi/eventgrid-shaped.json");
    /// let mapping = TypeMapping {
    ///     type_templates: vec![r"{/description|for an? (\S+) event}".into()],
    ///     ..TypeMapping::default()
    /// };
    /// let registry = Registry::load_openapi(file, &mapping).unwrap();
    /// let types: Vec<_> = registry.files.iter().map(|f| f.meta.event_type.as_str()).collect();
    /// assert_eq!(types, ["Microsoft.Resources.ResourceWriteSuccess", "Microsoft.Storage.BlobCreated"]);
    /// // Definitions the events reach are shared, under the document's folder layout.
    /// assert!(registry.documents.contains_key("schemas/ResourceAuthorization.json"));
    /// ```
    ///
    /// # Errors
    /// An unreadable document, invalid JSON or YAML (or YAML without the `yaml` feature), a
    /// document that is no OpenAPI 2 or 3, and every error [`Registry::load_mapped`] gives a
    /// folder.
    pub fn load_openapi(
        path: impl AsRef<Path>,
        mapping: &TypeMapping,
    ) -> Result<Registry, CodegenError> {
        load(path.as_ref(), mapping, ApiKind::OpenApi)
    }

    /// Loads the messages of an AsyncAPI 2 or 3 document (JSON, or YAML with the `yaml`
    /// feature): each message with a JSON Schema payload is an event, typed by its CloudEvents
    /// header or by `mapping` (`{file}` is the message's name).
    ///
    /// ```
    /// use cloudevent_codegen::{Registry, TypeMapping};
    ///
    /// let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/asyncapi/orders-v3.json");
    /// let registry = Registry::load_asyncapi(file, &TypeMapping::default()).unwrap();
    /// let types: Vec<_> = registry.files.iter().map(|f| f.meta.event_type.as_str()).collect();
    /// assert_eq!(types, ["com.example.order.cancelled", "com.example.order.placed"]);
    /// ```
    ///
    /// # Errors
    /// As [`Registry::load_openapi`], for a document that is no AsyncAPI 2 or 3.
    pub fn load_asyncapi(
        path: impl AsRef<Path>,
        mapping: &TypeMapping,
    ) -> Result<Registry, CodegenError> {
        load(path.as_ref(), mapping, ApiKind::AsyncApi)
    }
}

pub(crate) fn load(
    path: &Path,
    mapping: &TypeMapping,
    kind: ApiKind,
) -> Result<Registry, CodegenError> {
    let document = read_document(path)?;
    let mut laid_out = Layout {
        path,
        read: Vec::new(),
        skipped: Vec::new(),
    };
    let dialect = match kind {
        ApiKind::OpenApi => openapi(&document, &mut laid_out)?,
        ApiKind::AsyncApi => asyncapi(&document, &mut laid_out)?,
    };
    let findings = crate::layout::template_findings(mapping, path);
    if !findings.is_empty() {
        return Err(CodegenError::Findings(findings));
    }
    let mut mapping = mapping.clone();
    if kind == ApiKind::AsyncApi {
        // Messages are the events; the schemas they reach are shared. A message's own
        // CloudEvents header wins; the templates type the others.
        mapping.events.push(format!("{MESSAGES}/**"));
        mapping.shared.push(format!("{SCHEMAS}/**"));
        for (_, relative, schema) in &mut laid_out.read {
            if !relative.starts_with(MESSAGES) || schema.pointer(OWN_TYPE).is_some() {
                continue;
            }
            let typed =
                crate::layout::template_type(&mapping.type_templates, path, relative, schema);
            if let (Some((event_type, _)), Some(object)) = (typed, schema.as_object_mut()) {
                object.insert(
                    crate::meta::METADATA_KEY.into(),
                    serde_json::json!({ "type": event_type }),
                );
            }
        }
        mapping.type_templates.clear();
    }
    let mut read = Vec::new();
    for (at, relative, mut schema) in laid_out.read {
        read_as_json_schema(&mut schema, &dialect);
        read.push((
            PathBuf::from(format!("{}#{at}", path.display())),
            relative,
            schema,
        ));
    }
    let referenced = crate::bundle::referenced(
        path,
        read.iter()
            .map(|(_, relative, schema)| (relative.as_str(), schema)),
        crate::bundle::Reach::Any,
    );
    let laid_out_schemas: Vec<(PathBuf, String)> = read
        .iter()
        .filter(|(_, relative, _)| kind == ApiKind::OpenApi && relative.starts_with(SCHEMAS))
        .map(|(at, relative, _)| (at.clone(), relative.clone()))
        .collect();
    match Registry::from_schemas(path, &mapping, read, &[], Vec::new()) {
        Ok(mut registry) => {
            registry.skipped.extend(laid_out.skipped);
            registry
                .skipped
                .extend(unused(&registry, &laid_out_schemas, &referenced));
            Ok(registry)
        }
        // Nothing to generate because every message was left out: say why, by message.
        Err(CodegenError::NoEventSchemas { .. }) if !laid_out.skipped.is_empty() => {
            Err(CodegenError::Findings(laid_out.skipped))
        }
        Err(error) => Err(error),
    }
}

/// A schema of the document that no template types and no other schema references: no Rust
/// is generated for it, and the warning says so by name (nothing dropped without a word).
fn unused(
    registry: &Registry,
    laid_out: &[(PathBuf, String)],
    referenced: &std::collections::BTreeSet<String>,
) -> Vec<Finding> {
    laid_out
        .iter()
        .filter(|(_, relative)| {
            !referenced.contains(relative)
                && !registry.files.iter().any(|file| &file.relative == relative)
        })
        .map(|(at, _)| {
            Finding::new(
                at,
                "",
                "gives no event type (no type template matches it) and no other schema of the document references it: no Rust is generated for it",
            )
            .with_fix("if it is an event, add a `--type-template` that types it; if it is not (a response body, say), nothing needs to change")
        })
        .collect()
}

/// The parts of a document laid out as files: `(pointer in the document, relative path,
/// schema)`, and the messages left out.
struct Layout<'a> {
    path: &'a Path,
    read: Vec<(String, String, Value)>,
    skipped: Vec<Finding>,
}

impl Layout<'_> {
    fn not_a(&self, kind: ApiKind, found: &str) -> CodegenError {
        let (name, key) = match kind {
            ApiKind::OpenApi => ("OpenAPI 2 or 3", "`swagger: \"2.0\"` or `openapi: 3.x`"),
            ApiKind::AsyncApi => ("AsyncAPI 2 or 3", "`asyncapi: 2.x` or `asyncapi: 3.x`"),
        };
        CodegenError::Findings(vec![
            Finding::new(self.path, "", format!("is no {name} document ({found})")).with_fix(
                format!(
                    "give {} a document whose root has {key}, or read a folder with `--schemas`",
                    kind.flag()
                ),
            ),
        ])
    }
}

/// The document's text as JSON: YAML when the file is `.yaml`/`.yml` or is not JSON.
fn read_document(path: &Path) -> Result<Value, CodegenError> {
    let text = std::fs::read_to_string(path).map_err(|e| CodegenError::io(path, e))?;
    let yaml = path.extension().is_some_and(|e| e == "yaml" || e == "yml");
    if !yaml || text.trim_start().starts_with('{') {
        match serde_json::from_str(&text) {
            Ok(value) => return Ok(value),
            Err(source) if !yaml => {
                return Err(CodegenError::Json {
                    path: path.to_path_buf(),
                    source,
                });
            }
            Err(_) => {}
        }
    }
    from_yaml(path, &text)
}

#[cfg(feature = "yaml")]
fn from_yaml(path: &Path, text: &str) -> Result<Value, CodegenError> {
    serde_saphyr::from_str::<Value>(text).map_err(|e| {
        CodegenError::Findings(vec![Finding::new(
            path,
            "",
            format!("is not a YAML document codegen can read: {e}"),
        )])
    })
}

#[cfg(not(feature = "yaml"))]
fn from_yaml(path: &Path, _text: &str) -> Result<Value, CodegenError> {
    Err(CodegenError::Findings(vec![
        Finding::new(
            path,
            "",
            "is YAML, which this build of cloudevent-codegen does not read",
        )
        .with_fix(
            "enable the `yaml` feature of cloudevent-codegen (the CLI has it), or convert the document to JSON",
        ),
    ]))
}

/// What a schema object of the document means beyond JSON Schema.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Dialect {
    /// The `$schema` each schema gets when it names none.
    schema_uri: String,
    /// OpenAPI 2 / 3.0: `nullable: true` admits `null`; their annotations are dropped.
    openapi_keywords: bool,
}

const DRAFT_04: &str = "http://json-schema.org/draft-04/schema#";
const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";
const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// An OpenAPI document's schemas, as `schemas/<name>.json`.
fn openapi(document: &Value, layout: &mut Layout<'_>) -> Result<Dialect, CodegenError> {
    let version = |key: &str| document.get(key).and_then(Value::as_str);
    let (at, dialect) = match (version("swagger"), version("openapi")) {
        (Some(v), _) if v.starts_with('2') => (
            "/definitions",
            Dialect {
                schema_uri: DRAFT_04.to_owned(),
                openapi_keywords: true,
            },
        ),
        (_, Some(v)) if v.starts_with("3.0") => (
            "/components/schemas",
            Dialect {
                schema_uri: DRAFT_04.to_owned(),
                openapi_keywords: true,
            },
        ),
        (_, Some(v)) if v.starts_with('3') => (
            "/components/schemas",
            Dialect {
                schema_uri: version("jsonSchemaDialect")
                    .unwrap_or(DRAFT_2020_12)
                    .to_owned(),
                openapi_keywords: false,
            },
        ),
        (swagger, openapi) => {
            let found = match (swagger, openapi) {
                (Some(v), _) => format!("`swagger: {v}`"),
                (_, Some(v)) => format!("`openapi: {v}`"),
                _ => "no `swagger` or `openapi` version".to_owned(),
            };
            return Err(layout.not_a(ApiKind::OpenApi, &found));
        }
    };
    let schemas = document.pointer(at).and_then(Value::as_object);
    for (name, schema) in schemas.into_iter().flatten() {
        let mut schema = schema.clone();
        refs_between_files(&mut schema, "");
        layout.read.push((
            format!("{at}/{}", pointer_segment(name)),
            file_of(SCHEMAS, name),
            schema,
        ));
    }
    Ok(dialect)
}

/// `<folder>/<name>.json`, the name kept as its JSON pointer segment (no `/` in a file name).
fn file_of(folder: &str, name: &str) -> String {
    format!("{folder}/{}.json", pointer_segment(name))
}

/// Rewrites the document's refs into refs between the laid-out files: `#/definitions/X`,
/// `#/components/schemas/X` -> `../schemas/X.json`; `#/components/messages/M/payload` ->
/// `../messages/M.json`; the rest of the pointer kept (`#/properties/y`). `payload_at` is the
/// pointer of this schema's own message payload, whose inner refs (`#/.../payload/...`)
/// point into the file itself.
fn refs_between_files(schema: &mut Value, payload_at: &str) {
    rewrite_refs(schema, &|reference| {
        let pointer = reference.strip_prefix('#')?;
        let rest = |prefix: &str| pointer.strip_prefix(prefix);
        if !payload_at.is_empty()
            && let Some(inner) = rest(payload_at)
            && (inner.is_empty() || inner.starts_with('/'))
        {
            return Some(format!("#{inner}"));
        }
        let (folder, tail) = if let Some(tail) = rest("/definitions/") {
            (SCHEMAS, tail)
        } else if let Some(tail) = rest("/components/schemas/") {
            (SCHEMAS, tail)
        } else if let Some(tail) = rest("/components/messages/") {
            let (name, inner) = tail.split_once('/').unwrap_or((tail, ""));
            let inner = inner.strip_prefix("payload")?;
            return Some(if inner.is_empty() {
                format!("../{MESSAGES}/{name}.json")
            } else {
                format!("../{MESSAGES}/{name}.json#{inner}")
            });
        } else {
            return None;
        };
        let (name, inner) = tail.split_once('/').map_or((tail, ""), |(n, i)| (n, i));
        Some(if inner.is_empty() {
            format!("../{folder}/{name}.json")
        } else {
            format!("../{folder}/{name}.json#/{inner}")
        })
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
                if !matches!(
                    key.as_str(),
                    "enum" | "const" | "default" | "examples" | "example"
                ) {
                    rewrite_refs(sub, rewrite);
                }
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| rewrite_refs(item, rewrite)),
        _ => {}
    }
}

/// A schema object of the document as the JSON Schema it means under `dialect`.
fn read_as_json_schema(schema: &mut Value, dialect: &Dialect) {
    if dialect.openapi_keywords {
        openapi_keywords(schema);
    }
    if let Some(object) = schema.as_object_mut()
        && !object.contains_key("$schema")
    {
        object.insert("$schema".into(), Value::String(dialect.schema_uri.clone()));
    }
}

/// OpenAPI 2 / 3.0 keywords at every depth: `nullable: true` (and `x-nullable: true`) adds
/// `null` to the `type` (and to an `enum`); `discriminator`, `example`, `xml` and
/// `externalDocs` are annotations of the document, dropped.
fn openapi_keywords(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            let nullable = ["nullable", "x-nullable"]
                .iter()
                .filter_map(|k| object.remove(*k))
                .any(|v| v == Value::Bool(true));
            for key in ["discriminator", "example", "xml", "externalDocs"] {
                object.remove(key);
            }
            if nullable {
                admit_null(object);
            }
            for (key, sub) in object.iter_mut() {
                if !matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                    openapi_keywords(sub);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(openapi_keywords),
        _ => {}
    }
}

fn admit_null(object: &mut Map<String, Value>) {
    let null = Value::String("null".into());
    match object.get_mut("type") {
        Some(Value::String(one)) => {
            let one = Value::String(std::mem::take(one));
            object.insert("type".into(), Value::Array(vec![one, null]));
        }
        Some(Value::Array(types)) if !types.contains(&null) => types.push(null),
        _ => {}
    }
    if let Some(Value::Array(values)) = object.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
}

/// An AsyncAPI document's messages, as `messages/<name>.json`, and its schemas, as
/// `schemas/<name>.json`.
fn asyncapi(document: &Value, layout: &mut Layout<'_>) -> Result<Dialect, CodegenError> {
    let version = document
        .get("asyncapi")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if !(version.starts_with('2') || version.starts_with('3')) {
        let found = if version.is_empty() {
            "no `asyncapi` version".to_owned()
        } else {
            format!("`asyncapi: {version}`")
        };
        return Err(layout.not_a(ApiKind::AsyncApi, &found));
    }
    let dialect = Dialect {
        schema_uri: DRAFT_07.to_owned(),
        openapi_keywords: false,
    };
    let schemas = document
        .pointer("/components/schemas")
        .and_then(Value::as_object);
    for (name, schema) in schemas.into_iter().flatten() {
        let mut schema = schema.clone();
        refs_between_files(&mut schema, "");
        layout.read.push((
            format!("/components/schemas/{}", pointer_segment(name)),
            file_of(SCHEMAS, name),
            schema,
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    for (at, name) in message_places(document, version.starts_with('3')) {
        if !seen.insert(name.clone()) {
            continue;
        }
        let Some(message) = document.pointer(&at) else {
            continue;
        };
        if let Some(file) = message_file(document, message, &at, &name, layout) {
            layout.read.push(file);
        }
    }
    Ok(dialect)
}

/// Where the document's messages are, with the name each is laid out under: every
/// `components/messages` entry, then the messages written inline in channels (AsyncAPI 3:
/// `channels/<c>/messages/<m>`; 2: `channels/<c>/{publish,subscribe}/message`, or its
/// `oneOf`), a `$ref` to a component message being that message.
fn message_places(document: &Value, v3: bool) -> Vec<(String, String)> {
    let mut places = Vec::new();
    let components = document
        .pointer("/components/messages")
        .and_then(Value::as_object);
    for name in components.into_iter().flatten().map(|(name, _)| name) {
        places.push((
            format!("/components/messages/{}", pointer_segment(name)),
            name.clone(),
        ));
    }
    let channels = document.get("channels").and_then(Value::as_object);
    for (channel, value) in channels.into_iter().flatten() {
        let channel_at = format!("/channels/{}", pointer_segment(channel));
        let mut inline = Vec::new();
        if v3 {
            for (name, message) in value
                .get("messages")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                let at = format!("{channel_at}/messages/{}", pointer_segment(name));
                inline.push((at, name.clone(), message));
            }
        } else {
            for operation in ["publish", "subscribe"] {
                let Some(message) = value.get(operation).and_then(|o| o.get("message")) else {
                    continue;
                };
                let at = format!("{channel_at}/{operation}/message");
                match message.get("oneOf").and_then(Value::as_array) {
                    Some(alternatives) => {
                        for (i, message) in alternatives.iter().enumerate() {
                            let name = message_name(message)
                                .unwrap_or_else(|| format!("{channel}-{operation}-{i}"));
                            inline.push((format!("{at}/oneOf/{i}"), name, message));
                        }
                    }
                    None => {
                        let name = message_name(message)
                            .unwrap_or_else(|| format!("{channel}-{operation}"));
                        inline.push((at, name, message));
                    }
                }
            }
        }
        for (at, name, message) in inline {
            match message
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/components/messages/"))
            {
                // The component message, already listed under its own name.
                Some(_) => {}
                None => places.push((at, name)),
            }
        }
    }
    places
}

/// An inline message's own name: `name`, else `messageId` (AsyncAPI 2).
fn message_name(message: &Value) -> Option<String> {
    ["name", "messageId"]
        .iter()
        .find_map(|k| message.get(*k)?.as_str())
        .map(pointer_segment)
}

/// One message as the file `messages/<name>.json`: its payload (or, for a structured-mode
/// CloudEvent payload, the `data` schema) with `x-cloudevent.type` set when the message
/// fixes a CloudEvents type; `None` when it has no JSON Schema payload (a finding says why,
/// unless it has no payload at all).
fn message_file(
    document: &Value,
    message: &Value,
    at: &str,
    name: &str,
    layout: &mut Layout<'_>,
) -> Option<(String, String, Value)> {
    let (format, payload, payload_at) = match message.get("payload") {
        // AsyncAPI 3: a multi-format schema object.
        Some(p) if p.get("schemaFormat").is_some() && p.get("schema").is_some() => (
            p.get("schemaFormat").and_then(Value::as_str),
            p.get("schema")?,
            format!("{at}/payload/schema"),
        ),
        Some(p) => (
            message.get("schemaFormat").and_then(Value::as_str),
            p,
            format!("{at}/payload"),
        ),
        None => {
            // A message in another file is never followed: left out, by name.
            if let Some(reference) = message.get("$ref").and_then(Value::as_str) {
                layout.skipped.push(
                    Finding::new(layout.path, format!("{at}/$ref"), format!(
                        "message `{name}` is `$ref: {reference}`, outside this document's `components/messages`: codegen reads one document and follows no ref out of it; the message is left out"
                    ))
                    .with_fix("put the message in this document's `components/messages`, or bundle the documents into one before generating"),
                );
            }
            return None;
        }
    };
    if let Some(format) = format.filter(|f| !is_json_schema_format(f)) {
        layout.skipped.push(
            Finding::new(layout.path, payload_at, format!(
                "message `{name}`: its payload schema is `{format}`, which codegen does not turn into Rust (it types JSON Schema payloads); the message is left out"
            ))
            .with_fix("read its events as `AnyEvent`, or describe the payload in JSON Schema"),
        );
        return None;
    }
    let mut schema = payload.clone();
    refs_between_files(&mut schema, &payload_at);
    let mut event_type = header_type(document, message);
    // A structured-mode CloudEvent as the payload: its `type` and its `data`.
    let properties = payload.get("properties");
    if properties.is_some_and(|p| p.get("specversion").is_some() && p.get("data").is_some())
        && let Some(data) = properties.and_then(|p| p.get("data"))
    {
        event_type = event_type.or_else(|| {
            properties
                .and_then(|p| p.get("type"))
                .and_then(fixed_string)
        });
        schema = data.clone();
        refs_between_files(&mut schema, &format!("{payload_at}/properties/data"));
    }
    if let (Some(event_type), Some(object)) = (event_type, schema.as_object_mut()) {
        object.insert(
            crate::meta::METADATA_KEY.into(),
            serde_json::json!({ "type": event_type }),
        );
    }
    Some((payload_at, file_of(MESSAGES, name), schema))
}

/// Whether an AsyncAPI `schemaFormat` is JSON Schema (or the AsyncAPI schema, its superset).
fn is_json_schema_format(format: &str) -> bool {
    let format = format.to_ascii_lowercase();
    format.starts_with("application/vnd.aai.asyncapi")
        || format.starts_with("application/schema+json")
        || format.starts_with("application/schema+yaml")
}

/// The CloudEvents type a message's headers (or its traits' headers) fix.
fn header_type(document: &Value, message: &Value) -> Option<String> {
    let resolve = |value: &'_ Value| -> Option<Value> {
        match value.get("$ref").and_then(Value::as_str) {
            Some(reference) => document.pointer(reference.strip_prefix('#')?).cloned(),
            None => Some(value.clone()),
        }
    };
    let mut holders = vec![message.clone()];
    for item in message
        .get("traits")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        holders.extend(resolve(item));
    }
    holders.iter().find_map(|holder| {
        let headers = resolve(holder.get("headers")?)?;
        let headers = headers
            .get("schema")
            .filter(|_| headers.get("schemaFormat").is_some())
            .cloned()
            .unwrap_or(headers);
        let properties = headers.get("properties")?.as_object()?;
        properties.iter().find_map(|(key, value)| {
            let key = key.to_ascii_lowercase();
            let named = ["ce_type", "ce-type", "cloudevents:type", "cloudevents_type"]
                .contains(&key.as_str());
            if named {
                fixed_string(&resolve(value)?)
            } else {
                None
            }
        })
    })
}

/// A `const`, one-value `enum` or `default` string.
fn fixed_string(schema: &Value) -> Option<String> {
    if let Some(Value::String(value)) = schema.get("const") {
        return Some(value.clone());
    }
    if let Some(Value::Array(values)) = schema.get("enum")
        && let [Value::String(value)] = values.as_slice()
    {
        return Some(value.clone());
    }
    schema
        .get("default")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn refs_into_the_document_become_refs_between_files() {
        let mut schema = json!({"properties": {
            "a": {"$ref": "#/definitions/Money"},
            "b": {"$ref": "#/components/schemas/Money/properties/amount"},
            "c": {"$ref": "#/components/messages/Placed/payload"},
            "d": {"$ref": "#/components/messages/Placed/payload/properties/x"},
            "e": {"$ref": "#/components/parameters/P"},
            "f": {"enum": [{"$ref": "#/definitions/Money"}]}
        }});
        refs_between_files(&mut schema, "");
        assert_eq!(
            schema,
            json!({"properties": {
                "a": {"$ref": "../schemas/Money.json"},
                "b": {"$ref": "../schemas/Money.json#/properties/amount"},
                "c": {"$ref": "../messages/Placed.json"},
                "d": {"$ref": "../messages/Placed.json#/properties/x"},
                "e": {"$ref": "#/components/parameters/P"},
                "f": {"enum": [{"$ref": "#/definitions/Money"}]}
            }})
        );
        let mut own =
            json!({"properties": {"x": {"$ref": "#/components/messages/M/payload/definitions/D"}}});
        refs_between_files(&mut own, "/components/messages/M/payload");
        assert_eq!(own["properties"]["x"]["$ref"], "#/definitions/D");
    }

    #[test]
    fn openapi_nullable_admits_null_and_annotations_are_dropped() {
        let mut schema = json!({"type": "object", "discriminator": "kind", "properties": {
            "a": {"type": "string", "nullable": true, "example": "x"},
            "b": {"type": "string", "enum": ["x", "y"], "x-nullable": true},
            "c": {"type": "integer", "nullable": false}
        }});
        read_as_json_schema(
            &mut schema,
            &Dialect {
                schema_uri: DRAFT_04.into(),
                openapi_keywords: true,
            },
        );
        assert_eq!(
            schema,
            json!({"$schema": DRAFT_04, "type": "object", "properties": {
                "a": {"type": ["string", "null"]},
                "b": {"type": ["string", "null"], "enum": ["x", "y", null]},
                "c": {"type": "integer"}
            }})
        );
    }
}
