//! [`SchemaInteger`]: the type codegen gives a JSON Schema `integer` member, so the number is
//! written back as it was received.

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Deserialize, Deserializer, Unexpected};
use serde::ser::{Serialize, Serializer};

/// A JSON Schema `integer`, kept as the number received (issue 26): what codegen generates for
/// an `integer` member (one not narrowed by a `format` such as `int32`), in every layout,
/// where `i64` would refuse valid data and rewrite other data.
///
/// - Any integer is read, beyond `u64` too (JSON Schema sets no range), and so is a number
///   spelled with a zero fraction (`2.0`: an integer from JSON Schema draft-06 on). `1.5`
///   is refused.
/// - It is written back as received: `2.0` stays `2.0`, `7` stays `7`. An integer beyond the
///   64-bit range is what serde_json reads it as: by default the nearest `f64` (the same
///   `serde_json::Value` as the one received, written as `1e20`); with serde_json's
///   `arbitrary_precision` feature every digit received, as received. (Generated types hold
///   no `i64` or `u64`, so they read under that feature, which breaks `i64` members beside
///   `#[serde(flatten)]`.)
///
/// It dereferences to [`serde_json::Number`] (`as_i64`, `as_u64`, `as_f64`); `i64::try_from`
/// also reads `2.0` as `2`.
///
/// ```
/// use cloudevent_runtime::SchemaInteger;
///
/// let n: SchemaInteger = serde_json::from_str("2.0").unwrap();
/// assert_eq!(i64::try_from(&n), Ok(2));
/// assert_eq!(serde_json::to_string(&n).unwrap(), "2.0");
/// let big: SchemaInteger = serde_json::from_str("100000000000000000000").unwrap();
/// assert_eq!(serde_json::to_value(&big).unwrap(), serde_json::json!(1e20));
/// assert!(serde_json::from_str::<SchemaInteger>("1.5").is_err());
/// assert_eq!(SchemaInteger::from(-3_i64).as_i64(), Some(-3));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SchemaInteger(serde_json::Number);

/// The integral value of a number read as a float, when it has one.
fn integral(number: &serde_json::Number) -> Option<f64> {
    number
        .as_f64()
        .filter(|f| f.is_finite() && f.fract() == 0.0)
}

impl SchemaInteger {
    fn checked(number: serde_json::Number) -> Result<Self, f64> {
        if number.is_i64() || number.is_u64() || integral(&number).is_some() {
            Ok(SchemaInteger(number))
        } else {
            Err(number.as_f64().unwrap_or(f64::NAN))
        }
    }
}

impl std::ops::Deref for SchemaInteger {
    type Target = serde_json::Number;

    fn deref(&self) -> &serde_json::Number {
        &self.0
    }
}

impl Default for SchemaInteger {
    fn default() -> Self {
        SchemaInteger(0_u64.into())
    }
}

impl From<i64> for SchemaInteger {
    fn from(value: i64) -> Self {
        SchemaInteger(value.into())
    }
}

impl From<u64> for SchemaInteger {
    fn from(value: u64) -> Self {
        SchemaInteger(value.into())
    }
}

impl From<SchemaInteger> for serde_json::Number {
    fn from(value: SchemaInteger) -> Self {
        value.0
    }
}

impl TryFrom<serde_json::Number> for SchemaInteger {
    type Error = serde_json::Number;

    /// The number back as the error when it has a fractional part.
    fn try_from(number: serde_json::Number) -> Result<Self, serde_json::Number> {
        let kept = number.clone();
        SchemaInteger::checked(number).map_err(|_| kept)
    }
}

impl TryFrom<&SchemaInteger> for i64 {
    type Error = std::num::TryFromIntError;

    /// The value as an `i64`, `2.0` included; an error when it does not fit.
    fn try_from(value: &SchemaInteger) -> Result<i64, Self::Error> {
        if let Some(i) = value.0.as_i64() {
            return Ok(i);
        }
        match integral(&value.0) {
            // Exact: an `f64` with no fraction inside the `i64` range is an `i64`.
            #[allow(clippy::cast_possible_truncation, reason = "range checked just before")]
            Some(f) if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f) => {
                Ok(f as i64)
            }
            _ => i64::try_from(u64::MAX),
        }
    }
}

impl fmt::Display for SchemaInteger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl FromStr for SchemaInteger {
    type Err = serde_json::Error;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        serde_json::from_str(text)
    }
}

impl Serialize for SchemaInteger {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for SchemaInteger {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let number = serde_json::Number::deserialize(deserializer)?;
        SchemaInteger::checked(number).map_err(|f| {
            de::Error::invalid_value(
                Unexpected::Float(f),
                &"an integer (JSON Schema `integer`: no fractional part)",
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> String {
        let n: SchemaInteger = serde_json::from_str(text).unwrap();
        serde_json::to_string(&n).unwrap()
    }

    #[test]
    fn integers_are_written_back_as_received() {
        for text in [
            "0",
            "-7",
            "18446744073709551615",
            "-9223372036854775808",
            "2.0",
            "-4.0",
        ] {
            assert_eq!(round_trip(text), text);
        }
        // Beyond 64 bits: the same value to serde_json (an `f64` without
        // `arbitrary_precision`), through text and through `serde_json::Value`.
        for text in ["18446744073709551616", "-100000000000000000000", "1e20"] {
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            let read: SchemaInteger = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::to_value(&read).unwrap(), value, "{text}");
            assert_eq!(
                serde_json::from_str::<serde_json::Value>(&round_trip(text)).unwrap(),
                value
            );
        }
    }

    #[test]
    fn fractions_are_refused_naming_the_value() {
        let error = serde_json::from_str::<SchemaInteger>("1.5").unwrap_err();
        assert!(error.to_string().contains("1.5"), "{error}");
        assert!(serde_json::from_str::<SchemaInteger>("\"1\"").is_err());
        assert_eq!(
            "12".parse::<SchemaInteger>().unwrap(),
            SchemaInteger::from(12_u64)
        );
        assert_eq!(i64::try_from(&SchemaInteger::from(u64::MAX)).ok(), None);
    }
}
