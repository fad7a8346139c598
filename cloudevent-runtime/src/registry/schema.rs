//! A type's data schema, compiled once with the `jsonschema` crate, and its failures as
//! findings: every failing member's JSON pointer and the keyword that failed.
//!
//! `jsonschema` is built without default features, so it has no HTTP or file retriever;
//! on top of that it is told to run offline: a `$ref` the schema does not hold itself fails
//! when the registry is built, never at validation time and never by a fetch. `pattern`s run
//! on `fancy-regex` with a backtracking limit, so a hostile event cannot make one run long.

use cloudevent_rules::{Violation, rule};
use jsonschema::PatternOptions;
use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

use super::borrowed::{BorrowedJson, Tree};
use super::text_check::TextCheck;

/// At most this many failures of one event's data are reported; the last finding says that
/// more were cut. A 256 KiB array of wrong items cannot make a report of thousands of lines.
pub(crate) const MAX_DATA_FINDINGS: usize = 32;

/// The backtracking limit of a `pattern` (fancy-regex counts steps, not time).
const BACKTRACK_LIMIT: usize = 100_000;

/// The `format`s the `jsonschema` crate checks, but `date-time`.
pub(crate) const OTHER_FORMATS: [&str; 18] = [
    "date",
    "duration",
    "email",
    "hostname",
    "idn-email",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "iri",
    "iri-reference",
    "json-pointer",
    "regex",
    "relative-json-pointer",
    "time",
    "uri",
    "uri-reference",
    "uri-template",
    "uuid",
];

/// Which `format`s a data schema asserts. `date-time` is asserted under every draft, with the
/// check a [`Timestamp`](crate::Timestamp) makes (the rules' `check_time`: RFC 3339, real
/// calendar values, CE 1.0.2 time) in place of the `jsonschema` crate's own: generated types
/// read a `date-time` member as a `Timestamp` under a type mapping (a schema set published by
/// others, or a registry read with `--type-template` / `--types-pointer`), so there
/// `validate --registry` refuses exactly the text the typed reading refuses (issue 26, one
/// verdict; the default layout's `chrono` date-time reads RFC 3339 too). The other formats
/// keep the draft's default: assertions in drafts 4 to 7, annotations in 2019-09 and 2020-12
/// (there the `jsonschema` crate is told to assert formats, and each other format is given a
/// check that accepts all).
fn formats<'i, R, F: jsonschema::json::Json>(
    options: jsonschema::ValidationOptions<'i, R, F>,
    schema: &Value,
) -> jsonschema::ValidationOptions<'i, R, F> {
    let options = options.with_format("date-time", is_date_time);
    let draft = jsonschema::Draft::default().detect(schema);
    if !matches!(
        draft,
        jsonschema::Draft::Draft201909 | jsonschema::Draft::Draft202012
    ) {
        // Drafts 4 to 7 assert formats; a meta-schema of its own says for itself.
        return options;
    }
    OTHER_FORMATS
        .iter()
        .fold(options.should_validate_formats(true), |options, name| {
            options.with_format(*name, |_: &str| true)
        })
}

pub(crate) fn is_date_time(text: &str) -> bool {
    crate::value::time_violations(text)
        .iter()
        .all(|v| !v.is_error())
}

/// A compiled data schema: once for `serde_json::Value` (the failures of invalid data), once
/// for the borrowed tree of `borrowed.rs` (whether data is valid, without a `Value`).
pub(crate) struct CompiledSchema {
    validator: jsonschema::Validator,
    borrowed: jsonschema::Validator<BorrowedJson>,
    /// The check run on the text itself first, when the schema compiles to one.
    text: Option<TextCheck>,
}

impl CompiledSchema {
    /// Compiles a self-contained schema; the error is `jsonschema`'s message (an invalid
    /// keyword, a `$ref` the schema does not hold, a pattern that does not compile).
    pub(crate) fn compile(schema: &Value) -> Result<Self, String> {
        let validator = jsonschema::options()
            .offline()
            .with_pattern_options(PatternOptions::fancy_regex().backtrack_limit(BACKTRACK_LIMIT));
        let validator = formats(validator, schema)
            .build(schema)
            .map_err(|error| error.to_string())?;
        let borrowed = jsonschema::options_for::<BorrowedJson>()
            .offline()
            .with_pattern_options(PatternOptions::fancy_regex().backtrack_limit(BACKTRACK_LIMIT));
        let borrowed = formats(borrowed, schema)
            .build(schema)
            .map_err(|error| error.to_string())?;
        Ok(CompiledSchema {
            validator,
            borrowed,
            text: TextCheck::compile(schema),
        })
    }

    /// Whether `data`'s JSON text is valid, read as a borrowed tree; `None` when the tree is
    /// left to the `Value` path (see `borrowed.rs`). The same answer as [`Self::findings`]
    /// being empty (`the_borrowed_tree_gives_the_value_paths_verdict` below).
    ///
    /// The text check goes first (`text_check.rs`); only its "valid" is taken, anything else
    /// is the tree's to decide.
    pub(crate) fn is_valid_text(&self, text: &str) -> Option<bool> {
        if self.text.as_ref().is_some_and(|check| check.accepts(text)) {
            return Some(true);
        }
        Tree::parse(text).map(|tree| self.borrowed.is_valid(tree.root()))
    }

    /// Every failure of `data`, as findings of `registry data`, up to
    /// [`MAX_DATA_FINDINGS`].
    pub(crate) fn findings(&self, event_type: &str, data: &Value) -> Vec<Violation> {
        let mut found = Vec::new();
        // The common case, valid data, without building the error iterator's state.
        if self.validator.is_valid(data) {
            return found;
        }
        for error in self.validator.iter_errors(data) {
            if found.len() == MAX_DATA_FINDINGS {
                found.push(
                    Violation::error(
                        rule::REGISTRY_DATA,
                        "data",
                        "",
                        format!(
                            "more failures against the registry's schema for `{event_type}` were not listed (at most {MAX_DATA_FINDINGS})"
                        ),
                    ),
                );
                break;
            }
            let keyword = error.kind().keyword().to_owned();
            let mut pointer = error.instance_path().as_str().to_owned();
            // A missing member is named by its own pointer, not its parent's.
            if let ValidationErrorKind::Required { property } = error.kind()
                && let Some(name) = property.as_str()
            {
                pointer.push('/');
                pointer.push_str(&name.replace('~', "~0").replace('/', "~1"));
            }
            let problem = match error.kind() {
                ValidationErrorKind::Required { .. } => {
                    "is required by the schema but missing".to_owned()
                }
                // Masked: a report never quotes `data` (it may hold what the gateway must not
                // log), only names where it fails.
                _ => error.masked_with("the value").to_string(),
            };

            // The attribute is `data` followed by the member's JSON pointer, so a report
            // names each failing member on its own.
            let finding = Violation::error(
                rule::REGISTRY_DATA,
                format!("data{pointer}"),
                "",
                format!(
                    "{problem} (keyword `{keyword}` at schema `#{}`)",
                    error.schema_path().as_str()
                ),
            );
            found.push(
                if pointer.is_empty() {
                    finding.with_part("(the whole `data`)")
                } else {
                    finding
                }
                .with_hint(format!(
                    "send data the registry's schema for `{event_type}` accepts"
                )),
            );
        }
        found
    }
}

impl std::fmt::Debug for CompiledSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CompiledSchema")
    }
}

#[cfg(test)]
mod tests {
    //! The borrowed tree's verdict against the `Value` path's, on every schema of this
    //! repository's registry and the registry corpus's data, each also mutated member by member
    //! (removed, given another JSON type, emptied): `is_valid_text` is `Some(valid)` exactly when
    //! `findings` is empty, or `None` (left to the `Value` path).
    use std::path::Path;

    use serde_json::{Value, json};

    use super::CompiledSchema;

    fn root() -> &'static Path {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
    }

    fn schemas() -> Vec<(String, Value)> {
        let mut found = Vec::new();
        for dir in std::fs::read_dir(root().join("schemas")).unwrap() {
            let dir = dir.unwrap().path();
            if !dir.is_dir() {
                continue;
            }
            for file in std::fs::read_dir(&dir).unwrap() {
                let file = file.unwrap().path();
                if file.extension().is_some_and(|e| e == "json") {
                    let schema = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
                    found.push((file.display().to_string(), schema));
                }
            }
        }
        assert!(found.len() >= 8, "{found:?}");
        found
    }

    /// `data` of every registry corpus event, and a few shapes of its own.
    fn instances() -> Vec<Value> {
        let mut found = vec![json!(null), json!({}), json!([]), json!("text"), json!(1.5)];
        for name in ["order-created.json", "expedited.json", "xregistry.json"] {
            let path = root().join("cloudevent-cli/tests/data/registry").join(name);
            let document: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
            collect_data(&document, &mut found);
        }
        assert!(found.len() > 5, "{found:?}");
        found
    }

    fn collect_data(value: &Value, found: &mut Vec<Value>) {
        match value {
            Value::Object(members) => {
                if let Some(data) = members.get("data") {
                    found.push(data.clone());
                }
                members.values().for_each(|v| collect_data(v, found));
            }
            Value::Array(items) => items.iter().for_each(|v| collect_data(v, found)),
            _ => {}
        }
    }

    /// `value` and, for every member or item anywhere in it, copies with that one changed.
    fn mutations(value: &Value) -> Vec<Value> {
        let replacements = [
            json!(null),
            json!(true),
            json!(-1),
            json!(0),
            json!(2.5),
            json!(""),
            json!("EUR"),
            json!("web"),
            json!([]),
            json!({}),
            json!("2026-03-28T14:22:31Z"),
        ];
        let mut out = vec![value.clone()];
        match value {
            Value::Object(members) => {
                for (name, member) in members {
                    let mut removed = members.clone();
                    removed.remove(name);
                    out.push(Value::Object(removed));
                    for replacement in replacements.iter().chain(mutations(member).iter().skip(1)) {
                        let mut changed = members.clone();
                        changed.insert(name.clone(), replacement.clone());
                        out.push(Value::Object(changed));
                    }
                }
                let mut extra = members.clone();
                extra.insert("unexpected".into(), json!(1));
                out.push(Value::Object(extra));
            }
            Value::Array(items) => {
                out.push(json!([]));
                for (i, item) in items.iter().enumerate() {
                    for replacement in replacements.iter().chain(mutations(item).iter().skip(1)) {
                        let mut changed = items.clone();
                        changed[i] = replacement.clone();
                        out.push(Value::Array(changed));
                    }
                }
            }
            _ => {}
        }
        out
    }

    #[test]
    fn the_borrowed_tree_gives_the_value_paths_verdict() {
        let (mut checked, mut valid, mut invalid) = (0, 0, 0);
        for (file, schema) in schemas() {
            let compiled = CompiledSchema::compile(&schema).unwrap();
            for instance in instances().iter().flat_map(mutations) {
                let text = instance.to_string();
                let expected = compiled.findings("com.example.test", &instance).is_empty();
                let got = compiled.is_valid_text(&text);
                assert_eq!(got, Some(expected), "{file}: {text}");
                checked += 1;
                if expected { valid += 1 } else { invalid += 1 }
            }
        }
        assert!(
            checked > 2000 && valid > 30 && invalid > 2000,
            "{checked} {valid} {invalid}"
        );
    }

    #[test]
    fn repeated_members_are_left_to_the_value_path() {
        let compiled = CompiledSchema::compile(&json!({"type": "object"})).unwrap();
        assert_eq!(compiled.is_valid_text(r#"{"a":1,"a":2}"#), None);
        assert_eq!(compiled.is_valid_text(r#"{"a":1}"#), Some(true));
        assert_eq!(compiled.is_valid_text("[]"), Some(false));
    }
}
