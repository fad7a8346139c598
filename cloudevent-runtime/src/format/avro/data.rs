//! JSON `data` in the Avro format's own representation of a JSON value (CE-Avro 3): the
//! `data` union's `null`, `boolean`, `double`, `string`, a map of members and an array of
//! `CloudEventData` records, whose `value` map holds an object's members.
//!
//! The schema cannot hold every JSON value: a number is a `double` (an integer beyond 2^53 has
//! no exact one), an array holds only objects, an object inside a record holds only objects.
//! Such data is sent as a JSON string under a JSON `datacontenttype` instead; without one the
//! writer refuses it rather than change it. Objects keep their member order both ways, and a
//! member named twice is refused (a JSON reader would keep one silently).

use std::collections::{BTreeSet, HashSet};
use std::fmt;

use cloudevent_rules::{Violation, rule};
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::value::RawValue;

use super::wire::{self, Reader};
use crate::extension::truncate;

/// How deep the representation may nest; serde_json's own reader stops at 128.
pub(super) const MAX_DEPTH: usize = 100;

/// The largest integer a `double` holds exactly (2^53).
const EXACT: f64 = 9_007_199_254_740_992.0;

/// A JSON value with its objects' member order kept.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Node {
    Null,
    Bool(bool),
    Number(f64),
    /// An integer literal that no double holds exactly (beyond 2^53): the writer refuses it
    /// rather than round it. Never read from Avro.
    InexactInteger,
    Str(String),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
}

/// Where a value sits in the schema, which decides the branches it may take.
#[derive(Clone, Copy)]
enum Place {
    /// The `data` field's union.
    Top,
    /// A value of the top-level map's union.
    Member,
    /// A value of a `CloudEventData` record's `value` map.
    Inner,
}

fn unrepresentable(raw: &str, problem: &str) -> Box<Violation> {
    Box::new(
        Violation::error(rule::CE_AVRO_3, "data", truncate(raw), problem.to_owned()).with_hint(
            "set a JSON datacontenttype (e.g. `application/json`): the data then travels as a JSON string",
        ),
    )
}

/// Writes JSON `data` (without a `datacontenttype`) as the schema's representation.
pub(super) fn write_json(out: &mut Vec<u8>, raw: &str) -> Result<(), Box<Violation>> {
    let node =
        Node::from_json(raw).map_err(|e| unrepresentable(raw, &format!("is not JSON: {e}")))?;
    write(out, &node, Place::Top).map_err(|problem| unrepresentable(raw, problem))
}

fn write(out: &mut Vec<u8>, node: &Node, place: Place) -> Result<(), &'static str> {
    // The branch index of each kind of value in the union at this place (CE-Avro 2.4).
    let (null, boolean, double, string) = match place {
        Place::Top => (1, 2, 5, 6),
        Place::Member => (0, 1, 3, 4),
        Place::Inner => (0, 1, 4, 5),
    };
    match node {
        Node::Null => wire::write_long(out, null),
        Node::Bool(b) => {
            wire::write_long(out, boolean);
            out.push(u8::from(*b));
        }
        Node::Number(n) => {
            wire::write_long(out, double);
            wire::write_double(out, *n);
        }
        Node::InexactInteger => {
            return Err("holds an integer beyond 2^53, which an Avro double cannot hold exactly");
        }
        Node::Str(s) => {
            wire::write_long(out, string);
            wire::write_bytes(out, s.as_bytes());
        }
        Node::Object(members) => match place {
            Place::Top => {
                wire::write_long(out, 3);
                write_map(out, members, Place::Member)?;
            }
            Place::Member => {
                wire::write_long(out, 2);
                write_map(out, members, Place::Inner)?;
            }
            Place::Inner => {
                wire::write_long(out, 2);
                write_map_of_records(out, members)?;
            }
        },
        Node::Array(items) => match place {
            Place::Top => {
                wire::write_long(out, 4);
                write_records(out, items)?;
            }
            Place::Inner => {
                wire::write_long(out, 3);
                write_records(out, items)?;
            }
            Place::Member => {
                return Err(
                    "holds an array as an object member, which the Avro schema cannot hold",
                );
            }
        },
    }
    Ok(())
}

fn write_map(
    out: &mut Vec<u8>,
    members: &[(String, Node)],
    place: Place,
) -> Result<(), &'static str> {
    if !members.is_empty() {
        wire::write_len(out, members.len());
        for (name, value) in members {
            wire::write_bytes(out, name.as_bytes());
            write(out, value, place)?;
        }
    }
    wire::write_long(out, 0);
    Ok(())
}

/// A `CloudEventData` record: its `value` map holds the object's members.
fn write_record(out: &mut Vec<u8>, node: &Node) -> Result<(), &'static str> {
    match node {
        Node::Object(members) => write_map(out, members, Place::Inner),
        _ => Err(
            "holds a value other than an object where the Avro schema has a record (an array item, or a member of a nested object)",
        ),
    }
}

fn write_records(out: &mut Vec<u8>, items: &[Node]) -> Result<(), &'static str> {
    if !items.is_empty() {
        wire::write_len(out, items.len());
        for item in items {
            write_record(out, item)?;
        }
    }
    wire::write_long(out, 0);
    Ok(())
}

fn write_map_of_records(out: &mut Vec<u8>, members: &[(String, Node)]) -> Result<(), &'static str> {
    if !members.is_empty() {
        wire::write_len(out, members.len());
        for (name, value) in members {
            wire::write_bytes(out, name.as_bytes());
            write_record(out, value)?;
        }
    }
    wire::write_long(out, 0);
    Ok(())
}

/// Reads the representation whose top-level branch index was `branch` (2 to 5 of the `data`
/// union) into JSON text.
pub(super) fn read_json(reader: &mut Reader<'_>, branch: usize) -> Result<String, Box<Violation>> {
    let node = match branch {
        2 => Node::Bool(reader.boolean("data")?),
        3 => read_map(reader, Place::Member, 1)?,
        4 => read_records(reader, 1)?,
        _ => read_double(reader)?,
    };
    serde_json::to_string(&node)
        .map_err(|e| wire::malformed(rule::CE_AVRO_3, "data", reader.offset(), e.to_string()))
}

fn read_double(reader: &mut Reader<'_>) -> Result<Node, Box<Violation>> {
    let offset = reader.offset();
    let n = reader.double("data")?;
    if n.is_finite() {
        Ok(Node::Number(n))
    } else {
        Err(wire::malformed(
            rule::CE_AVRO_3,
            "data",
            offset,
            format!("a double {n}, which is no JSON number"),
        ))
    }
}

fn too_deep(reader: &Reader<'_>) -> Box<Violation> {
    wire::malformed(
        rule::CE_AVRO_3,
        "data",
        reader.offset(),
        format!("the JSON value nests deeper than {MAX_DEPTH} levels"),
    )
}

fn read_value(reader: &mut Reader<'_>, place: Place, depth: usize) -> Result<Node, Box<Violation>> {
    let branches = match place {
        Place::Member => 5,
        Place::Inner | Place::Top => 6,
    };
    let index = reader.union("data", branches)?;
    Ok(match (place, index) {
        (_, 0) => Node::Null,
        (_, 1) => Node::Bool(reader.boolean("data")?),
        // A member's `CloudEventData` record: its `value` map is the object.
        (Place::Member, 2) => read_map(reader, Place::Inner, depth + 1)?,
        (Place::Member, 3) => read_double(reader)?,
        (Place::Member, _) => Node::Str(reader.string("data")?.to_owned()),
        (_, 2) => read_map_of_records(reader, depth + 1)?,
        (_, 3) => read_records(reader, depth + 1)?,
        (_, 4) => read_double(reader)?,
        _ => Node::Str(reader.string("data")?.to_owned()),
    })
}

/// Reads map blocks, each member's value with `value`, refusing a name given twice.
fn read_members<'a>(
    reader: &mut Reader<'a>,
    depth: usize,
    mut value: impl FnMut(&mut Reader<'a>) -> Result<Node, Box<Violation>>,
) -> Result<Node, Box<Violation>> {
    if depth > MAX_DEPTH {
        return Err(too_deep(reader));
    }
    let mut members: Vec<(String, Node)> = Vec::new();
    // A set beside the list: an object of ~80,000 members fits in 256 KiB, and a linear scan
    // per member would make that quadratic.
    let mut names: HashSet<&'a str> = HashSet::new();
    loop {
        // A member takes at least two bytes: its name's length and its value.
        let count = reader.block("data", 2)?;
        if count == 0 {
            return Ok(Node::Object(members));
        }
        for _ in 0..count {
            let offset = reader.offset();
            let name = reader.string("data")?;
            if !names.insert(name) {
                return Err(wire::malformed(
                    rule::CE_AVRO_3,
                    "data",
                    offset,
                    format!(
                        "the member `{}` appears more than once in an object",
                        truncate(name)
                    ),
                ));
            }
            members.push((name.to_owned(), value(reader)?));
        }
    }
}

/// A map of the union at `place` (the top-level map, or a record's `value` map).
fn read_map(reader: &mut Reader<'_>, place: Place, depth: usize) -> Result<Node, Box<Violation>> {
    read_members(reader, depth, |reader| read_value(reader, place, depth))
}

/// A map of `CloudEventData` records.
fn read_map_of_records(reader: &mut Reader<'_>, depth: usize) -> Result<Node, Box<Violation>> {
    read_members(reader, depth, |reader| {
        read_map(reader, Place::Inner, depth + 1)
    })
}

fn read_records(reader: &mut Reader<'_>, depth: usize) -> Result<Node, Box<Violation>> {
    if depth > MAX_DEPTH {
        return Err(too_deep(reader));
    }
    let mut items = Vec::new();
    loop {
        // A record takes at least one byte: its map's end.
        let count = reader.block("data", 1)?;
        if count == 0 {
            return Ok(Node::Array(items));
        }
        for _ in 0..count {
            items.push(read_map(reader, Place::Inner, depth + 1)?);
        }
    }
}

impl Serialize for Node {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Node::Null => serializer.serialize_unit(),
            Node::Bool(b) => serializer.serialize_bool(*b),
            // An integral double within 2^53 is written as the integer it is.
            #[allow(clippy::cast_possible_truncation, reason = "integral and within 2^53")]
            Node::Number(n) if n.fract() == 0.0 && n.abs() <= EXACT => {
                serializer.serialize_i64(*n as i64)
            }
            Node::Number(n) => serializer.serialize_f64(*n),
            Node::InexactInteger => Err(serde::ser::Error::custom(
                "an integer beyond 2^53 is never read from Avro",
            )),
            Node::Str(s) => serializer.serialize_str(s),
            Node::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Node::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (name, value) in members {
                    map.serialize_entry(name, value)?;
                }
                map.end()
            }
        }
    }
}

impl Node {
    /// Reads JSON text into a tree, numbers with the standard library's correctly rounded
    /// parser: serde_json's default float parser can be an ulp off, and a double that moved
    /// would make the Avro bytes of an event unstable across a round trip (fuzz finding).
    /// Structure comes from serde_json, one level at a time, values kept as raw text.
    fn from_json(raw: &str) -> Result<Node, String> {
        let text = raw.trim_matches([' ', '\t', '\n', '\r']);
        match text.as_bytes().first() {
            Some(b'{') => {
                let members: Members<'_> = serde_json::from_str(text).map_err(|e| e.to_string())?;
                let members = members
                    .0
                    .into_iter()
                    .map(|(name, value)| Ok((name, Node::from_json(value.get())?)))
                    .collect::<Result<_, String>>()?;
                Ok(Node::Object(members))
            }
            Some(b'[') => {
                let items: Vec<&RawValue> =
                    serde_json::from_str(text).map_err(|e| e.to_string())?;
                let items = items
                    .into_iter()
                    .map(|item| Node::from_json(item.get()))
                    .collect::<Result<_, String>>()?;
                Ok(Node::Array(items))
            }
            Some(b'"') => serde_json::from_str(text)
                .map(Node::Str)
                .map_err(|e| e.to_string()),
            Some(b't' | b'f' | b'n') => {
                match serde_json::from_str::<Option<bool>>(text).map_err(|e| e.to_string())? {
                    Some(b) => Ok(Node::Bool(b)),
                    None => Ok(Node::Null),
                }
            }
            _ => {
                // Validated as a JSON number by serde_json, then read exactly.
                serde_json::from_str::<&RawValue>(text).map_err(|e| e.to_string())?;
                let integer = !text.contains(['.', 'e', 'E']);
                if integer
                    && text
                        .parse::<i64>()
                        .map_or(true, |i| i.unsigned_abs() > 1 << 53)
                {
                    return Ok(Node::InexactInteger);
                }
                text.parse().map(Node::Number).map_err(|e| format!("{e}"))
            }
        }
    }
}

/// An object's members in their order, values as raw JSON, a name given twice refused.
pub(super) struct Members<'a>(pub(super) Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MembersVisitor;

        impl<'de> Visitor<'de> for MembersVisitor {
            type Value = Members<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut members = Vec::new();
                let mut names = BTreeSet::new();
                while let Some((name, value)) = map.next_entry::<String, &'de RawValue>()? {
                    if !names.insert(name.clone()) {
                        return Err(de::Error::custom(format!(
                            "the member `{}` appears more than once in an object",
                            truncate(&name)
                        )));
                    }
                    members.push((name, value));
                }
                Ok(Members(members))
            }
        }

        deserializer.deserialize_map(MembersVisitor)
    }
}
