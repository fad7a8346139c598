//! How a typed payload maps to `data` or `data_base64` (CE-JSON 3.1).
//!
//! Under a JSON `datacontenttype` the payload is written inline in `data`. Under any other
//! content type it must be text or bytes: a payload that serializes as a string (a `String`
//! newtype, say) goes to `data` as a JSON string; one that serializes as bytes
//! ([`Binary`](crate::Binary), or a `serde_bytes` field) goes to `data_base64`.
//! [`probe`] finds out which before the key is written, without copying the payload.
//! [`data_violation`] and [`type_mismatch`] are the two refusals of a payload every reader
//! shares (the typed conversions of `event/` and every format's reader).

use std::fmt;

use base64::display::Base64Display;
use base64::engine::general_purpose::STANDARD as BASE64;
use cloudevent_rules::{Violation, rule};
use serde::ser::{self, Impossible, Serialize, Serializer};

/// A violation about `data` (CE-JSON 3.1: how data is carried).
pub(crate) fn data_violation(problem: impl fmt::Display) -> Violation {
    Violation::error(rule::CE_JSON_3_1, "data", "", problem.to_string())
}

/// A typed reader met another type; the message names both.
pub(crate) fn type_mismatch(expected: &str, found: &str) -> Violation {
    Violation::error(
        rule::CE_TYPE,
        "type",
        found,
        format!("this reader expects type `{expected}`"),
    )
    .with_hint("read it as an `AnyEvent` or dispatch on the type")
}

/// What a payload serializes as, under a non-JSON content type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PayloadKind {
    /// A string: `data`.
    Text,
    /// Bytes: `data_base64`.
    Binary,
}

/// Why a payload cannot be written under a non-JSON content type.
#[derive(Debug)]
pub(crate) struct NotTextOrBytes(String);

impl fmt::Display for NotTextOrBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotTextOrBytes {}

impl ser::Error for NotTextOrBytes {
    fn custom<M: fmt::Display>(msg: M) -> Self {
        NotTextOrBytes(msg.to_string())
    }
}

const NOT_TEXT: &str = "a payload under a non-JSON datacontenttype must serialize as a string (written to `data`) or as bytes (written to `data_base64`) (CE-JSON 3.1)";

/// Finds whether the payload is text or bytes. The probe says it is not human-readable, so
/// [`Binary`](crate::Binary) shows itself as bytes.
pub(crate) fn probe<T: Serialize + ?Sized>(payload: &T) -> Result<PayloadKind, NotTextOrBytes> {
    payload.serialize(Probe)
}

struct Probe;

/// Generates the `Serializer` methods that refuse their input with `$err`.
macro_rules! refuse {
    ($err:expr; $($method:ident($($arg:ty),*)),* $(,)?) => {$(
        fn $method(self, $(_: $arg),*) -> Result<Self::Ok, Self::Error> {
            Err($err)
        }
    )*};
}

/// The compound-type methods of a `Serializer`, all refused with `$err`.
macro_rules! refuse_compound {
    ($err:expr) => {
        fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Self::Error> {
            Err($err)
        }
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Self::Error> {
            Err($err)
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleStruct, Self::Error> {
            Err($err)
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant, Self::Error> {
            Err($err)
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Self::Error> {
            Err($err)
        }
        fn serialize_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStruct, Self::Error> {
            Err($err)
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant, Self::Error> {
            Err($err)
        }
        fn serialize_newtype_variant<V: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &V,
        ) -> Result<Self::Ok, Self::Error> {
            Err($err)
        }
        fn serialize_unit_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
        ) -> Result<Self::Ok, Self::Error> {
            Err($err)
        }
        fn serialize_unit_struct(self, _: &'static str) -> Result<Self::Ok, Self::Error> {
            Err($err)
        }
    };
}

impl Serializer for Probe {
    type Ok = PayloadKind;
    type Error = NotTextOrBytes;
    type SerializeSeq = Impossible<PayloadKind, NotTextOrBytes>;
    type SerializeTuple = Impossible<PayloadKind, NotTextOrBytes>;
    type SerializeTupleStruct = Impossible<PayloadKind, NotTextOrBytes>;
    type SerializeTupleVariant = Impossible<PayloadKind, NotTextOrBytes>;
    type SerializeMap = Impossible<PayloadKind, NotTextOrBytes>;
    type SerializeStruct = Impossible<PayloadKind, NotTextOrBytes>;
    type SerializeStructVariant = Impossible<PayloadKind, NotTextOrBytes>;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn serialize_str(self, _: &str) -> Result<PayloadKind, NotTextOrBytes> {
        Ok(PayloadKind::Text)
    }

    fn serialize_char(self, _: char) -> Result<PayloadKind, NotTextOrBytes> {
        Ok(PayloadKind::Text)
    }

    fn collect_str<D: fmt::Display + ?Sized>(self, _: &D) -> Result<PayloadKind, NotTextOrBytes> {
        Ok(PayloadKind::Text)
    }

    fn serialize_bytes(self, _: &[u8]) -> Result<PayloadKind, NotTextOrBytes> {
        Ok(PayloadKind::Binary)
    }

    fn serialize_newtype_struct<V: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &V,
    ) -> Result<PayloadKind, NotTextOrBytes> {
        value.serialize(self)
    }

    fn serialize_some<V: Serialize + ?Sized>(
        self,
        value: &V,
    ) -> Result<PayloadKind, NotTextOrBytes> {
        value.serialize(self)
    }

    refuse!(NotTextOrBytes(NOT_TEXT.to_owned());
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_u8(u8), serialize_u16(u16), serialize_u32(u32),
        serialize_u64(u64), serialize_f32(f32), serialize_f64(f64), serialize_none(),
        serialize_unit(),
    );
    refuse_compound!(NotTextOrBytes(NOT_TEXT.to_owned()));
}

/// Base64 text of bytes, written without an intermediate `String`.
pub(crate) struct Base64Str<'a>(pub(crate) &'a [u8]);

impl Serialize for Base64Str<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&Base64Display::new(self.0, &BASE64))
    }
}

/// Writes a bytes payload as base64 text, for `data_base64`.
pub(crate) struct AsBase64<'a, T: ?Sized>(pub(crate) &'a T);

impl<T: Serialize + ?Sized> Serialize for AsBase64<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(BytesToBase64(serializer))
    }
}

/// Passes a payload's bytes to the real serializer as base64 text.
struct BytesToBase64<S>(S);

fn not_bytes<E: ser::Error>() -> E {
    E::custom(NOT_TEXT)
}

impl<S: Serializer> Serializer for BytesToBase64<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Impossible<S::Ok, S::Error>;
    type SerializeTuple = Impossible<S::Ok, S::Error>;
    type SerializeTupleStruct = Impossible<S::Ok, S::Error>;
    type SerializeTupleVariant = Impossible<S::Ok, S::Error>;
    type SerializeMap = Impossible<S::Ok, S::Error>;
    type SerializeStruct = Impossible<S::Ok, S::Error>;
    type SerializeStructVariant = Impossible<S::Ok, S::Error>;

    fn is_human_readable(&self) -> bool {
        false
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<S::Ok, S::Error> {
        self.0.collect_str(&Base64Display::new(v, &BASE64))
    }

    fn serialize_newtype_struct<V: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &V,
    ) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }

    fn serialize_some<V: Serialize + ?Sized>(self, value: &V) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }

    fn collect_str<D: fmt::Display + ?Sized>(self, _: &D) -> Result<S::Ok, S::Error> {
        Err(not_bytes())
    }

    refuse!(not_bytes();
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_u8(u8), serialize_u16(u16), serialize_u32(u32),
        serialize_u64(u64), serialize_f32(f32), serialize_f64(f64), serialize_none(),
        serialize_unit(), serialize_str(&str), serialize_char(char),
    );
    refuse_compound!(not_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Binary;

    #[derive(serde::Serialize)]
    struct Csv(String);

    #[derive(serde::Serialize)]
    struct Image(Binary);

    #[derive(serde::Serialize)]
    struct Order {
        id: u32,
    }

    #[test]
    fn probe_tells_text_from_bytes() {
        assert_eq!(probe(&Csv("a,b".into())).ok(), Some(PayloadKind::Text));
        assert_eq!(
            probe(&Image(Binary::from(*b"\x89PNG"))).ok(),
            Some(PayloadKind::Binary)
        );
        assert!(probe(&Order { id: 1 }).is_err());
    }

    #[test]
    fn bytes_are_written_as_base64_text() {
        let json = serde_json::to_string(&AsBase64(&Image(Binary::from(*b"hi")))).unwrap();
        assert_eq!(json, "\"aGk=\"");
        assert!(serde_json::to_string(&AsBase64(&Csv("x".into()))).is_err());
    }
}
