//! Member values as their JSON type, borrowed from the input where they can be.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed as _, Deserializer, IgnoredAny, MapAccess, Visitor};

/// A string borrowed from the input when it holds no escapes.
pub(crate) struct CowStr<'de>(pub(crate) Cow<'de, str>);

impl<'de> de::Deserialize<'de> for CowStr<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CowStrVisitor;

        impl<'de> Visitor<'de> for CowStrVisitor {
            type Value = CowStr<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }

            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(CowStr(Cow::Borrowed(v)))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(CowStr(Cow::Owned(v.to_owned())))
            }

            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(CowStr(Cow::Owned(v)))
            }
        }

        deserializer.deserialize_str(CowStrVisitor)
    }
}

/// A member value seen as its JSON type, so a wrong type becomes a precise violation rather
/// than serde's generic "invalid type".
pub(crate) enum JsonScalar<'de> {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(Cow<'de, str>),
    /// Bytes: never from JSON text; the binary-mode reader hands its body over as bytes,
    /// which only `data_base64` takes (the JSON format's form of bytes).
    Bytes(Cow<'de, [u8]>),
    /// An object or an array, skipped; the name is for messages.
    Composite(&'static str),
}

impl JsonScalar<'_> {
    pub(super) fn describe(&self) -> String {
        match self {
            JsonScalar::Null => "null".to_owned(),
            JsonScalar::Bool(b) => b.to_string(),
            JsonScalar::Int(i) => i.to_string(),
            JsonScalar::UInt(u) => u.to_string(),
            // `{:?}` keeps the fraction (`1.0`, not `1`), as the sender wrote it.
            JsonScalar::Float(f) => format!("{f:?}"),
            JsonScalar::Str(s) => s.to_string(),
            JsonScalar::Bytes(bytes) => format!("{} bytes", bytes.len()),
            JsonScalar::Composite(kind) => (*kind).to_owned(),
        }
    }

    pub(super) fn json_type(&self) -> &'static str {
        match self {
            JsonScalar::Null => "null",
            JsonScalar::Bool(_) => "a boolean",
            JsonScalar::Int(_) | JsonScalar::UInt(_) => "an integer",
            JsonScalar::Float(_) => "a number with a fraction or exponent",
            JsonScalar::Str(_) => "a string",
            JsonScalar::Bytes(_) => "bytes",
            JsonScalar::Composite(kind) => kind,
        }
    }
}

impl<'de> de::Deserialize<'de> for JsonScalar<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        ScalarSeed(|scalar| scalar).deserialize(deserializer)
    }
}

/// Reads one JSON value as a [`JsonScalar`] and hands it to the function inside serde's
/// visitor, which returns what the function returns.
///
/// The event reader applies each member this way rather than returning the scalar: returned,
/// the scalar went through memory three times (the visitor's result, `deserialize`'s, the
/// caller's), each copy loading in 16 bytes what had just been stored as 8-byte words, which
/// the CPU cannot forward from its store buffer (a stall of about a dozen cycles). Applied in
/// the visitor, a string member goes from serde's borrowed `&str` to the envelope's slot in
/// registers. `perf record -e cpu-clock` found this (BENCHMARKS.md, "Cycles"); callgrind,
/// which counts instructions, cannot see it. What is read and every verdict are unchanged:
/// the same visitor methods make the same scalar.
pub(crate) struct ScalarSeed<F>(pub(crate) F);

impl<'de, F: FnOnce(JsonScalar<'de>) -> V, V> de::DeserializeSeed<'de> for ScalarSeed<F> {
    type Value = V;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<V, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, F: FnOnce(JsonScalar<'de>) -> V, V> Visitor<'de> for ScalarSeed<F> {
    type Value = V;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<V, E> {
        Ok((self.0)(JsonScalar::Null))
    }

    fn visit_none<E: de::Error>(self) -> Result<V, E> {
        Ok((self.0)(JsonScalar::Null))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<V, E> {
        Ok((self.0)(JsonScalar::Bool(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<V, E> {
        Ok((self.0)(JsonScalar::Int(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<V, E> {
        Ok((self.0)(JsonScalar::UInt(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V, E> {
        Ok((self.0)(JsonScalar::Float(v)))
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V, E> {
        Ok((self.0)(JsonScalar::Str(Cow::Borrowed(v))))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V, E> {
        Ok((self.0)(JsonScalar::Str(Cow::Owned(v.to_owned()))))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<V, E> {
        Ok((self.0)(JsonScalar::Str(Cow::Owned(v))))
    }

    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<V, E> {
        Ok((self.0)(JsonScalar::Bytes(Cow::Borrowed(v))))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<V, E> {
        Ok((self.0)(JsonScalar::Bytes(Cow::Owned(v.to_vec()))))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<V, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok((self.0)(JsonScalar::Composite("an object")))
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<V, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok((self.0)(JsonScalar::Composite("an array")))
    }
}
