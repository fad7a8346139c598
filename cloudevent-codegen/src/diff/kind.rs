//! What can change between two versions of a schema, and which direction each change breaks.
//!
//! A verdict is set inclusion over instances: a change breaks **forward** when the new schema
//! admits an instance the old one refuses (a consumer generated from the old schema reads a
//! new producer's event and fails), and **backward** when the old schema admits an instance
//! the new one refuses (a consumer generated from the new schema reads a stored or old
//! producer's event and fails). `docs/compatibility.md` holds the table; each arm of
//! [`ChangeKind::breaks`] is one of its rows.

use std::fmt;

use serde_json::Value;

/// The directions a change breaks ([`crate::Change::breaks`]); a [`crate::Compat`] mode
/// refuses some of them.
///
/// ```
/// use cloudevent_codegen::{Breaks, Compat, diff_schemas};
/// use serde_json::json;
///
/// // A new enum value: an old consumer refuses it, a new one reads old events.
/// let change = &diff_schemas(&json!({"enum": ["x"]}), &json!({"enum": ["x", "y"]}))[0];
/// assert_eq!(change.breaks(), Breaks::FORWARD);
/// assert_eq!(change.breaks().to_string(), "breaks forward");
/// assert!(Compat::Forward.is_broken_by(Breaks::FORWARD));
/// assert!(!Compat::Backward.is_broken_by(Breaks::FORWARD));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Breaks {
    /// Old data may be refused by the new schema (a new consumer reading old events).
    pub backward: bool,
    /// New data may be refused by the old schema (an old consumer reading new events).
    pub forward: bool,
}

impl Breaks {
    /// Breaks neither direction.
    pub const NONE: Breaks = Breaks {
        backward: false,
        forward: false,
    };
    /// Narrows what validates: breaks backward only.
    pub const BACKWARD: Breaks = Breaks {
        backward: true,
        forward: false,
    };
    /// Widens what validates: breaks forward only.
    pub const FORWARD: Breaks = Breaks {
        backward: false,
        forward: true,
    };
    /// Breaks both directions.
    pub const BOTH: Breaks = Breaks {
        backward: true,
        forward: true,
    };
}

impl fmt::Display for Breaks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match (self.backward, self.forward) {
            (true, true) => "breaks backward and forward",
            (true, false) => "breaks backward",
            (false, true) => "breaks forward",
            (false, false) => "breaks nothing",
        })
    }
}

/// What changed between two versions of a schema.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub(crate) enum ChangeKind {
    /// A property of the old schema is gone (a rename shows as a removal plus an addition).
    PropertyRemoved {
        /// Its name.
        name: String,
        /// Whether the object is closed (`additionalProperties: false` in the new schema).
        closed: bool,
    },
    /// A property was added.
    PropertyAdded {
        /// Its name.
        name: String,
        /// Whether the new schema requires it.
        required: bool,
        /// Whether the object was closed (`additionalProperties: false` in the old schema).
        closed: bool,
    },
    /// `type` changed to a set that neither contains nor is contained in the old one.
    TypeChanged {
        /// The old `type`.
        old: String,
        /// The new `type`.
        new: String,
    },
    /// `type` widened (`integer` to `number`, a type added to a list, `type` removed).
    TypeWidened {
        /// The old `type`.
        old: String,
        /// The new `type`.
        new: String,
    },
    /// `type` narrowed (`number` to `integer`, a type removed from a list, `type` added).
    TypeNarrowed {
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
    /// The enumeration is gone: any value of the type goes.
    EnumRemoved,
    /// `additionalProperties` went from open (absent or `true`) to closed.
    AdditionalPropertiesClosed,
    /// `additionalProperties` went from closed to open.
    AdditionalPropertiesOpened,
    /// A bound (`minimum`, `maxLength`, `minItems`, `multipleOf`, ...) was added or moved inward.
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
    /// `pattern` was added (`old: None`) or changed.
    PatternChanged {
        /// The old pattern.
        old: Option<String>,
        /// The new pattern.
        new: String,
    },
    /// `pattern` was removed.
    PatternRemoved(String),
    /// `format` was added (`old: None`) or changed.
    FormatChanged {
        /// The old format.
        old: Option<String>,
        /// The new format.
        new: String,
    },
    /// `format` was removed.
    FormatRemoved(String),
    /// `const` was added (`old: None`) or changed.
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
    /// A branch was added to `anyOf`, `oneOf` or `allOf`.
    BranchAdded {
        /// The keyword.
        keyword: String,
    },
    /// A branch was removed from `anyOf`, `oneOf` or `allOf`.
    BranchRemoved {
        /// The keyword.
        keyword: String,
    },
    /// `anyOf`, `oneOf` or `allOf` appeared where there was none.
    CompositionAdded(String),
    /// `anyOf`, `oneOf` or `allOf` is gone.
    CompositionRemoved(String),
    /// The schema became `false` (or `not: {}`): nothing validates.
    NothingAllowed,
    /// The schema became `true` (or `{}`) from `false`: anything validates.
    AnythingAllowed,
    /// A `$ref` that names nothing in its side's (bundled) schema; the schemas behind it
    /// could not be compared.
    UnresolvedReference {
        /// `old` or `new`.
        side: &'static str,
        /// The reference as written.
        reference: String,
    },
    /// A change the checker cannot classify (`not`, `if`, `dependentSchemas`, ...); treated
    /// as breaking both ways so a person looks at it.
    Unclassified(String),
    /// A change to a `.proto` entry's message, classified by the Protobuf wire format.
    Protobuf(super::proto::ProtoChange),
}

impl ChangeKind {
    /// The directions this change breaks: the rule table of `docs/compatibility.md`.
    pub fn breaks(&self) -> Breaks {
        match self {
            // Open object: the old schema admitted any value under the new name, the new one
            // restricts it (narrowing); a required one is also missing from old data.
            ChangeKind::PropertyAdded {
                required: false,
                closed: false,
                ..
            } => Breaks::BACKWARD,
            // Closed object: the old schema refused the name, the new one admits it.
            ChangeKind::PropertyAdded {
                required: false,
                closed: true,
                ..
            } => Breaks::FORWARD,
            ChangeKind::PropertyAdded {
                required: true,
                closed,
                ..
            } => Breaks {
                backward: true,
                forward: *closed,
            },
            // Open object: the new schema admits any value under the name (widening). Closed:
            // the new schema refuses the name that old data may carry (narrowing).
            ChangeKind::PropertyRemoved { closed: false, .. } => Breaks::FORWARD,
            ChangeKind::PropertyRemoved { closed: true, .. } => Breaks::BACKWARD,
            ChangeKind::TypeWidened { .. }
            | ChangeKind::NoLongerRequired(_)
            | ChangeKind::EnumValueAdded(_)
            | ChangeKind::EnumRemoved
            | ChangeKind::AdditionalPropertiesOpened
            | ChangeKind::BoundLoosened { .. }
            | ChangeKind::PatternRemoved(_)
            | ChangeKind::FormatRemoved(_)
            | ChangeKind::ConstRemoved(_)
            | ChangeKind::CompositionRemoved(_)
            | ChangeKind::AnythingAllowed => Breaks::FORWARD,
            ChangeKind::TypeNarrowed { .. }
            | ChangeKind::NewlyRequired(_)
            | ChangeKind::EnumValueRemoved(_)
            | ChangeKind::EnumAdded
            | ChangeKind::AdditionalPropertiesClosed
            | ChangeKind::BoundTightened { .. }
            | ChangeKind::PatternChanged { old: None, .. }
            | ChangeKind::FormatChanged { old: None, .. }
            | ChangeKind::ConstChanged { old: None, .. }
            | ChangeKind::CompositionAdded(_)
            | ChangeKind::NothingAllowed => Breaks::BACKWARD,
            // One more alternative admits more; one more conjunct admits less. A new `oneOf`
            // branch may also make old data match two branches, which `oneOf` refuses.
            ChangeKind::BranchAdded { keyword } => match keyword.as_str() {
                "anyOf" => Breaks::FORWARD,
                "allOf" => Breaks::BACKWARD,
                _ => Breaks::BOTH,
            },
            ChangeKind::BranchRemoved { keyword } => match keyword.as_str() {
                "allOf" => Breaks::FORWARD,
                _ => Breaks::BACKWARD,
            },
            ChangeKind::DescriptionChanged => Breaks::NONE,
            ChangeKind::TypeChanged { .. }
            | ChangeKind::PatternChanged { .. }
            | ChangeKind::FormatChanged { .. }
            | ChangeKind::ConstChanged { .. }
            | ChangeKind::UnresolvedReference { .. }
            | ChangeKind::Unclassified(_) => Breaks::BOTH,
            ChangeKind::Protobuf(change) => change.breaks(),
        }
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opt = |v: &Option<Value>| {
            v.as_ref()
                .map_or_else(|| "none".to_owned(), Value::to_string)
        };
        let text = |v: &Option<String>| {
            v.as_deref()
                .map_or_else(|| "none".to_owned(), |p| format!("`{p}`"))
        };
        match self {
            ChangeKind::PropertyRemoved { name, closed } => write!(
                f,
                "property `{name}` removed (or renamed) from {} object",
                if *closed { "a closed" } else { "an open" }
            ),
            ChangeKind::PropertyAdded {
                name,
                required,
                closed,
            } => write!(
                f,
                "{} property `{name}` added to {}",
                if *required { "required" } else { "optional" },
                if *closed {
                    "a closed object (`additionalProperties: false`)"
                } else {
                    "an open object"
                }
            ),
            ChangeKind::TypeChanged { old, new } => write!(f, "type changed from {old} to {new}"),
            ChangeKind::TypeWidened { old, new } => write!(f, "type widened from {old} to {new}"),
            ChangeKind::TypeNarrowed { old, new } => {
                write!(f, "type narrowed from {old} to {new}")
            }
            ChangeKind::NewlyRequired(name) => write!(f, "property `{name}` is now required"),
            ChangeKind::NoLongerRequired(name) => {
                write!(f, "property `{name}` is no longer required")
            }
            ChangeKind::EnumValueRemoved(v) => write!(f, "enum value {v} removed"),
            ChangeKind::EnumValueAdded(v) => write!(f, "enum value {v} added"),
            ChangeKind::EnumAdded => f.write_str("values restricted to an `enum`"),
            ChangeKind::EnumRemoved => f.write_str("`enum` removed"),
            ChangeKind::AdditionalPropertiesClosed => f.write_str("`additionalProperties` closed"),
            ChangeKind::AdditionalPropertiesOpened => f.write_str("`additionalProperties` opened"),
            ChangeKind::BoundTightened { keyword, old, new } => {
                write!(f, "`{keyword}` tightened from {} to {new}", opt(old))
            }
            ChangeKind::BoundLoosened { keyword, old, new } => {
                write!(f, "`{keyword}` loosened from {old} to {}", opt(new))
            }
            ChangeKind::PatternChanged { old, new } => {
                write!(f, "`pattern` changed from {} to `{new}`", text(old))
            }
            ChangeKind::PatternRemoved(p) => write!(f, "`pattern` `{p}` removed"),
            ChangeKind::FormatChanged { old, new } => {
                write!(f, "`format` changed from {} to `{new}`", text(old))
            }
            ChangeKind::FormatRemoved(p) => write!(f, "`format` `{p}` removed"),
            ChangeKind::ConstChanged { old, new } => {
                write!(f, "`const` changed from {} to {new}", opt(old))
            }
            ChangeKind::ConstRemoved(v) => write!(f, "`const` {v} removed"),
            ChangeKind::DescriptionChanged => f.write_str("description changed"),
            ChangeKind::BranchAdded { keyword } => write!(f, "`{keyword}` branch added"),
            ChangeKind::BranchRemoved { keyword } => write!(f, "`{keyword}` branch removed"),
            ChangeKind::CompositionAdded(keyword) => write!(f, "`{keyword}` added"),
            ChangeKind::CompositionRemoved(keyword) => write!(f, "`{keyword}` removed"),
            ChangeKind::NothingAllowed => f.write_str("schema became `false` (nothing validates)"),
            ChangeKind::AnythingAllowed => f.write_str("schema became `true` (anything validates)"),
            ChangeKind::UnresolvedReference { side, reference } => write!(
                f,
                "`$ref` `{reference}` of the {side} schema names nothing (not compared; treated as breaking)"
            ),
            ChangeKind::Unclassified(keyword) => write!(
                f,
                "`{keyword}` changed (not classified; treated as breaking)"
            ),
            ChangeKind::Protobuf(change) => change.fmt(f),
        }
    }
}
