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
use crate::registry::{EventMeta, Registry, SchemaFile, TypeMapping};
use cloudevent_rules::split_type_version;

// The default layout (`<type>/v<major>.json`): `Registry::load`.
mod default;

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
    value_at(at, pointer)
}

/// The value a pointer names, read from what it finds there: a plain string member (a
/// vendor annotation, `"x-amazon-events-source": "aws.ec2"`; `x-cloudevent`'s `type`), or a
/// subschema's `const`, one-value `enum` or `default` string. What `--type-pointer` and
/// `--types-pointer` read; the `{/ptr}` placeholders of a template read the plain string,
/// `const` and one-value `enum` through [`fixed_value`].
fn value_at(at: &Value, pointer: &str) -> TypeAt {
    if let Value::String(t) = at {
        return TypeAt::Found(t.clone());
    }
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
        "`{pointer}` holds no string, and no `const`, one-value `enum` or `default` string, naming the event type"
    ))
}

/// The template's findings when it is malformed (an unknown placeholder, an unclosed
/// brace).
pub(crate) fn template_findings(mapping: &TypeMapping, root: &Path) -> Vec<Finding> {
    let mut out = Vec::new();
    for template in &mapping.type_templates {
        if let Err(problem) = parse_template(template) {
            out.push(Finding::new(root, "", format!("type template `{template}`: {problem}")).with_fix(
                "write placeholders as `{dir}`, `{file}`, `{/json/pointer}` or `{/json/pointer|regex}` (an ECMA-262 regex, as a schema `pattern`; its first capture group is the value), e.g. `com.github.{dir}.{/properties/action}`",
            ));
        }
    }
    out
}

/// One piece of a type template.
#[derive(Debug)]
enum Piece<'a> {
    Text(&'a str),
    Dir,
    File,
    /// `{/json/pointer}`, or `{/json/pointer|regex}`: the part of the value the regex's
    /// first capture group (else its whole match) finds.
    Pointer(&'a str, Option<regress::Regex>),
}

fn parse_template(template: &str) -> Result<Vec<Piece<'_>>, String> {
    let mut pieces = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            pieces.push(Piece::Text(&rest[..open]));
        }
        // The `}` that closes this `{`: a regex may hold braces of its own (`\\d{4}`).
        let mut depth = 0_usize;
        let close = rest[open..].char_indices().find_map(|(i, c)| {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(i)
        });
        let Some(close) = close else {
            return Err(format!("the `{{` at `{}` is not closed", &rest[open..]));
        };
        let name = &rest[open + 1..open + close];
        pieces.push(match name {
            "dir" => Piece::Dir,
            "file" => Piece::File,
            pointer if pointer.starts_with('/') => match pointer.split_once('|') {
                None => Piece::Pointer(pointer, None),
                Some((pointer, pattern)) => {
                    let regex = regress::Regex::new(pattern).map_err(|e| {
                        format!("the regular expression `{pattern}` does not compile: {e}")
                    })?;
                    Piece::Pointer(pointer, Some(regex))
                }
            },
            other => {
                return Err(format!(
                    "unknown placeholder `{{{other}}}` (expected `{{dir}}`, `{{file}}`, a JSON pointer such as `{{/properties/action}}`, or one with a capture such as `{{/description|for an? (\\S+) event}}`)"
                ));
            }
        });
        rest = &rest[open + close + 1..];
    }
    if !rest.is_empty() {
        pieces.push(Piece::Text(rest));
    }
    Ok(pieces)
}

/// The single value a schema fixes at `pointer`: a plain string member (a vendor annotation
/// such as `"x-amazon-events-source": "aws.ec2"`), a `const`, or a one-value `enum` (a string,
/// number or boolean, as text). Through `allOf` (any branch fixing it) and `oneOf`/`anyOf`
/// (every branch fixing the same value), as GitHub's `review_requested` fixes its `action`
/// in both of its alternatives.
fn fixed_value(schema: &Value, pointer: &str) -> Option<String> {
    let segments: Vec<String> = pointer
        .strip_prefix('/')?
        .split('/')
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect();
    fixed_at(schema, &segments, 0)
}

fn fixed_at(node: &Value, segments: &[String], depth: usize) -> Option<String> {
    if depth > 32 {
        return None;
    }
    let Some((first, rest)) = segments.split_first() else {
        if let Value::String(text) = node {
            // A plain string member: a vendor annotation (`x-amazon-events-source`).
            return Some(text.clone());
        }
        let value = match (node.get("const"), node.get("enum")) {
            (Some(value), _) => value,
            (None, Some(Value::Array(values))) if values.len() == 1 => &values[0],
            _ => return None,
        };
        return match value {
            Value::String(text) => Some(text.clone()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        };
    };
    if let Some(found) = node
        .get(first)
        .and_then(|child| fixed_at(child, rest, depth + 1))
    {
        return Some(found);
    }
    let branches = |key: &str| node.get(key).and_then(Value::as_array);
    if let Some(found) = branches("allOf")
        .into_iter()
        .flatten()
        .find_map(|branch| fixed_at(branch, segments, depth + 1))
    {
        return Some(found);
    }
    for key in ["oneOf", "anyOf"] {
        let Some(alternatives) = branches(key).filter(|a| !a.is_empty()) else {
            continue;
        };
        let values: Option<Vec<String>> = alternatives
            .iter()
            .map(|branch| fixed_at(branch, segments, depth + 1))
            .collect();
        if let Some(values) = values
            && values.iter().all(|v| *v == values[0])
        {
            return values.into_iter().next();
        }
    }
    None
}

/// The value a placeholder gives: all of it, or what the regex's first capture group (else
/// its whole match) finds in it; `None` when the regex finds nothing or an empty text.
fn captured(value: &str, capture: Option<&regress::Regex>) -> Option<String> {
    let Some(regex) = capture else {
        return Some(value.to_owned());
    };
    let found = regex.find(value)?;
    let range = found.group(1).unwrap_or_else(|| found.range());
    let text = value.get(range)?;
    (!text.is_empty()).then(|| text.to_owned())
}

/// The type the first template with every placeholder filled gives, and the pointer of its
/// first pointer placeholder (where a finding about the type points).
pub(crate) fn template_type(
    templates: &[String],
    root: &Path,
    relative: &str,
    schema: &Value,
) -> Option<(String, String)> {
    let (dir, name) = match relative.rsplit_once('/') {
        Some((dir, name)) => (dir.rsplit('/').next().unwrap_or(dir).to_owned(), name),
        None => (
            root.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            relative,
        ),
    };
    let file = name
        .strip_suffix(".schema.json")
        .or_else(|| name.strip_suffix(".json"))
        .unwrap_or(name);
    'templates: for template in templates {
        let Ok(pieces) = parse_template(template) else {
            continue;
        };
        let mut out = String::new();
        let mut at = None;
        for piece in pieces {
            match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Dir if !dir.is_empty() => out.push_str(&dir),
                Piece::File => out.push_str(file),
                Piece::Pointer(pointer, capture) => match fixed_value(schema, pointer)
                    .and_then(|value| captured(&value, capture.as_ref()))
                {
                    Some(value) => {
                        at.get_or_insert_with(|| pointer.to_owned());
                        out.push_str(&value);
                    }
                    None => continue 'templates,
                },
                Piece::Dir => continue 'templates,
            }
        }
        return Some((out, at.unwrap_or_default()));
    }
    None
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
        Registry::load_mapped(root, &TypeMapping::from(Some(pointer)))
    }

    /// Loads a folder in any layout: when the mapping names no way to find a type, the one
    /// the folder's `cloudevent-registry.toml` names, else `<type>/v<major>.json` files
    /// ([`Registry::load`]); otherwise every `*.json` file below `root`
    /// typed as [`TypeMapping`] says.
    ///
    /// ```
    /// use cloudevent_codegen::{Registry, TypeMapping};
    ///
    /// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sets/google-cloudevents/jsonschema");
    /// let mapping = TypeMapping { types_pointer: Some("/cloudeventTypes".into()), ..TypeMapping::default() };
    /// let registry = Registry::load_mapped(dir, &mapping).unwrap();
    /// assert_eq!(registry.files.len(), 376);
    /// ```
    ///
    /// # Errors
    /// As [`Registry::load_type_pointer`]; a malformed template; a `types_pointer` that names
    /// something other than an array of strings.
    pub fn load_mapped(
        root: impl AsRef<Path>,
        mapping: &TypeMapping,
    ) -> Result<Registry, CodegenError> {
        Registry::load_mapped_with(root.as_ref(), mapping, Links::Refuse)
    }

    /// [`Registry::load_mapped`], with symbolic links refused or followed inside the root.
    pub(crate) fn load_mapped_with(
        root: &Path,
        mapping: &TypeMapping,
        links: Links,
    ) -> Result<Registry, CodegenError> {
        if mapping.is_default_layout() {
            // The folder's own settings file may say how it is typed.
            let from_file = crate::config::read_registry_config(root)?
                .map(|config| config.mapping)
                .filter(|found| !found.is_default_layout() || found.selects_files());
            if let Some(mut found) = from_file {
                if mapping.dataschema_base.is_some() {
                    found.dataschema_base.clone_from(&mapping.dataschema_base);
                }
                for (mine, theirs) in [
                    (&mapping.events, &mut found.events),
                    (&mapping.shared, &mut found.shared),
                    (&mapping.exclude, &mut found.exclude),
                ] {
                    if !mine.is_empty() {
                        theirs.clone_from(mine);
                    }
                }
                if !found.is_default_layout() {
                    return Registry::load_folder(root, &found, links);
                }
                return Registry::load_mapped_with(root, &found, links);
            }
            // `<type>/v<major>.json` files, or (none there) a folder of one's own whose
            // schemas name their type in `x-cloudevent`.
            if !Registry::is_own_layout(root, mapping, &links)? {
                return Registry::load_with(root, links);
            }
        }
        Registry::load_folder(root, mapping, links)
    }

    /// Whether a folder the mapping gives no way to type is a layout of one's own: no
    /// `<type>/v<major>.json` (or `.proto`) file, and a schema below that names its type in
    /// `x-cloudevent.type`.
    fn is_own_layout(
        root: &Path,
        mapping: &TypeMapping,
        links: &Links,
    ) -> Result<bool, CodegenError> {
        let mut folder = Folder::new(root, links.clone());
        let mut paths = Vec::new();
        json_files(root, root, &mut folder, &mut paths)?;
        let default_named = |relative: &str| {
            relative.split_once('/').is_some_and(|(_, file)| {
                let stem = file
                    .strip_suffix(".json")
                    .or_else(|| file.strip_suffix(".proto"));
                !file.contains('/')
                    && stem
                        .and_then(|s| s.strip_prefix('v'))
                        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
            })
        };
        // `.proto` entries are not among the `*.json` files: look for them by name.
        for dir in Folder::new(root, links.clone())
            .entries(root)
            .unwrap_or_default()
        {
            if !dir.is_dir {
                continue;
            }
            for file in Folder::new(root, links.clone())
                .entries(&dir.path)
                .unwrap_or_default()
            {
                let name = file
                    .path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned());
                if name.is_some_and(|n| default_named(&format!("d/{n}"))) {
                    return Ok(false);
                }
            }
        }
        for (path, relative) in &paths {
            if mapping
                .exclude
                .iter()
                .any(|g| crate::folder::glob_matches(g, relative))
            {
                continue;
            }
            let Ok(text) = fs::read_to_string(path) else {
                continue;
            };
            if let Ok(schema) = serde_json::from_str::<Value>(&text)
                && schema
                    .pointer(OWN_TYPE_POINTER)
                    .is_some_and(Value::is_string)
            {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Every `*.json` file below `root` typed as `mapping` says, or by its own
    /// `x-cloudevent.type`.
    fn load_folder(
        root: &Path,
        mapping: &TypeMapping,
        links: Links,
    ) -> Result<Registry, CodegenError> {
        let mut findings = template_findings(mapping, root);
        if !findings.is_empty() {
            return Err(CodegenError::Findings(findings));
        }
        let matches = |globs: &[String], relative: &str| {
            globs
                .iter()
                .any(|glob| crate::folder::glob_matches(glob, relative))
        };
        let mut paths = Vec::new();
        let mut folder = Folder::new(root, links);
        json_files(root, root, &mut folder, &mut paths)?;
        paths.retain(|(_, relative)| !matches(&mapping.exclude, relative));
        findings.append(&mut folder.findings);
        let mut schemas = Vec::new();
        // JSON that holds no schema keyword (an example payload, a catalog, a registry
        // index) is never made a type: skipped, and named in one warning.
        let mut not_schemas = Vec::new();
        let mut read = Vec::new();
        for (path, relative) in paths {
            let text = fs::read_to_string(&path).map_err(|e| CodegenError::io(&path, e))?;
            let schema: Value =
                serde_json::from_str(&text).map_err(|source| CodegenError::Json {
                    path: path.clone(),
                    source,
                })?;
            if crate::keywords::is_schema(&schema) {
                read.push((path, relative));
                schemas.push(schema);
            } else {
                not_schemas.push(relative);
            }
        }
        let schemas = read
            .into_iter()
            .zip(schemas)
            .map(|((path, relative), schema)| (path, relative, schema));
        Registry::from_schemas(root, mapping, schemas.collect(), &not_schemas, findings)
    }

    /// The registry of the schemas read from a folder, or from the parts of one document
    /// (`api_document.rs`): each `(path, relative, schema)` is an event when the mapping or
    /// its `x-cloudevent.type` types it and no other schema `$ref`s its root (or `--events`
    /// says so), else a document `$ref`s may reach. `not_schemas` are the files read that
    /// hold no schema keyword, named in one warning.
    pub(crate) fn from_schemas(
        root: &Path,
        mapping: &TypeMapping,
        read: Vec<(PathBuf, String, Value)>,
        not_schemas: &[String],
        mut findings: Vec<Finding>,
    ) -> Result<Registry, CodegenError> {
        let matches = |globs: &[String], relative: &str| {
            globs
                .iter()
                .any(|glob| crate::folder::glob_matches(glob, relative))
        };
        let listed = read.len() + not_schemas.len();
        let (paths, schemas): (Vec<_>, Vec<_>) = read
            .into_iter()
            .map(|(path, relative, schema)| ((path, relative), schema))
            .unzip();
        let mut skipped = Vec::new();
        if let Some(first) = not_schemas.first() {
            skipped.push(
                Finding::new(
                    root.join(first),
                    "",
                    format!(
                        "{} JSON file(s) hold no JSON Schema keyword, so they are no schemas and no type was made of them: {}",
                        not_schemas.len(),
                        not_schemas.join(", ")
                    ),
                )
                .with_fix("leave them out with `--exclude GLOB` (`Builder::exclude`, `exclude` in cloudevent-registry.toml), e.g. `--exclude examples`; a schema needs a keyword such as `type`, `properties` or `$ref`"),
            );
        }
        // Two files with one `$id`: a `$ref` to it would reach one of them, and the other
        // would be taken for a shared definition (or an event) without a word.
        let mut ids: BTreeMap<&str, &str> = BTreeMap::new();
        for ((path, relative), schema) in paths.iter().zip(&schemas) {
            if let Some(id) = schema.get("$id").and_then(Value::as_str)
                && let Some(first) = ids.insert(id, relative.as_str())
            {
                findings.push(
                    Finding::new(path, "/$id", format!("`$id` `{id}` is also the `$id` of `{first}`: a `$ref` to it cannot tell the two apart"))
                        .with_fix("give each schema its own `$id`"),
                );
            }
        }
        // Files whose root another file `$ref`s are shared definitions, not events a
        // template names; a file whose `$defs` alone others reach is still an event.
        let referenced = if mapping.type_templates.is_empty() {
            std::collections::BTreeSet::new()
        } else {
            crate::bundle::referenced(
                root,
                paths
                    .iter()
                    .map(|(_, relative)| relative.as_str())
                    .zip(&schemas),
                crate::bundle::Reach::Root,
            )
        };
        let mut files = Vec::new();
        let mut documents = BTreeMap::new();
        for ((path, relative), schema) in paths.iter().zip(schemas) {
            if matches(&mapping.shared, relative) {
                documents.insert(relative.clone(), schema);
                continue;
            }
            let event = matches(&mapping.events, relative);
            let mut found = Vec::new();
            if let Some(pointer) = &mapping.types_pointer
                && let Some(listed) = schema.pointer(pointer)
            {
                match listed_types(listed, pointer) {
                    Some(types) => found.extend(types),
                    None => findings.push(
                        Finding::new(path, pointer, "the types pointer names no array of type strings (nor one type string)")
                            .with_fix("point `--types-pointer` at an array of CloudEvents types, e.g. `/cloudeventTypes`"),
                    ),
                }
            }
            if found.is_empty()
                && let Some(pointer) = &mapping.type_pointer
            {
                match type_at(&schema, pointer) {
                    TypeAt::Absent => {}
                    TypeAt::Unfixed(message) => findings.push(
                        Finding::new(path, pointer, message).with_fix(
                            "give the type one value (`\"const\": \"<type>\"`), or point `--type-pointer` elsewhere",
                        ),
                    ),
                    TypeAt::Found(event_type) => found.push((event_type, pointer.clone())),
                }
            }
            if found.is_empty()
                && (event || !referenced.contains(relative))
                && let Some((event_type, at)) =
                    template_type(&mapping.type_templates, root, relative, &schema)
            {
                found.push((event_type, at));
            }
            // The project's own metadata names the type in any layout.
            if found.is_empty()
                && let Some(Value::String(event_type)) = schema.pointer(OWN_TYPE_POINTER)
            {
                found.push((event_type.clone(), OWN_TYPE_POINTER.to_owned()));
            }
            if found.is_empty() {
                if event {
                    findings.push(
                        Finding::new(path, "", format!("matches `--events` but {} gives it no type", looked_for(mapping)))
                            .with_fix("name its type in `\"x-cloudevent\": {\"type\": \"...\"}`, give the mapping a way to type it (`--type-pointer`, `--type-template`), or leave it out of `--events`"),
                    );
                }
                documents.insert(relative.clone(), schema);
                continue;
            }
            for (event_type, at) in found {
                match pointer_file(path, relative, &at, event_type, schema.clone(), mapping) {
                    Ok(file) => files.push(file),
                    Err(found) => findings.extend(found),
                }
            }
        }
        // Two schemas giving one type: which one the type's events follow is unknown.
        for (index, file) in files.iter().enumerate() {
            if let Some(other) = files[..index]
                .iter()
                .find(|o| o.meta.event_type == file.meta.event_type && o.path != file.path)
            {
                findings.push(
                    Finding::new(&file.path, file.type_pointer.clone().unwrap_or_default(), format!(
                        "gives type `{}`, as `{}` does",
                        file.meta.event_type, other.relative
                    ))
                    .with_fix("give each schema its own type: an earlier template with a placeholder that tells them apart (`{file}`, a `{/json/pointer}` each fixes)"),
                );
            }
        }
        if !findings.is_empty() {
            return Err(CodegenError::Findings(findings));
        }
        if files.is_empty() {
            return Err(CodegenError::NoEventSchemas {
                root: root.to_path_buf(),
                looked_for: format!(
                    "{} in any of the {listed} `*.json` file(s) read{}",
                    looked_for(mapping),
                    match not_schemas.len() {
                        0 => String::new(),
                        n => format!(" ({n} of them no schema: no JSON Schema keyword)"),
                    }
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
            mapping: Some(mapping.clone()),
            skipped,
        })
    }
}

/// Where the project's own metadata names a schema's event type (`x-cloudevent.type`), read
/// in any layout.
const OWN_TYPE_POINTER: &str = "/x-cloudevent/type";

/// The types a `--types-pointer` names: an array of type strings, or one type as
/// `--type-pointer` reads it (a plain string, a `const`, a one-value `enum` or a `default`);
/// each with the pointer where it was found.
fn listed_types(listed: &Value, pointer: &str) -> Option<Vec<(String, String)>> {
    if let Some(types) = listed.as_array() {
        return types
            .iter()
            .enumerate()
            .map(|(i, t)| Some((t.as_str()?.to_owned(), format!("{pointer}/{i}"))))
            .collect();
    }
    match value_at(listed, pointer) {
        TypeAt::Found(t) => Some(vec![(t, pointer.to_owned())]),
        TypeAt::Absent | TypeAt::Unfixed(_) => None,
    }
}

/// What a file needs to be an event schema under `mapping`, for the error when none is.
fn looked_for(mapping: &TypeMapping) -> String {
    let mut ways = Vec::new();
    if let Some(pointer) = &mapping.types_pointer {
        ways.push(format!("an array of types at JSON pointer `{pointer}`"));
    }
    if let Some(pointer) = &mapping.type_pointer {
        ways.push(format!("an event type at JSON pointer `{pointer}` (a string, or a `const`, a one-value `enum` or a `default` string)"));
    }
    for template in &mapping.type_templates {
        ways.push(format!(
            "a value for every placeholder of type template `{template}`"
        ));
    }
    ways.push(format!("a type string at `{OWN_TYPE_POINTER}`"));
    ways.join(", or ")
}

/// An event schema found by `mapping`. Its `x-cloudevent` metadata, when it has some, is
/// kept (source, subject, attribute and extension pointers, content type), never dropped:
/// a `type` there other than the mapping's is an error. The major version is the type's;
/// for a type without one, the file's (`v2.json`, an `$id` ending `/v2.json`), else 0.
fn pointer_file(
    path: &Path,
    relative: &str,
    pointer: &str,
    event_type: String,
    schema: Value,
    mapping: &TypeMapping,
) -> Result<SchemaFile, Vec<Finding>> {
    let (base, version) = split_type_version(&event_type);
    let from_name = |name: &str| -> Option<u64> {
        let stem = name.rsplit('/').next()?.strip_suffix(".json")?;
        stem.strip_prefix(['v', 'V'])?.parse().ok()
    };
    let major = match version.as_deref() {
        Some(v) => v
            .trim_start_matches(['v', 'V'])
            .split(['.', '-'])
            .next()
            .and_then(|m| m.parse().ok())
            .unwrap_or(0),
        None => from_name(relative)
            .or_else(|| from_name(schema.get("$id").and_then(Value::as_str)?))
            .unwrap_or(0),
    };
    let dataschema = dataschema(&schema, mapping.dataschema_base.as_deref());
    let meta = match schema.get(crate::meta::METADATA_KEY) {
        None => EventMeta {
            event_type: event_type.clone(),
            dataschema,
            ..EventMeta::default()
        },
        Some(given) => {
            let named = given.get("type").and_then(Value::as_str);
            if let Some(named) = named.filter(|t| *t != event_type) {
                return Err(vec![
                    Finding::new(path, "/x-cloudevent/type", format!(
                        "`x-cloudevent` names type `{named}`, the type mapping gives `{event_type}` (at `{pointer}`)"
                    ))
                    .with_fix(format!(
                        "make them one: set `x-cloudevent.type` to `{event_type}`, or remove it (the mapping gives the type)"
                    )),
                ]);
            }
            let mut read = schema.clone();
            if let Some(object) = read
                .get_mut(crate::meta::METADATA_KEY)
                .and_then(Value::as_object_mut)
            {
                object.insert("type".into(), Value::String(event_type.clone()));
            }
            if let Some(object) = read.as_object_mut() {
                object
                    .entry("$id")
                    .or_insert_with(|| Value::String(String::new()));
            }
            let meta = EventMeta::from_schema(&read).map_err(|found| {
                found
                    .into_iter()
                    .map(|f| Finding {
                        file: path.to_path_buf(),
                        ..f
                    })
                    .collect::<Vec<_>>()
            })?;
            EventMeta {
                event_type: event_type.clone(),
                dataschema,
                ..meta
            }
        }
    };
    Ok(SchemaFile {
        path: path.to_path_buf(),
        relative: relative.to_owned(),
        type_dir: base.to_owned(),
        major,
        version,
        type_pointer: Some(pointer.to_owned()),
        schema,
        meta,
    })
}

/// The `dataschema` of a schema: its `$id` when absolute, else its `$id` resolved against
/// `base`; empty (no `dataschema`) for a relative `$id` without a base, or no `$id`.
pub(crate) fn dataschema(schema: &Value, base: Option<&str>) -> String {
    let Some(id) = schema.get("$id").and_then(Value::as_str) else {
        return String::new();
    };
    let id = id.trim_end_matches('#');
    if crate::bundle::is_absolute(id) {
        return id.to_owned();
    }
    base.and_then(|base| crate::bundle::join(base, id))
        .unwrap_or_default()
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
    fn templates_fill_from_the_folder_the_file_and_fixed_values() {
        let schema = serde_json::json!({"properties": {"action": {"enum": ["opened"]},
            "n": {"const": 3}, "open": {"type": "string"}}});
        let alternatives = serde_json::json!({"oneOf": [
            {"properties": {"action": {"enum": ["review_requested"]}, "a": {"const": 1}}},
            {"properties": {"action": {"enum": ["review_requested"]}, "a": {"const": 2}}}]});
        assert_eq!(
            fixed_value(&alternatives, "/properties/action").as_deref(),
            Some("review_requested")
        );
        assert_eq!(fixed_value(&alternatives, "/properties/a"), None);
        let templates = |t: &[&str]| t.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let root = Path::new("sets/api");
        let typed = |t: &[&str], relative: &str| {
            template_type(&templates(t), root, relative, &schema).map(|(t, _)| t)
        };
        assert_eq!(
            typed(
                &["x.{dir}.{/properties/action}"],
                "issues/opened.schema.json"
            )
            .as_deref(),
            Some("x.issues.opened")
        );
        assert_eq!(
            typed(&["{file}.v{/properties/n}"], "a/b/c.json").as_deref(),
            Some("c.v3")
        );
        // A pointer that fixes nothing: the next template.
        assert_eq!(
            typed(
                &["x.{/properties/open}", "x.{dir}"],
                "push/event.schema.json"
            )
            .as_deref(),
            Some("x.push")
        );
        assert_eq!(
            typed(&["x.{/properties/open}"], "push/event.schema.json"),
            None
        );
        // At the root, `{dir}` is the root folder.
        assert_eq!(typed(&["{dir}.{file}"], "e.json").as_deref(), Some("api.e"));
        assert!(
            parse_template("x.{nope}")
                .unwrap_err()
                .contains("unknown placeholder `{nope}`")
        );
        assert!(parse_template("x.{dir").unwrap_err().contains("not closed"));
    }

    #[test]
    fn a_capture_takes_part_of_a_members_text() {
        // Azure Event Grid names the type in a definition's description.
        let schema = serde_json::json!({
            "description": "Schema of the Data property of an EventGridEvent for a Microsoft.Storage.BlobCreated event.",
            "type": "object"
        });
        let typed = |template: &str| {
            template_type(
                &[template.to_owned()],
                Path::new("api"),
                "schemas/X.json",
                &schema,
            )
        };
        assert_eq!(
            typed(r"{/description|for an? (\S+) event}"),
            Some((
                "Microsoft.Storage.BlobCreated".to_owned(),
                "/description".to_owned()
            ))
        );
        // No capture group: the whole match; braces inside the regex are the regex's.
        assert_eq!(
            typed(r"x.{/description|Microsoft\.[A-Z][a-z]{6}}")
                .map(|(t, _)| t)
                .as_deref(),
            Some("x.Microsoft.Storage")
        );
        // No match: the template does not apply.
        assert_eq!(typed(r"{/description|for a (\d+)}"), None);
        assert!(
            parse_template(r"{/description|(}")
                .unwrap_err()
                .contains("does not compile")
        );
    }

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
