//! The event object's own members read straight from the text (issue 40), serde_json kept
//! for every value that is not a plain string: the same visitor ([`EventSeed`]) is handed the
//! same keys and values, so an event read here is the one serde_json's map would give it.
//! `Event<T>`'s strict JSON read goes through it first (`Json::read_typed`); `AnyEvent`'s, the
//! validator's collecting read and `Deserialize` stay on serde_json's reader (BENCHMARKS.md,
//! "typed parse, round 6", says why `AnyEvent`'s was left).
//!
//! serde_json reads an event object through its generic map access: for each of a dozen
//! members the comma, the key, the colon and the value each go through a layer of its
//! deserializer (about a third of a typed parse, callgrind). Here the object's structure is
//! scanned directly: a key or a string value without escapes is handed over as the borrowed
//! `&str` serde_json would hand over for it (`visit_borrowed_str`). One with escapes is
//! decoded as serde_json decodes it: a key into a buffer the reader keeps, handed over as
//! serde_json hands over its decoded text (`visit_str`); a value into a `String` of its own,
//! handed over whole (`visit_string`: the visitor keeps it where it would copy serde_json's
//! text into one, the same value with one copy fewer). Any other value (`data`, a string one
//! too, a number, `null`, a boolean, an array) is delimited and read by serde_json itself, so
//! the payload's `Deserialize` sees serde_json's deserializer as before.
//!
//! It reads a subset and never decides a verdict of its own. A lone surrogate's `\u` escape,
//! any other irregular escape, a control byte, malformed text, anything serde_json refuses, a
//! value nested deep enough for serde_json's recursion limit to matter, a seed asking for
//! something other than a string, any error a value's deserializer raises: each ends it with
//! [`Bail::Reader`], and the caller reads the event again, from the start, through serde_json
//! (`json::parse_slice_in_batch`), whose verdict and error text stand. A finding that stops
//! the strict parse ends it with [`Bail::Stopped`]: that finding is the error, as it is the
//! serde_json reader's (see there).
//! `tests::property` holds the two readers to the same events and the same errors.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};

use super::{DataSlot, Envelope, EventSeed, Expected, Findings, Held};
use cloudevent_rules::Policy;

/// Why the direct reading stopped. Never shown to a user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bail {
    /// Something it does not read itself, or text serde_json refused: the caller reads the
    /// event through serde_json instead.
    Reader,
    /// A finding stopped the strict parse (the visitor's `json::stop`, the only `custom`
    /// error raised outside a value's own deserializer): the error is that finding, the one
    /// the serde_json reader stops at. The visitor was handed the same members as serde_json
    /// would hand it up to there (the text read so far holds only what both read alike: keys
    /// and values checked as serde_json checks them, every other value read by serde_json
    /// itself), so it stops at the same place with the same findings. Every error that comes
    /// out of reading a key or a value (a payload's `Deserialize`, a `custom` error among
    /// them) is a [`Bail::Reader`].
    Stopped,
}

impl fmt::Display for Bail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("left to the reference reader")
    }
}

impl std::error::Error for Bail {}

impl de::Error for Bail {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Bail::Stopped
    }
}

/// How deeply a value handed to serde_json may nest. serde_json allows 128 levels from the
/// top of the text; read from the start of the value, it would allow one level more than
/// inside the event object, so deeper values are left to the reference reader.
const MAX_DEPTH: usize = 100;

/// Reads one strict event from `text` as the serde_json reader does
/// (`json::parse_slice_in_batch`), or gives up ([`Bail`]) leaving `envelope`, `findings` and
/// `held` to be thrown away.
pub(crate) fn read<'de, S: DataSlot<'de>>(
    text: &'de str,
    envelope: &mut Envelope<'de>,
    slot: S,
    expected_type: Option<Expected>,
    policy: &Policy,
    findings: &mut Findings,
    held: Option<&mut Held<'de>>,
) -> Result<S::Data, Bail> {
    let mut reader = Reader {
        text,
        at: 0,
        decoded: String::new(),
    };
    let data = EventSeed {
        envelope,
        findings,
        policy,
        slot,
        expected_type,
        memo: None,
        held,
    }
    .deserialize(&mut reader)?;
    reader.skip_whitespace();
    if reader.at == text.len() {
        Ok(data)
    } else {
        Err(Bail::Reader)
    }
}

/// The text, the place reached in it, and the last key with escapes, decoded.
struct Reader<'de> {
    text: &'de str,
    at: usize,
    /// Kept from key to key, as serde_json keeps its scratch buffer: an event whose keys
    /// carry escapes allocates it once (an escaped value gets a `String` of its own).
    decoded: String,
}

impl<'de> Reader<'de> {
    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Steps over JSON's whitespace (RFC 8259 2: space, tab, line feed, carriage return).
    #[inline(always)]
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// Steps over `byte` after any whitespace.
    #[inline(always)]
    fn expect(&mut self, byte: u8) -> Result<(), Bail> {
        self.skip_whitespace();
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(Bail::Reader)
        }
    }

    /// The string whose opening quote is at the current place, without escapes or control
    /// bytes (serde_json borrows exactly such a string from its input).
    #[inline(always)]
    fn plain_string(&mut self) -> Result<&'de str, Bail> {
        let bytes = self.text.as_bytes();
        let start = self.at + 1;
        let mut end = cloudevent_rules::json_plain_run(bytes, start);
        loop {
            match bytes.get(end) {
                Some(b'"') => break,
                Some(&byte) if byte >= 0x20 && byte != b'\\' => end += 1,
                _ => return Err(Bail::Reader),
            }
        }
        self.at = end + 1;
        // Both ends are ASCII quotes, so both are on character boundaries.
        self.text.get(start..end).ok_or(Bail::Reader)
    }

    /// The key whose opening quote is at the current place, decoded into
    /// [`Reader::decoded`] ([`Reader::escaped_string`]).
    fn escaped_key(&mut self) -> Result<(), Bail> {
        let mut decoded = std::mem::take(&mut self.decoded);
        decoded.clear();
        let read = self.escaped_string(&mut decoded);
        self.decoded = decoded;
        read
    }

    /// The string whose opening quote is at the current place, its escapes decoded into
    /// `decoded` as serde_json decodes them (RFC 8259 7): `\"`, `\\`, `\/`, `\b`, `\f`, `\n`,
    /// `\r`, `\t` and `\u` escapes ([`escaped_char`]: a surrogate pair joined). A lone
    /// surrogate, any other escape and a control byte are a [`Bail`]: serde_json reads the
    /// event.
    fn escaped_string(&mut self, decoded: &mut String) -> Result<(), Bail> {
        let bytes = self.text.as_bytes();
        let mut at = self.at + 1;
        loop {
            let mut end = cloudevent_rules::json_plain_run(bytes, at);
            loop {
                match bytes.get(end) {
                    Some(b'"' | b'\\') => break,
                    Some(&byte) if byte >= 0x20 => end += 1,
                    _ => return Err(Bail::Reader),
                }
            }
            // `at` follows a quote or an escape and `end` is at one: ASCII, so both are on
            // character boundaries.
            decoded.push_str(self.text.get(at..end).ok_or(Bail::Reader)?);
            if bytes.get(end) == Some(&b'"') {
                self.at = end + 1;
                return Ok(());
            }
            let (character, length) = match bytes.get(end + 1) {
                Some(b'"') => ('"', 2),
                Some(b'\\') => ('\\', 2),
                Some(b'/') => ('/', 2),
                Some(b'b') => ('\u{8}', 2),
                Some(b'f') => ('\u{c}', 2),
                Some(b'n') => ('\n', 2),
                Some(b'r') => ('\r', 2),
                Some(b't') => ('\t', 2),
                Some(b'u') => escaped_char(bytes, end)?,
                _ => return Err(Bail::Reader),
            };
            decoded.push(character);
            at = end + length;
        }
    }

    /// Where the object or array starting at the current place ends when it is the event
    /// object's last value, as `data` usually is: the text closes the event object right
    /// after a bracket that matches the value's first. `None` when the text does not end
    /// so, or when the value holds enough brackets that its depth needs counting
    /// ([`Reader::value_end`]). A guess: serde_json reads the text up to that end and refuses
    /// it (a [`Bail`]) unless it is exactly one value.
    #[inline]
    fn last_value_end(&self) -> Option<usize> {
        let bytes = self.text.as_bytes();
        let close = match bytes.get(self.at)? {
            b'{' => b'}',
            b'[' => b']',
            _ => return None,
        };
        let is_space = |byte: &u8| matches!(byte, b' ' | b'\t' | b'\n' | b'\r');
        let object_end = bytes.iter().rposition(|byte| !is_space(byte))?;
        if bytes[object_end] != b'}' {
            return None;
        }
        let value_end = bytes[..object_end]
            .iter()
            .rposition(|byte| !is_space(byte))?
            + 1;
        if value_end <= self.at + 1 || bytes[value_end - 1] != close {
            return None;
        }
        // A value nests no deeper than half its length, nor than the brackets that open in it.
        let value = &bytes[self.at..value_end];
        (value.len() <= 2 * MAX_DEPTH || openings_at_most(value) <= MAX_DEPTH).then_some(value_end)
    }

    /// Where the value starting at the current place ends, found by its brackets and
    /// strings alone; serde_json then reads exactly that text, so a wrong guess on malformed
    /// text is its refusal (and a [`Bail`]), never a value read differently.
    fn value_end(&self) -> Result<usize, Bail> {
        let bytes = self.text.as_bytes();
        let mut at = self.at;
        let mut depth = 0usize;
        loop {
            match *bytes.get(at).ok_or(Bail::Reader)? {
                b'"' => {
                    at = string_end(bytes, at)?;
                    if depth == 0 {
                        return Ok(at);
                    }
                    continue;
                }
                b'{' | b'[' => {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        return Err(Bail::Reader);
                    }
                }
                b'}' | b']' => {
                    // At depth 0 this closes the event object: a scalar ended before it.
                    if depth == 0 {
                        return Ok(at);
                    }
                    depth -= 1;
                    if depth == 0 {
                        return Ok(at + 1);
                    }
                }
                b',' | b' ' | b'\t' | b'\n' | b'\r' if depth == 0 => return Ok(at),
                _ => {}
            }
            at += 1;
        }
    }
}

/// The character a `\u` escape at `at` names and the escape's length: four hex digits of a
/// code point outside the surrogates, or a leading surrogate's escape and a trailing one's
/// right after it, joined (RFC 8259 7, as serde_json joins them). A lone surrogate, a pair
/// in the wrong order or anything but four hex digits is a [`Bail`]: serde_json's verdict.
fn escaped_char(bytes: &[u8], at: usize) -> Result<(char, usize), Bail> {
    let first = hex4(bytes.get(at + 2..at + 6))?;
    let (code, length) = match first {
        0xD800..=0xDBFF if bytes.get(at + 6..at + 8) == Some(b"\\u") => {
            match hex4(bytes.get(at + 8..at + 12))? {
                low @ 0xDC00..=0xDFFF => (0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00), 12),
                _ => return Err(Bail::Reader),
            }
        }
        // `from_u32` refuses the surrogates: a lone one is left to serde_json.
        _ => (first, 6),
    };
    Ok((char::from_u32(code).ok_or(Bail::Reader)?, length))
}

/// The number four hex digits (either case, as serde_json reads them) write; a [`Bail`] for
/// fewer than four or any other byte (a sign among them).
fn hex4(digits: Option<&[u8]>) -> Result<u32, Bail> {
    let mut code = 0;
    for &digit in digits.ok_or(Bail::Reader)? {
        code = code * 16 + char::from(digit).to_digit(16).ok_or(Bail::Reader)?;
    }
    Ok(code)
}

/// At least the number of `{` and `[` in `bytes`, eight bytes at a time: a byte is one of the
/// two when, with 0x20 set, it is `{` (0x7b); the zero-byte test flags every such byte, and may
/// flag a byte above a flagged one as well, which only makes the count larger.
fn openings_at_most(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut words = bytes.chunks_exact(8);
    let mut count = 0;
    for word in &mut words {
        let mut le = [0; 8];
        le.copy_from_slice(word);
        let x = (u64::from_le_bytes(le) | (ONES * 0x20)) ^ (ONES * u64::from(b'{'));
        count += (x.wrapping_sub(ONES) & !x & HIGH).count_ones() as usize;
    }
    count
        + words
            .remainder()
            .iter()
            .filter(|&&byte| byte == b'{' || byte == b'[')
            .count()
}

/// Where the string whose opening quote is at `at` ends (after its closing quote); escapes
/// are stepped over, not checked (serde_json reads the text found).
fn string_end(bytes: &[u8], at: usize) -> Result<usize, Bail> {
    let mut at = at + 1;
    loop {
        at = cloudevent_rules::json_plain_run(bytes, at);
        match *bytes.get(at).ok_or(Bail::Reader)? {
            b'"' => return Ok(at + 1),
            b'\\' => at += 2,
            _ => at += 1,
        }
    }
}

impl<'de> Deserializer<'de> for &mut Reader<'de> {
    type Error = Bail;

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        self.expect(b'{')?;
        visitor.visit_map(Members {
            reader: self,
            first: true,
            data: false,
        })
    }

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Bail> {
        Err(Bail::Reader)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct struct enum identifier
        ignored_any
    }
}

/// The members of the event object.
struct Members<'r, 'de> {
    reader: &'r mut Reader<'de>,
    first: bool,
    /// Whether the member whose value comes next is `data`: its value, a string too, is read
    /// by serde_json (a data slot may ask for serde_json's raw value, which only its own
    /// deserializer gives).
    data: bool,
}

impl<'de> MapAccess<'de> for Members<'_, 'de> {
    type Error = Bail;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Bail> {
        let reader = &mut *self.reader;
        reader.skip_whitespace();
        match reader.peek() {
            Some(b'}') => {
                reader.at += 1;
                return Ok(None);
            }
            Some(b',') if !self.first => {
                reader.at += 1;
                reader.skip_whitespace();
            }
            _ if self.first => {}
            _ => return Err(Bail::Reader),
        }
        self.first = false;
        if reader.peek() != Some(b'"') {
            return Err(Bail::Reader);
        }
        let start = reader.at;
        if let Ok(key) = reader.plain_string() {
            self.data = key.len() == 4 && key.as_bytes() == b"data";
            reader.expect(b':')?;
            return seed
                .deserialize(Plain(key))
                .map(Some)
                .map_err(|_| Bail::Reader);
        }
        reader.at = start;
        reader.escaped_key()?;
        self.data = reader.decoded == "data";
        reader.expect(b':')?;
        seed.deserialize(Decoded(Cow::Borrowed(&reader.decoded)))
            .map(Some)
            .map_err(|_| Bail::Reader)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Bail> {
        let reader = &mut *self.reader;
        reader.skip_whitespace();
        let start = reader.at;
        if !self.data && reader.peek() == Some(b'"') {
            // Whatever a seed refuses is a payload's or a reader's error, never a finding's
            // stop (the visitor stops only between members): serde_json gives it its text.
            if let Ok(text) = reader.plain_string() {
                return seed.deserialize(Plain(text)).map_err(|_| Bail::Reader);
            }
            reader.at = start;
            // Sized once: the decoded text is never longer than the string as written.
            let end = string_end(reader.text.as_bytes(), start)?;
            let mut text = String::with_capacity(end - start);
            reader.escaped_string(&mut text)?;
            return seed
                .deserialize(Decoded(Cow::Owned(text)))
                .map_err(|_| Bail::Reader);
        }
        let end = match reader.last_value_end() {
            Some(end) => end,
            None => reader.value_end()?,
        };
        let mut deserializer = serde_json::Deserializer::from_str(&reader.text[start..end]);
        let value = seed
            .deserialize(&mut deserializer)
            .map_err(|_| Bail::Reader)?;
        deserializer.end().map_err(|_| Bail::Reader)?;
        reader.at = end;
        Ok(value)
    }
}

/// Deserializer methods that refuse ([`Bail::Reader`]), each with its arguments' types: a seed asking a
/// plain string for another type is left to serde_json.
macro_rules! refuse {
    ($($method:ident($($argument:ty),*))*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $(_: $argument,)* _: V) -> Result<V::Value, Bail> {
                Err(Bail::Reader)
            }
        )*
    };
}

/// [`refuse!`] for every method of a deserializer of one string ([`Plain`], [`Decoded`]) but
/// the four it serves: `any`, `str`, `string` and `ignored_any`.
macro_rules! refuse_all_but_strings {
    () => {
        refuse! {
            deserialize_bool() deserialize_i8() deserialize_i16() deserialize_i32()
            deserialize_i64() deserialize_u8() deserialize_u16() deserialize_u32()
            deserialize_u64() deserialize_f32() deserialize_f64() deserialize_char()
            deserialize_bytes() deserialize_byte_buf() deserialize_option() deserialize_unit()
            deserialize_seq() deserialize_map() deserialize_identifier()
            deserialize_unit_struct(&'static str) deserialize_newtype_struct(&'static str)
            deserialize_tuple(usize) deserialize_tuple_struct(&'static str, usize)
            deserialize_struct(&'static str, &'static [&'static str])
            deserialize_enum(&'static str, &'static [&'static str])
        }
    };
}

/// A key or a string value with escapes, decoded, for the seeds [`Plain`] serves: a key as
/// serde_json's deserializer hands one over (`visit_str`, its scratch buffer's text), a
/// value as its own `String` (`visit_string`: a seed that keeps the text keeps this `String`
/// instead of copying serde_json's; the property tests hold the events read equal).
struct Decoded<'s>(Cow<'s, str>);

impl Decoded<'_> {
    #[inline]
    fn visit<'de, V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        match self.0 {
            Cow::Borrowed(text) => visitor.visit_str(text),
            Cow::Owned(text) => visitor.visit_string(text),
        }
    }
}

impl<'de> Deserializer<'de> for Decoded<'_> {
    type Error = Bail;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        self.visit(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        self.visit(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        self.visit(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        visitor.visit_unit()
    }

    refuse_all_but_strings!();
}

/// A key or a string value without escapes: what serde_json's deserializer hands over for
/// one (`visit_borrowed_str`) to a seed asking for a string or anything (`deserialize_str`,
/// `deserialize_any`), or for nothing (`deserialize_ignored_any`). A seed asking for another
/// type ([`Bail`]) reads the event through serde_json.
struct Plain<'de>(&'de str);

impl<'de> Deserializer<'de> for Plain<'de> {
    type Error = Bail;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        visitor.visit_borrowed_str(self.0)
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        visitor.visit_borrowed_str(self.0)
    }

    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        visitor.visit_borrowed_str(self.0)
    }

    #[inline]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Bail> {
        visitor.visit_unit()
    }

    refuse_all_but_strings!();
}
