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

/// At most this many failures of one event's data are reported; the last finding says that
/// more were cut. A 256 KiB array of wrong items cannot make a report of thousands of lines.
pub(crate) const MAX_DATA_FINDINGS: usize = 32;

/// The backtracking limit of a `pattern` (fancy-regex counts steps, not time).
const BACKTRACK_LIMIT: usize = 100_000;

/// A compiled data schema.
pub(crate) struct CompiledSchema {
    validator: jsonschema::Validator,
}

impl CompiledSchema {
    /// Compiles a self-contained schema; the error is `jsonschema`'s message (an invalid
    /// keyword, a `$ref` the schema does not hold, a pattern that does not compile).
    pub(crate) fn compile(schema: &Value) -> Result<Self, String> {
        jsonschema::options()
            .offline()
            .with_pattern_options(PatternOptions::fancy_regex().backtrack_limit(BACKTRACK_LIMIT))
            .build(schema)
            .map(|validator| CompiledSchema { validator })
            .map_err(|error| error.to_string())
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
