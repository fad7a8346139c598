use std::fmt;

use crate::type_name::is_forbidden_control;
use crate::uri::{self, describe_char};
use crate::{Violation, rule};

/// The CloudEvents type system (CE 1.0.2 type system).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AttributeKind {
    /// `true` or `false`.
    Boolean,
    /// A whole number in the i32 range.
    Integer,
    /// A sequence of allowable Unicode characters.
    String,
    /// A sequence of bytes, base64 in string form.
    Binary,
    /// An absolute URI (RFC 3986 4.3).
    Uri,
    /// A URI-reference (RFC 3986 4.1).
    UriReference,
    /// An RFC 3339 date-time.
    Timestamp,
}

impl AttributeKind {
    /// The spec's name of the type, e.g. `URI-reference`.
    pub const fn name(self) -> &'static str {
        match self {
            AttributeKind::Boolean => "Boolean",
            AttributeKind::Integer => "Integer",
            AttributeKind::String => "String",
            AttributeKind::Binary => "Binary",
            AttributeKind::Uri => "URI",
            AttributeKind::UriReference => "URI-reference",
            AttributeKind::Timestamp => "Timestamp",
        }
    }
}

impl fmt::Display for AttributeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An extension attribute's value, borrowed, typed per the CloudEvents type system (CE 1.0.2
/// type system): what an event carries, what a payload field gives, what every check sees.
///
/// The one value type of the crates: the runtime re-exports it as
/// `cloudevent_runtime::ExtensionValue`, and its owned form is the runtime's
/// `ExtensionValueBuf`.
///
/// ```
/// use cloudevent_rules::{AttributeKind, ExtensionValue};
///
/// assert_eq!(ExtensionValue::Integer(7).kind(), AttributeKind::Integer);
/// assert_eq!(ExtensionValue::String("eu").as_str(), Some("eu"));
/// assert_eq!(ExtensionValue::Binary(b"hi").as_str(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtensionValue<'a> {
    /// Boolean: `true` or `false`.
    Boolean(bool),
    /// Integer, a whole number in the i32 range (see [`check_integer_value`]).
    Integer(i32),
    /// String.
    String(&'a str),
    /// Binary, as bytes; base64 in the JSON format.
    Binary(&'a [u8]),
    /// URI (absolute).
    Uri(&'a str),
    /// URI-reference.
    UriReference(&'a str),
    /// Timestamp, as its RFC 3339 string.
    Timestamp(&'a str),
}

impl<'a> ExtensionValue<'a> {
    /// The CloudEvents type of the value.
    ///
    /// ```
    /// use cloudevent_rules::{AttributeKind, ExtensionValue};
    /// assert_eq!(ExtensionValue::Uri("urn:x:y").kind(), AttributeKind::Uri);
    /// assert_eq!(ExtensionValue::Timestamp("2026-03-28T14:22:31Z").kind(), AttributeKind::Timestamp);
    /// ```
    pub const fn kind(self) -> AttributeKind {
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

    /// The text of a value written as a string (String, URI, URI-reference, Timestamp);
    /// `None` for Boolean, Integer and Binary.
    ///
    /// ```
    /// use cloudevent_rules::ExtensionValue;
    /// assert_eq!(ExtensionValue::Uri("https://example.com").as_str(), Some("https://example.com"));
    /// assert_eq!(ExtensionValue::Boolean(true).as_str(), None);
    /// ```
    pub const fn as_str(self) -> Option<&'a str> {
        match self {
            ExtensionValue::String(s)
            | ExtensionValue::Uri(s)
            | ExtensionValue::UriReference(s)
            | ExtensionValue::Timestamp(s) => Some(s),
            ExtensionValue::Boolean(_) | ExtensionValue::Integer(_) | ExtensionValue::Binary(_) => {
                None
            }
        }
    }

    /// The bytes the value takes in its canonical string form (CE 1.0.2 type system).
    pub(crate) fn written_len(self) -> usize {
        match self {
            ExtensionValue::Boolean(b) => {
                if b {
                    4
                } else {
                    5
                }
            }
            ExtensionValue::Integer(i) => {
                let digits = i
                    .unsigned_abs()
                    .checked_ilog10()
                    .map_or(1, |d| d as usize + 1);
                digits + usize::from(i < 0)
            }
            ExtensionValue::Binary(bytes) => bytes.len().div_ceil(3) * 4,
            ExtensionValue::String(s)
            | ExtensionValue::Uri(s)
            | ExtensionValue::UriReference(s)
            | ExtensionValue::Timestamp(s) => s.len(),
        }
    }

    /// The value as a report shows it: text cut at 80 bytes, binary as its length.
    pub(crate) fn shown(self) -> String {
        match self {
            ExtensionValue::Boolean(b) => b.to_string(),
            ExtensionValue::Integer(i) => i.to_string(),
            ExtensionValue::Binary(bytes) => format!("<{} bytes>", bytes.len()),
            ExtensionValue::String(s)
            | ExtensionValue::Uri(s)
            | ExtensionValue::UriReference(s)
            | ExtensionValue::Timestamp(s) => crate::shorten(s),
        }
    }
}

/// Checks `specversion` is exactly `"1.0"` (INTG-STD-015 R-1, CE 1.0.2 specversion).
///
/// ```
/// use cloudevent_rules::check_specversion;
///
/// assert!(check_specversion("1.0").is_empty());
/// assert_eq!(check_specversion("1.0.2")[0].rule.as_str(), "INTG-STD-015 R-1");
/// ```
// Inlined with the finding out of line, as `check_string_value`: returned from a call, the
// empty `Vec` was copied out with a load the CPU could not forward (`perf`, BENCHMARKS.md).
#[inline]
pub fn check_specversion(value: &str) -> Vec<Violation> {
    if value == "1.0" {
        return Vec::new();
    }
    not_specversion(value)
}

#[cold]
#[inline(never)]
fn not_specversion(value: &str) -> Vec<Violation> {
    vec![
        Violation::error(
            rule::INTG_R1,
            "specversion",
            value,
            "must be exactly `1.0`, the CloudEvents version in use",
        )
        .with_hint("e.g. `1.0`"),
    ]
}

/// Checks an `id` is a non-empty string (INTG-STD-015 R-2).
///
/// ```
/// use cloudevent_rules::check_id;
///
/// assert!(check_id("01HZX3KQVB8E72GQJHF5RM6YWN").is_empty());
/// assert_eq!(check_id("")[0].rule.as_str(), "INTG-STD-015 R-2");
/// ```
pub fn check_id(value: &str) -> Vec<Violation> {
    let mut found = Vec::new();
    if value.is_empty() {
        found.push(
            Violation::error(rule::INTG_R2, "id", value, "must be a non-empty string")
                .with_hint("e.g. a ULID such as `01HZX3KQVB8E72GQJHF5RM6YWN`"),
        );
    }
    found
}

/// Checks a `subject`, when present, is a non-empty string (CE 1.0.2 subject).
///
/// ```
/// use cloudevent_rules::check_subject;
///
/// assert!(check_subject("order-8842").is_empty());
/// assert_eq!(check_subject("")[0].rule.as_str(), "CE 1.0.2 subject");
/// ```
pub fn check_subject(value: &str) -> Vec<Violation> {
    let mut found = Vec::new();
    if value.is_empty() {
        found.push(
            Violation::error(
                rule::CE_SUBJECT,
                "subject",
                value,
                "must be a non-empty string when present; leave it out instead",
            )
            .with_hint("e.g. `order-8842`"),
        );
    }
    found
}

/// Checks a String attribute value holds only allowable Unicode characters (CE 1.0.2 type
/// system): no control characters (U+0000–001F, U+007F–009F) and no noncharacters
/// (U+FDD0–FDEF and the last two code points of every plane, U+FFFE, U+FFFF, ...).
/// Surrogates cannot occur in a Rust `str`; the JSON reader refuses a lone `\ud800` escape.
///
/// ```
/// use cloudevent_rules::check_string_value;
///
/// assert!(check_string_value("region", "eu-west · 1 ünï 日本 🎉").is_empty());
/// let found = check_string_value("region", "eu\nwest");
/// assert_eq!(found[0].part.as_deref(), Some("character U+000A at byte 2"));
/// assert_eq!(found[0].rule.as_str(), "CE 1.0.2 type system");
/// let found = check_string_value("subject", "a\u{FFFE}");
/// assert_eq!(found[0].part.as_deref(), Some("character U+FFFE at byte 1"));
/// ```
// Inlined, with the character walk out of line: every attribute of every event passes here and
// almost all are clean. As a call of its own, the clean answer (an empty `Vec`) was built on
// the callee's stack with two 8-byte stores and copied out with one 16-byte load, which the
// CPU cannot forward from those stores: `perf record -e cpu-clock` put 3 % of a typed parse
// on that one load, which callgrind, counting instructions, does not see.
#[inline]
pub fn check_string_value(attribute: &str, value: &str) -> Vec<Violation> {
    if !may_hold_forbidden(value.as_bytes()) {
        return Vec::new();
    }
    forbidden_characters(attribute, value)
}

/// [`check_string_value`] past its 16-bytes-at-a-time look: the exact walk.
#[cold]
#[inline(never)]
fn forbidden_characters(attribute: &str, value: &str) -> Vec<Violation> {
    let mut found = Vec::new();
    if let Some((at, c)) = value
        .char_indices()
        .find(|&(_, c)| is_forbidden_control(c) || is_noncharacter(c))
    {
        let problem = if is_forbidden_control(c) {
            "control characters (U+0000-001F, U+007F-009F) are not allowed in a String"
        } else {
            "Unicode noncharacters (U+FDD0-FDEF, U+FFFE, U+FFFF and the like) are not allowed in a String"
        };
        found.push(
            Violation::error(rule::CE_TYPE_SYSTEM, attribute.to_owned(), value, problem)
                .with_part(format!("character {} at byte {at}", describe_char(c))),
        );
    }
    found
}

/// A Unicode noncharacter: U+FDD0..=U+FDEF, or a code point ending in FFFE or FFFF.
fn is_noncharacter(c: char) -> bool {
    let c = u32::from(c);
    (0xFDD0..=0xFDEF).contains(&c) || c & 0xFFFE == 0xFFFE
}

/// Whether `bytes` may hold a forbidden character: a byte below 0x20, 0x7F, 0xC2 (the lead
/// byte of U+0080–009F in UTF-8, and of other Latin-1 characters), 0xEF (the lead byte of
/// U+F000–FFFF, where U+FDD0–FDEF is not but U+FFFE/FFFF are; U+FDxx leads with 0xEF too)
/// or 0xF0–0xF4 (the planes above the BMP, each ending in two noncharacters); the exact
/// check then tells them apart. Every attribute of every parsed event passes here, so it
/// looks at 16 bytes at a time without branching inside a block, which the compiler turns
/// into vector compares; walking chars was a tenth of a typed parse.
#[inline]
fn may_hold_forbidden(bytes: &[u8]) -> bool {
    !is_printable_ascii(bytes) && has_suspect_byte(bytes)
}

/// [`may_hold_forbidden`] past the printable-ASCII look, out of line: inlined, its
/// registers made every call save and restore six (issue 40: a fifth of the look's cost on
/// the ids and times of a typed parse), and most text never gets here.
#[cold]
#[inline(never)]
fn has_suspect_byte(bytes: &[u8]) -> bool {
    let suspect = |b: u8| b < 0x20 || b == 0x7F || b == 0xC2 || b == 0xEF || b >= 0xF0;
    let mut blocks = bytes.chunks_exact(16);
    for block in &mut blocks {
        if block.iter().fold(false, |hit, &b| hit | suspect(b)) {
            return true;
        }
    }
    blocks.remainder().iter().any(|&b| suspect(b))
}

/// Whether every byte is printable ASCII (0x20..=0x7E), none of which is forbidden: ids,
/// URIs, types and times almost always are. Eight bytes at a time: a byte below 0x20 borrows
/// into its high bit when 0x20 is taken from it (and had that bit clear), a byte above 0x7E
/// has its high bit set once 1 is added to it or already had it; a borrow or carry out of a
/// byte only happens when that byte is itself out of range.
///
/// The bytes after the last whole word are looked at as the last eight bytes of the text,
/// overlapping the word before (issue 25: the byte-by-byte walk of the few left over was a
/// third of the check on short values); only a text shorter than a word is walked byte by
/// byte.
pub(crate) fn is_printable_ascii(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = ONES * 0x80;
    if let Some(last) = bytes.last_chunk::<16>() {
        return printable_blocks(bytes, last);
    }
    if bytes.len() < 8 {
        return bytes.iter().all(|&b| (0x20..=0x7E).contains(&b));
    }
    let out_of_range = |word: &[u8]| {
        let mut le = [0; 8];
        le.copy_from_slice(word);
        let x = u64::from_le_bytes(le);
        (x.wrapping_sub(ONES * 0x20) & !x) | x.wrapping_add(ONES) | x
    };
    let mut words = bytes.chunks_exact(8);
    let mut found = 0;
    for word in &mut words {
        found |= out_of_range(word);
    }
    if !words.remainder().is_empty() {
        found |= out_of_range(&bytes[bytes.len() - 8..]);
    }
    found & HIGH == 0
}

/// [`is_printable_ascii`] of a text of 16 bytes or more: 16 bytes at a time, branch-free
/// inside a block so the compiler compares them as one vector (ids, times and URIs are
/// 20–50 bytes: two or three blocks where the words took four to seven), the bytes after the
/// last whole block looked at as the `last` 16 bytes of the text, overlapping the block
/// before.
#[inline]
fn printable_blocks(bytes: &[u8], last: &[u8; 16]) -> bool {
    let printable = |block: &[u8; 16]| {
        block
            .iter()
            .fold(true, |all, &b| all & (0x20..=0x7E).contains(&b))
    };
    let (blocks, rest) = bytes.as_chunks::<16>();
    blocks.iter().all(printable) && (rest.is_empty() || printable(last))
}

/// The CloudEvents Integer a whole number read from an event stands for, or the violation
/// when it does not fit: an Integer is a signed 32-bit number (CE 1.0.2 type system). Every
/// reader of a format with wider numbers (a JSON number, a Protobuf varint) calls it, so the
/// range and its message are written once.
///
/// ```
/// use cloudevent_rules::check_integer_value;
///
/// assert_eq!(check_integer_value("priority", 7), Ok(7));
/// let found = check_integer_value("priority", i128::from(i32::MAX) + 1).unwrap_err();
/// assert_eq!(found.rule.as_str(), "CE 1.0.2 type system");
/// assert_eq!(found.value, "2147483648");
/// ```
///
/// # Errors
/// A number outside -2147483648..=2147483647, as an error of the type system rule naming
/// `attribute`.
pub fn check_integer_value(attribute: &str, value: i128) -> Result<i32, Box<Violation>> {
    i32::try_from(value).map_err(|_| {
        Box::new(
            Violation::error(
                rule::CE_TYPE_SYSTEM,
                attribute.to_owned(),
                value.to_string(),
                "is outside the Integer range (-2147483648 to 2147483647)",
            )
            .with_hint("send it as a string"),
        )
    })
}

/// Checks an absolute URI (RFC 3986 4.3): a scheme, and no fragment (CE 1.0.2 type system).
///
/// ```
/// use cloudevent_rules::check_uri;
///
/// assert!(check_uri("claimcheck", "https://blobs.example.com/a/b").is_empty());
/// assert!(check_uri("claimcheck", "urn:example:blob:1").is_empty());
/// assert!(!check_uri("claimcheck", "/a/b").is_empty());
/// assert!(!check_uri("claimcheck", "https://blobs.example.com/a#b").is_empty());
/// ```
pub fn check_uri(attribute: &str, value: &str) -> Vec<Violation> {
    let mut found = Vec::new();
    let error = |problem: &'static str| {
        Violation::error(rule::CE_TYPE_SYSTEM, attribute.to_owned(), value, problem)
            .with_hint("e.g. `https://example.com/resource` or `urn:example:resource`")
    };
    match uri::parse(value) {
        Err(bad) => found.push(
            Violation::error(
                rule::CE_TYPE_SYSTEM,
                attribute.to_owned(),
                value,
                bad.problem,
            )
            .with_part(bad.part),
        ),
        Ok(parsed) => {
            if parsed.scheme.is_none() {
                found.push(error("must be an absolute URI with a scheme"));
            }
            if let Some(fragment) = parsed.fragment {
                found.push(
                    error("an absolute URI has no fragment")
                        .with_part(format!("fragment `#{fragment}`")),
                );
            }
        }
    }
    found
}

/// Checks a URI-reference (RFC 3986 4.1): an absolute URI or a relative reference. The
/// empty string is a valid (empty) relative reference; attributes that must not be empty
/// check that themselves.
///
/// ```
/// use cloudevent_rules::check_uri_reference;
///
/// assert!(check_uri_reference("dataref", "/blobs/1").is_empty());
/// assert!(check_uri_reference("dataref", "https://blobs.example.com/1#part").is_empty());
/// let found = check_uri_reference("dataref", "/blobs/a b");
/// assert_eq!(found[0].part.as_deref(), Some("character ` ` (space) at byte 8"));
/// ```
pub fn check_uri_reference(attribute: &str, value: &str) -> Vec<Violation> {
    let mut found = Vec::new();
    if let Err(bad) = uri::parse(value) {
        found.push(
            Violation::error(
                rule::CE_TYPE_SYSTEM,
                attribute.to_owned(),
                value,
                bad.problem,
            )
            .with_part(bad.part),
        );
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    #[test]
    fn control_characters_are_found_in_every_block_and_the_tail() {
        // 16-byte blocks, then the remainder: put each forbidden character at every position
        // of a 37-byte string (two blocks and a tail of 5).
        for forbidden in [
            '\u{0}', '\n', '\u{1f}', '\u{7f}', '\u{80}', '\u{85}', '\u{9f}',
        ] {
            for at in 0..37 {
                let mut value: String = "x".repeat(37);
                value.replace_range(at..=at, &forbidden.to_string());
                let found = check_string_value("region", &value);
                assert_eq!(found.len(), 1, "{forbidden:?} at {at}");
                assert_eq!(
                    found[0]
                        .part
                        .as_deref()
                        .map(|p| p.ends_with(&format!("at byte {at}"))),
                    Some(true)
                );
            }
        }
        // Latin-1 letters share the lead byte 0xC2 with U+0080-009F and are allowed.
        for allowed in [
            "© 2026",
            "price: 10 £",
            "¡hola!",
            "x".repeat(40).as_str(),
            "",
            "\u{a0}",
        ] {
            assert!(
                check_string_value("region", allowed).is_empty(),
                "{allowed:?}"
            );
        }
    }

    #[test]
    fn specversion() {
        assert!(check_specversion("1.0").is_empty());
        for bad in ["", "1", "1.0.2", "1.0 ", "0.3", "v1.0"] {
            let found = check_specversion(bad);
            assert_eq!(found.len(), 1, "{bad}");
            assert_eq!(found[0].rule, rule::INTG_R1);
            assert_eq!(found[0].severity, Severity::Error);
        }
    }

    #[test]
    fn id_and_subject() {
        assert!(check_id("a").is_empty());
        assert_eq!(check_id("")[0].problem, "must be a non-empty string");
        assert!(check_subject("x").is_empty());
        assert_eq!(check_subject("").len(), 1);
    }

    #[test]
    fn string_values() {
        for ok in ["", "plain", "ünïcödé ✓", "tab-free", "\u{a0}nbsp"] {
            assert!(check_string_value("x", ok).is_empty(), "{ok:?}");
        }
        for (bad, part) in [
            ("\u{0}", "character U+0000 at byte 0"),
            ("a\tb", "character U+0009 at byte 1"),
            ("a\u{1f}", "character U+001F at byte 1"),
            ("é\u{7f}", "character U+007F at byte 2"),
            ("\u{85}", "character U+0085 at byte 0"),
            ("\u{9f}", "character U+009F at byte 0"),
        ] {
            let found = check_string_value("region", bad);
            assert_eq!(found.len(), 1, "{bad:?}");
            assert_eq!(found[0].attribute, "region");
            assert_eq!(found[0].part.as_deref(), Some(part), "{bad:?}");
        }
    }

    #[test]
    fn integers() {
        for ok in [0, -1, i32::MIN, i32::MAX] {
            assert_eq!(check_integer_value("n", i128::from(ok)), Ok(ok));
        }
        for bad in [
            i128::from(i32::MIN) - 1,
            i128::from(i32::MAX) + 1,
            i128::from(i64::MAX),
            i128::from(u64::MAX),
        ] {
            let found = check_integer_value("n", bad).unwrap_err();
            assert_eq!((&*found.attribute, found.value), ("n", bad.to_string()));
        }
    }

    #[test]
    fn uris() {
        for ok in [
            "https://example.com",
            "urn:a:b",
            "mailto:x@example.com",
            "https://example.com/a?b",
        ] {
            assert!(check_uri("u", ok).is_empty(), "{ok}");
            assert!(check_uri_reference("u", ok).is_empty(), "{ok}");
        }
        for relative in ["", "/a", "a/b", "//example.com/a", "#frag"] {
            assert!(!check_uri("u", relative).is_empty(), "{relative}");
            assert!(check_uri_reference("u", relative).is_empty(), "{relative}");
        }
        for bad in [
            "a b",
            "https://example.com/%",
            "https://[::1/",
            "https://e.com/ü",
        ] {
            assert_eq!(check_uri("u", bad).len(), 1, "{bad}");
            assert_eq!(check_uri_reference("u", bad).len(), 1, "{bad}");
        }
        let found = check_uri("u", "https://example.com/a#b");
        assert_eq!(found[0].part.as_deref(), Some("fragment `#b`"));
    }

    /// Issue 25: every byte value at every place of every length up to 49 (short texts,
    /// two words, the overlapping last word; since issue 40 one to three blocks of 16 and
    /// the overlapping last block), the rest printable.
    #[test]
    fn printable_ascii_is_the_byte_range_for_one_odd_byte_anywhere() {
        for len in 1..=49 {
            for at in 0..len {
                for odd in 0..=255u8 {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = odd;
                    let plain = (0x20..=0x7E).contains(&odd);
                    assert_eq!(is_printable_ascii(&bytes), plain, "{bytes:?}");
                }
            }
        }
        assert!(is_printable_ascii(b""));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2_000))]

        /// The word test gives the byte range's verdict (the oracle); since issue 25 the
        /// last word overlaps the one before it, so every length 0..40 is generated.
        #[test]
        fn printable_ascii_words_agree_with_the_byte_range(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![0x1Eu8..=0x21, 0x7Cu8..=0x82, proptest::num::u8::ANY],
                0..70,
            )
        ) {
            let plain = bytes.iter().all(|&b| (0x20..=0x7E).contains(&b));
            proptest::prop_assert_eq!(is_printable_ascii(&bytes), plain);
        }
    }
}
