//! The extension attributes an event carries besides those its payload fills: owned values
//! with their CloudEvents type, in a map keyed by name.

use std::collections::BTreeMap;
use std::collections::btree_map;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use cloudevent_rules::AttributeKind;
use serde::ser::{Serialize, Serializer};

use crate::extension::ExtensionValue;
use crate::value::{Binary, Timestamp, Uri, UriRef};

/// An owned extension value, typed per the CloudEvents type system.
///
/// Parsed JSON only tells booleans, integers and strings apart (CE-JSON 2.2: "the only
/// potentially ambiguous JSON data type is string"), so a parsed string stays
/// [`ExtensionValueBuf::String`]; the other variants come from code that knows the type.
///
/// ```
/// use cloudevent_runtime::{ExtensionValue, ExtensionValueBuf};
///
/// let value = ExtensionValueBuf::from(42);
/// assert_eq!(value.as_value(), ExtensionValue::Integer(42));
/// assert_eq!(ExtensionValueBuf::from("eu-west").as_str(), Some("eu-west"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ExtensionValueBuf {
    /// Boolean.
    Boolean(bool),
    /// Integer, in the i32 range.
    Integer(i32),
    /// String.
    String(String),
    /// Binary; base64 in the JSON format.
    Binary(Binary),
    /// URI (absolute).
    Uri(Uri),
    /// URI-reference.
    UriReference(UriRef),
    /// Timestamp.
    Timestamp(Timestamp),
}

impl ExtensionValueBuf {
    /// The borrowed view.
    ///
    /// ```
    /// use cloudevent_runtime::{ExtensionValue, ExtensionValueBuf};
    /// assert_eq!(ExtensionValueBuf::from(true).as_value(), ExtensionValue::Boolean(true));
    /// ```
    pub fn as_value(&self) -> ExtensionValue<'_> {
        match self {
            ExtensionValueBuf::Boolean(b) => ExtensionValue::Boolean(*b),
            ExtensionValueBuf::Integer(i) => ExtensionValue::Integer(*i),
            ExtensionValueBuf::String(s) => ExtensionValue::String(s),
            ExtensionValueBuf::Binary(b) => ExtensionValue::Binary(b.as_bytes()),
            ExtensionValueBuf::Uri(u) => ExtensionValue::Uri(u.as_str()),
            ExtensionValueBuf::UriReference(u) => ExtensionValue::UriReference(u.as_str()),
            ExtensionValueBuf::Timestamp(t) => ExtensionValue::Timestamp(t.as_str()),
        }
    }

    /// The text of a value written as a JSON string (String, URI, URI-reference, Timestamp);
    /// `None` for Boolean, Integer and Binary.
    ///
    /// ```
    /// use cloudevent_runtime::ExtensionValueBuf;
    /// assert_eq!(ExtensionValueBuf::from("eu").as_str(), Some("eu"));
    /// assert_eq!(ExtensionValueBuf::from(1).as_str(), None);
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        self.as_value().as_str()
    }

    /// The CloudEvents type.
    ///
    /// ```
    /// use cloudevent_runtime::{ExtensionValueBuf, rules::AttributeKind};
    /// assert_eq!(ExtensionValueBuf::from(true).kind(), AttributeKind::Boolean);
    /// ```
    pub fn kind(&self) -> AttributeKind {
        self.as_value().kind()
    }
}

impl<'a> ExtensionValue<'a> {
    /// An owned copy.
    ///
    /// ```
    /// use cloudevent_runtime::{ExtensionValue, ExtensionValueBuf};
    /// assert_eq!(ExtensionValue::Integer(3).to_owned_value(), ExtensionValueBuf::Integer(3));
    /// ```
    pub fn to_owned_value(&self) -> ExtensionValueBuf {
        match *self {
            ExtensionValue::Boolean(b) => ExtensionValueBuf::Boolean(b),
            ExtensionValue::Integer(i) => ExtensionValueBuf::Integer(i),
            ExtensionValue::String(s) => ExtensionValueBuf::String(s.to_owned()),
            ExtensionValue::Binary(b) => ExtensionValueBuf::Binary(Binary::new(b)),
            // The borrowed value came from a checked field type (or was checked by the caller).
            ExtensionValue::Uri(u) => ExtensionValueBuf::Uri(Uri::new_unchecked(u.to_owned())),
            ExtensionValue::UriReference(u) => {
                ExtensionValueBuf::UriReference(UriRef::new_unchecked(u.to_owned()))
            }
            ExtensionValue::Timestamp(t) => {
                ExtensionValueBuf::Timestamp(Timestamp::new_unchecked(t.to_owned()))
            }
        }
    }

    /// The text of a value written as a JSON string; `None` for Boolean, Integer and Binary.
    ///
    /// ```
    /// use cloudevent_runtime::ExtensionValue;
    /// assert_eq!(ExtensionValue::Uri("https://example.com").as_str(), Some("https://example.com"));
    /// assert_eq!(ExtensionValue::Binary(b"x").as_str(), None);
    /// ```
    pub fn as_str(&self) -> Option<&'a str> {
        match *self {
            ExtensionValue::String(s)
            | ExtensionValue::Uri(s)
            | ExtensionValue::UriReference(s)
            | ExtensionValue::Timestamp(s) => Some(s),
            ExtensionValue::Boolean(_) | ExtensionValue::Integer(_) | ExtensionValue::Binary(_) => {
                None
            }
        }
    }

    /// The CloudEvents type.
    ///
    /// ```
    /// use cloudevent_runtime::{ExtensionValue, rules::AttributeKind};
    /// assert_eq!(ExtensionValue::Timestamp("2026-03-28T14:22:31Z").kind(), AttributeKind::Timestamp);
    /// ```
    pub fn kind(&self) -> AttributeKind {
        match self {
            ExtensionValue::Boolean(_) => AttributeKind::Boolean,
            ExtensionValue::Integer(_) => AttributeKind::Integer,
            ExtensionValue::String(_) => AttributeKind::String,
            ExtensionValue::Binary(_) => AttributeKind::Binary,
            ExtensionValue::Uri(_) => AttributeKind::Uri,
            ExtensionValue::UriReference(_) => AttributeKind::UriReference,
            ExtensionValue::Timestamp(_) => AttributeKind::Timestamp,
        }
    }

    /// Whether `received`, an extension value as parsed, stands for this one (a payload
    /// field's): the same JSON, or a String holding this value's canonical string encoding
    /// (CE 1.0.2 type system). Parsed JSON cannot tell Binary (base64 text), URI,
    /// URI-reference and Timestamp from a String, and a binary-mode binding delivers every
    /// attribute as a string (an Integer as `"5"`, a Boolean as `"true"`).
    pub(crate) fn is_carried_by(&self, received: &ExtensionValue<'_>) -> bool {
        match (*self, *received) {
            (ExtensionValue::Boolean(b), ExtensionValue::String(text)) => {
                text == if b { "true" } else { "false" }
            }
            (ExtensionValue::Integer(i), ExtensionValue::String(text)) => {
                // Only the canonical form: `+5` or `05` is another value on the wire.
                text.len() <= 11 && text == i.to_string()
            }
            (ExtensionValue::Binary(bytes), ExtensionValue::String(text)) => {
                text.len() == bytes.len().div_ceil(3) * 4 && text == BASE64.encode(bytes)
            }
            _ => match (self.as_str(), received.as_str()) {
                (Some(a), Some(b)) => a == b,
                (None, None) => self == received,
                _ => false,
            },
        }
    }
}

impl Serialize for ExtensionValue<'_> {
    /// The JSON format's type mapping (CE-JSON 2.2): Binary as base64 text, every other
    /// string-like type as a JSON string.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            ExtensionValue::Boolean(b) => serializer.serialize_bool(b),
            ExtensionValue::Integer(i) => serializer.serialize_i32(i),
            ExtensionValue::Binary(bytes) => {
                serializer.collect_str(&base64::display::Base64Display::new(bytes, &BASE64))
            }
            ExtensionValue::String(s)
            | ExtensionValue::Uri(s)
            | ExtensionValue::UriReference(s)
            | ExtensionValue::Timestamp(s) => serializer.serialize_str(s),
        }
    }
}

impl Serialize for ExtensionValueBuf {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.as_value().serialize(serializer)
    }
}

macro_rules! value_from {
    ($($t:ty => $variant:ident),* $(,)?) => {$(
        impl From<$t> for ExtensionValueBuf {
            fn from(value: $t) -> Self {
                ExtensionValueBuf::$variant(value.into())
            }
        }
    )*};
}
value_from!(
    bool => Boolean,
    i32 => Integer,
    i16 => Integer,
    i8 => Integer,
    u16 => Integer,
    u8 => Integer,
    String => String,
    &str => String,
    Binary => Binary,
    Uri => Uri,
    UriRef => UriReference,
    Timestamp => Timestamp,
);

/// Extension attributes by name, kept in name order so the JSON output is deterministic.
///
/// ```
/// use cloudevent_runtime::{ExtensionValueBuf, Extensions};
///
/// let mut extensions = Extensions::new();
/// extensions.insert("region", "eu-west");
/// extensions.insert("priority", 3);
/// assert_eq!(extensions.get("priority"), Some(&ExtensionValueBuf::Integer(3)));
/// assert_eq!(extensions.iter().map(|(name, _)| name).collect::<Vec<_>>(), ["priority", "region"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Extensions {
    map: BTreeMap<String, ExtensionValueBuf>,
}

impl Extensions {
    /// No extensions.
    ///
    /// ```
    /// use cloudevent_runtime::Extensions;
    /// assert!(Extensions::new().is_empty());
    /// ```
    pub fn new() -> Self {
        Extensions::default()
    }

    /// The value of an extension.
    ///
    /// ```
    /// use cloudevent_runtime::{ExtensionValueBuf, Extensions};
    /// let mut extensions = Extensions::new();
    /// extensions.insert("hop", 2);
    /// assert_eq!(extensions.get("hop"), Some(&ExtensionValueBuf::Integer(2)));
    /// ```
    pub fn get(&self, name: &str) -> Option<&ExtensionValueBuf> {
        self.map.get(name)
    }

    /// The text of a string-typed extension.
    ///
    /// ```
    /// use cloudevent_runtime::Extensions;
    /// let mut extensions = Extensions::new();
    /// extensions.insert("region", "eu");
    /// extensions.insert("hop", 2);
    /// assert_eq!(extensions.get_str("region"), Some("eu"));
    /// assert_eq!(extensions.get_str("hop"), None);
    /// ```
    pub fn get_str(&self, name: &str) -> Option<&str> {
        self.map.get(name).and_then(ExtensionValueBuf::as_str)
    }

    /// Sets an extension without checking its name, returning the value it replaces. The
    /// validator and [`Event::with_extension`](crate::Event::with_extension) check names.
    ///
    /// ```
    /// use cloudevent_runtime::{ExtensionValueBuf, Extensions};
    /// let mut extensions = Extensions::new();
    /// assert_eq!(extensions.insert("hop", 1), None);
    /// assert_eq!(extensions.insert("hop", 2), Some(ExtensionValueBuf::Integer(1)));
    /// ```
    pub fn insert(
        &mut self,
        name: impl Into<String>,
        value: impl Into<ExtensionValueBuf>,
    ) -> Option<ExtensionValueBuf> {
        self.map.insert(name.into(), value.into())
    }

    /// Removes an extension, returning its value.
    ///
    /// ```
    /// use cloudevent_runtime::Extensions;
    /// let mut extensions = Extensions::new();
    /// extensions.insert("hop", 1);
    /// assert!(extensions.remove("hop").is_some());
    /// assert!(extensions.is_empty());
    /// ```
    pub fn remove(&mut self, name: &str) -> Option<ExtensionValueBuf> {
        self.map.remove(name)
    }

    /// Whether the extension is set.
    ///
    /// ```
    /// use cloudevent_runtime::Extensions;
    /// let mut extensions = Extensions::new();
    /// extensions.insert("hop", 1);
    /// assert!(extensions.contains("hop") && !extensions.contains("region"));
    /// ```
    pub fn contains(&self, name: &str) -> bool {
        self.map.contains_key(name)
    }

    /// How many extensions are set.
    ///
    /// ```
    /// use cloudevent_runtime::Extensions;
    /// let mut extensions = Extensions::new();
    /// extensions.insert("hop", 1);
    /// assert_eq!(extensions.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether none are set.
    ///
    /// ```
    /// use cloudevent_runtime::Extensions;
    /// assert!(Extensions::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The extensions in name order.
    ///
    /// ```
    /// use cloudevent_runtime::Extensions;
    /// let mut extensions = Extensions::new();
    /// extensions.insert("b", 1);
    /// extensions.insert("a", true);
    /// let names: Vec<&str> = extensions.iter().map(|(name, _)| name).collect();
    /// assert_eq!(names, ["a", "b"]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (&str, &ExtensionValueBuf)> {
        self.map.iter().map(|(name, value)| (name.as_str(), value))
    }

    /// Sets an extension unless it is already set (used to detect duplicate keys).
    pub(crate) fn try_insert_new(&mut self, name: String, value: ExtensionValueBuf) -> bool {
        match self.map.entry(name) {
            btree_map::Entry::Vacant(slot) => {
                slot.insert(value);
                true
            }
            btree_map::Entry::Occupied(_) => false,
        }
    }
}

impl<'a> IntoIterator for &'a Extensions {
    type Item = (&'a String, &'a ExtensionValueBuf);
    type IntoIter = btree_map::Iter<'a, String, ExtensionValueBuf>;

    fn into_iter(self) -> Self::IntoIter {
        self.map.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_serialize_per_the_json_type_mapping() {
        let cases = [
            (ExtensionValueBuf::Boolean(true), "true"),
            (ExtensionValueBuf::Integer(i32::MIN), "-2147483648"),
            (ExtensionValueBuf::from("a\"b"), r#""a\"b""#),
            (ExtensionValueBuf::Binary(Binary::new(*b"hi")), r#""aGk=""#),
        ];
        for (value, json) in cases {
            assert_eq!(serde_json::to_string(&value).unwrap(), json);
        }
    }

    #[test]
    fn a_received_value_is_carried_by_its_json_or_its_canonical_string() {
        use ExtensionValue as V;
        let carried = [
            (V::Uri("/a"), V::String("/a")),
            (V::UriReference("/a"), V::String("/a")),
            (
                V::Timestamp("2026-03-28T14:22:31Z"),
                V::String("2026-03-28T14:22:31Z"),
            ),
            (V::Integer(1), V::Integer(1)),
            (V::Integer(-5), V::String("-5")),
            (V::Integer(i32::MIN), V::String("-2147483648")),
            (V::Boolean(true), V::String("true")),
            (V::Boolean(false), V::Boolean(false)),
            (V::Binary(b"sum"), V::String("c3Vt")),
            (V::Binary(b""), V::String("")),
            (V::Binary(b"hi"), V::Binary(b"hi")),
        ];
        for (payload, received) in carried {
            assert!(payload.is_carried_by(&received), "{payload:?} {received:?}");
        }
        let different = [
            (V::Integer(5), V::String("05")),
            (V::Integer(5), V::String("+5")),
            (V::Integer(1), V::Boolean(true)),
            (V::Boolean(true), V::String("True")),
            (V::Boolean(true), V::String("1")),
            (V::Binary(b"hi"), V::String("aGk")),
            (V::Binary(b"hi"), V::String("aGj=")),
            (V::String("5"), V::Integer(5)),
            (V::String("true"), V::Boolean(true)),
            (V::Uri("/a"), V::String("/b")),
        ];
        for (payload, received) in different {
            assert!(
                !payload.is_carried_by(&received),
                "{payload:?} {received:?}"
            );
        }
    }
}
