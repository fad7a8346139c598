//! Changes between two versions of one schema, each at its pointer with the direction(s) it
//! breaks.
//!
//! The differ compares **resolved** schemas: every `$ref` is followed on both sides, through
//! `properties`, `items`, `anyOf`/`oneOf`/`allOf` and `additionalProperties`, so a definition
//! that changed under equal text (`{"$ref": "#/$defs/link"}` on both sides) is still compared.
//! External refs are bundled first ([`resolve`]), so the differ only ever follows refs inside
//! one document and never fetches anything.

mod kind;
mod mode;
mod proto;
pub(crate) mod resolve;
mod walk;

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use serde_json::Value;

pub use kind::Breaks;
pub(crate) use kind::ChangeKind;
pub use mode::Compat;
pub(crate) use proto::{ProtoShape, diff_proto};

/// One change: where it happened, what it was, and where the changed definition lives when
/// it was reached through a `$ref`.
///
/// ```
/// use cloudevent_codegen::{Breaks, diff_schemas};
/// use serde_json::json;
///
/// let old = json!({"properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}});
/// let new = json!({"properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "integer"}}});
/// let change = &diff_schemas(&old, &new)[0];
/// assert_eq!(change.definition.as_deref(), Some("#/$defs/A/type"));
/// assert_eq!(change.breaks(), Breaks::BOTH);
/// assert!(change.to_string().contains("(defined at `#/$defs/A/type`)"), "{change}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The JSON pointer of the changed keyword in the new schema, through every `$ref`
    /// followed (JSON Schema's keyword location), e.g. `/properties/links/$ref/anyOf/0/required`.
    pub pointer: String,
    /// Where the changed schema is defined when a `$ref` led there: `#/$defs/link/required`
    /// inside the same file, or `links/embedded.json#/properties/id` for another file.
    pub definition: Option<String>,
    /// What changed (the rule table's row; shown by `Display`).
    pub(crate) kind: ChangeKind,
}

impl Change {
    /// The directions this change breaks.
    pub fn breaks(&self) -> Breaks {
        self.kind.breaks()
    }

    /// Whether the change breaks the given compatibility mode.
    pub fn breaks_mode(&self, compat: Compat) -> bool {
        compat.is_broken_by(self.breaks())
    }

    /// Whether the change breaks the default mode, [`Compat::Forward`]: a consumer generated
    /// from the old schema may refuse or misread the new producer's events.
    pub fn is_breaking(&self) -> bool {
        self.breaks_mode(Compat::default())
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at `{}`",
            self.kind,
            if self.pointer.is_empty() {
                "/"
            } else {
                &self.pointer
            }
        )?;
        if let Some(definition) = &self.definition {
            write!(f, " (defined at `{definition}`)")?;
        }
        Ok(())
    }
}

/// Every change from `old` to `new`, compatible or not, with the refs inside each document
/// followed. Metadata (`x-cloudevent`, `$id`, `$schema`, `$comment`, `examples`) is not
/// compared: the names are checked by [`crate::check_schema`]. For schemas whose refs reach
/// other files, compare a registry's bundled schemas ([`crate::compare_paths`] on
/// folders, `cloudevent diff`).
///
/// ```
/// use cloudevent_codegen::{Compat, diff_schemas};
/// use serde_json::json;
///
/// let old = json!({"type": "object", "properties": {"a": {"type": "string", "enum": ["x"]}}});
/// let new = json!({"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"]}}});
/// let changes = diff_schemas(&old, &new);
/// assert_eq!(changes[0].pointer, "/properties/a/enum");
/// // An old consumer's enum does not know "y": breaks forward (the default), not backward.
/// assert!(changes[0].is_breaking());
/// assert!(!changes[0].breaks_mode(Compat::Backward));
/// ```
pub fn diff_schemas(old: &Value, new: &Value) -> Vec<Change> {
    diff_documents(old, new, &BTreeMap::new())
}

/// [`diff_schemas`] over bundled documents: `origins` names the file a bundled definition
/// (`#/$bundled/<name>`) came from, for [`Change::definition`].
pub(crate) fn diff_documents(
    old: &Value,
    new: &Value,
    origins: &BTreeMap<String, String>,
) -> Vec<Change> {
    let out = walk::diff(old, new, origins);
    // A definition reached twice from the same place is compared at each visit; report once
    // (a hash set: thousands of enum values changed at one pointer stay linear).
    let mut seen = HashSet::with_capacity(out.len());
    let first: Vec<bool> = out
        .iter()
        .map(|c| seen.insert((&c.pointer, &c.definition, &c.kind)))
        .collect();
    drop(seen);
    out.into_iter()
        .zip(first)
        .filter_map(|(change, first)| first.then_some(change))
        .collect()
}
