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
    ///
    /// A reader of its own, not serde_json's `Deserializer` (which was 58 % of the registry
    /// check, issue 25): the text is JSON already, so strings are found by an 8-byte scan for
    /// `"`, `\` and control bytes and borrowed; what is not plain (a string with an escape, a
    /// number that is not a short integer) is handed to serde_json, so every value is the one
    /// serde_json reads. Anything unexpected (text that is not JSON, nesting deeper than
    /// [`MAX_DEPTH`]) is `None`: the `Value` path decides, as it did before. Each container is
    /// one exactly sized `Vec`, split off one of two scratch stacks.
    pub(crate) fn parse(text: &'a str) -> Option<Borrowed<'a>> {
        let mut reader = Reader {
            text,
            at: 0,
            items: Vec::with_capacity(8),
            members: Vec::with_capacity(16),
        };
        let value = reader.value(MAX_DEPTH)?;
        reader.skip_blanks();
        (reader.at == text.len()).then_some(value)
    }

    /// The serde_json `Deserializer` reading `parse` replaced, kept as the oracle of its
    /// property test.
    #[cfg(test)]
    pub(crate) fn parse_with_serde(text: &'a str) -> Option<Borrowed<'a>> {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let value = de::Deserialize::deserialize(&mut deserializer).ok()?;
        deserializer.end().ok()?;
        Some(value)
    }
}

/// Nesting deeper than this is left to the `Value` path (serde_json reads 128 levels; below
/// its limit, so depth never makes a verdict here that the `Value` path would not make).
const MAX_DEPTH: usize = 100;

/// The reader of [`Borrowed::parse`]: a position in the text and the scratch stacks that
/// containers are collected from.
struct Reader<'a> {
    text: &'a str,
    at: usize,
    items: Vec<Borrowed<'a>>,
    members: Vec<(Cow<'a, str>, Borrowed<'a>)>,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.at += 1;
        }
    }

    /// Steps over `byte` after blanks, or `None`.
    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_blanks();
        (self.peek()? == byte).then(|| self.at += 1)
    }

    fn value(&mut self, depth: usize) -> Option<Borrowed<'a>> {
        self.skip_blanks();
        match self.peek()? {
            b'"' => self.string().map(Borrowed::String),
            b'{' => self.object(depth.checked_sub(1)?),
            b'[' => self.array(depth.checked_sub(1)?),
            b't' => self.literal("true", Borrowed::Bool(true)),
            b'f' => self.literal("false", Borrowed::Bool(false)),
            b'n' => self.literal("null", Borrowed::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn literal(&mut self, word: &str, value: Borrowed<'a>) -> Option<Borrowed<'a>> {
        let end = self.at + word.len();
        (self.text.as_bytes().get(self.at..end)? == word.as_bytes()).then(|| {
            self.at = end;
            value
        })
    }

    /// A string at `"`: borrowed when it holds no escape, else serde_json's reading of it.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        let bytes = self.text.as_bytes();
        let start = self.at + 1;
        let mut at = plain_run(bytes, start);
        loop {
            match *bytes.get(at)? {
                b'"' => {
                    self.at = at + 1;
                    return self.text.get(start..at).map(Cow::Borrowed);
                }
                b'\\' => break,
                0..=0x1f => return None,
                _ => at += 1,
            }
        }
        // An escape: find the closing quote, then let serde_json decode the whole string.
        loop {
            match *bytes.get(at)? {
                b'"' => break,
                b'\\' => at += 2,
                _ => at += 1,
            }
        }
        let decoded: String = serde_json::from_str(self.text.get(start - 1..=at)?).ok()?;
        self.at = at + 1;
        Some(Cow::Owned(decoded))
    }

    /// A number: an integer of up to 18 digits read here (what serde_json gives for it: a
    /// `u64`, or an `i64` below zero; `-0` is a float there, so it is not read here), any
    /// other number read by serde_json from its text.
    fn number(&mut self) -> Option<Borrowed<'a>> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        let digits = start + usize::from(bytes[start] == b'-');
        let mut at = digits;
        while bytes.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        let integer_end = at;
        while matches!(
            bytes.get(at),
            Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
        ) {
            at += 1;
        }
        self.at = at;
        let count = integer_end - digits;
        if at == integer_end && (count == 1 || ((2..=18).contains(&count) && bytes[digits] != b'0'))
        {
            let magnitude = bytes[digits..integer_end]
                .iter()
                .fold(0_u64, |n, d| n * 10 + u64::from(d - b'0'));
            if digits == start {
                return Some(Borrowed::Number(magnitude.into()));
            }
            if magnitude != 0 {
                // Up to 18 digits: below 2^63, so the cast and the negation are exact.
                return Some(Borrowed::Number((-(magnitude as i64)).into()));
            }
        }
        let number: Number = serde_json::from_str(self.text.get(start..at)?).ok()?;
        Some(Borrowed::Number(number))
    }

    fn array(&mut self, depth: usize) -> Option<Borrowed<'a>> {
        self.at += 1;
        let start = self.items.len();
        self.skip_blanks();
        if self.peek()? == b']' {
            self.at += 1;
            return Some(Borrowed::Array(Vec::new()));
        }
        loop {
            let item = self.value(depth)?;
            self.items.push(item);
            self.skip_blanks();
            match self.peek()? {
                b',' => self.at += 1,
                b']' => break,
                _ => return None,
            }
        }
        self.at += 1;
        Some(Borrowed::Array(self.items.split_off(start)))
    }

    fn object(&mut self, depth: usize) -> Option<Borrowed<'a>> {
        self.at += 1;
        let start = self.members.len();
        self.skip_blanks();
        if self.peek()? == b'}' {
            self.at += 1;
            return Some(Borrowed::Object(Vec::new()));
        }
        loop {
            self.skip_blanks();
            if self.peek()? != b'"' {
                return None;
            }
            let name = self.string()?;
            let read = &self.members[start..];
            if read.len() == SMALL_OBJECT || read.iter().any(|(n, _)| *n == name) {
                return None;
            }
            self.expect(b':')?;
            let value = self.value(depth)?;
            self.members.push((name, value));
            self.skip_blanks();
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => break,
                _ => return None,
            }
        }
        self.at += 1;
        Some(Borrowed::Object(self.members.split_off(start)))
    }
}

/// The first `"`, `\` or control byte from `at` on, looked for 8 bytes at a time (or the start
/// of the last, shorter block, looked at one by one by the caller). Exact about
/// presence (the zero-byte test on the block xor the byte; bytes below 0x20 by the
/// "less than" test, exact for a bound of at most 0x80).
fn plain_run(bytes: &[u8], mut at: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(block) = bytes.get(at..at + 8) {
        let Ok(block) = <[u8; 8]>::try_from(block) else {
            break;
        };
        let word = u64::from_le_bytes(block);
        let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
        let found = zero(word ^ (ONES * u64::from(b'"')))
            | zero(word ^ (ONES * u64::from(b'\\')))
            | (word.wrapping_sub(ONES * 0x20) & !word & HIGH);
        if found != 0 {
            // The lowest flag of each test is a true one (a false flag only ever sits above
            // a true one), so this is the first byte that needs a look.
            return at + (found.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    at
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

    /// What `parse` reads, as a `Value`, and whether it read (`None` = the `Value` path).
    fn read(text: &str, serde: bool) -> Option<Value> {
        let tree = if serde {
            Borrowed::parse_with_serde(text)
        } else {
            Borrowed::parse(text)
        };
        tree.map(|tree| to_value(&tree))
    }

    #[test]
    fn numbers_and_strings_are_what_serde_json_reads() {
        for text in [
            "0",
            "-0",
            "7",
            "-7",
            "123456789012345678",
            "-123456789012345678",
            "1234567890123456789",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "1.5",
            "-0.0",
            "1e3",
            "1E-3",
            "2.5e+10",
            "1e400",
            "01",
            "-",
            "1.",
            "1.2.3",
            r#""a\"b""#,
            r#""\u00e9\n\/""#,
            r#""\ud83d\ude00""#,
            r#""\ud800""#,
            r#""\x""#,
            "\"\u{1}\"",
            r#""plain text of more than sixteen bytes""#,
            r#" { "a" : [ 1 , 2 ] , "b" : { } , "c" : [ ] } "#,
            "[1,]",
            r#"{"a":1,}"#,
            "{,}",
            "tru",
            "nul",
            "[1 2]",
            "+1",
            r#"{"a" 1}"#,
            "",
            " ",
            "[",
            r#"{"a":"b"#,
        ] {
            assert_eq!(read(text, false), read(text, true), "{text}");
        }
        let deep = format!("{}1{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(Borrowed::parse(&deep).is_some());
        let deeper = format!("[{deep}]");
        assert!(Borrowed::parse(&deeper).is_none(), "left to the Value path");
    }

    mod property {
        use super::read;
        use proptest::prelude::*;

        /// JSON text with what serde_json's own writer never makes: blanks, escapes of every
        /// kind, surrogate pairs, numbers of any length and exponent.
        fn json() -> impl Strategy<Value = String> {
            let string =
                r#""([a-zA-Z0-9 é€😀<>]|\\[nrtbf"/\\]|\\u00[0-9a-f]{2}|\\ud83d\\ude00){0,24}""#;
            let number = "-?(0|[1-9][0-9]{0,20})(\\.[0-9]{1,6})?([eE][+-]?[0-9]{1,3})?";
            let leaf = prop_oneof![
                Just("null".to_owned()),
                Just("true".to_owned()),
                Just("false".to_owned()),
                any::<i64>().prop_map(|n| n.to_string()),
                any::<u64>().prop_map(|n| n.to_string()),
                number,
                string,
            ];
            let blank = "[ \t\n\r]{0,2}";
            leaf.prop_recursive(4, 48, 8, move |inner| {
                prop_oneof![
                    (prop::collection::vec((inner.clone(), blank), 0..8)).prop_map(|items| {
                        let items: Vec<String> =
                            items.into_iter().map(|(v, b)| b + &v + " ").collect();
                        format!("[{}]", items.join(","))
                    }),
                    prop::collection::vec((string, inner, blank), 0..8).prop_map(|members| {
                        let members: Vec<String> = members
                            .into_iter()
                            .map(|(n, v, b)| format!("{b}{n}{b}:{v}"))
                            .collect();
                        format!("{{{}}}", members.join(","))
                    }),
                ]
            })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2000))]

            /// The reader gives the tree serde_json's `Deserializer` gave, or leaves the text
            /// to the `Value` path; it never reads a tree serde_json would not.
            #[test]
            fn the_reader_reads_what_serde_json_reads(text in json(), cut in any::<prop::sample::Index>(),
                    byte in prop::sample::select(b"{}[],:\"\\ 0-.eE+tn".to_vec())) {
                prop_assert_eq!(read(&text, false), read(&text, true), "{}", text);
                // The same text with one byte changed: usually not JSON; whatever the reader
                // reads from it, serde_json reads the same.
                let mut bytes = text.clone().into_bytes();
                let at = cut.index(bytes.len().max(1)).min(bytes.len().saturating_sub(1));
                if let Some(b) = bytes.get_mut(at) { *b = byte; }
                if let Ok(changed) = String::from_utf8(bytes) {
                    let got = read(&changed, false);
                    if got.is_some() {
                        prop_assert_eq!(got, read(&changed, true), "{}", changed);
                    }
                }
            }
        }
    }
}
