//! What can change in a `.proto` entry, and which direction each change breaks: the `.proto`
//! rows of `docs/compatibility.md`.

use std::fmt;

use crate::diff::Breaks;

/// What changed in a `.proto` entry.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub(crate) enum ProtoChange {
    /// The `proto_data` type URL changed (another package or message name).
    TypeUrlChanged {
        /// The old URL.
        old: String,
        /// The new URL.
        new: String,
    },
    /// A field with a new number.
    FieldAdded {
        /// Its number.
        number: u32,
        /// Its name.
        name: String,
        /// Whether the old version reserved the number (a reuse).
        was_reserved: bool,
    },
    /// A field number is gone.
    FieldRemoved {
        /// Its number.
        number: u32,
        /// Its old name.
        name: String,
        /// Whether the new version reserves the number.
        reserved: bool,
    },
    /// The same number under another name.
    FieldRenamed {
        /// The number.
        number: u32,
        /// The old name.
        old: String,
        /// The new name.
        new: String,
    },
    /// The same number with another type.
    FieldTypeChanged {
        /// The number.
        number: u32,
        /// The field's (new) name.
        name: String,
        /// The old type.
        old: String,
        /// The new type.
        new: String,
    },
    /// The same number with another label.
    LabelChanged {
        /// The number.
        number: u32,
        /// The field's (new) name.
        name: String,
        /// The old label.
        old: String,
        /// The new label.
        new: String,
        /// Whether the field is length-delimited on both sides (`string`, `bytes`, a message).
        length_delimited: bool,
    },
    /// An enum value with a new number.
    EnumValueAdded {
        /// The enum.
        enumeration: String,
        /// The value's name.
        name: String,
        /// Its number.
        number: i32,
        /// Whether the old version reserved the number (a reuse).
        was_reserved: bool,
    },
    /// An enum number is gone.
    EnumValueRemoved {
        /// The enum.
        enumeration: String,
        /// The value's old name.
        name: String,
        /// Its number.
        number: i32,
        /// Whether the new version reserves the number.
        reserved: bool,
    },
    /// The same enum number under another name.
    EnumValueRenamed {
        /// The enum.
        enumeration: String,
        /// The number.
        number: i32,
        /// The old name.
        old: String,
        /// The new name.
        new: String,
    },
}

const VARINT: [&str; 5] = ["int32", "uint32", "int64", "uint64", "bool"];
const ENUM_COMPATIBLE: [&str; 4] = ["int32", "uint32", "int64", "uint64"];

/// The directions a type change at one field number breaks, by the language guide's rules.
fn type_change_breaks(old: &str, new: &str) -> Breaks {
    let pair = |a: &[&str], b: &[&str]| a.contains(&old) && b.contains(&new);
    let is_message = |t: &str| t.starts_with("message ");
    let is_enum = |t: &str| t.starts_with("enum ");
    if pair(&VARINT, &VARINT)
        || pair(&["sint32", "sint64"], &["sint32", "sint64"])
        || pair(&["fixed32", "sfixed32"], &["fixed32", "sfixed32"])
        || pair(&["fixed64", "sfixed64"], &["fixed64", "sfixed64"])
        || (is_enum(old) && ENUM_COMPATIBLE.contains(&new))
        || (ENUM_COMPATIBLE.contains(&old) && is_enum(new))
    {
        return Breaks::NONE;
    }
    // `bytes` holds any `string` and any encoded message, not the reverse: a reader of the
    // narrower type fails on bytes that are not UTF-8 or not that message.
    if (old == "string" || is_message(old)) && new == "bytes" {
        return Breaks::FORWARD;
    }
    if old == "bytes" && (new == "string" || is_message(new)) {
        return Breaks::BACKWARD;
    }
    Breaks::BOTH
}

impl ProtoChange {
    /// The directions this change breaks: the `.proto` rows of `docs/compatibility.md`.
    pub fn breaks(&self) -> Breaks {
        match self {
            ProtoChange::TypeUrlChanged { .. } => Breaks::BOTH,
            ProtoChange::FieldAdded { was_reserved, .. } => {
                if *was_reserved {
                    Breaks::BOTH
                } else {
                    Breaks::NONE
                }
            }
            ProtoChange::FieldRemoved { reserved, .. } => {
                if *reserved {
                    Breaks::NONE
                } else {
                    Breaks::BOTH
                }
            }
            ProtoChange::FieldRenamed { .. } | ProtoChange::EnumValueRenamed { .. } => Breaks::NONE,
            ProtoChange::EnumValueAdded { was_reserved, .. } => {
                if *was_reserved {
                    Breaks::BOTH
                } else {
                    Breaks::NONE
                }
            }
            ProtoChange::FieldTypeChanged { old, new, .. } => type_change_breaks(old, new),
            ProtoChange::LabelChanged {
                old,
                new,
                length_delimited,
                ..
            } => {
                let repeated = (old == "repeated", new == "repeated");
                match repeated {
                    (false, false) => Breaks::NONE,
                    _ if *length_delimited => Breaks::NONE,
                    // Repeated scalars are packed: a singular reader cannot read them, while a
                    // repeated reader accepts a single unpacked value.
                    (false, true) => Breaks::FORWARD,
                    _ => Breaks::BACKWARD,
                }
            }
            ProtoChange::EnumValueRemoved { reserved, .. } => {
                if *reserved {
                    Breaks::BACKWARD
                } else {
                    Breaks::BOTH
                }
            }
        }
    }
}

impl fmt::Display for ProtoChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtoChange::TypeUrlChanged { old, new } => write!(
                f,
                "the `proto_data` type URL changed from `{old}` to `{new}` (old consumers refuse the new URL)"
            ),
            ProtoChange::FieldAdded {
                number,
                name,
                was_reserved: false,
            } => write!(f, "field {number} `{name}` added"),
            ProtoChange::FieldAdded { number, name, .. } => write!(
                f,
                "field {number} `{name}` added on a number the old version reserved (a reuse: old data may hold another field there)"
            ),
            ProtoChange::FieldRemoved {
                number,
                name,
                reserved: true,
            } => write!(f, "field {number} `{name}` removed (number reserved)"),
            ProtoChange::FieldRemoved { number, name, .. } => write!(
                f,
                "field {number} `{name}` removed without `reserved {number};` (a later version could reuse the number with another meaning)"
            ),
            ProtoChange::FieldRenamed { number, old, new } => write!(
                f,
                "field {number} renamed from `{old}` to `{new}` (compatible on the wire; the ProtoJSON mapping and generated field names change)"
            ),
            ProtoChange::FieldTypeChanged {
                number,
                name,
                old,
                new,
            } => {
                let breaks = type_change_breaks(old, new);
                let note = if breaks == Breaks::NONE {
                    " (wire-compatible; a value that does not fit the reader's type is truncated)"
                } else if breaks == Breaks::BOTH {
                    " (not wire-compatible)"
                } else {
                    " (decodable one way only)"
                };
                write!(
                    f,
                    "field {number} `{name}` type changed from `{old}` to `{new}`{note}"
                )
            }
            ProtoChange::LabelChanged {
                number,
                name,
                old,
                new,
                ..
            } => write!(
                f,
                "field {number} `{name}` label changed from `{old}` to `{new}`"
            ),
            ProtoChange::EnumValueAdded {
                enumeration,
                name,
                number,
                was_reserved: false,
            } => write!(
                f,
                "enum `{enumeration}` value `{name}` = {number} added (proto3 enums are open: an old reader keeps the number)"
            ),
            ProtoChange::EnumValueAdded {
                enumeration,
                name,
                number,
                ..
            } => write!(
                f,
                "enum `{enumeration}` value `{name}` = {number} added on a number the old version reserved (a reuse)"
            ),
            ProtoChange::EnumValueRemoved {
                enumeration,
                name,
                number,
                reserved,
            } => {
                write!(f, "enum `{enumeration}` value `{name}` = {number} removed")?;
                if *reserved {
                    f.write_str(" (number reserved; old data may still hold it)")
                } else {
                    write!(
                        f,
                        " without `reserved {number};` (old data may hold it, and a later version could reuse it)"
                    )
                }
            }
            ProtoChange::EnumValueRenamed {
                enumeration,
                number,
                old,
                new,
            } => write!(
                f,
                "enum `{enumeration}` value {number} renamed from `{old}` to `{new}` (compatible on the wire)"
            ),
        }
    }
}
