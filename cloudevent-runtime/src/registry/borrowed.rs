//! `data` as `jsonschema` reads it without a `serde_json::Value`: a tree borrowed from the
//! event's JSON text (strings and member names point into it; one `Vec` an object or array),
//! which `jsonschema` validates through its own representation traits
//! (`jsonschema::json::Json`). A `Value` allocates a `String` for every member name and string
//! and a `BTreeMap` for every object; this allocates one `Vec` per container, and was most of
//! the registry check's cost (issue 25).
//!
//! It answers only "valid or not". A tree this reader does not take as is (an object with a
//! repeated member name, which `Value` keeps once, or one over [`SMALL_OBJECT`] members, where
//! finding a repeat would cost more than it saves) is left to the `Value` path, which also
//! lists the failures of invalid data; so the findings are the `Value` path's, always
//! (`tests/registry_borrowed.rs` holds the two to the same verdict).

use std::borrow::Cow;
use std::fmt;

use jsonschema::JsonType;
use jsonschema::json::{Array, Json, Node, NodeIdentity, Object, cmp};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

/// Objects up to this many members are read here; a larger one goes to the `Value` path.
const SMALL_OBJECT: usize = 32;

/// One JSON value, borrowed from the text where it can be.
#[derive(Debug, Default)]
pub(crate) enum Borrowed<'a> {
    #[default]
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'a, str>),
    Array(Vec<Borrowed<'a>>),
    Object(Vec<(Cow<'a, str>, Borrowed<'a>)>),
}

impl<'a> Borrowed<'a> {
    /// Reads `text` (already read once as JSON by the event's reader); `None` when it is a
    /// tree this representation leaves to the `Value` path (see the module docs), or does not
    /// read (depth: the `Value` path reports it).
    pub(crate) fn parse(text: &'a str) -> Option<Borrowed<'a>> {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let value = de::Deserialize::deserialize(&mut deserializer).ok()?;
        deserializer.end().ok()?;
        Some(value)
    }
}

/// A repeated name or a large object: the `Value` path decides.
struct NotSmall;

impl fmt::Display for NotSmall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("left to the Value path")
    }
}

impl<'de> de::Deserialize<'de> for Borrowed<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(BorrowedVisitor)
    }
}

struct BorrowedVisitor;

impl<'de> Visitor<'de> for BorrowedVisitor {
    type Value = Borrowed<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Borrowed::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Borrowed::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Borrowed::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Borrowed::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        // As `Value` reads it: a non-finite float is `null` there too.
        Ok(Number::from_f64(v).map_or(Borrowed::Null, Borrowed::Number))
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Borrowed::String(Cow::Borrowed(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Borrowed::String(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Borrowed::String(Cow::Owned(v)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(16));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Borrowed::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut members: Vec<(Cow<'de, str>, Borrowed<'de>)> = Vec::new();
        while let Some(crate::format::json::CowStr(name)) = map.next_key()? {
            if members.len() == SMALL_OBJECT || members.iter().any(|(n, _)| *n == name) {
                return Err(de::Error::custom(NotSmall));
            }
            members.push((name, map.next_value()?));
        }
        Ok(Borrowed::Object(members))
    }
}

/// The representation `jsonschema` validates [`Borrowed`] trees through.
pub(crate) struct BorrowedJson;

impl Json for BorrowedJson {
    type Node<'a> = &'a Borrowed<'a>;
    type PreparedKey = String;
    type StringBuffer = Borrowed<'static>;

    // A lookup is a scan of at most `SMALL_OBJECT` names.
    const KEYS_PER_LOOKUP: usize = 4;

    fn prepare_key(key: &str) -> String {
        key.to_owned()
    }

    fn with_string_node<T>(
        buffer: &mut Borrowed<'static>,
        string: &str,
        f: impl FnOnce(<Self as Json>::Node<'_>) -> T,
    ) -> T {
        *buffer = Borrowed::String(Cow::Owned(string.to_owned()));
        f(buffer)
    }
}

impl<'a> Node<'a, BorrowedJson> for &'a Borrowed<'a> {
    type Object = &'a [(Cow<'a, str>, Borrowed<'a>)];
    type Array = &'a [Borrowed<'a>];
    type Number = &'a Number;

    fn as_object(&self) -> Option<Self::Object> {
        match self {
            Borrowed::Object(members) => Some(members),
            _ => None,
        }
    }

    fn as_array(&self) -> Option<Self::Array> {
        match self {
            Borrowed::Array(items) => Some(items),
            _ => None,
        }
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        match self {
            Borrowed::String(text) => Some(Cow::Borrowed(text)),
            _ => None,
        }
    }

    fn as_number(&self) -> Option<&'a Number> {
        match self {
            Borrowed::Number(number) => Some(number),
            _ => None,
        }
    }

    fn as_boolean(&self) -> Option<bool> {
        match self {
            Borrowed::Bool(b) => Some(*b),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        matches!(self, Borrowed::Null)
    }

    fn json_type(&self) -> JsonType {
        match self {
            Borrowed::Null => JsonType::Null,
            Borrowed::Bool(_) => JsonType::Boolean,
            Borrowed::Number(_) => JsonType::Number,
            Borrowed::String(_) => JsonType::String,
            Borrowed::Array(_) => JsonType::Array,
            Borrowed::Object(_) => JsonType::Object,
        }
    }

    /// `enum` and `const` on a scalar without building a `Value` for it.
    fn equals_value(&self, expected: &Value) -> bool {
        match (self, expected) {
            (Borrowed::String(text), Value::String(other)) => text == other,
            (Borrowed::String(_), _) => false,
            (Borrowed::Bool(b), _) => expected.as_bool() == Some(*b),
            (Borrowed::Null, _) => expected.is_null(),
            (Borrowed::Number(number), _) => cmp::equal(&Value::Number(number.clone()), expected),
            (Borrowed::Array(_) | Borrowed::Object(_), _) => cmp::equal(&self.to_value(), expected),
        }
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(to_value(self))
    }

    fn identity(&self) -> Option<NodeIdentity> {
        Some(NodeIdentity::new(
            std::ptr::from_ref::<Borrowed<'a>>(*self) as usize
        ))
    }
}

fn to_value(node: &Borrowed<'_>) -> Value {
    match node {
        Borrowed::Null => Value::Null,
        Borrowed::Bool(b) => Value::Bool(*b),
        Borrowed::Number(number) => Value::Number(number.clone()),
        Borrowed::String(text) => Value::String(text.clone().into_owned()),
        Borrowed::Array(items) => Value::Array(items.iter().map(to_value).collect()),
        Borrowed::Object(members) => Value::Object(
            members
                .iter()
                .map(|(name, value)| (name.clone().into_owned(), to_value(value)))
                .collect(),
        ),
    }
}

/// An object's members in their order; `get` finds the one member of a name (a repeated name
/// never reaches here).
impl<'a> Object<'a, BorrowedJson> for &'a [(Cow<'a, str>, Borrowed<'a>)] {
    type Node = &'a Borrowed<'a>;
    type MemberName = &'a str;
    type MembersIter = Members<'a>;

    fn len(&self) -> usize {
        <[_]>::len(self)
    }

    fn get(&self, key: &String) -> Option<&'a Borrowed<'a>> {
        self.iter()
            .find(|(name, _)| name == key.as_str())
            .map(|(_, value)| value)
    }

    fn members(&self) -> Members<'a> {
        Members(self.iter())
    }
}

/// The members of an object, as `jsonschema` walks them.
pub(crate) struct Members<'a>(std::slice::Iter<'a, (Cow<'a, str>, Borrowed<'a>)>);

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, &'a Borrowed<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(name, value)| (name.as_ref(), value))
    }
}

impl<'a> Array<'a, BorrowedJson> for &'a [Borrowed<'a>] {
    type Node = &'a Borrowed<'a>;
    type ElementsIter = std::slice::Iter<'a, Borrowed<'a>>;

    fn len(&self) -> usize {
        <[_]>::len(self)
    }

    fn elements(&self) -> std::slice::Iter<'a, Borrowed<'a>> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_borrows_its_strings_and_keeps_member_order() {
        let text = r#"{"b":"x","a":[1,-2,1.5,true,null],"c":"\u00e9"}"#;
        let tree = Borrowed::parse(text).unwrap();
        let Borrowed::Object(members) = &tree else {
            panic!("{tree:?}")
        };
        let names: Vec<&str> = members.iter().map(|(n, _)| n.as_ref()).collect();
        assert_eq!(names, ["b", "a", "c"]);
        assert!(matches!(
            &members[0].1,
            Borrowed::String(Cow::Borrowed("x"))
        ));
        assert!(matches!(&members[2].1, Borrowed::String(Cow::Owned(s)) if s == "é"));
        assert_eq!(
            to_value(&tree),
            serde_json::from_str::<Value>(text).unwrap()
        );
    }

    #[test]
    fn repeated_names_and_large_objects_are_left_to_the_value_path() {
        assert!(Borrowed::parse(r#"{"a":1,"a":2}"#).is_none());
        assert!(Borrowed::parse(r#"{"x":{"a":1,"b":2,"a":3}}"#).is_none());
        let large: Value = (0..=SMALL_OBJECT)
            .map(|i| (format!("m{i}"), Value::from(i)))
            .collect::<serde_json::Map<_, _>>()
            .into();
        assert!(Borrowed::parse(&large.to_string()).is_none());
        assert!(Borrowed::parse(r#"{"a":1,"b":2}"#).is_some());
    }
}
