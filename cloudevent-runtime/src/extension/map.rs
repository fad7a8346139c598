//! The extension attributes an event carries besides those its payload fills: owned values
//! with their CloudEvents type, in a map keyed by name.

use std::collections::BTreeMap;
use std::collections::btree_map;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
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
}

impl From<ExtensionValue<'_>> for ExtensionValueBuf {
    /// An owned copy.
    ///
    /// ```
    /// use cloudevent_runtime::{ExtensionValue, ExtensionValueBuf};
    /// assert_eq!(ExtensionValueBuf::from(ExtensionValue::Integer(3)), ExtensionValueBuf::Integer(3));
    /// ```
    fn from(value: ExtensionValue<'_>) -> Self {
        match value {
            ExtensionValue::Boolean(b) => ExtensionValueBuf::Boolean(b),
            ExtensionValue::Integer(i) => ExtensionValueBuf::Integer(i),
            ExtensionValue::String(s) => ExtensionValueBuf::String(s.to_owned()),
            ExtensionValue::Binary(b) => ExtensionValueBuf::Binary(Binary::from(b)),
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
}

/// Whether `received`, an extension value as parsed, stands for `field`, a payload field's
/// value: the same JSON, or a String holding the field's canonical string encoding (CE 1.0.2
/// type system). Parsed JSON cannot tell Binary (base64 text), URI, URI-reference and
/// Timestamp from a String, and a binary-mode binding delivers every attribute as a string
/// (an Integer as `"5"`, a Boolean as `"true"`).
pub(crate) fn is_carried_by(field: ExtensionValue<'_>, received: ExtensionValue<'_>) -> bool {
    match (field, received) {
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
        _ => match (field.as_str(), received.as_str()) {
            (Some(a), Some(b)) => a == b,
            (None, None) => field == received,
            _ => false,
        },
    }
}

/// An extension value in the JSON format's type mapping (CE-JSON 2.2): Binary as base64
/// text, every other string-like type as a JSON string. (The value type lives in
/// `cloudevent-rules`, which knows no serde; this is its serializer.)
#[derive(Clone, Copy)]
pub(crate) struct JsonValue<'a>(pub(crate) ExtensionValue<'a>);

impl Serialize for JsonValue<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
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
    /// The JSON format's type mapping (CE-JSON 2.2): Binary as base64 text, every other
    /// string-like type as a JSON string.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        JsonValue(self.as_value()).serialize(serializer)
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
/// let mut extensions = Extensions::default();
/// extensions.insert("region", "eu-west");
/// extensions.insert("priority", 3);
/// assert_eq!(extensions.get("priority"), Some(&ExtensionValueBuf::Integer(3)));
/// assert_eq!(extensions.iter().map(|(name, _)| name).collect::<Vec<_>>(), ["priority", "region"]);
/// ```
#[derive(Clone, Default)]
pub struct Extensions {
    store: Store,
}

/// Up to this many extensions live in a `Vec` sorted by name: an event carries a handful,
/// and every received event fills a map, so one small allocation and a binary search beat a
/// B-tree's node (a profile of the typed parse put the B-tree's inserts, removals and drops
/// at about 7 %). A map that grows past it (a hostile event can hold thousands of members in
/// 256 KiB) becomes a `BTreeMap`, so inserting stays O(log n) for any input.
const SMALL: usize = 16;

#[derive(Clone)]
enum Store {
    /// Sorted by name, each name once.
    Small(Vec<(String, ExtensionValueBuf)>),
    Large(BTreeMap<String, ExtensionValueBuf>),
}

impl Default for Store {
    fn default() -> Self {
        Store::Small(Vec::new())
    }
}

impl Store {
    /// Inserts a name not yet present (`at` is its place in a small store) and grows into a
    /// B-tree past [`SMALL`].
    fn insert_new(&mut self, at: usize, name: String, value: ExtensionValueBuf) {
        match self {
            Store::Small(list) if list.len() < SMALL => {
                if list.capacity() == 0 {
                    // Allocated outright: `reserve_exact` on an empty `Vec` went through its
                    // general growth path (`finish_grow`, 40 instructions a typed parse).
                    *list = Vec::with_capacity(4);
                }
                list.insert(at, (name, value));
            }
            Store::Small(list) => {
                let mut map: BTreeMap<String, ExtensionValueBuf> =
                    std::mem::take(list).into_iter().collect();
                map.insert(name, value);
                *self = Store::Large(map);
            }
            Store::Large(map) => {
                map.insert(name, value);
            }
        }
    }
}

/// Where `name` is in a small store: a walk comparing lengths first, so the names of other
/// lengths (most of an event's few extensions) cost no `memcmp`; the binary search of
/// [`position`] calls one for every name it visits.
fn find(list: &[(String, ExtensionValueBuf)], name: &str) -> Option<usize> {
    list.iter().position(|(held, _)| held == name)
}

/// [`position`] by a walk in name order that compares bytes until the first that differ:
/// an event's extension names are short, few and differ early, and the binary search's
/// `memcmp` call per name visited cost more than the walk (issue 40: the typed JSON read
/// looks up every extension member once).
#[inline]
fn place(list: &[(String, ExtensionValueBuf)], name: &str) -> Result<usize, usize> {
    let name = name.as_bytes();
    for (at, (held, _)) in list.iter().enumerate() {
        let held = held.as_bytes();
        let order = match held.iter().zip(name).find(|(a, b)| a != b) {
            Some((a, b)) => a.cmp(b),
            None => held.len().cmp(&name.len()),
        };
        match order {
            std::cmp::Ordering::Less => {}
            std::cmp::Ordering::Equal => return Ok(at),
            std::cmp::Ordering::Greater => return Err(at),
        }
    }
    Err(list.len())
}

/// Where a name absent from an [`Extensions`] goes (its index in a small store), as found by
/// [`Extensions::vacancy`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vacancy(usize);

/// Where `name` is, or belongs, in a small store.
fn position(list: &[(String, ExtensionValueBuf)], name: &str) -> Result<usize, usize> {
    list.binary_search_by(|(held, _)| held.as_str().cmp(name))
}

impl PartialEq for Extensions {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Extensions {}

impl std::fmt::Debug for Extensions {
    /// As a map in name order, whichever store holds it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        struct Map<'a>(&'a Extensions);
        impl std::fmt::Debug for Map<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_map().entries(self.0).finish()
            }
        }
        f.debug_struct("Extensions")
            .field("map", &Map(self))
            .finish()
    }
}

impl Extensions {
    /// The value of an extension.
    ///
    /// ```
    /// use cloudevent_runtime::{ExtensionValueBuf, Extensions};
    /// let mut extensions = Extensions::default();
    /// extensions.insert("hop", 2);
    /// assert_eq!(extensions.get("hop"), Some(&ExtensionValueBuf::Integer(2)));
    /// ```
    pub fn get(&self, name: &str) -> Option<&ExtensionValueBuf> {
        match &self.store {
            Store::Small(list) => find(list, name).map(|at| &list[at].1),
            Store::Large(map) => map.get(name),
        }
    }

    /// Sets an extension without checking its name, returning the value it replaces. The
    /// validator and [`Event::with_extension`](crate::Event::with_extension) check names.
    ///
    /// ```
    /// use cloudevent_runtime::{ExtensionValueBuf, Extensions};
    /// let mut extensions = Extensions::default();
    /// assert_eq!(extensions.insert("hop", 1), None);
    /// assert_eq!(extensions.insert("hop", 2), Some(ExtensionValueBuf::Integer(1)));
    /// ```
    pub fn insert(
        &mut self,
        name: impl Into<String>,
        value: impl Into<ExtensionValueBuf>,
    ) -> Option<ExtensionValueBuf> {
        let (name, value) = (name.into(), value.into());
        match &mut self.store {
            Store::Small(list) => match position(list, &name) {
                Ok(at) => Some(std::mem::replace(&mut list[at].1, value)),
                Err(at) => {
                    self.store.insert_new(at, name, value);
                    None
                }
            },
            Store::Large(map) => map.insert(name, value),
        }
    }

    /// Removes an extension, returning its value.
    ///
    /// ```
    /// use cloudevent_runtime::Extensions;
    /// let mut extensions = Extensions::default();
    /// extensions.insert("hop", 1);
    /// assert!(extensions.remove("hop").is_some());
    /// assert!(extensions.is_empty());
    /// ```
    pub fn remove(&mut self, name: &str) -> Option<ExtensionValueBuf> {
        match &mut self.store {
            Store::Small(list) => find(list, name).map(|at| list.remove(at).1),
            Store::Large(map) => map.remove(name),
        }
    }

    /// Whether the extension is set.
    ///
    /// ```
    /// use cloudevent_runtime::Extensions;
    /// let mut extensions = Extensions::default();
    /// extensions.insert("hop", 1);
    /// assert!(extensions.contains("hop") && !extensions.contains("region"));
    /// ```
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// How many extensions are set.
    ///
    /// ```
    /// use cloudevent_runtime::Extensions;
    /// let mut extensions = Extensions::default();
    /// extensions.insert("hop", 1);
    /// assert_eq!(extensions.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        match &self.store {
            Store::Small(list) => list.len(),
            Store::Large(map) => map.len(),
        }
    }

    /// Whether none are set.
    ///
    /// ```
    /// use cloudevent_runtime::Extensions;
    /// assert!(Extensions::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The extensions in name order.
    ///
    /// ```
    /// use cloudevent_runtime::Extensions;
    /// let mut extensions = Extensions::default();
    /// extensions.insert("b", 1);
    /// extensions.insert("a", true);
    /// let names: Vec<&str> = extensions.iter().map(|(name, _)| name).collect();
    /// assert_eq!(names, ["a", "b"]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (&str, &ExtensionValueBuf)> {
        self.into_iter().map(|(name, value)| (name.as_str(), value))
    }

    /// Where `name` would be set, or `None` when it is set: the one search of a reader that
    /// refuses a member named twice before it reads the member's value, and then sets it
    /// with [`Extensions::insert_vacant`] without searching again.
    #[inline]
    pub(crate) fn vacancy(&self, name: &str) -> Option<Vacancy> {
        match &self.store {
            Store::Small(list) => place(list, name).err().map(Vacancy),
            Store::Large(map) => (!map.contains_key(name)).then_some(Vacancy(usize::MAX)),
        }
    }

    /// Sets `name` where [`Extensions::vacancy`] found its place, nothing having been set or
    /// removed since.
    #[inline]
    pub(crate) fn insert_vacant(&mut self, at: Vacancy, name: String, value: ExtensionValueBuf) {
        debug_assert!(
            self.vacancy(&name)
                .is_some_and(|found| matches!(self.store, Store::Large(_)) || found.0 == at.0),
            "a vacancy used after the map changed"
        );
        self.store.insert_new(at.0, name, value);
    }

    /// Sets an extension unless it is already set (used to detect duplicate keys).
    pub(crate) fn try_insert_new(&mut self, name: String, value: ExtensionValueBuf) -> bool {
        match &mut self.store {
            Store::Small(list) => match position(list, &name) {
                Ok(_) => false,
                Err(at) => {
                    self.store.insert_new(at, name, value);
                    true
                }
            },
            Store::Large(map) => match map.entry(name) {
                btree_map::Entry::Vacant(slot) => {
                    slot.insert(value);
                    true
                }
                btree_map::Entry::Occupied(_) => false,
            },
        }
    }
}

/// The extensions of an [`Extensions`] in name order, as `(&String, &ExtensionValueBuf)`.
///
/// ```
/// use cloudevent_runtime::Extensions;
/// let mut extensions = Extensions::default();
/// extensions.insert("hop", 1);
/// for (name, value) in &extensions {
///     assert_eq!((name.as_str(), value.as_str()), ("hop", None));
/// }
/// ```
#[derive(Debug, Clone)]
pub struct ExtensionsIter<'a> {
    inner: IterInner<'a>,
}

#[derive(Debug, Clone)]
enum IterInner<'a> {
    Small(std::slice::Iter<'a, (String, ExtensionValueBuf)>),
    Large(btree_map::Iter<'a, String, ExtensionValueBuf>),
}

impl<'a> Iterator for ExtensionsIter<'a> {
    type Item = (&'a String, &'a ExtensionValueBuf);

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.inner {
            IterInner::Small(iter) => iter.next().map(|(name, value)| (name, value)),
            IterInner::Large(iter) => iter.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.inner {
            IterInner::Small(iter) => iter.size_hint(),
            IterInner::Large(iter) => iter.size_hint(),
        }
    }
}

impl ExactSizeIterator for ExtensionsIter<'_> {}

impl<'a> IntoIterator for &'a Extensions {
    type Item = (&'a String, &'a ExtensionValueBuf);
    type IntoIter = ExtensionsIter<'a>;

    fn into_iter(self) -> Self::IntoIter {
        ExtensionsIter {
            inner: match &self.store {
                Store::Small(list) => IterInner::Small(list.iter()),
                Store::Large(map) => IterInner::Large(map.iter()),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The small store and the B-tree it grows into hold the same map: the same answers to
    /// every operation, in name order, for a sequence of operations on many names.
    #[test]
    fn the_small_store_and_the_b_tree_agree() {
        let mut ours = Extensions::default();
        let mut reference: BTreeMap<String, ExtensionValueBuf> = BTreeMap::new();
        // A fixed pseudo-random walk over 40 names: inserts, replacements, removals, and
        // duplicate-refusing inserts, across the switch from the small store to the B-tree.
        let mut state: u32 = 0x9E37_79B9;
        for step in 0..2_000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let name = format!("n{}", state % 40);
            let value = ExtensionValueBuf::Integer(step);
            match state % 4 {
                0 => assert_eq!(
                    ours.insert(name.clone(), value.clone()),
                    reference.insert(name, value)
                ),
                1 => assert_eq!(ours.remove(&name), reference.remove(&name)),
                2 => {
                    let fresh = !reference.contains_key(&name);
                    if fresh {
                        reference.insert(name.clone(), value.clone());
                    }
                    if step % 2 == 0 {
                        assert_eq!(ours.try_insert_new(name, value), fresh);
                    } else {
                        if let Store::Small(list) = &ours.store {
                            assert_eq!(place(list, &name), position(list, &name));
                        }
                        let vacancy = ours.vacancy(&name);
                        assert_eq!(vacancy.is_some(), fresh);
                        if let Some(at) = vacancy {
                            ours.insert_vacant(at, name, value);
                        }
                    }
                }
                _ => assert_eq!(ours.get(&name), reference.get(&name)),
            }
            assert_eq!(ours.len(), reference.len());
            assert!(
                ours.iter()
                    .map(|(n, v)| (n.to_owned(), v.clone()))
                    .eq(reference.clone())
            );
        }
        assert!(
            matches!(ours.store, Store::Large(_)),
            "the walk reached the B-tree"
        );
    }

    #[test]
    fn equal_maps_are_equal_whichever_store_holds_them() {
        let mut small = Extensions::default();
        small.insert("a", 1);
        let mut grown = Extensions::default();
        for i in 0..=SMALL {
            grown.insert(format!("x{i}"), 1);
        }
        for i in 0..=SMALL {
            grown.remove(&format!("x{i}"));
        }
        grown.insert("a", 1);
        assert!(matches!(grown.store, Store::Large(_)));
        assert_eq!(small, grown);
        assert_eq!(format!("{small:?}"), format!("{grown:?}"));
        assert_eq!(
            format!("{small:?}"),
            r#"Extensions { map: {"a": Integer(1)} }"#
        );
    }

    #[test]
    fn values_serialize_per_the_json_type_mapping() {
        let cases = [
            (ExtensionValueBuf::Boolean(true), "true"),
            (ExtensionValueBuf::Integer(i32::MIN), "-2147483648"),
            (ExtensionValueBuf::from("a\"b"), r#""a\"b""#),
            (ExtensionValueBuf::Binary(Binary::from(*b"hi")), r#""aGk=""#),
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
            assert!(is_carried_by(payload, received), "{payload:?} {received:?}");
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
                !is_carried_by(payload, received),
                "{payload:?} {received:?}"
            );
        }
    }
}
