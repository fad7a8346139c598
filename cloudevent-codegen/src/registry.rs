use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{CodegenError, Finding, pointer_segment};

/// The key of the metadata object in a registry schema.
pub(crate) const METADATA_KEY: &str = "x-cloudevent";

/// How an event travels: the whole event as one JSON document, or the data as the message
/// body with the attributes in headers (INTG-STD-015 R-9: producers MUST document it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ContentMode {
    /// The event is one JSON document (`application/cloudevents+json`).
    #[default]
    Structured,
    /// The data is the body, attributes are `ce-`/`ce_` headers.
    Binary,
}

impl ContentMode {
    /// The name used in `x-cloudevent.contentmode` and the catalog.
    pub const fn name(self) -> &'static str {
        match self {
            ContentMode::Structured => "structured",
            ContentMode::Binary => "binary",
        }
    }
}

/// The CloudEvents metadata of one schema file: its `x-cloudevent` object plus `$id`.
///
/// ```
/// use cloudevent_codegen::EventMeta;
///
/// let schema = serde_json::json!({
///     "$id": "https://schemas.example.com/events/com.example.order.created/v1.json",
///     "x-cloudevent": {
///         "type": "com.example.order.created",
///         "subject": "order_id",
///         "attributes": {"id": "/context/id", "time": "/context/placed_at"},
///         "extensions": {"region": "region", "tenantid": "/context/tenant/id"},
///     },
/// });
/// let meta = EventMeta::from_schema(&schema).unwrap();
/// assert_eq!(meta.event_type, "com.example.order.created");
/// assert_eq!(meta.subject.as_deref(), Some("order_id"));
/// assert_eq!(meta.id_pointer.as_deref(), Some("/context/id"));
/// assert_eq!(meta.extensions["tenantid"], "/context/tenant/id");
/// // Written back as read.
/// assert_eq!(meta.to_value()["attributes"], schema["x-cloudevent"]["attributes"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EventMeta {
    /// `x-cloudevent.type`.
    pub event_type: String,
    /// `$id`, the event's `dataschema`.
    pub dataschema: String,
    /// `x-cloudevent.source`, the default source.
    pub source: Option<String>,
    /// A source given as a URI template (`{tenantid}/{deviceid}`: `x-cloudevent.source`
    /// holding `{`, or an xRegistry message's): filled from payload members when they exist.
    pub source_template: Option<String>,
    /// `x-cloudevent.subject`: the payload property that fills `subject`.
    pub subject: Option<String>,
    /// `x-cloudevent.attributes.id`: the JSON pointer of the payload member that fills `id`
    /// (`/context/id`). It wins over `--id-pointer` / [`crate::Builder::id_pointer`].
    pub id_pointer: Option<String>,
    /// `x-cloudevent.attributes.time`: the JSON pointer of the member that fills `time`.
    pub time_pointer: Option<String>,
    /// `x-cloudevent.attributes.source`: the JSON pointer of the member that fills `source`
    /// (`x-cloudevent.source` stays the default source).
    pub source_pointer: Option<String>,
    /// `x-cloudevent.extensions`: extension name → a root payload property (`region`), or a
    /// JSON pointer to a member at any depth (`/context/tenant`). They win over
    /// `--extension` / [`crate::Builder::extension_pointer`] for the same name.
    pub extensions: BTreeMap<String, String>,
    /// `x-cloudevent.datacontenttype`; `application/json` when absent.
    pub datacontenttype: Option<String>,
    /// `x-cloudevent.contentmode`; structured when absent.
    pub contentmode: ContentMode,
}

impl EventMeta {
    /// Reads the metadata of a schema; each problem is reported with its JSON pointer.
    ///
    /// # Errors
    /// A finding (with an empty file name) for every missing or mistyped member.
    pub fn from_schema(schema: &Value) -> Result<EventMeta, Vec<Finding>> {
        let mut findings = Vec::new();
        let mut meta = EventMeta::default();
        match schema.get("$id").and_then(Value::as_str) {
            Some(id) => meta.dataschema = id.to_owned(),
            None => findings.push(
                Finding::new(
                    "",
                    "/$id",
                    "`$id` is missing; it is the event's dataschema URI",
                )
                .with_fix("add `\"$id\": \"https://schemas.example.com/events/<type>/v1.json\"`"),
            ),
        }
        let Some(object) = schema.get(METADATA_KEY).and_then(Value::as_object) else {
            findings.push(
                Finding::new(
                    "",
                    "/x-cloudevent",
                    "the `x-cloudevent` metadata object is missing",
                )
                .with_fix("add `\"x-cloudevent\": {\"type\": \"com.example.<entity>.<action>\"}`"),
            );
            return Err(findings);
        };
        let string = |key: &str, findings: &mut Vec<Finding>| -> Option<String> {
            match object.get(key) {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(_) => {
                    findings.push(Finding::new(
                        "",
                        format!("/x-cloudevent/{key}"),
                        format!("`x-cloudevent.{key}` must be a string"),
                    ));
                    None
                }
            }
        };
        match string("type", &mut findings) {
            Some(t) => meta.event_type = t,
            None => findings.push(
                Finding::new("", "/x-cloudevent/type", "`x-cloudevent.type` is missing")
                    .with_fix("name the event type, e.g. `com.example.order.created`"),
            ),
        }
        meta.source = string("source", &mut findings);
        if meta.source.as_deref().is_some_and(|s| s.contains('{')) {
            meta.source_template = meta.source.take();
        }
        meta.subject = string("subject", &mut findings);
        read_attributes(object.get("attributes"), &mut meta, &mut findings);
        meta.datacontenttype = string("datacontenttype", &mut findings);
        match string("contentmode", &mut findings).as_deref() {
            None | Some("structured") => {}
            Some("binary") => meta.contentmode = ContentMode::Binary,
            Some(other) => findings.push(
                Finding::new(
                    "",
                    "/x-cloudevent/contentmode",
                    format!("content mode `{other}` is neither `structured` nor `binary`"),
                )
                .with_fix("write `structured` or `binary` (INTG-STD-015 R-9)"),
            ),
        }
        match object.get("extensions") {
            None | Some(Value::Null) => {}
            Some(Value::Object(map)) => {
                for (name, property) in map {
                    match property.as_str() {
                        Some(p) => {
                            meta.extensions.insert(name.clone(), p.to_owned());
                        }
                        None => findings.push(Finding::new(
                            "",
                            format!("/x-cloudevent/extensions/{}", pointer_segment(name)),
                            format!("extension `{name}` must name a payload property (a string)"),
                        )),
                    }
                }
            }
            Some(_) => findings.push(Finding::new(
                "",
                "/x-cloudevent/extensions",
                "`x-cloudevent.extensions` must be an object of extension name → property",
            )),
        }
        if findings.is_empty() {
            Ok(meta)
        } else {
            Err(findings)
        }
    }

    /// The metadata as the `x-cloudevent` object written into schemas.
    pub fn to_value(&self) -> Value {
        let mut object = serde_json::Map::new();
        object.insert("type".into(), Value::String(self.event_type.clone()));
        // A template is written where it was read from: `source`, recognised by its `{`.
        if let Some(source) = self.source.as_ref().or(self.source_template.as_ref()) {
            object.insert("source".into(), Value::String(source.clone()));
        }
        if let Some(subject) = &self.subject {
            object.insert("subject".into(), Value::String(subject.clone()));
        }
        let attributes: serde_json::Map<String, Value> = self
            .attribute_pointers()
            .filter_map(|(name, pointer)| Some((name.to_owned(), Value::String(pointer?.clone()))))
            .collect();
        if !attributes.is_empty() {
            object.insert("attributes".into(), Value::Object(attributes));
        }
        if !self.extensions.is_empty() {
            let map = self
                .extensions
                .iter()
                .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                .collect();
            object.insert("extensions".into(), Value::Object(map));
        }
        if let Some(datacontenttype) = &self.datacontenttype {
            object.insert(
                "datacontenttype".into(),
                Value::String(datacontenttype.clone()),
            );
        }
        object.insert(
            "contentmode".into(),
            Value::String(self.contentmode.name().into()),
        );
        Value::Object(object)
    }

    /// `("id", ..)`, `("time", ..)`, `("source", ..)`: the pointers of `x-cloudevent.attributes`.
    pub(crate) fn attribute_pointers(
        &self,
    ) -> impl Iterator<Item = (&'static str, Option<&String>)> {
        [
            ("id", self.id_pointer.as_ref()),
            ("time", self.time_pointer.as_ref()),
            ("source", self.source_pointer.as_ref()),
        ]
        .into_iter()
    }

    /// The type without its `.vN` suffix: the registry directory's name.
    pub fn base_type(&self) -> &str {
        match cloudevent_rules::type_version(&self.event_type) {
            Some(n) => self
                .event_type
                .strip_suffix(&format!(".v{n}"))
                .unwrap_or(&self.event_type),
            None => &self.event_type,
        }
    }
}

/// `x-cloudevent.attributes`: `{"id": "/context/id", "time": "/context/timestamp", "source":
/// "/context/source"}`, JSON pointers into the payload, as `cloudevent-registry.toml`'s
/// `[attributes]` names them for a whole registry.
fn read_attributes(value: Option<&Value>, meta: &mut EventMeta, findings: &mut Vec<Finding>) {
    let map = match value {
        None | Some(Value::Null) => return,
        Some(Value::Object(map)) => map,
        Some(_) => {
            findings.push(
                Finding::new(
                    "",
                    "/x-cloudevent/attributes",
                    "`x-cloudevent.attributes` must be an object of attribute name → JSON pointer",
                )
                .with_fix("write e.g. `\"attributes\": {\"id\": \"/context/id\"}`"),
            );
            return;
        }
    };
    for (name, pointer) in map {
        let at = format!("/x-cloudevent/attributes/{}", pointer_segment(name));
        let slot = match name.as_str() {
            "id" => &mut meta.id_pointer,
            "time" => &mut meta.time_pointer,
            "source" => &mut meta.source_pointer,
            _ => {
                findings.push(
                    Finding::new(
                        "",
                        at,
                        format!("unknown attribute `{name}`: expected `id`, `time` or `source`"),
                    )
                    .with_fix("`subject` and `source` (the default source) are members of `x-cloudevent` itself; extensions go under `x-cloudevent.extensions`"),
                );
                continue;
            }
        };
        match pointer.as_str() {
            Some(text) if text.starts_with('/') => *slot = Some(text.to_owned()),
            _ => findings.push(
                Finding::new(
                    "",
                    at,
                    format!("`{name}` must be a JSON pointer into the payload (a string starting with `/`)"),
                )
                .with_fix(format!("e.g. `\"{name}\": \"/context/{name}\"`")),
            ),
        }
    }
}

/// What a payload member named by a root property (`region`) or a JSON pointer
/// (`/context/tenant`) is in a schema, following `properties`, local `$ref`s and the
/// alternatives of `anyOf`/`oneOf`/`allOf` (an `Option` exported by schemars).
#[derive(Debug)]
pub(crate) enum Member<'a> {
    /// Its subschema.
    Found(&'a Value),
    /// The schema does not define it; the segment that is missing.
    Missing(String),
    /// It is behind something not followed here (an external `$ref`): no verdict.
    Unknown,
}

pub(crate) fn member_schema<'a>(schema: &'a Value, property_or_pointer: &str) -> Member<'a> {
    let segments: Vec<String> = match property_or_pointer.strip_prefix('/') {
        Some(pointer) => pointer
            .split('/')
            .map(|s| s.replace("~1", "/").replace("~0", "~"))
            .collect(),
        None => vec![property_or_pointer.to_owned()],
    };
    let mut node = schema;
    for segment in &segments {
        match child(schema, node, segment, 0) {
            Member::Found(next) => node = next,
            other => return other,
        }
    }
    Member::Found(node)
}

/// The property `name` of the object `node` describes.
fn child<'a>(root: &'a Value, node: &'a Value, name: &str, depth: usize) -> Member<'a> {
    if depth > 16 {
        return Member::Unknown;
    }
    if let Some(found) = node.get("properties").and_then(|p| p.get(name)) {
        return Member::Found(found);
    }
    let mut unknown = false;
    if let Some(reference) = node.get("$ref").and_then(Value::as_str) {
        match reference.strip_prefix('#').and_then(|p| root.pointer(p)) {
            Some(target) => match child(root, target, name, depth + 1) {
                Member::Found(found) => return Member::Found(found),
                Member::Unknown => unknown = true,
                Member::Missing(_) => {}
            },
            None => unknown = true,
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        for alternative in node
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            match child(root, alternative, name, depth + 1) {
                Member::Found(found) => return Member::Found(found),
                Member::Unknown => unknown = true,
                Member::Missing(_) => {}
            }
        }
    }
    if unknown {
        Member::Unknown
    } else {
        Member::Missing(name.to_owned())
    }
}

/// One `schemas/<type>/v<major>.json` file.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaFile {
    /// The file as found (the registry directory joined with `relative`).
    pub path: PathBuf,
    /// `<type>/v<major>.json`, with `/` separators, for links and messages.
    pub relative: String,
    /// The directory name: the event type without its version suffix.
    pub type_dir: String,
    /// The `<major>` of the file name; in a [`Registry::load_type_pointer`] registry, the
    /// major of the type's version suffix (0 without one).
    pub major: u64,
    /// The type's version suffix as written (`v2`, `0.3.0`, `v1.2.3`, `0.6.0-draft`), see
    /// [`cloudevent_rules::split_type_version`]; for today's layout `v<major>`.
    pub version: Option<String>,
    /// Where the event type was found inside the schema, for a
    /// [`Registry::load_type_pointer`] registry; `None` for `<type>/v<major>.json` files,
    /// whose type is in `x-cloudevent`.
    pub type_pointer: Option<String>,
    /// The whole schema.
    pub schema: Value,
    /// Its CloudEvents metadata.
    pub meta: EventMeta,
}

impl SchemaFile {
    /// Parses a schema text found at `relative` (`<type>/v<major>.json`) below `root`.
    ///
    /// # Errors
    /// [`CodegenError::Json`] for text that is not JSON, [`CodegenError::Findings`] for a file
    /// name that is not `<type>/v<major>.json` or metadata that is missing or mistyped.
    pub fn parse(root: &Path, relative: &str, text: &str) -> Result<SchemaFile, CodegenError> {
        let path = root.join(relative);
        let schema: Value = serde_json::from_str(text).map_err(|source| CodegenError::Json {
            path: path.clone(),
            source,
        })?;
        let (type_dir, major) = split_relative(relative).ok_or_else(|| {
            CodegenError::Findings(vec![
                Finding::new(
                    &path,
                    "",
                    "a registry file must be named `<type>/v<major>.json`",
                )
                .with_fix("move it to e.g. `com.example.order.created/v1.json`; or, for a folder of schemas that each hold their event type (as CDEvents' do), read it with `--type-pointer` / `Builder::type_pointer`"),
            ])
        })?;
        let meta = EventMeta::from_schema(&schema).map_err(|findings| {
            CodegenError::Findings(
                findings
                    .into_iter()
                    .map(|f| Finding {
                        file: path.clone(),
                        ..f
                    })
                    .collect(),
            )
        })?;
        Ok(SchemaFile {
            path,
            relative: relative.to_owned(),
            type_dir,
            major,
            version: Some(format!("v{major}")),
            type_pointer: None,
            schema,
            meta,
        })
    }
}

/// `("com.example.order.created", 1)` for `com.example.order.created/v1.json`.
fn split_relative(relative: &str) -> Option<(String, u64)> {
    let (dir, file) = relative.split_once('/')?;
    let digits = file.strip_prefix('v')?.strip_suffix(".json")?;
    if dir.is_empty() || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((dir.to_owned(), digits.parse().ok()?))
}

/// Every schema of a registry directory, sorted by type and major version.
///
/// ```
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas");
/// let registry = cloudevent_codegen::Registry::load(dir).unwrap();
/// assert!(registry.files.iter().any(|f| f.meta.event_type == "com.example.order.created.v2"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Registry {
    /// The registry directory.
    pub root: PathBuf,
    /// Its event schema files.
    pub files: Vec<SchemaFile>,
    /// The other JSON documents of the folder, by `/`-separated path relative to `root`:
    /// schemas that `$ref`s may reach (CDEvents' `links/*.json`). Empty for today's layout.
    pub documents: BTreeMap<String, Value>,
    /// The `<type>/v<major>.proto` entries: types whose data is a Protobuf message, read by
    /// the crate's own proto3 reader. Only [`Registry::load`] reads them; the generator, the
    /// catalog, the snapshot and the compatibility gate take them from here.
    pub(crate) protobuf: Vec<crate::protobuf::ProtoFile>,
}

impl Registry {
    /// Loads every `<type>/v<major>.json` below `root`, and every `<type>/v<major>.proto`
    /// (into [`Registry::protobuf`]). Other files at the top level (the
    /// generated catalog) are ignored; any other file inside a type directory is an error, so
    /// a misnamed schema is not silently skipped.
    ///
    /// # Errors
    /// Unreadable files, invalid JSON, misnamed files and missing metadata.
    pub fn load(root: impl AsRef<Path>) -> Result<Registry, CodegenError> {
        let root = root.as_ref();
        let mut files = Vec::new();
        let mut protobuf = Vec::new();
        let mut findings = Vec::new();
        for dir in sorted_entries(root)? {
            if !dir.is_dir() {
                continue;
            }
            let dir_name = file_name(&dir);
            for file in sorted_entries(&dir)? {
                let relative = format!("{dir_name}/{}", file_name(&file));
                let text = fs::read_to_string(&file).map_err(|e| CodegenError::io(&file, e))?;
                if relative.ends_with(".proto") {
                    match crate::protobuf::ProtoFile::parse(root, &relative, &text) {
                        Ok(proto) => protobuf.push(proto),
                        Err(CodegenError::Findings(found)) => findings.extend(found),
                        Err(other) => return Err(other),
                    }
                    continue;
                }
                match SchemaFile::parse(root, &relative, &text) {
                    Ok(schema) => files.push(schema),
                    Err(CodegenError::Findings(found)) => findings.extend(found),
                    Err(other) => return Err(other),
                }
            }
        }
        if !findings.is_empty() {
            return Err(CodegenError::Findings(findings));
        }
        if files.is_empty() && protobuf.is_empty() {
            return Err(CodegenError::NoEventSchemas {
                root: root.to_path_buf(),
                looked_for: "`<type>/v<major>.json` (or `.proto`) files with an `x-cloudevent` object (for a folder whose schemas hold the type at a JSON pointer, use `--type-pointer` / `Builder::type_pointer`)".to_owned(),
            });
        }
        files.sort_by(|a, b| (&a.type_dir, a.major).cmp(&(&b.type_dir, b.major)));
        Ok(Registry {
            root: root.to_path_buf(),
            files,
            documents: BTreeMap::new(),
            protobuf,
        })
    }
}

fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>, CodegenError> {
    let mut entries = fs::read_dir(dir)
        .map_err(|e| CodegenError::io(dir, e))?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| CodegenError::io(dir, e))?;
    entries.sort();
    Ok(entries)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
