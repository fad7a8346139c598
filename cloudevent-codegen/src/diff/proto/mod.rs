//! Changes between two versions of a `.proto` entry's event message, classified by the
//! Protobuf wire format.
//!
//! The rules are those of the Protobuf language guide's "Updating A Message Type"
//! (protobuf.dev, proto3): field numbers identify fields on the wire, so a new field and a
//! renamed field break nobody, a removed number must be `reserved` so that no later version
//! reuses it, and a type may change only within the groups the guide calls compatible
//! (`int32`/`uint32`/`int64`/`uint64`/`bool`, `sint32`/`sint64`, `fixed32`/`sfixed32`,
//! `fixed64`/`sfixed64`, an enum with the unsigned and signed varint integers, `string` with
//! `bytes` and a message with `bytes` in the direction that stays decodable). The verdicts use
//! the same two directions as the JSON Schema differ: **forward** is a consumer built from the
//! old `.proto` reading the new producer's events, **backward** the reverse.

mod change;

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

pub(crate) use change::ProtoChange;

use super::{Change, ChangeKind};
use crate::protobuf::{Label, ProtoFile, ProtoSchema, Reserved};

/// A `.proto` entry as the gate compares and the lock file records it: the event message and
/// every message and enum it reaches, each field with its number, name, resolved type and
/// label, with the `reserved` numbers and names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ProtoShape {
    /// The type URL events of this version carry in `proto_data`.
    pub type_url: String,
    /// The event's message, by its name in the file.
    pub message: String,
    /// The messages reached from the event message (itself included), by name.
    pub messages: BTreeMap<String, MessageShape>,
    /// The enums reached from the event message, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub enums: BTreeMap<String, EnumShape>,
}

/// One message of a [`ProtoShape`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct MessageShape {
    /// Its fields, by number.
    pub fields: Vec<FieldShape>,
    /// Its reserved numbers and names.
    #[serde(default, skip_serializing_if = "ReservedShape::is_empty")]
    pub reserved: ReservedShape,
}

/// One field of a [`MessageShape`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FieldShape {
    /// The field number, its identity on the wire.
    pub number: u32,
    /// Its name (wire-irrelevant; the JSON mapping and generated code use it).
    pub name: String,
    /// A scalar keyword (`int32`, `string`, ...), `message <Name>` or `enum <Name>`.
    #[serde(rename = "type")]
    pub type_name: String,
    /// `singular` (implicit presence), `optional` or `repeated`.
    pub label: String,
}

/// One enum of a [`ProtoShape`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct EnumShape {
    /// `name -> number`, in file order.
    pub values: Vec<(String, i32)>,
    /// Its reserved numbers and names.
    #[serde(default, skip_serializing_if = "ReservedShape::is_empty")]
    pub reserved: ReservedShape,
}

/// Reserved numbers (inclusive ranges) and names.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub(crate) struct ReservedShape {
    /// Inclusive ranges.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub numbers: Vec<(i64, i64)>,
    /// Names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
}

impl ReservedShape {
    fn is_empty(&self) -> bool {
        self.numbers.is_empty() && self.names.is_empty()
    }

    fn has(&self, number: i64) -> bool {
        self.numbers
            .iter()
            .any(|(lo, hi)| (*lo..=*hi).contains(&number))
    }
}

impl From<&Reserved> for ReservedShape {
    fn from(r: &Reserved) -> ReservedShape {
        ReservedShape {
            numbers: r.numbers.clone(),
            names: r.names.clone(),
        }
    }
}

const SCALARS: [&str; 15] = [
    "double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32",
    "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes",
];

impl ProtoShape {
    /// The shape of a `.proto` entry: its event message and what that reaches.
    pub fn of(file: &ProtoFile) -> ProtoShape {
        let schema = &file.schema;
        let mut shape = ProtoShape {
            type_url: file.type_url(),
            message: file.message.clone(),
            messages: BTreeMap::new(),
            enums: BTreeMap::new(),
        };
        let mut pending = vec![file.message.clone()];
        while let Some(name) = pending.pop() {
            if shape.messages.contains_key(&name) {
                continue;
            }
            let Some(message) = schema.messages.iter().find(|m| m.name == name) else {
                continue;
            };
            let mut fields: Vec<FieldShape> = message
                .fields
                .iter()
                .map(|f| FieldShape {
                    number: f.tag,
                    name: f.name.clone(),
                    type_name: resolve_type(schema, &f.type_name),
                    label: match f.label {
                        Label::Singular => "singular",
                        Label::Optional => "optional",
                        Label::Repeated => "repeated",
                    }
                    .to_owned(),
                })
                .collect();
            fields.sort_by_key(|f| f.number);
            for field in &fields {
                if let Some(inner) = field.type_name.strip_prefix("message ") {
                    pending.push(inner.to_owned());
                } else if let Some(inner) = field.type_name.strip_prefix("enum ")
                    && let Some(e) = schema.enums.iter().find(|e| e.name == inner)
                {
                    shape.enums.insert(
                        e.name.clone(),
                        EnumShape {
                            values: e.values.clone(),
                            reserved: (&e.reserved).into(),
                        },
                    );
                }
            }
            shape.messages.insert(
                name,
                MessageShape {
                    fields,
                    reserved: (&message.reserved).into(),
                },
            );
        }
        shape
    }
}

/// `string`, `message Parcel` or `enum Carrier` for a type as written (`Parcel`,
/// `example.v1.Parcel`, `.example.v1.Parcel`); a name the file does not declare is kept as
/// written, so two versions naming the same unknown type compare equal.
fn resolve_type(schema: &ProtoSchema, written: &str) -> String {
    if SCALARS.contains(&written) {
        return written.to_owned();
    }
    let bare = written.trim_start_matches('.');
    let local = bare
        .strip_prefix(&format!("{}.", schema.package))
        .filter(|_| !schema.package.is_empty())
        .unwrap_or(bare);
    if schema.messages.iter().any(|m| m.name == local) {
        format!("message {local}")
    } else if schema.enums.iter().any(|e| e.name == local) {
        format!("enum {local}")
    } else {
        bare.to_owned()
    }
}

/// Every change from `old` to `new`, compatible or not, each at the dotted path of the field
/// it concerns in the new version (`OrderPacked.parcels.label`).
pub(crate) fn diff_proto(old: &ProtoShape, new: &ProtoShape) -> Vec<Change> {
    let mut out = Vec::new();
    if old.type_url != new.type_url {
        push(
            &mut out,
            &new.message,
            ProtoChange::TypeUrlChanged {
                old: old.type_url.clone(),
                new: new.type_url.clone(),
            },
        );
    }
    let mut walk = Walk {
        old,
        new,
        seen: BTreeSet::new(),
        out,
    };
    walk.message(&old.message, &new.message, &new.message);
    walk.out
}

fn push(out: &mut Vec<Change>, path: &str, change: ProtoChange) {
    let change = Change {
        pointer: path.to_owned(),
        definition: None,
        kind: ChangeKind::Protobuf(change),
    };
    if !out.contains(&change) {
        out.push(change);
    }
}

struct Walk<'a> {
    old: &'a ProtoShape,
    new: &'a ProtoShape,
    seen: BTreeSet<(String, String)>,
    out: Vec<Change>,
}

impl Walk<'_> {
    /// Compares message `old_name` of the old version with `new_name` of the new one, reached
    /// at `path`; each pair once, so recursive messages end.
    fn message(&mut self, old_name: &str, new_name: &str, path: &str) {
        if !self.seen.insert((old_name.to_owned(), new_name.to_owned())) {
            return;
        }
        let (old_shape, new_shape) = (self.old, self.new);
        let (Some(old), Some(new)) = (
            old_shape.messages.get(old_name),
            new_shape.messages.get(new_name),
        ) else {
            return;
        };
        let old_fields: BTreeMap<u32, &FieldShape> =
            old.fields.iter().map(|f| (f.number, f)).collect();
        let new_fields: BTreeMap<u32, &FieldShape> =
            new.fields.iter().map(|f| (f.number, f)).collect();
        for (number, field) in &old_fields {
            if !new_fields.contains_key(number) {
                push(
                    &mut self.out,
                    &format!("{path}.{}", field.name),
                    ProtoChange::FieldRemoved {
                        number: *number,
                        name: field.name.clone(),
                        reserved: new.reserved.has(i64::from(*number)),
                    },
                );
            }
        }
        for (number, field) in &new_fields {
            let at = format!("{path}.{}", field.name);
            let Some(before) = old_fields.get(number) else {
                push(
                    &mut self.out,
                    &at,
                    ProtoChange::FieldAdded {
                        number: *number,
                        name: field.name.clone(),
                        was_reserved: old.reserved.has(i64::from(*number)),
                    },
                );
                continue;
            };
            self.field(before, field, &at);
        }
    }

    fn field(&mut self, old: &FieldShape, new: &FieldShape, at: &str) {
        if old.name != new.name {
            push(
                &mut self.out,
                at,
                ProtoChange::FieldRenamed {
                    number: new.number,
                    old: old.name.clone(),
                    new: new.name.clone(),
                },
            );
        }
        if old.label != new.label {
            let delimited = |t: &str| t == "string" || t == "bytes" || t.starts_with("message ");
            push(
                &mut self.out,
                at,
                ProtoChange::LabelChanged {
                    number: new.number,
                    name: new.name.clone(),
                    old: old.label.clone(),
                    new: new.label.clone(),
                    length_delimited: delimited(&old.type_name) && delimited(&new.type_name),
                },
            );
        }
        let messages = (
            old.type_name.strip_prefix("message "),
            new.type_name.strip_prefix("message "),
        );
        let enums = (
            old.type_name.strip_prefix("enum "),
            new.type_name.strip_prefix("enum "),
        );
        match (messages, enums) {
            // Two messages (or two enums), whatever their names, are compared by content: on
            // the wire a message's name is never written.
            ((Some(a), Some(b)), _) => self.message(a, b, at),
            (_, (Some(a), Some(b))) => self.enumeration(a, b, at),
            _ if old.type_name != new.type_name => push(
                &mut self.out,
                at,
                ProtoChange::FieldTypeChanged {
                    number: new.number,
                    name: new.name.clone(),
                    old: old.type_name.clone(),
                    new: new.type_name.clone(),
                },
            ),
            _ => {}
        }
    }

    fn enumeration(&mut self, old_name: &str, new_name: &str, at: &str) {
        if !self
            .seen
            .insert((format!("enum {old_name}"), format!("enum {new_name}")))
        {
            return;
        }
        let (old_shape, new_shape) = (self.old, self.new);
        let (Some(old), Some(new)) = (old_shape.enums.get(old_name), new_shape.enums.get(new_name))
        else {
            return;
        };
        let by_number = |e: &EnumShape| -> BTreeMap<i32, String> {
            let mut map = BTreeMap::new();
            for (name, number) in &e.values {
                // The first name of an aliased number is the one written on the JSON mapping.
                map.entry(*number).or_insert_with(|| name.clone());
            }
            map
        };
        let (old_values, new_values) = (by_number(old), by_number(new));
        for (number, name) in &old_values {
            match new_values.get(number) {
                None => push(
                    &mut self.out,
                    at,
                    ProtoChange::EnumValueRemoved {
                        enumeration: new_name.to_owned(),
                        name: name.clone(),
                        number: *number,
                        reserved: new.reserved.has(i64::from(*number)),
                    },
                ),
                Some(renamed) if renamed != name => push(
                    &mut self.out,
                    at,
                    ProtoChange::EnumValueRenamed {
                        enumeration: new_name.to_owned(),
                        number: *number,
                        old: name.clone(),
                        new: renamed.clone(),
                    },
                ),
                Some(_) => {}
            }
        }
        for (number, name) in &new_values {
            if !old_values.contains_key(number) {
                push(
                    &mut self.out,
                    at,
                    ProtoChange::EnumValueAdded {
                        enumeration: new_name.to_owned(),
                        name: name.clone(),
                        number: *number,
                        was_reserved: old.reserved.has(i64::from(*number)),
                    },
                );
            }
        }
    }
}

#[cfg(test)]
mod tests;
