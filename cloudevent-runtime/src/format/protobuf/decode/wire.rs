//! The Protobuf wire: a cursor over one message's bytes (varints, keys, length-delimited
//! fields), skipping what the schema does not define, and the violations every message of
//! the schema shares (truncated input, a wrong wire type, a string that is not UTF-8).

use std::borrow::Cow;

use cloudevent_rules::{Violation, rule};

pub(super) const VARINT: u8 = 0;
pub(super) const LEN: u8 = 2;

/// The names the wire types have in the Protobuf encoding guide.
fn wire_type_name(wire_type: u8) -> &'static str {
    match wire_type {
        0 => "VARINT",
        1 => "I64",
        2 => "LEN",
        3 => "SGROUP",
        4 => "EGROUP",
        5 => "I32",
        _ => "an invalid wire type",
    }
}

/// A refusal as the reader carries it: boxed, as [`crate::FormatError::Invalid`] holds it.
/// A `Result` of an unboxed [`Violation`] (about 150 bytes) made every `?` of the reader a
/// copy of it, and those copies were a quarter of the reader's code (issue 40, the L1i
/// footprint); the box is the one the error took at the module's edge anyway.
pub(super) type Refusal = Box<Violation>;

#[cold]
pub(super) fn malformed(
    attribute: impl Into<Cow<'static, str>>,
    problem: impl Into<Cow<'static, str>>,
) -> Refusal {
    Box::new(Violation::error(rule::CE_PROTOBUF, attribute, "", problem))
}

/// A cursor over one message's bytes. `Copy`, and handed by value to what is out of line
/// (`varint_slow`, `skip`), so no call takes its address and the compiler keeps it in
/// registers instead of writing it back to the stack at every step (issue 40).
#[derive(Clone, Copy)]
pub(super) struct Wire<'a> {
    pub(super) bytes: &'a [u8],
    /// What the message is, for messages about it (`event`, an attribute's name).
    pub(super) context: &'a str,
}

impl<'a> Wire<'a> {
    /// One varint. Keys, lengths and small values are one byte; that path is inlined into
    /// every caller, the rest is out of line.
    #[inline(always)]
    pub(super) fn varint(&mut self) -> Result<u64, Refusal> {
        if let Some((&byte, rest)) = self.bytes.split_first()
            && byte < 0x80
        {
            self.bytes = rest;
            return Ok(u64::from(byte));
        }
        let (value, rest) = self.varint_slow()?;
        *self = rest;
        Ok(value)
    }

    /// A varint of more than one byte, and the cursor after it.
    #[cold]
    #[inline(never)]
    fn varint_slow(mut self) -> Result<(u64, Self), Refusal> {
        let mut value = 0_u64;
        for (i, byte) in self.bytes.iter().take(10).enumerate() {
            // The tenth byte may carry only the 64th bit.
            if i == 9 && *byte > 1 {
                break;
            }
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte & 0x80 == 0 {
                self.bytes = &self.bytes[i + 1..];
                return Ok((value, self));
            }
        }
        Err(
            if self.bytes.len() < 10 && self.bytes.iter().all(|b| b & 0x80 != 0) {
                truncated(self.context)
            } else {
                malformed(
                    self.context.to_owned(),
                    "holds a varint longer than 64 bits",
                )
            },
        )
    }

    /// The next field's number and wire type, or `None` at the end of the message.
    #[inline(always)]
    pub(super) fn key(&mut self) -> Result<Option<(u64, u8)>, Refusal> {
        if self.bytes.is_empty() {
            return Ok(None);
        }
        let key = self.varint()?;
        let field = key >> 3;
        if field == 0 || field > u64::from(u32::MAX >> 3) {
            return Err(bad_field_number(self.context, field));
        }
        Ok(Some((field, (key & 7) as u8)))
    }

    #[inline(always)]
    pub(super) fn len_delimited(&mut self) -> Result<&'a [u8], Refusal> {
        let len = self.varint()?;
        match usize::try_from(len)
            .ok()
            .filter(|len| *len <= self.bytes.len())
        {
            Some(len) => {
                let (value, rest) = self.bytes.split_at(len);
                self.bytes = rest;
                Ok(value)
            }
            None => Err(truncated(self.context)),
        }
    }
}

#[cold]
#[inline(never)]
fn bad_field_number(context: &str, field: u64) -> Refusal {
    malformed(
        context.to_owned(),
        format!("has a field number {field}, outside 1 to 536870911"),
    )
}

#[cold]
#[inline(never)]
pub(super) fn truncated(context: &str) -> Refusal {
    malformed(
        context.to_owned(),
        "ends in the middle of a field (truncated input)",
    )
}

/// Checks that field `field` has the wire type the schema gives it.
#[inline(always)]
pub(super) fn expect(
    context: &str,
    field: u64,
    name: &str,
    found: u8,
    expected: u8,
) -> Result<(), Refusal> {
    if found == expected {
        Ok(())
    } else {
        Err(wrong_wire_type(context, field, name, found, expected))
    }
}

#[cold]
#[inline(never)]
fn wrong_wire_type(context: &str, field: u64, name: &str, found: u8, expected: u8) -> Refusal {
    Box::new(Violation::error(
        rule::CE_PROTOBUF,
        context.to_owned(),
        format!("field {field} with wire type {}", wire_type_name(found)),
        format!(
            "field {field} (`{name}`) has wire type {}; the schema gives it {}",
            wire_type_name(found),
            wire_type_name(expected)
        ),
    ))
}

impl Wire<'_> {
    /// Skips a field the schema does not define, as Protobuf's own rules do: a producer on a
    /// newer `cloudevents.proto` is not refused outright. The field is noted in `skipped` (a
    /// warning the policy reports or not, [`cloudevent_rules::Policy::reports_skipped_fields`]).
    /// A group (wire types SGROUP and EGROUP, which proto3 never writes) is refused: skipping
    /// one means nesting without bound. Out of line: no field of a valid event is unknown.
    /// The cursor after the field.
    #[cold]
    #[inline(never)]
    pub(super) fn skip(
        mut self,
        message: &str,
        field: u64,
        wire_type: u8,
        skipped: &mut Vec<Violation>,
    ) -> Result<Self, Refusal> {
        match wire_type {
            VARINT => {
                self.varint()?;
            }
            LEN => {
                self.len_delimited()?;
            }
            1 | 5 => {
                let width = if wire_type == 1 { 8 } else { 4 };
                if self.bytes.len() < width {
                    return Err(truncated(self.context));
                }
                self.bytes = &self.bytes[width..];
            }
            _ => return Err(group(self.context, message, field, wire_type)),
        }
        skipped.push(
            Violation::warning(
                rule::CE_PROTOBUF,
                self.context.to_owned(),
                format!("field {field} with wire type {}", wire_type_name(wire_type)),
                format!("field {field} is not a field of `{message}`; it was skipped"),
            )
            .with_hint("the producer may use a newer cloudevents.proto; its field is not read"),
        );
        Ok(self)
    }
}

#[cold]
#[inline(never)]
fn group(context: &str, message: &str, field: u64, wire_type: u8) -> Refusal {
    Box::new(
        Violation::error(
        rule::CE_PROTOBUF,
        context.to_owned(),
        format!("field {field} with wire type {}", wire_type_name(wire_type)),
        format!(
            "field {field} is not a field of `{message}` and is a group, which proto3 never writes"
        ),
    )
        .with_hint("both sides must use the CloudEvents Protobuf schema (io.cloudevents.v1)"),
    )
}

#[cold]
pub(super) fn twice(attribute: impl Into<Cow<'static, str>>) -> Refusal {
    Box::new(
        Violation::error(
            rule::INTG_R7,
            attribute,
            "",
            "appears more than once in the Protobuf message",
        )
        .with_hint("a message must carry each attribute once"),
    )
}

/// The bytes as text, or the refusal of a String that is not UTF-8. Nearly every string an
/// event carries is ASCII, and `is_ascii` reads a word at a time where `from_utf8` walks
/// short strings byte by byte (nine strings a call were about 1,050 instructions, issue 40);
/// other bytes take `from_utf8`, which gives the verdict and the error as before.
#[inline(always)]
pub(super) fn utf8<'a>(attribute: &str, bytes: &'a [u8]) -> Result<&'a str, Refusal> {
    if is_ascii(bytes) {
        // No safe conversion skips the check, and the ASCII check is the cheaper one.
        #[allow(unsafe_code)]
        // SAFETY: every byte was just found to be ASCII, and ASCII is UTF-8.
        return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    std::str::from_utf8(bytes).map_err(|error| not_utf8(attribute, bytes, error))
}

/// `bytes.is_ascii()` without its byte-by-byte walk of the bytes after the last whole word:
/// those are read as the last word of the text, overlapping the one before, and a text of 4
/// to 7 bytes as two overlapping halves (names and values are mostly that short).
fn is_ascii(bytes: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let len = bytes.len();
    let word = |at: usize| {
        let mut le = [0; 8];
        le.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(le)
    };
    if len >= 8 {
        let mut found = word(len - 8);
        for at in (0..len - 8).step_by(8) {
            found |= word(at);
        }
        return found & HIGH == 0;
    }
    if len >= 4 {
        let half = |at: usize| {
            let mut le = [0; 4];
            le.copy_from_slice(&bytes[at..at + 4]);
            u32::from_le_bytes(le)
        };
        return (half(0) | half(len - 4)) & 0x8080_8080 == 0;
    }
    bytes.iter().all(u8::is_ascii)
}

#[cold]
#[inline(never)]
fn not_utf8(attribute: &str, bytes: &[u8], error: std::str::Utf8Error) -> Refusal {
    Box::new(Violation::error(
        rule::CE_TYPE_SYSTEM,
        attribute.to_owned(),
        format!("{} bytes", bytes.len()),
        format!("is not a String: not UTF-8 ({error})"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Bytes near the known names: a name whole, cut, with one byte replaced (by ASCII, a
    /// continuation byte, a lead byte, `0xFF`), with bytes added, and random bytes.
    fn near_names() -> impl Strategy<Value = Vec<u8>> {
        let names = || {
            proptest::sample::select(
                cloudevent_rules::CORE_ATTRIBUTES
                    .iter()
                    .chain(&["1.0", "region", "data"])
                    .map(|name| name.as_bytes().to_vec())
                    .collect::<Vec<_>>(),
            )
        };
        prop_oneof![
            names(),
            (names(), any::<prop::sample::Index>())
                .prop_map(|(name, at)| { name[..at.index(name.len() + 1)].to_vec() }),
            (
                names(),
                any::<prop::sample::Index>(),
                prop_oneof![
                    any::<u8>(),
                    Just(0x80_u8),
                    Just(0xC3),
                    Just(0xFF),
                    Just(b'A')
                ]
            )
                .prop_map(|(mut name, at, byte)| {
                    let at = at.index(name.len());
                    name[at] = byte;
                    name
                }),
            (names(), prop::collection::vec(any::<u8>(), 0..4)).prop_map(|(mut name, tail)| {
                name.extend(tail);
                name
            }),
            prop::collection::vec(any::<u8>(), 0..24),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        /// Issue 40 (Protobuf decode): the ASCII path gives what `from_utf8` alone gives: the
        /// same text for valid bytes, the same violation (rule, attribute, found, text) for
        /// invalid ones, for names and near names, ASCII, UTF-8 and arbitrary bytes alike.
        #[test]
        fn utf8_is_from_utf8(
            bytes in prop_oneof![
                near_names(),
                prop::collection::vec(0_u8..0x80, 0..80),
                any::<String>().prop_map(String::into_bytes),
                prop::collection::vec(any::<u8>(), 0..80),
            ]
        ) {
            prop_assert_eq!(is_ascii(&bytes), bytes.is_ascii());
            let new = utf8("data", &bytes);
            let old = std::str::from_utf8(&bytes).map_err(|error| not_utf8("data", &bytes, error));
            prop_assert_eq!(new.as_ref().ok(), old.as_ref().ok());
            prop_assert_eq!(new.err(), old.err());
        }
    }
}
