use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{CodegenError, Finding};

pub(crate) use crate::meta::{ContentMode, EventMeta, METADATA_KEY};

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

/// How a folder of schemas published by others maps to CloudEvents types, for
/// [`Registry::load_mapped`], [`Builder`](crate::Builder), `cloudevent-registry.toml` and the
/// CLI's `codegen`, `validate --registry`, `diff` and `snapshot` alike. For each `*.json` file
/// below the folder, tried in this order: the types listed at [`TypeMapping::types_pointer`],
/// the type at [`TypeMapping::type_pointer`], the first of [`TypeMapping::type_templates`]
/// whose placeholders all have a value. A file none of them types is a document `$ref`s may
/// reach; so is a file that another file `$ref`s, when only a template would type it.
///
/// ```
/// use cloudevent_codegen::{Registry, TypeMapping};
///
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sets/github-webhooks/payload-schemas/api.github.com");
/// let mapping = TypeMapping {
///     type_templates: vec!["com.github.{dir}.{/properties/action}".into(), "com.github.{dir}".into()],
///     dataschema_base: Some("https://octokit.github.io/webhooks/payload-schemas/api.github.com/".into()),
///     ..TypeMapping::default()
/// };
/// let registry = Registry::load_mapped(dir, &mapping).unwrap();
/// assert_eq!(registry.files.len(), 224);
/// let run = registry.files.iter().find(|f| f.meta.event_type == "com.github.check_run.requested_action").unwrap();
/// assert_eq!(run.meta.dataschema, "https://octokit.github.io/webhooks/payload-schemas/api.github.com/check_run$requested_action");
/// assert!(registry.documents.contains_key("common/user.schema.json"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypeMapping {
    /// A JSON pointer where each schema fixes its one type (a `const`, a one-value `enum` or
    /// a `default` string): `/properties/context/properties/type` for CDEvents.
    pub type_pointer: Option<String>,
    /// Templates tried in order, the first whose placeholders all have a value giving the
    /// type: `{dir}` the folder holding the file, `{file}` its name without `.schema.json` /
    /// `.json`, `{/json/pointer}` the single value the schema fixes there (a string member, a
    /// `const` or a one-value `enum`): `com.github.{dir}.{/properties/action}` for GitHub's
    /// webhooks; `{/json/pointer|regex}` the first capture group (else the match) of an
    /// ECMA-262 regex over that value: `{/description|for an? (\S+) event}` for Azure Event
    /// Grid's definitions, which name their type in their description.
    pub type_templates: Vec<String>,
    /// A JSON pointer to an array of type strings: the schema serves every one of them
    /// (`/cloudeventTypes` for Google's CloudEvents).
    pub types_pointer: Option<String>,
    /// The absolute URI a relative `$id` is resolved against to give the `dataschema`; a
    /// relative `$id` is never a `dataschema` itself (CE 3.1.1: a URI), so without a base
    /// those types get none and codegen warns.
    pub dataschema_base: Option<String>,
    /// Globs of files that are events, even when another file `$ref`s their root (see
    /// `--events`): each must then be typed by the mapping or its `x-cloudevent.type`. A glob
    /// without `/` matches a file or folder name at any depth, one with `/` a path from the
    /// folder; `*`, `**` and `?` as in a shell.
    ///
    /// ```
    /// use cloudevent_codegen::{Registry, TypeMapping};
    ///
    /// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/vendor-annotated");
    /// let mapping = TypeMapping {
    ///     type_templates: vec!["{/x-amazon-events-source}.{file}".into()],
    ///     events: vec!["ec2/**".into()],
    ///     shared: vec!["s3".into()],
    ///     exclude: vec!["examples".into()],
    ///     ..TypeMapping::default()
    /// };
    /// let registry = Registry::load_mapped(dir, &mapping).unwrap();
    /// assert_eq!(registry.files.len(), 1);
    /// assert_eq!(registry.files[0].meta.event_type, "aws.ec2.instance-state-change");
    /// assert!(registry.documents.contains_key("s3/object-created.json"));
    /// ```
    pub events: Vec<String>,
    /// Globs of files that are shared definitions, never events, whatever types them (see
    /// [`TypeMapping::events`] for the glob syntax).
    pub shared: Vec<String>,
    /// Globs of files not read at all (example payloads, catalogs, drafts; see
    /// [`TypeMapping::events`] for the glob syntax).
    pub exclude: Vec<String>,
}

impl TypeMapping {
    /// Whether the mapping names no way to find a type (the default `<type>/v<major>.json`
    /// layout, whose `x-cloudevent` metadata names the type).
    ///
    /// ```
    /// use cloudevent_codegen::TypeMapping;
    ///
    /// assert!(TypeMapping::default().is_default_layout());
    /// assert!(!TypeMapping::from(Some("/properties/type")).is_default_layout());
    /// ```
    pub fn is_default_layout(&self) -> bool {
        self.type_pointer.is_none()
            && self.type_templates.is_empty()
            && self.types_pointer.is_none()
    }

    /// Whether the mapping says which files to read or take for events or shared definitions
    /// ([`TypeMapping::events`], [`TypeMapping::shared`], [`TypeMapping::exclude`]).
    ///
    /// ```
    /// use cloudevent_codegen::TypeMapping;
    ///
    /// let mapping = TypeMapping { exclude: vec!["examples".into()], ..TypeMapping::default() };
    /// assert!(mapping.selects_files() && mapping.is_default_layout());
    /// ```
    pub fn selects_files(&self) -> bool {
        !(self.events.is_empty() && self.shared.is_empty() && self.exclude.is_empty())
    }
}

impl From<Option<&str>> for TypeMapping {
    /// A mapping with at most a [`TypeMapping::type_pointer`]: what
    /// [`compare_paths`](crate::compare_paths) took before templates existed.
    fn from(type_pointer: Option<&str>) -> TypeMapping {
        TypeMapping {
            type_pointer: type_pointer.map(str::to_owned),
            ..TypeMapping::default()
        }
    }
}

impl From<&TypeMapping> for TypeMapping {
    fn from(mapping: &TypeMapping) -> TypeMapping {
        mapping.clone()
    }
}

/// One `schemas/<type>/v<major>.json` file.
///
/// ```
/// use cloudevent_codegen::SchemaFile;
///
/// let text = r#"{"$id": "https://schemas.example.com/events/com.example.order.created/v2.json",
///   "type": "object", "x-cloudevent": {"type": "com.example.order.created.v2"}}"#;
/// let file = SchemaFile::parse("schemas".as_ref(), "com.example.order.created/v2.json", text).unwrap();
/// assert_eq!((file.type_dir.as_str(), file.major), ("com.example.order.created", 2));
/// assert_eq!(file.meta.dataschema, "https://schemas.example.com/events/com.example.order.created/v2.json");
/// ```
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
    /// schemas that `$ref`s may reach (CDEvents' `links/*.json`; in the default layout the files
    /// of `_defs/` and the files without `x-cloudevent` another file `$ref`s).
    pub documents: BTreeMap<String, Value>,
    /// The `<type>/v<major>.proto` entries: types whose data is a Protobuf message, read by
    /// the crate's own proto3 reader. Only [`Registry::load`] reads them; the generator, the
    /// catalog, the snapshot and the compatibility gate take them from here.
    pub(crate) protobuf: Vec<crate::protobuf::ProtoFile>,
    /// How the folder was typed, when it was read with [`Registry::load_mapped`] (a
    /// baseline is read the same way).
    pub(crate) mapping: Option<TypeMapping>,
    /// Entries left out as they were read, each with why (an xRegistry message whose payload
    /// schema is Avro, Protobuf or missing): the generator lists them as warnings.
    pub(crate) skipped: Vec<Finding>,
}

/// The folder of the default layout whose files are shared definitions, never events
/// (`_defs/address.json`, reached by `"$ref": "../_defs/address.json"`).
pub(crate) const SHARED_DEFINITIONS_DIR: &str = "_defs";
