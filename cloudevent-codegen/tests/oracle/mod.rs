//! The `jsonschema` crate's verdict on data against a schema as its folder publishes it: the
//! original file, its `$ref`s to other files of the folder resolved by `$id` or by path, and
//! `format` as its draft says (asserted up to draft 7, an annotation from 2019-09 on). The
//! oracle the typed verdicts of `vendor_shapes.rs`, the published-set mutants of `sets.rs` and
//! the fixtures' mutants of `tests/codegen-build` are held to; nothing here is codegen's own.
//! `mutants` makes the mutants of an example payload.

#![allow(dead_code, reason = "each test file uses the part it needs")]

use std::collections::HashMap;
use std::path::Path;

use serde_json::{Value, json};

/// Every schema of a folder, by its `$id` and by its `file://` path.
struct Folder(std::sync::Arc<HashMap<String, Value>>);

impl jsonschema::Retrieve for Folder {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let text = uri.as_str();
        let bare = text.split('#').next().unwrap_or(text);
        self.0
            .get(bare)
            .cloned()
            .ok_or_else(|| format!("{bare} is not a schema of the folder").into())
    }
}

/// The compiled schemas of a folder, one validator per file asked for.
pub struct Oracle {
    folder: std::sync::Arc<HashMap<String, Value>>,
    compiled: HashMap<String, jsonschema::Validator>,
}

impl Oracle {
    /// Reads every `.json` file under `root`.
    pub fn new(root: &Path) -> Oracle {
        let mut folder = HashMap::new();
        let base = root.canonicalize().unwrap();
        let mut stack = vec![root.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                if path.extension().is_none_or(|e| e != "json") {
                    continue;
                }
                let Ok(mut schema) =
                    serde_json::from_slice::<Value>(&std::fs::read(&path).unwrap())
                else {
                    continue;
                };
                // A relative `$id` (GitHub's `common/user.schema.json`) is read against the
                // folder, as codegen and python-jsonschema's registry read it.
                if let Some(id) = schema.get("$id").and_then(Value::as_str)
                    && !id.contains(':')
                {
                    let absolute = format!("file://{}/{id}", base.display());
                    schema["$id"] = Value::String(absolute);
                }
                let canonical = path.canonicalize().unwrap();
                folder.insert(format!("file://{}", canonical.display()), schema.clone());
                if let Some(id) = schema.get("$id").and_then(Value::as_str) {
                    folder.insert(id.split('#').next().unwrap_or(id).to_owned(), schema);
                }
            }
        }
        Oracle {
            folder: std::sync::Arc::new(folder),
            compiled: HashMap::new(),
        }
    }

    /// `None` when `data` is valid against the schema file `schema`, else the first error.
    pub fn verdict(&mut self, schema: &Path, data: &Value) -> Option<String> {
        self.verdict_at(schema, "", data)
    }

    /// `None` when `data` is valid against the schema at `pointer` of the document `document`
    /// (an xRegistry catalog's `/schemagroups/g/schemas/s/versions/v/schema`), else the first
    /// error. A schema inside a document is read as draft 7 unless it names its own draft.
    pub fn verdict_at(&mut self, document: &Path, pointer: &str, data: &Value) -> Option<String> {
        let validator = self
            .compile(document, pointer)
            .unwrap_or_else(|e| panic!("{e}"));
        validator
            .iter_errors(data)
            .next()
            .map(|e| format!("{}: {e}", e.instance_path()))
    }

    /// The validator of the schema at `pointer` of `document`, or why the `jsonschema` crate
    /// cannot compile it (a `$ref` that names no schema of the folder by JSON Schema's rules).
    pub fn compile(
        &mut self,
        document: &Path,
        pointer: &str,
    ) -> Result<&jsonschema::Validator, String> {
        let canonical = document.canonicalize().unwrap();
        let file = format!("file://{}", canonical.display());
        let key = format!("{file}#{pointer}");
        if !self.compiled.contains_key(&key) {
            let contents = if pointer.is_empty() {
                self.folder[&file].clone()
            } else {
                // The document itself is no schema: the member is checked through a `$ref`
                // into it, so its own `$ref`s resolve against the document.
                let id = self.folder[&file]
                    .get("$id")
                    .and_then(Value::as_str)
                    .unwrap_or(&file)
                    .to_owned();
                serde_json::json!({"$schema": "http://json-schema.org/draft-07/schema#",
                    "$ref": format!("{id}#{pointer}")})
            };
            // `format` as the draft says: an assertion up to draft 7 (as codegen and the
            // registry read it), an annotation from 2019-09 on.
            let draft = jsonschema::Draft::default().detect(&contents);
            let asserted = !matches!(
                draft,
                jsonschema::Draft::Draft201909 | jsonschema::Draft::Draft202012
            );
            let mut options = jsonschema::options()
                .with_retriever(Folder(self.folder.clone()))
                .should_validate_formats(asserted);
            // The wrapper of a member is no resource of the document: under the document's
            // own URI it would shadow it, and its `$ref` would look for the member in itself.
            if contents.get("$id").is_none() && pointer.is_empty() {
                options = options.with_base_uri(file.clone());
            }
            let built = options.build(&contents);
            let validator = match built {
                Ok(validator) => validator,
                // A member that is a schema document of its own (an xRegistry schema version,
                // retrievable at its own URL: its `#/definitions/x` are its own).
                Err(_) if !pointer.is_empty() => {
                    let mut own = self.folder[&file]
                        .pointer(pointer)
                        .cloned()
                        .unwrap_or_default();
                    if let Some(object) = own.as_object_mut() {
                        object
                            .entry("$schema")
                            .or_insert_with(|| "http://json-schema.org/draft-07/schema#".into());
                    }
                    jsonschema::options()
                        .with_retriever(Folder(self.folder.clone()))
                        .should_validate_formats(asserted)
                        .build(&own)
                        .map_err(|e| format!("{key} does not compile: {e}"))?
                }
                Err(e) => return Err(format!("{key} does not compile: {e}")),
            };
            self.compiled.insert(key.clone(), validator);
        }
        Ok(&self.compiled[&key])
    }
}

/// The mutants of one example payload, each with what was done: at up to four leaves spread
/// over the payload, the leaf's JSON type changed and its value broken (a string no `enum`,
/// `const`, `pattern` or `format` takes; a number off every bound and not an integer); the
/// first member of the payload, and of the deepest object on the way to a mutated leaf,
/// dropped (a required member, when it is one); an unknown member added there (refused by
/// `additionalProperties: false`).
pub fn mutants(payload: &serde_json::Value) -> Vec<(String, serde_json::Value)> {
    use serde_json::{Value, json};
    fn leaves(value: &Value, at: String, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => map.iter().for_each(|(k, v)| {
                leaves(
                    v,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                )
            }),
            Value::Array(list) => list
                .iter()
                .enumerate()
                .for_each(|(i, v)| leaves(v, format!("{at}/{i}"), out)),
            _ => out.push(at),
        }
    }
    let mut all = Vec::new();
    leaves(payload, String::new(), &mut all);
    let chosen: Vec<&String> = match all.len() {
        0 => Vec::new(),
        n => (0..4.min(n)).map(|i| &all[i * n / 4.min(n)]).collect(),
    };
    let mut out = Vec::new();
    let mut set = |pointer: &str, value: Value, what: String| {
        let mut mutant = payload.clone();
        *mutant.pointer_mut(pointer).unwrap() = value;
        out.push((what, mutant));
    };
    for pointer in &chosen {
        let leaf = payload.pointer(pointer).unwrap();
        let (retyped, broken) = match leaf {
            Value::String(_) => (json!(12345), json!("\u{1}mutant")),
            Value::Number(n) if n.is_f64() => (json!("12345"), json!(-1.0e300)),
            Value::Number(_) => (json!("12345"), json!(2.5)),
            Value::Bool(b) => (json!("true"), json!(!b)),
            _ => (json!(0), json!("null")),
        };
        set(pointer, retyped, format!("{pointer}: type changed"));
        set(pointer, broken, format!("{pointer}: value broken"));
    }
    let mut objects = vec![String::new()];
    if let Some(deep) = chosen.last() {
        let parent = &deep[..deep.rfind('/').unwrap_or(0)];
        if !parent.is_empty() && payload.pointer(parent).is_some_and(Value::is_object) {
            objects.push(parent.to_owned());
        }
    }
    for object in objects {
        let Some(Value::Object(map)) = payload.pointer(&object) else {
            continue;
        };
        if let Some(first) = map.keys().next() {
            let mut mutant = payload.clone();
            mutant
                .pointer_mut(&object)
                .unwrap()
                .as_object_mut()
                .unwrap()
                .remove(first);
            out.push((format!("{object}/{first}: dropped"), mutant));
        }
        let mut mutant = payload.clone();
        mutant
            .pointer_mut(&object)
            .unwrap()
            .as_object_mut()
            .unwrap()
            .insert("x_mutant_member".into(), json!(1));
        out.push((format!("{object}: unknown member added"), mutant));
    }
    out
}

/// How a typed reading of a mutant compares with the oracle's verdict on it.
#[derive(Debug)]
pub enum Compared {
    /// Both refuse it.
    BothRefuse,
    /// Both accept it, and the typed reading writes it back unchanged.
    BothAccept,
    /// The typed reading refuses what the schema accepts (its message).
    TypedRefuses(String),
    /// A disagreement: what differs.
    Differs(String),
}

/// `read` is the typed reading (the data written back, `None` for an event read as another
/// type, or the reader's message), `verdict` the oracle's on `mutant`.
pub fn compare(
    read: Result<Option<Value>, String>,
    verdict: Option<String>,
    mutant: &Value,
) -> Compared {
    match (read, verdict) {
        (Ok(back), None) if back.as_ref() == Some(mutant) => Compared::BothAccept,
        (Ok(back), None) => Compared::Differs(format!("written back as {back:?}")),
        (Err(_), Some(_)) => Compared::BothRefuse,
        (Ok(_), Some(why)) => Compared::Differs(format!("read, the schema refuses it: {why}")),
        (Err(error), None) => Compared::TypedRefuses(error),
    }
}

/// A value `schema` may accept, built from its keywords (`type`, `properties`, `items`,
/// `enum`, `const`, `format`): the first instance of a set that ships no examples, judged
/// like every other by the verdict, never assumed valid.
pub fn filled(schema: &Value) -> Value {
    if let Some(first) = schema.get("enum").and_then(|e| e.get(0)) {
        return first.clone();
    }
    if let Some(value) = schema.get("const") {
        return value.clone();
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.iter().map(|(k, v)| (k.clone(), filled(v))).collect())
            .unwrap_or_else(|| json!({})),
        Some("array") => json!([filled(schema.get("items").unwrap_or(&json!({})))]),
        Some("integer") => json!(7),
        Some("number") => json!(7.5),
        Some("boolean") => json!(true),
        _ => match schema.get("format").and_then(Value::as_str) {
            Some("email") => json!("someone@example.com"),
            Some("date-time") => json!("2025-01-02T03:04:05Z"),
            Some("date") => json!("2025-01-02"),
            Some("uri") => json!("https://example.com/a"),
            _ => json!("t1"),
        },
    }
}

/// Holds each typed read (a line of `scratch::Reader`, or of a set test's own reader: `ok`,
/// `refused\t..`, `other`, `differs\t..`) to the verdict of its event: `ok` where the schema
/// accepts, a refusal where it refuses. Returns how many were accepted and written back
/// unchanged, and each disagreement as `(what, typed line, verdict)`.
pub fn tally<S: AsRef<str>>(
    lines: &[S],
    verdicts: &[(String, Option<String>)],
) -> (usize, Vec<(String, String, Option<String>)>) {
    assert_eq!(lines.len(), verdicts.len(), "one typed read a verdict");
    let mut accepted = 0;
    let mut disagreements = Vec::new();
    for (line, (what, verdict)) in lines.iter().zip(verdicts) {
        match (line.as_ref(), verdict) {
            ("ok", None) => accepted += 1,
            (typed, Some(_)) if typed.starts_with("refused") => {}
            (typed, verdict) => {
                disagreements.push((what.clone(), typed.to_owned(), verdict.clone()));
            }
        }
    }
    (accepted, disagreements)
}

/// Fails listing every disagreement [`tally`] found.
pub fn assert_agree(disagreements: &[(String, String, Option<String>)], events: usize) {
    let listed: Vec<String> = disagreements
        .iter()
        .map(|(what, typed, verdict)| {
            format!("{what}\n  typed: {typed}\n  jsonschema: {verdict:?}")
        })
        .collect();
    assert!(
        listed.is_empty(),
        "{} of {events} events disagree with jsonschema:\n{}",
        listed.len(),
        listed.join("\n")
    );
}
