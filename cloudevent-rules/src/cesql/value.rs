//! The CESQL type system (CESQL v1 3.1) and its casts (3.7).

use std::borrow::Cow;
use std::fmt;

use crate::ExtensionValue;

/// A CESQL type (CESQL v1 3.1): _Boolean_, _Integer_ (i32) and _String_; URI,
/// URI-reference, Timestamp and Binary attributes are read as _String_.
///
/// ```
/// use cloudevent_rules::cesql::Type;
/// assert_eq!(Type::Integer.to_string(), "Integer");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Type {
    /// `true` or `false`; zero value `false`.
    Boolean,
    /// A 32-bit signed integer; zero value `0`.
    Integer,
    /// Unicode text; zero value `""`.
    String,
}

impl Type {
    /// The zero value of the type (CESQL v1 3.1), what an operator returns on an error.
    ///
    /// ```
    /// use cloudevent_rules::cesql::{Type, Value};
    /// assert_eq!(Type::Integer.zero(), Value::Integer(0));
    /// ```
    pub const fn zero(self) -> Value<'static> {
        match self {
            Type::Boolean => Value::Boolean(false),
            Type::Integer => Value::Integer(0),
            Type::String => Value::String(Cow::Borrowed("")),
        }
    }

    /// The type an attribute of this CloudEvents type is read as (CESQL v1 3.2).
    ///
    /// ```
    /// use cloudevent_rules::{AttributeKind, cesql::Type};
    /// assert_eq!(Type::of_attribute(AttributeKind::Timestamp), Type::String);
    /// ```
    pub const fn of_attribute(kind: crate::AttributeKind) -> Type {
        match kind {
            crate::AttributeKind::Boolean => Type::Boolean,
            crate::AttributeKind::Integer => Type::Integer,
            _ => Type::String,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Type::Boolean => "Boolean",
            Type::Integer => "Integer",
            Type::String => "String",
        })
    }
}

/// A CESQL value: what an expression evaluates to. Text borrows from the event or the
/// expression where it can.
///
/// ```
/// use cloudevent_rules::cesql::{Type, Value};
/// assert_eq!(Value::from("abc").ty(), Type::String);
/// assert_eq!(Value::Integer(-1).to_string(), "-1");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value<'a> {
    /// A _Boolean_.
    Boolean(bool),
    /// An _Integer_.
    Integer(i32),
    /// A _String_.
    String(Cow<'a, str>),
}

impl Value<'_> {
    /// The value's type.
    ///
    /// ```
    /// use cloudevent_rules::cesql::{Type, Value};
    /// assert_eq!(Value::Boolean(true).ty(), Type::Boolean);
    /// ```
    pub fn ty(&self) -> Type {
        match self {
            Value::Boolean(_) => Type::Boolean,
            Value::Integer(_) => Type::Integer,
            Value::String(_) => Type::String,
        }
    }

    /// The value owning its text.
    ///
    /// ```
    /// use cloudevent_rules::cesql::Value;
    /// let owned: Value<'static> = Value::from("a").into_owned();
    /// assert_eq!(owned, Value::from("a"));
    /// ```
    pub fn into_owned(self) -> Value<'static> {
        match self {
            Value::Boolean(b) => Value::Boolean(b),
            Value::Integer(i) => Value::Integer(i),
            Value::String(s) => Value::String(Cow::Owned(s.into_owned())),
        }
    }
}

impl<'a> From<&'a str> for Value<'a> {
    fn from(text: &'a str) -> Self {
        Value::String(Cow::Borrowed(text))
    }
}

impl fmt::Display for Value<'_> {
    /// The _String_ cast of the value (CESQL v1 3.7).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Boolean(b) => write!(f, "{b}"),
            Value::Integer(i) => write!(f, "{i}"),
            Value::String(s) => f.write_str(s),
        }
    }
}

impl<'a> Value<'a> {
    /// An attribute's value as CESQL reads it (CESQL v1 3.2): Boolean and Integer as
    /// themselves, every other type as its string form (Binary as base64).
    #[inline]
    pub(crate) fn of_attribute(value: ExtensionValue<'a>) -> Value<'a> {
        match value {
            ExtensionValue::Boolean(b) => Value::Boolean(b),
            ExtensionValue::Integer(i) => Value::Integer(i),
            ExtensionValue::Binary(bytes) => Value::String(Cow::Owned(base64(bytes))),
            ExtensionValue::String(s)
            | ExtensionValue::Uri(s)
            | ExtensionValue::UriReference(s)
            | ExtensionValue::Timestamp(s) => Value::String(Cow::Borrowed(s)),
        }
    }
}

/// What a failed cast says; the value is then the target type's zero value.
pub(crate) struct CastFailure;

/// String -> Integer (CESQL v1 3.7): base 10, an optional sign, in the i32 range.
pub(crate) fn parse_integer(text: &str) -> Option<i32> {
    text.parse::<i32>().ok()
}

/// String -> Boolean (CESQL v1 3.7): `true` or `false` in any case.
pub(crate) fn parse_boolean(text: &str) -> Option<bool> {
    if text.eq_ignore_ascii_case("true") {
        Some(true)
    } else if text.eq_ignore_ascii_case("false") {
        Some(false)
    } else {
        None
    }
}

/// Casts `value` to `to`. `explicit` is a cast function (`BOOL(1)`); an implicit cast of an
/// Integer to a Boolean fails, as the TCK's `NOT 10` asks (a CastError, `false`).
pub(crate) fn cast<'a>(
    value: Value<'a>,
    to: Type,
    explicit: bool,
) -> Result<Value<'a>, (Value<'a>, CastFailure)> {
    match (value, to) {
        (v @ Value::Boolean(_), Type::Boolean)
        | (v @ Value::Integer(_), Type::Integer)
        | (v @ Value::String(_), Type::String) => Ok(v),
        (Value::Boolean(b), Type::Integer) => Ok(Value::Integer(i32::from(b))),
        (Value::Boolean(b), Type::String) => Ok(Value::String(Cow::Borrowed(if b {
            "true"
        } else {
            "false"
        }))),
        (Value::Integer(i), Type::String) => Ok(Value::String(Cow::Owned(i.to_string()))),
        (Value::Integer(i), Type::Boolean) if explicit => Ok(Value::Boolean(i != 0)),
        (Value::Integer(_), Type::Boolean) => Err((Value::Boolean(false), CastFailure)),
        (Value::String(s), Type::Integer) => match parse_integer(&s) {
            Some(i) => Ok(Value::Integer(i)),
            None => Err((Value::Integer(0), CastFailure)),
        },
        (Value::String(s), Type::Boolean) => match parse_boolean(&s) {
            Some(b) => Ok(Value::Boolean(b)),
            None => Err((Value::Boolean(false), CastFailure)),
        },
    }
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(chunk.get(1).copied().unwrap_or(0)) << 8)
            | u32::from(chunk.get(2).copied().unwrap_or(0));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        for (raw, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(raw.as_bytes()), encoded);
        }
    }
}
