//! Breaking-change detection between two versions of one schema file.
//!
//! The question is the producer's: may a producer of the new schema emit data that a
//! consumer written against the old schema rejects or misreads? Anything that removes,
//! renames, narrows or newly requires something is breaking; adding an optional property to
//! an open object, loosening a bound or editing a description is compatible.

use std::fmt;

use serde_json::Value;

use crate::error::pointer_segment;

/// What changed between two versions of a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChangeKind {
    /// A property of the old schema is gone (a rename shows as a removal plus an addition).
    PropertyRemoved(String),
    /// A property was added; compatible only when optional and the object is open.
    PropertyAdded {
        /// Its name.
        name: String,
        /// Whether the new schema requires it.
        required: bool,
    },
    /// `type` changed to something that is not a superset of the old one.
    TypeChanged {
        /// The old `type`.
        old: String,
        /// The new `type`.
        new: String,
    },
    /// `type` widened (e.g. `integer` to `number`, or a type added to a list).
    TypeWidened {
        /// The old `type`.
        old: String,
        /// The new `type`.
        new: String,
    },
    /// A property became required.
    NewlyRequired(String),
    /// A property is no longer required.
    NoLongerRequired(String),
    /// An enum value was removed.
    EnumValueRemoved(Value),
    /// An enum value was added.
    EnumValueAdded(Value),
    /// A value became restricted to an enumeration.
    EnumAdded,
    /// `additionalProperties` went from open (absent or `true`) to closed.
    AdditionalPropertiesClosed,
    /// `additionalProperties` went from closed to open.
    AdditionalPropertiesOpened,
    /// A bound (`minimum`, `maxLength`, `minItems`, ...) was added or moved inward.
    BoundTightened {
        /// The keyword.
        keyword: String,
        /// The old value (`None`: there was no bound).
        old: Option<Value>,
        /// The new value.
        new: Value,
    },
    /// A bound was removed or moved outward.
    BoundLoosened {
        /// The keyword.
        keyword: String,
        /// The old value.
        old: Value,
        /// The new value (`None`: the bound is gone).
        new: Option<Value>,
    },
    /// `pattern` was added or changed.
    PatternChanged {
        /// The old pattern.
        old: Option<String>,
        /// The new pattern.
        new: String,
    },
    /// `pattern` was removed.
    PatternRemoved(String),
    /// `format` was added or changed.
    FormatChanged {
        /// The old format.
        old: Option<String>,
        /// The new format.
        new: String,
    },
    /// `format` was removed.
    FormatRemoved(String),
    /// `const` was added or changed.
    ConstChanged {
        /// The old constant.
        old: Option<Value>,
        /// The new constant.
        new: Value,
    },
    /// `const` was removed.
    ConstRemoved(Value),
    /// `description` or `title` changed.
    DescriptionChanged,
    /// A `$ref` now points elsewhere.
    ReferenceChanged {
        /// The old target.
        old: String,
        /// The new target.
        new: String,
    },
    /// A change the checker cannot classify (e.g. in `oneOf`); treated as breaking so a
    /// person looks at it.
    Unclassified(String),
}

impl ChangeKind {
    /// Whether a consumer of the old schema may reject data valid under the new one.
    pub fn is_breaking(&self) -> bool {
        match self {
            ChangeKind::PropertyAdded { required, .. } => *required,
            ChangeKind::TypeWidened { .. }
            | ChangeKind::NoLongerRequired(_)
            | ChangeKind::EnumValueAdded(_)
            | ChangeKind::AdditionalPropertiesOpened
            | ChangeKind::BoundLoosened { .. }
            | ChangeKind::PatternRemoved(_)
            | ChangeKind::FormatRemoved(_)
            | ChangeKind::ConstRemoved(_)
            | ChangeKind::DescriptionChanged => false,
            ChangeKind::PropertyRemoved(_)
            | ChangeKind::TypeChanged { .. }
            | ChangeKind::NewlyRequired(_)
            | ChangeKind::EnumValueRemoved(_)
            | ChangeKind::EnumAdded
            | ChangeKind::AdditionalPropertiesClosed
            | ChangeKind::BoundTightened { .. }
            | ChangeKind::PatternChanged { .. }
            | ChangeKind::FormatChanged { .. }
            | ChangeKind::ConstChanged { .. }
            | ChangeKind::ReferenceChanged { .. }
            | ChangeKind::Unclassified(_) => true,
        }
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opt = |v: &Option<Value>| {
            v.as_ref()
                .map_or_else(|| "none".to_owned(), Value::to_string)
        };
        match self {
            ChangeKind::PropertyRemoved(name) => {
                write!(f, "property `{name}` removed (or renamed)")
            }
            ChangeKind::PropertyAdded {
                name,
                required: true,
            } => {
                write!(f, "required property `{name}` added")
            }
            ChangeKind::PropertyAdded {
                name,
                required: false,
            } => {
                write!(f, "optional property `{name}` added")
            }
            ChangeKind::TypeChanged { old, new } => write!(f, "type changed from {old} to {new}"),
            ChangeKind::TypeWidened { old, new } => write!(f, "type widened from {old} to {new}"),
            ChangeKind::NewlyRequired(name) => write!(f, "property `{name}` is now required"),
            ChangeKind::NoLongerRequired(name) => {
                write!(f, "property `{name}` is no longer required")
            }
            ChangeKind::EnumValueRemoved(v) => write!(f, "enum value {v} removed"),
            ChangeKind::EnumValueAdded(v) => write!(f, "enum value {v} added"),
            ChangeKind::EnumAdded => f.write_str("values restricted to an `enum`"),
            ChangeKind::AdditionalPropertiesClosed => f.write_str("`additionalProperties` closed"),
            ChangeKind::AdditionalPropertiesOpened => f.write_str("`additionalProperties` opened"),
            ChangeKind::BoundTightened { keyword, old, new } => {
                write!(f, "`{keyword}` tightened from {} to {new}", opt(old))
            }
            ChangeKind::BoundLoosened { keyword, old, new } => {
                write!(f, "`{keyword}` loosened from {old} to {}", opt(new))
            }
            ChangeKind::PatternChanged { old, new } => write!(
                f,
                "`pattern` changed from {} to `{new}`",
                old.as_deref()
                    .map_or_else(|| "none".to_owned(), |p| format!("`{p}`"))
            ),
            ChangeKind::PatternRemoved(p) => write!(f, "`pattern` `{p}` removed"),
            ChangeKind::FormatChanged { old, new } => write!(
                f,
                "`format` changed from {} to `{new}`",
                old.as_deref()
                    .map_or_else(|| "none".to_owned(), |p| format!("`{p}`"))
            ),
            ChangeKind::FormatRemoved(p) => write!(f, "`format` `{p}` removed"),
            ChangeKind::ConstChanged { old, new } => {
                write!(f, "`const` changed from {} to {new}", opt(old))
            }
            ChangeKind::ConstRemoved(v) => write!(f, "`const` {v} removed"),
            ChangeKind::DescriptionChanged => f.write_str("description changed"),
            ChangeKind::ReferenceChanged { old, new } => {
                write!(f, "`$ref` changed from `{old}` to `{new}`")
            }
            ChangeKind::Unclassified(keyword) => {
                write!(
                    f,
                    "`{keyword}` changed (not classified; treated as breaking)"
                )
            }
        }
    }
}

/// One change, where it happened (a JSON pointer into the new schema) and what it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The JSON pointer of the changed schema position, e.g. `/properties/total/minimum`.
    pub pointer: String,
    /// What changed.
    pub kind: ChangeKind,
}

impl Change {
    /// Whether the change breaks consumers of the old schema.
    pub fn is_breaking(&self) -> bool {
        self.kind.is_breaking()
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
        )
    }
}

/// Every change from `old` to `new`, compatible or not. Metadata (`x-cloudevent`, `$id`,
/// `$schema`, `$comment`, `examples`) is not compared here: the names are checked by
/// [`crate::check_schema`].
///
/// ```
/// use cloudevent_codegen::diff_schemas;
/// use serde_json::json;
///
/// let old = json!({"type": "object", "properties": {"a": {"type": "string"}}});
/// let new = json!({"type": "object", "properties": {"a": {"type": "integer"}}});
/// let changes = diff_schemas(&old, &new);
/// assert_eq!(changes[0].pointer, "/properties/a/type");
/// assert!(changes[0].is_breaking());
/// ```
pub fn diff_schemas(old: &Value, new: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    let mut differ = Differ {
        old_root: old,
        new_root: new,
        out: &mut out,
        depth: 0,
    };
    differ.schema(old, new, String::new());
    // A definition used in several places is compared at each use; report it once.
    let mut unique: Vec<Change> = Vec::with_capacity(out.len());
    for change in out {
        if !unique.contains(&change) {
            unique.push(change);
        }
    }
    unique
}

/// Bounds where a larger value is stricter.
const LOWER_BOUNDS: [&str; 5] = [
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
];
/// Bounds where a smaller value is stricter.
const UPPER_BOUNDS: [&str; 5] = [
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
];
/// Keywords whose subschemas are compared position by position but not classified further.
const COMPOSITIONS: [&str; 3] = ["allOf", "anyOf", "oneOf"];
/// Keywords that never change what validates.
const ANNOTATIONS: [&str; 10] = [
    "description",
    "title",
    "$comment",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$schema",
    "$id",
];

struct Differ<'a> {
    old_root: &'a Value,
    new_root: &'a Value,
    out: &'a mut Vec<Change>,
    /// Guards against `$ref` cycles.
    depth: usize,
}

impl Differ<'_> {
    fn same_definitions(&self) -> bool {
        ["$defs", "definitions"]
            .iter()
            .all(|k| self.old_root.get(*k) == self.new_root.get(*k))
    }

    fn push(&mut self, pointer: String, kind: ChangeKind) {
        self.out.push(Change { pointer, kind });
    }

    fn schema(&mut self, old: &Value, new: &Value, at: String) {
        // Equal text is only equal meaning when the definitions it may reference are equal too.
        if self.depth > 32 || (old == new && self.same_definitions()) {
            return;
        }
        let (Some(o), Some(n)) = (old.as_object(), new.as_object()) else {
            // Boolean schemas: `true` → `false` narrows, `false` → `true` widens.
            if old == &Value::Bool(false) || new == &Value::Bool(true) {
                return;
            }
            self.push(at, ChangeKind::Unclassified("schema".into()));
            return;
        };
        // A `$ref` on both sides to the same name is compared through its definition.
        match (
            o.get("$ref").and_then(Value::as_str),
            n.get("$ref").and_then(Value::as_str),
        ) {
            (Some(a), Some(b)) if a == b => {
                let target = &a[1.min(a.len())..];
                if let (Some(old_def), Some(new_def)) =
                    (self.old_root.pointer(target), self.new_root.pointer(target))
                {
                    let (old_def, new_def) = (old_def.clone(), new_def.clone());
                    self.depth += 1;
                    self.schema(&old_def, &new_def, target.to_owned());
                    self.depth -= 1;
                }
            }
            (Some(a), Some(b)) => self.push(
                format!("{at}/$ref"),
                ChangeKind::ReferenceChanged {
                    old: a.into(),
                    new: b.into(),
                },
            ),
            (None, None) => {}
            (a, b) => self.push(
                format!("{at}/$ref"),
                ChangeKind::ReferenceChanged {
                    old: a.unwrap_or("(inline)").into(),
                    new: b.unwrap_or("(inline)").into(),
                },
            ),
        }
        if ANNOTATIONS
            .iter()
            .any(|k| o.get(*k) != n.get(*k) && (*k == "description" || *k == "title"))
        {
            self.push(at.clone(), ChangeKind::DescriptionChanged);
        }
        self.types(o.get("type"), n.get("type"), &at);
        self.properties(o, n, &at);
        self.required(o, n, &at);
        self.enums(o.get("enum"), n.get("enum"), &at);
        self.additional(
            o.get("additionalProperties"),
            n.get("additionalProperties"),
            &at,
        );
        self.bounds(o, n, &at);
        self.text_constraint("pattern", o.get("pattern"), n.get("pattern"), &at);
        self.text_constraint("format", o.get("format"), n.get("format"), &at);
        match (o.get("const"), n.get("const")) {
            (a, Some(b)) if a != Some(b) => self.push(
                format!("{at}/const"),
                ChangeKind::ConstChanged {
                    old: a.cloned(),
                    new: b.clone(),
                },
            ),
            (Some(a), None) => {
                self.push(format!("{at}/const"), ChangeKind::ConstRemoved(a.clone()))
            }
            _ => {}
        }
        for keyword in ["items", "additionalItems", "contains", "propertyNames"] {
            match (o.get(keyword), n.get(keyword)) {
                (Some(a), Some(b)) => self.schema(a, b, format!("{at}/{keyword}")),
                (None, Some(b)) => self.schema(&Value::Bool(true), b, format!("{at}/{keyword}")),
                (Some(a), None) => self.schema(a, &Value::Bool(true), format!("{at}/{keyword}")),
                (None, None) => {}
            }
        }
        for keyword in COMPOSITIONS.iter().chain(["prefixItems"].iter()) {
            let (a, b) = (o.get(*keyword), n.get(*keyword));
            if a == b {
                continue;
            }
            match (a.and_then(Value::as_array), b.and_then(Value::as_array)) {
                (Some(a), Some(b)) if a.len() == b.len() => {
                    for (i, (x, y)) in a.iter().zip(b).enumerate() {
                        self.schema(x, y, format!("{at}/{keyword}/{i}"));
                    }
                }
                _ => self.push(
                    format!("{at}/{keyword}"),
                    ChangeKind::Unclassified((*keyword).into()),
                ),
            }
        }
    }

    fn types(&mut self, old: Option<&Value>, new: Option<&Value>, at: &str) {
        let set = |v: Option<&Value>| -> Option<Vec<String>> {
            match v? {
                Value::String(s) => Some(vec![s.clone()]),
                Value::Array(list) => Some(
                    list.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect(),
                ),
                _ => None,
            }
        };
        let (old_set, new_set) = (set(old), set(new));
        if old_set == new_set {
            return;
        }
        let show =
            |s: &Option<Vec<String>>| s.as_ref().map_or_else(|| "any".to_owned(), |s| s.join("|"));
        let pointer = format!("{at}/type");
        let kind = match (&old_set, &new_set) {
            // No `type` any more: anything goes, which is wider.
            (_, None) => ChangeKind::TypeWidened {
                old: show(&old_set),
                new: show(&new_set),
            },
            (None, Some(_)) => ChangeKind::TypeChanged {
                old: show(&old_set),
                new: show(&new_set),
            },
            (Some(a), Some(b)) => {
                // `number` admits every `integer`.
                let admits = |b: &[String], t: &String| {
                    b.contains(t) || (t == "integer" && b.iter().any(|x| x == "number"))
                };
                if a.iter().all(|t| admits(b, t)) {
                    ChangeKind::TypeWidened {
                        old: show(&old_set),
                        new: show(&new_set),
                    }
                } else {
                    ChangeKind::TypeChanged {
                        old: show(&old_set),
                        new: show(&new_set),
                    }
                }
            }
        };
        self.push(pointer, kind);
    }

    fn properties(
        &mut self,
        o: &serde_json::Map<String, Value>,
        n: &serde_json::Map<String, Value>,
        at: &str,
    ) {
        let empty = serde_json::Map::new();
        let old_props = o
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let new_props = n
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let new_required = required_set(n);
        for (name, old_schema) in old_props {
            let pointer = format!("{at}/properties/{}", pointer_segment(name));
            match new_props.get(name) {
                Some(new_schema) => self.schema(old_schema, new_schema, pointer),
                None => self.push(pointer, ChangeKind::PropertyRemoved(name.clone())),
            }
        }
        for name in new_props.keys().filter(|k| !old_props.contains_key(*k)) {
            let required = new_required.contains(&name.as_str());
            let pointer = format!("{at}/properties/{}", pointer_segment(name));
            // Into a closed object, even an optional new property is data the old schema
            // rejects.
            let closed = o.get("additionalProperties") == Some(&Value::Bool(false));
            self.push(
                pointer,
                ChangeKind::PropertyAdded {
                    name: name.clone(),
                    required: required || closed,
                },
            );
        }
    }

    fn required(
        &mut self,
        o: &serde_json::Map<String, Value>,
        n: &serde_json::Map<String, Value>,
        at: &str,
    ) {
        let (old_required, new_required) = (required_set(o), required_set(n));
        let old_props = o.get("properties").and_then(Value::as_object);
        for name in &new_required {
            // A new property that is required is already reported as such.
            let existed = old_props.is_some_and(|p| p.contains_key(*name));
            if !old_required.contains(name) && existed {
                self.push(
                    format!("{at}/required"),
                    ChangeKind::NewlyRequired((*name).to_owned()),
                );
            }
        }
        for name in &old_required {
            if !new_required.contains(name) {
                self.push(
                    format!("{at}/required"),
                    ChangeKind::NoLongerRequired((*name).to_owned()),
                );
            }
        }
    }

    fn enums(&mut self, old: Option<&Value>, new: Option<&Value>, at: &str) {
        let pointer = format!("{at}/enum");
        match (old.and_then(Value::as_array), new.and_then(Value::as_array)) {
            (Some(a), Some(b)) => {
                for v in a.iter().filter(|v| !b.contains(v)) {
                    self.push(pointer.clone(), ChangeKind::EnumValueRemoved(v.clone()));
                }
                for v in b.iter().filter(|v| !a.contains(v)) {
                    self.push(pointer.clone(), ChangeKind::EnumValueAdded(v.clone()));
                }
            }
            (None, Some(_)) => self.push(pointer, ChangeKind::EnumAdded),
            _ => {}
        }
    }

    fn additional(&mut self, old: Option<&Value>, new: Option<&Value>, at: &str) {
        let pointer = format!("{at}/additionalProperties");
        let open = |v: Option<&Value>| v.is_none() || v == Some(&Value::Bool(true));
        match (old, new) {
            (a, b) if a == b => {}
            (a, Some(Value::Bool(false))) if a != Some(&Value::Bool(false)) => {
                self.push(pointer, ChangeKind::AdditionalPropertiesClosed)
            }
            (Some(Value::Bool(false)), b) if open(b) => {
                self.push(pointer, ChangeKind::AdditionalPropertiesOpened)
            }
            (a, b) => {
                let a = a.cloned().unwrap_or(Value::Bool(true));
                let b = b.cloned().unwrap_or(Value::Bool(true));
                self.schema(&a, &b, pointer);
            }
        }
    }

    fn bounds(
        &mut self,
        o: &serde_json::Map<String, Value>,
        n: &serde_json::Map<String, Value>,
        at: &str,
    ) {
        let tighter = |keyword: &str, a: f64, b: f64| {
            if LOWER_BOUNDS.contains(&keyword) {
                b > a
            } else {
                b < a
            }
        };
        for keyword in LOWER_BOUNDS
            .iter()
            .chain(UPPER_BOUNDS.iter())
            .chain(["multipleOf"].iter())
        {
            let pointer = format!("{at}/{keyword}");
            let keyword = (*keyword).to_owned();
            match (o.get(&keyword), n.get(&keyword)) {
                (None, Some(b)) => self.push(
                    pointer,
                    ChangeKind::BoundTightened {
                        keyword,
                        old: None,
                        new: b.clone(),
                    },
                ),
                (Some(a), None) => self.push(
                    pointer,
                    ChangeKind::BoundLoosened {
                        keyword,
                        old: a.clone(),
                        new: None,
                    },
                ),
                (Some(a), Some(b)) if a != b => {
                    let (x, y) = (
                        a.as_f64().unwrap_or(f64::NAN),
                        b.as_f64().unwrap_or(f64::NAN),
                    );
                    let breaking = if keyword == "multipleOf" {
                        // Loosened only when the old step is a multiple of the new one.
                        y == 0.0 || (x / y).fract() != 0.0
                    } else {
                        tighter(&keyword, x, y) || x.is_nan() || y.is_nan()
                    };
                    if breaking {
                        self.push(
                            pointer,
                            ChangeKind::BoundTightened {
                                keyword,
                                old: Some(a.clone()),
                                new: b.clone(),
                            },
                        );
                    } else {
                        self.push(
                            pointer,
                            ChangeKind::BoundLoosened {
                                keyword,
                                old: a.clone(),
                                new: Some(b.clone()),
                            },
                        );
                    }
                }
                _ => {}
            }
        }
    }

    fn text_constraint(
        &mut self,
        keyword: &str,
        old: Option<&Value>,
        new: Option<&Value>,
        at: &str,
    ) {
        let pointer = format!("{at}/{keyword}");
        let text =
            |v: Option<&Value>| v.map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned));
        let (a, b) = (text(old), text(new));
        let kind = match (a, b) {
            (a, b) if a == b => return,
            (a, Some(b)) if keyword == "pattern" => ChangeKind::PatternChanged { old: a, new: b },
            (a, Some(b)) => ChangeKind::FormatChanged { old: a, new: b },
            (Some(a), None) if keyword == "pattern" => ChangeKind::PatternRemoved(a),
            (Some(a), None) => ChangeKind::FormatRemoved(a),
            (None, None) => return,
        };
        self.push(pointer, kind);
    }
}

fn required_set(object: &serde_json::Map<String, Value>) -> Vec<&str> {
    object
        .get("required")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}
