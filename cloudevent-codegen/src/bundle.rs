//! External `$ref`s, resolved and bundled by codegen itself: refs relative to the file's
//! path, relative to its `$id`, and absolute URIs of files inside the registry folder. Nothing
//! is ever fetched over the network; a ref that names no file of the folder is a finding
//! naming the file, the pointer of the `$ref` and its target.
//!
//! Every schema reached through an external ref becomes one definition of the registry's
//! shared module (generated once, whatever the number of events using it); in each event's
//! own schema, the ref is rewritten to a stub definition that typify replaces with the shared
//! type's path.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::path::{Path, PathBuf};

use heck::ToUpperCamelCase;
use serde_json::{Map, Value};

use crate::error::{Finding, pointer_segment};
use crate::registry::Registry;

/// The module every shared definition is generated into, beside the events' modules.
pub(crate) const SHARED_MODULE: &str = "shared";

/// The key of the stub that stands for shared type `name` in an event's type space.
pub(crate) fn stub_key(name: &str) -> String {
    format!("SharedRef{name}")
}

/// A registry with its external refs bundled.
pub(crate) struct Bundle {
    /// The shared definitions: Rust type name → schema, their refs rewritten to
    /// `#/definitions/<name>`.
    pub(crate) shared: BTreeMap<String, Value>,
    /// Each event file's schema (in registry order) with its external refs rewritten to
    /// stubs, and the shared names it uses.
    pub(crate) events: Vec<(Value, BTreeSet<String>)>,
    /// Refs that could not be resolved, and refs that make a schema contain itself.
    pub(crate) findings: Vec<Finding>,
    /// Whether some schema contains itself through refs alone (`crate::cycle`): nothing may
    /// be generated then, since typify recurses without end on such a schema.
    pub(crate) cyclic: bool,
    /// Where each shared definition came from (`file#pointer`), for its doc comment.
    pub(crate) origins: BTreeMap<String, String>,
}

impl Bundle {
    /// Renames shared definition `old`, whose Rust name typify would also give another type of
    /// the shared module, to a name qualified by the file and pointer it came from
    /// (`common/order_line.json` -> `CommonOrderLine`; numbered if that is taken too); every
    /// ref to it, in the shared definitions and in each event's stubs, follows. The same
    /// input always gives the same name. `None` when `old` is no shared definition.
    pub(crate) fn rename_shared(&mut self, old: &str) -> Option<String> {
        let schema = self.shared.remove(old)?;
        let origin = self.origins.remove(old).unwrap_or_default();
        let (file, pointer) = origin.split_once('#').unwrap_or((&origin, ""));
        let file = file.trim_end_matches(".json").trim_end_matches(".schema");
        let base = fix_ident(
            &format!("{} {}", file.replace('/', " "), pointer.replace('/', " "))
                .to_upper_camel_case(),
        );
        let base = if base.is_empty() {
            "Schema".to_owned()
        } else {
            base
        };
        let new = std::iter::once(base.clone())
            .chain((2..).map(|n| format!("{base}{n}")))
            .find(|c| c != old && !self.shared.contains_key(c))
            .unwrap_or(base);
        self.shared.insert(new.clone(), schema);
        self.origins.insert(new.clone(), origin);
        let (from, to) = (
            format!("#/definitions/{old}"),
            format!("#/definitions/{new}"),
        );
        for schema in self.shared.values_mut() {
            replace_ref(schema, &from, &to);
        }
        let (old_stub, new_stub) = (stub_key(old), stub_key(&new));
        let (from, to) = (
            format!("#/definitions/{old_stub}"),
            format!("#/definitions/{new_stub}"),
        );
        for (schema, used) in &mut self.events {
            if !used.remove(old) {
                continue;
            }
            used.insert(new.clone());
            replace_ref(schema, &from, &to);
            if let Some(definitions) = schema.get_mut("definitions").and_then(Value::as_object_mut)
                && let Some(stub) = definitions.remove(&old_stub)
            {
                definitions.insert(new_stub.clone(), stub);
            }
        }
        Some(new)
    }
}

/// Every `"$ref": from` below `value` becomes `"$ref": to`.
pub(crate) fn replace_ref(value: &mut Value, from: &str, to: &str) {
    match value {
        Value::Object(object) => {
            for (key, sub) in object.iter_mut() {
                match (key.as_str(), &*sub) {
                    ("$ref", Value::String(r)) if r == from => *sub = Value::String(to.to_owned()),
                    ("enum" | "const" | "default" | "examples", _) => {}
                    _ => replace_ref(sub, from, to),
                }
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| replace_ref(item, from, to)),
        _ => {}
    }
}

struct Doc<'a> {
    relative: &'a str,
    path: PathBuf,
    value: &'a Value,
    id: Option<&'a str>,
}

struct Resolver<'a> {
    docs: Vec<Doc<'a>>,
    by_id: HashMap<&'a str, usize>,
    by_path: HashMap<&'a str, usize>,
    root: PathBuf,
    names: HashMap<(usize, String), String>,
    /// Where a chain of aliases (schemas that are a `$ref` alone) ends, for every schema
    /// on one already followed.
    alias_ends: HashMap<(usize, String), (usize, String)>,
    taken: BTreeSet<String>,
    queue: VecDeque<(usize, String)>,
    findings: Vec<Finding>,
}

/// Resolves and bundles every external ref of the registry.
pub(crate) fn bundle(registry: &Registry) -> Bundle {
    let mut docs: Vec<Doc<'_>> = registry
        .files
        .iter()
        .map(|f| Doc {
            relative: &f.relative,
            path: f.path.clone(),
            value: &f.schema,
            id: f.schema.get("$id").and_then(Value::as_str),
        })
        .collect();
    for (relative, value) in &registry.documents {
        docs.push(Doc {
            relative,
            path: registry.root.join(relative),
            value,
            id: value.get("$id").and_then(Value::as_str),
        });
    }
    let mut resolver = Resolver::new(docs, &registry.root);
    let cycles = {
        let docs: Vec<_> = resolver
            .docs
            .iter()
            .map(|d| (d.path.as_path(), d.relative, d.value))
            .collect();
        crate::cycle::ref_cycles(&docs, |doc, reference| {
            resolver.resolve(doc, reference).ok()
        })
    };
    let cyclic = !cycles.is_empty();
    resolver.findings.extend(cycles);
    let mut events = Vec::new();
    for (index, file) in registry.files.iter().enumerate() {
        let mut schema = file.schema.clone();
        let mut used = BTreeSet::new();
        resolver.rewrite(&mut schema, index, String::new(), false, &mut used);
        if !used.is_empty() {
            let object = schema
                .as_object_mut()
                .expect("a schema with refs is an object");
            let definitions = object
                .entry("definitions")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Some(definitions) = definitions.as_object_mut() {
                for name in &used {
                    definitions.insert(stub_key(name), Value::Object(Map::new()));
                }
            }
        }
        events.push((schema, used));
    }
    let mut shared = BTreeMap::new();
    let mut origins = BTreeMap::new();
    while let Some((doc, pointer)) = resolver.queue.pop_front() {
        let name = resolver.names[&(doc, pointer.clone())].clone();
        let mut schema = resolver.docs[doc]
            .value
            .pointer(&pointer)
            .cloned()
            .unwrap_or(Value::Null);
        if let Some(object) = schema.as_object_mut() {
            for key in ["$id", "$schema", "$defs", "definitions"] {
                object.remove(key);
            }
        }
        let mut used = BTreeSet::new();
        resolver.rewrite(&mut schema, doc, pointer.clone(), true, &mut used);
        origins.insert(
            name.clone(),
            format!("{}#{pointer}", resolver.docs[doc].relative),
        );
        shared.insert(name, schema);
    }
    mark_nullable_stubs(&mut events, &shared);
    Bundle {
        shared,
        events,
        findings: resolver.findings,
        cyclic,
        origins,
    }
}

/// Marks the stub of each shared definition that admits `null` and something else
/// ([`crate::shapes::NULLABLE_STUB`]).
fn mark_nullable_stubs(events: &mut [(Value, BTreeSet<String>)], shared: &BTreeMap<String, Value>) {
    let document = serde_json::json!({ "definitions": shared });
    let nullable = crate::shapes::nullable_definitions(&document);
    for (schema, used) in events.iter_mut() {
        let Some(definitions) = schema.get_mut("definitions").and_then(Value::as_object_mut) else {
            continue;
        };
        for name in used.iter() {
            let pointer = format!(
                "#/definitions/{}",
                name.replace('~', "~0").replace('/', "~1")
            );
            if nullable.contains(&pointer)
                && let Some(Value::Object(stub)) = definitions.get_mut(&stub_key(name))
            {
                stub.insert(crate::shapes::NULLABLE_STUB.into(), Value::Bool(true));
            }
        }
    }
}

/// Which `$ref`s [`referenced`] counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reach {
    /// A ref to any part of a document (`money.json`, `money.json#/$defs/amount`).
    Any,
    /// Only a ref to its root (`money.json`, `money.json#`): a document whose `$defs` alone
    /// others reach is still what it is on its own (an event, under a type mapping).
    Root,
}

/// The documents (by relative path) that a `$ref` of another document names: the shared
/// definitions of a folder, which a type template must not take for events.
pub(crate) fn referenced<'a>(
    root: &Path,
    docs: impl Iterator<Item = (&'a str, &'a Value)>,
    reach: Reach,
) -> BTreeSet<String> {
    let docs: Vec<Doc<'a>> = docs
        .map(|(relative, value)| Doc {
            relative,
            path: root.join(relative),
            value,
            id: value.get("$id").and_then(Value::as_str),
        })
        .collect();
    let resolver = Resolver::new(docs, root);
    let mut out = BTreeSet::new();
    for (index, doc) in resolver.docs.iter().enumerate() {
        let mut refs = Vec::new();
        collect_refs(doc.value, &mut refs);
        for reference in refs {
            if let Ok((target, fragment)) = resolver.resolve(index, reference)
                && target != index
                && (reach == Reach::Any || fragment.is_empty())
            {
                out.insert(resolver.docs[target].relative.to_owned());
            }
        }
    }
    out
}

fn collect_refs<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::Object(object) => {
            for (key, sub) in object {
                match (key.as_str(), sub) {
                    ("$ref", Value::String(reference)) if !reference.starts_with('#') => {
                        out.push(reference);
                    }
                    ("enum" | "const" | "default" | "examples", _) => {}
                    _ => collect_refs(sub, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_refs(item, out)),
        _ => {}
    }
}

impl<'a> Resolver<'a> {
    fn new(docs: Vec<Doc<'a>>, root: &Path) -> Resolver<'a> {
        Resolver {
            by_id: docs
                .iter()
                .enumerate()
                .filter_map(|(i, d)| Some((d.id?.trim_end_matches('#'), i)))
                .collect(),
            by_path: docs
                .iter()
                .enumerate()
                .map(|(i, d)| (d.relative, i))
                .collect(),
            docs,
            root: root.to_path_buf(),
            names: HashMap::new(),
            alias_ends: HashMap::new(),
            taken: BTreeSet::new(),
            queue: VecDeque::new(),
            findings: Vec::new(),
        }
    }
}

impl Resolver<'_> {
    /// Rewrites the refs below `value` (found at `at` in document `doc`). In an event's own
    /// schema (`shared == false`) refs to its `$defs`/`definitions` stay; every other ref
    /// becomes a shared definition, named in `used`.
    fn rewrite(
        &mut self,
        value: &mut Value,
        doc: usize,
        at: String,
        shared: bool,
        used: &mut BTreeSet<String>,
    ) {
        match value {
            Value::Object(object) => {
                if let Some(Value::String(reference)) = object.get("$ref") {
                    let reference = reference.clone();
                    let local = reference.starts_with("#/$defs/")
                        || reference.starts_with("#/definitions/")
                        || reference == "#";
                    if shared || !local {
                        let ref_at = format!("{at}/$ref");
                        match self.resolve(doc, &reference) {
                            Ok(target) => {
                                let target = self.through_aliases(target);
                                let name = self.name(target);
                                let rewritten = if shared {
                                    format!("#/definitions/{name}")
                                } else {
                                    format!("#/definitions/{}", stub_key(&name))
                                };
                                used.insert(name);
                                object.insert("$ref".into(), Value::String(rewritten));
                            }
                            Err(problem) => {
                                // Reported here; typify must not trip over it again.
                                object.remove("$ref");
                                self.findings.push(
                                Finding::new(&self.docs[doc].path, ref_at, format!("`$ref` `{reference}`: {problem}"))
                                    .with_fix(format!(
                                        "add the schema it names below `{}` (its `$id` or its path must match), or correct the ref",
                                        self.root.display()
                                    )),
                                );
                            }
                        }
                    }
                }
                for (key, sub) in object.iter_mut() {
                    if matches!(
                        key.as_str(),
                        "enum" | "const" | "default" | "examples" | "$ref"
                    ) || (shared && matches!(key.as_str(), "$defs" | "definitions"))
                    {
                        continue;
                    }
                    let sub_at = format!("{at}/{}", pointer_segment(key));
                    self.rewrite(sub, doc, sub_at, shared, used);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    self.rewrite(item, doc, format!("{at}/{i}"), shared, used);
                }
            }
            _ => {}
        }
    }

    /// The document and JSON pointer a ref names.
    fn resolve(&self, doc: usize, reference: &str) -> Result<(usize, String), String> {
        let (uri, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        if !fragment.is_empty() && !fragment.starts_with('/') {
            return Err(format!(
                "the plain-name fragment `#{fragment}` is not supported; use a JSON pointer such as `#/$defs/{fragment}`"
            ));
        }
        let target = if uri.is_empty() {
            doc
        } else {
            self.lookup(doc, uri)?
        };
        if self.docs[target].value.pointer(fragment).is_none() {
            return Err(format!(
                "`#{fragment}` names nothing in `{}`",
                self.docs[target].relative
            ));
        }
        Ok((target, fragment.to_owned()))
    }

    fn lookup(&self, doc: usize, uri: &str) -> Result<usize, String> {
        let by_id = |id: &str| {
            self.by_id
                .get(id)
                .or_else(|| self.by_id.get(format!("{id}.json").as_str()))
                .or_else(|| id.strip_suffix(".json").and_then(|i| self.by_id.get(i)))
                .copied()
        };
        let by_path = |path: &str| {
            self.by_path
                .get(path)
                .or_else(|| self.by_path.get(format!("{path}.json").as_str()))
                .copied()
        };
        if is_absolute(uri) {
            if let Some(found) = by_id(uri) {
                return Ok(found);
            }
            // An absolute URI whose path ends with a file of the folder.
            let path = uri.split(['?', '#']).next().unwrap_or(uri);
            let found = self
                .docs
                .iter()
                .enumerate()
                .filter(|(_, d)| {
                    let bare = d.relative.strip_suffix(".json").unwrap_or(d.relative);
                    path.ends_with(&format!("/{}", d.relative))
                        || path.ends_with(&format!("/{bare}"))
                })
                .max_by_key(|(_, d)| d.relative.len());
            return found.map(|(i, _)| i).ok_or_else(|| {
                format!(
                    "`{uri}` is neither the `$id` of a file below the registry folder nor a path ending in one of its files (codegen never fetches schemas over the network)"
                )
            });
        }
        if let Some(base) = self.docs[doc].id
            && let Some(joined) = join(base, uri)
            && let Some(found) = by_id(&joined)
        {
            return Ok(found);
        }
        // A relative `$id` (`common/user.schema.json`, `check_run$requested_action`) is
        // resolved against the folder's own base, its root (RFC 3986 5.2 with a base whose path
        // is the root): the ref is resolved against it, and names the file with that `$id`, or
        // else the file at that path.
        if let Some(base) = self.docs[doc].id.map(|id| id.trim_end_matches('#'))
            && !is_absolute(base)
            && !base.starts_with('/')
        {
            let dir = base.rsplit_once('/').map_or("", |(d, _)| d);
            let joined = remove_dots(&if dir.is_empty() {
                uri.to_owned()
            } else {
                format!("{dir}/{uri}")
            });
            if let Some(found) = by_id(&joined).or_else(|| by_path(&joined)) {
                return Ok(found);
            }
        }
        let relative = self.docs[doc].relative;
        let dir = relative.rsplit_once('/').map_or("", |(d, _)| d);
        let joined = remove_dots(&if dir.is_empty() {
            uri.to_owned()
        } else {
            format!("{dir}/{uri}")
        });
        by_path(&joined).ok_or_else(|| {
            format!(
                "no file `{joined}` below the registry folder{}",
                match self.docs[doc].id.and_then(|b| join(b, uri)) {
                    Some(id) => format!(", and no file there has `$id` `{id}`"),
                    None => String::new(),
                }
            )
        })
    }

    /// The schema `target` stands for: past every schema that is a `$ref` and nothing else
    /// (an alias), so a chain of such files is one shared type, not one type per file that
    /// typify then walks once per file (a chain of 10,000 files cost 58.7 s and 1.15 GB,
    /// issue 38). Each alias is followed once: its chain's end is remembered. A chain that
    /// comes back to itself stops where it would repeat (`crate::cycle` reports it).
    fn through_aliases(&mut self, target: (usize, String)) -> (usize, String) {
        let mut followed = Vec::new();
        let mut on_chain = BTreeSet::new();
        let mut at = target;
        let end = loop {
            if let Some(end) = self.alias_ends.get(&at) {
                break end.clone();
            }
            let Some(reference) = self.alias_of(&at) else {
                break at;
            };
            if !on_chain.insert(at.clone()) {
                break at;
            }
            match self.resolve(at.0, reference) {
                Ok(next) => {
                    followed.push(at);
                    at = next;
                }
                // Reported where the alias itself is rewritten.
                Err(_) => break at,
            }
        };
        for alias in followed {
            self.alias_ends.insert(alias, end.clone());
        }
        end
    }

    /// The shared type name of a target, assigned (and queued) on first sight.
    fn name(&mut self, target: (usize, String)) -> String {
        if let Some(name) = self.names.get(&target) {
            return name.clone();
        }
        let (doc, pointer) = &target;
        let relative = self.docs[*doc].relative;
        let stem = relative
            .rsplit('/')
            .next()
            .unwrap_or(relative)
            .trim_end_matches(".json")
            .trim_end_matches(".schema");
        // The pointer's last segment that names something (`Money` in
        // `/schemas/Money/versions/2/schema`), not a keyword or a version.
        let last = pointer
            .rsplit('/')
            .find(|s| {
                !s.is_empty()
                    && !s.bytes().all(|b| b.is_ascii_digit() || b == b'.')
                    && !matches!(
                        *s,
                        "schema" | "versions" | "definitions" | "$defs" | "properties" | "items"
                    )
            })
            .map(|s| s.replace("~1", "/").replace("~0", "~"));
        let mut tries: Vec<String> = Vec::new();
        match &last {
            Some(last) => {
                tries.push(last.to_upper_camel_case());
                tries.push(format!("{stem} {last}").to_upper_camel_case());
            }
            None => tries.push(stem.to_upper_camel_case()),
        }
        tries.push(
            format!(
                "{} {}",
                relative.trim_end_matches(".json").replace('/', " "),
                pointer.replace('/', " ")
            )
            .to_upper_camel_case(),
        );
        let mut name = tries
            .iter()
            .map(|t| fix_ident(t))
            .find(|t| !self.taken.contains(t))
            .unwrap_or_else(|| {
                let base = fix_ident(&tries[0]);
                (2..)
                    .map(|n| format!("{base}{n}"))
                    .find(|t| !self.taken.contains(t))
                    .unwrap_or(base)
            });
        if name.is_empty() {
            name = "Schema".to_owned();
        }
        self.taken.insert(name.clone());
        self.names.insert(target.clone(), name.clone());
        self.queue.push_back(target);
        name
    }
}

impl<'a> Resolver<'a> {
    /// The `$ref` of a schema that is that `$ref` alone (beside `$schema`, `$id` and
    /// `$comment`, which describe no instance and no Rust type).
    fn alias_of(&self, (doc, pointer): &(usize, String)) -> Option<&'a str> {
        let object = self.docs[*doc].value.pointer(pointer)?.as_object()?;
        let reference = object.get("$ref")?.as_str()?;
        object
            .keys()
            .all(|key| matches!(key.as_str(), "$ref" | "$schema" | "$id" | "$comment"))
            .then_some(reference)
    }
}

fn fix_ident(name: &str) -> String {
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("Schema{name}")
    } else {
        name.to_owned()
    }
}

/// Whether a reference has a scheme (`https:`, `urn:`).
pub(crate) fn is_absolute(uri: &str) -> bool {
    match uri.split_once(':') {
        Some((scheme, _)) => {
            scheme.len() > 1
                && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        }
        None => false,
    }
}

/// RFC 3986 reference resolution against a hierarchical base URI (`scheme://authority/path`).
pub(crate) fn join(base: &str, reference: &str) -> Option<String> {
    let (scheme, rest) = base.split_once(':')?;
    let rest = rest.strip_prefix("//")?;
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let path = path.split(['?', '#']).next().unwrap_or(path);
    if let Some(network) = reference.strip_prefix("//") {
        return Some(format!("{scheme}://{network}"));
    }
    let merged = if reference.starts_with('/') {
        reference.to_owned()
    } else {
        let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
        format!("{dir}/{reference}")
    };
    Some(format!("{scheme}://{authority}{}", remove_dots(&merged)))
}

/// Removes `.` and `..` segments from a path.
fn remove_dots(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "." => {}
            ".." => {
                if out.len() > 1 || out.first().is_some_and(|s| !s.is_empty()) {
                    out.pop();
                }
            }
            s => out.push(s),
        }
    }
    out.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_like_rfc_3986() {
        let base = "https://cdevents.dev/0.6.0-draft/schema/ticket-created-event";
        assert_eq!(
            join(base, "links/embeddedlinksarray").as_deref(),
            Some("https://cdevents.dev/0.6.0-draft/schema/links/embeddedlinksarray")
        );
        assert_eq!(
            join(base, "../other/x.json").as_deref(),
            Some("https://cdevents.dev/0.6.0-draft/other/x.json")
        );
        assert_eq!(
            join(base, "/abs").as_deref(),
            Some("https://cdevents.dev/abs")
        );
        assert_eq!(join("urn:x:y", "z"), None);
        assert_eq!(remove_dots("custom/../links/a.json"), "links/a.json");
        assert!(is_absolute("https://x/y") && is_absolute("urn:a:b") && !is_absolute("links/x"));
    }
}
