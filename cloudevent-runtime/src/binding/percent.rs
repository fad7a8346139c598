//! Percent-encoding of header values, exactly as the CloudEvents HTTP Protocol Binding 1.0.2
//! §3.1.3.2 "HTTP Header Values" requires.
//!
//! Encoding: space (U+0020), double-quote (U+0022), percent (U+0025) and every character
//! outside U+0021–U+007E become `%XY` per UTF-8 byte, upper-case hex. Decoding: a quoted string
//! (RFC 7230 §3.2.6) is unquoted first, then exactly one round of percent-decoding runs;
//! lower-case hex and needless escapes are accepted, a byte sequence that is not UTF-8 (such as
//! the overlong `%C0%A0`) is rejected.
//!
//! The bytes are encoded and decoded by `percent-encoding` (the `url` crate's) with the
//! binding's own character set; the binding's strictness on top of it (a `%` without two hex
//! digits, a quoted string, UTF-8) is ours. The functions come with the bindings that carry
//! header values: features `http` and `nats`.

#[cfg(any(feature = "http", feature = "nats"))]
use std::borrow::Cow;

#[cfg(any(feature = "http", feature = "nats"))]
use percent_encoding::{AsciiSet, CONTROLS, percent_decode, utf8_percent_encode};

/// Why a header value could not be decoded (CloudEvents HTTP binding 1.0.2 §3.1.3.2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PercentDecodeError {
    /// A `%` not followed by two hexadecimal digits.
    #[error(
        "header value `{value}`: `%` at byte {at} is not followed by two hex digits (CE HTTP binding 3.1.3.2)"
    )]
    BadEscape {
        /// The raw value.
        value: String,
        /// Byte offset of the `%`.
        at: usize,
    },
    /// The decoded bytes are not UTF-8 (for example the overlong `%C0%A0`).
    #[error(
        "header value `{value}`: decoded bytes are not valid UTF-8 (CE HTTP binding 3.1.3.2 rejects e.g. the overlong `%C0%A0`)"
    )]
    InvalidUtf8 {
        /// The raw value.
        value: String,
    },
    /// A quoted string that does not end with its closing quote.
    #[error("header value `{value}`: unterminated quoted string (RFC 7230 3.2.6)")]
    UnterminatedQuote {
        /// The raw value.
        value: String,
    },
    /// Text after a quoted string's closing quote: the value would be cut there, so it is
    /// refused instead (CloudEvents headers carry no comments or parameters).
    #[error(
        "header value `{value}`: text after the closing quote of a quoted string (RFC 7230 3.2.6); percent-encode the whole value instead"
    )]
    TextAfterQuote {
        /// The raw value.
        value: String,
    },
}

impl PercentDecodeError {
    /// The raw value, what is wrong with it (no rule id: the binding error carries the
    /// rule) and how to fix it, for a report's finding.
    pub(crate) fn finding(&self) -> (&str, String, &'static str) {
        const ENCODE: &str = "percent-encode `%`, `\"`, space and every non-ASCII byte as `%XY` (CE HTTP binding 3.1.3.2)";
        match self {
            PercentDecodeError::BadEscape { value, at } => (
                value,
                format!("`%` at byte {at} is not followed by two hex digits"),
                ENCODE,
            ),
            PercentDecodeError::InvalidUtf8 { value } => (
                value,
                "decoded bytes are not valid UTF-8 (e.g. the overlong `%C0%A0`)".to_owned(),
                "percent-encode the value's UTF-8 bytes (CE HTTP binding 3.1.3.2)",
            ),
            PercentDecodeError::UnterminatedQuote { value } => (
                value,
                "unterminated quoted string (RFC 7230 3.2.6)".to_owned(),
                ENCODE,
            ),
            PercentDecodeError::TextAfterQuote { value } => (
                value,
                "text after the closing quote of a quoted string (RFC 7230 3.2.6)".to_owned(),
                "percent-encode the whole value instead of quoting it",
            ),
        }
    }
}

/// What the binding percent-encodes besides every byte outside ASCII: the controls
/// (U+0000–U+001F, U+007F), space, `"` and `%`. What passes through is printable ASCII
/// U+0021–U+007E except `"` and `%` (§3.1.3.2).
#[cfg(any(feature = "http", feature = "nats"))]
const HEADER_VALUE: &AsciiSet = &CONTROLS.add(b' ').add(b'"').add(b'%');

/// Percent-encodes an attribute's canonical string for an HTTP header value.
///
/// Borrows when nothing needs encoding, which is the common case for ids, types and URIs.
///
/// ```
/// use cloudevent_runtime::binding::percent::encode;
///
/// assert_eq!(encode("a b"), "a%20b");
/// assert_eq!(encode("100%"), "100%25");
/// assert_eq!(encode("\"q\""), "%22q%22");
/// assert_eq!(encode("café ☕"), "caf%C3%A9%20%E2%98%95");
/// assert_eq!(encode("Euro € 😀"), "Euro%20%E2%82%AC%20%F0%9F%98%80");
/// assert_eq!(encode("com.example.order.created"), "com.example.order.created");
/// ```
#[cfg(any(feature = "http", feature = "nats"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "http", feature = "nats"))))]
pub fn encode(value: &str) -> Cow<'_, str> {
    utf8_percent_encode(value, HEADER_VALUE).into()
}

/// The offset of the first `%` not followed by two hexadecimal digits. `percent-encoding`
/// passes such a `%` through as it is; the binding refuses it (§3.1.3.2).
#[cfg(any(feature = "http", feature = "nats"))]
fn bad_escape(bytes: &[u8]) -> Option<usize> {
    (0..bytes.len())
        .filter(|&at| bytes[at] == b'%')
        .find(|&at| {
            !bytes
                .get(at + 1..at + 3)
                .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit))
        })
}

/// `raw` without the spaces and tabs around it. Every header value of every received
/// message passes here and nearly none has any, so the ends are looked at before the
/// general trim (which showed in an HTTP binary decode's profile).
#[cfg(any(feature = "http", feature = "nats"))]
fn trim_blanks(raw: &str) -> &str {
    let blank = |byte: Option<&u8>| matches!(byte, Some(b' ' | b'\t'));
    let bytes = raw.as_bytes();
    if blank(bytes.first()) || blank(bytes.last()) {
        raw.trim_matches([' ', '\t'])
    } else {
        raw
    }
}

/// Removes one level of RFC 7230 §3.2.6 quoting (`"..."` with backslash escapes), which the
/// binding requires receivers to support for senders of older spec versions.
#[cfg(any(feature = "http", feature = "nats"))]
fn unquote(raw: &str) -> Result<Cow<'_, str>, PercentDecodeError> {
    let trimmed = trim_blanks(raw);
    let Some(inner) = trimmed.strip_prefix('"') else {
        return Ok(Cow::Borrowed(trimmed));
    };
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(escaped) => out.push(escaped),
                None => break,
            },
            '"' => {
                // CloudEvents headers carry no comments or parameters, so nothing may follow
                // the closing quote; cutting the value there would drop what the sender meant.
                if chars.as_str().is_empty() {
                    return Ok(Cow::Owned(out));
                }
                return Err(PercentDecodeError::TextAfterQuote {
                    value: raw.to_owned(),
                });
            }
            other => out.push(other),
        }
    }
    Err(PercentDecodeError::UnterminatedQuote {
        value: raw.to_owned(),
    })
}

/// Decodes a header value: unquotes, then performs exactly one round of percent-decoding.
///
/// # Errors
/// A malformed escape, an unterminated quoted string, or bytes that are not UTF-8.
///
/// ```
/// use cloudevent_runtime::binding::percent::decode;
///
/// assert_eq!(decode("a%20b").unwrap(), "a b");
/// assert_eq!(decode("caf%c3%a9").unwrap(), "café"); // lower-case hex is accepted
/// assert_eq!(decode("%61bc").unwrap(), "abc"); // so is a needless escape
/// assert_eq!(decode("100%2525").unwrap(), "100%25"); // one round only
/// assert_eq!(decode("\"a \\\"q\\\"\"").unwrap(), "a \"q\""); // RFC 7230 quoted string
/// assert!(decode("%C0%A0").is_err()); // overlong encoding of U+0020
/// ```
#[cfg(any(feature = "http", feature = "nats"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "http", feature = "nats"))))]
pub fn decode(raw: &str) -> Result<Cow<'_, str>, PercentDecodeError> {
    let unquoted = unquote(raw)?;
    if !unquoted.as_bytes().contains(&b'%') {
        return Ok(unquoted);
    }
    if let Some(at) = bad_escape(unquoted.as_bytes()) {
        return Err(PercentDecodeError::BadEscape {
            value: raw.to_owned(),
            at,
        });
    }
    // Exactly one round: `%2525` is `%25`, never `%`.
    percent_decode(unquoted.as_bytes())
        .decode_utf8()
        .map(|decoded| Cow::Owned(decoded.into_owned()))
        .map_err(|_| PercentDecodeError::InvalidUtf8 {
            value: raw.to_owned(),
        })
}

/// A header value the strict reading refused, read literally when `policy` tolerates its
/// form ([`cloudevent_rules::Policy::literal_header`], the one verdict): the raw text and
/// the warning to report. `None` keeps the refusal. HTTP and NATS (whose 1.0.3 binary mode
/// percent-encodes as HTTP does, §3.1.3.2) share it.
#[cfg(any(feature = "http", feature = "nats"))]
pub(crate) fn literal<'v>(
    raw: &'v [u8],
    attribute: &str,
    policy: &crate::Policy,
) -> Option<(&'v str, cloudevent_rules::Violation)> {
    let form = cloudevent_rules::LiteralHeader::of(raw)?;
    let text = std::str::from_utf8(raw).ok()?;
    let warning = policy.literal_header(form, attribute, text).ok()?;
    Some((text, warning))
}

/// The warnings of one message's literal reading: handed to a validator's report where there
/// is one ([`super::http::structured_document`]), else logged once the event is accepted.
#[derive(Debug, Default)]
pub(crate) struct Literals(std::cell::RefCell<Vec<cloudevent_rules::Violation>>);

impl Literals {
    pub(crate) fn push(&self, warning: cloudevent_rules::Violation) {
        self.0.borrow_mut().push(warning);
    }

    #[cfg(feature = "http")]
    pub(crate) fn into_inner(self) -> Vec<cloudevent_rules::Violation> {
        self.0.into_inner()
    }

    /// Logs each warning (`tracing` feature, target `cloudevent::binding`, level `warn`): a
    /// reader that returns the event alone has no report to put them in.
    pub(crate) fn log(&self) {
        #[cfg(feature = "tracing")]
        for warning in self.0.borrow().iter() {
            tracing::warn!(target: "cloudevent::binding", rule = warning.rule.as_str(), "{}", warning.report_line());
        }
    }
}

#[cfg(all(test, any(feature = "http", feature = "nats")))]
mod tests {
    use super::*;

    #[test]
    fn encodes_every_byte_outside_printable_ascii() {
        assert_eq!(encode("\u{7f}\u{1}\t"), "%7F%01%09");
        assert_eq!(encode("~!"), "~!");
    }

    #[test]
    fn blanks_around_a_value_are_trimmed_and_inside_it_kept() {
        for (raw, decoded) in [
            ("a%20b", "a b"),
            (" a b\t", "a b"),
            ("\t\"x y\" ", "x y"),
            ("  ", ""),
            ("", ""),
            ("a\tb", "a\tb"),
        ] {
            assert_eq!(decode(raw).unwrap(), decoded, "{raw:?}");
        }
    }

    #[test]
    fn round_trips_unicode() {
        for value in ["a b", "100%", "\"q\"", "café ☕", "Euro € 😀", "%41", ""] {
            assert_eq!(decode(&encode(value)).unwrap(), value);
        }
    }

    #[test]
    fn rejects_bad_escapes() {
        assert!(matches!(
            decode("%4"),
            Err(PercentDecodeError::BadEscape { at: 0, .. })
        ));
        assert!(matches!(
            decode("ab%zz"),
            Err(PercentDecodeError::BadEscape { at: 2, .. })
        ));
        // A `%` that `percent-encoding` alone would pass through is still refused.
        for (raw, at) in [("100%", 3), ("%4g", 0), ("a%2", 1), ("%%41", 0), ("%é", 0)] {
            assert!(
                matches!(decode(raw), Err(PercentDecodeError::BadEscape { at: found, .. }) if found == at),
                "{raw:?}"
            );
        }
        assert!(matches!(
            decode("%C0%A0"),
            Err(PercentDecodeError::InvalidUtf8 { .. })
        ));
        assert!(matches!(
            decode("%FF"),
            Err(PercentDecodeError::InvalidUtf8 { .. })
        ));
        assert!(matches!(
            decode("\"open"),
            Err(PercentDecodeError::UnterminatedQuote { .. })
        ));
    }

    #[test]
    fn text_after_a_closing_quote_is_refused_not_cut() {
        assert!(matches!(
            decode("\"a\" b"),
            Err(PercentDecodeError::TextAfterQuote { .. })
        ));
        assert_eq!(decode("\"a b\"").unwrap(), "a b");
    }

    #[test]
    fn quoted_value_is_percent_decoded_once() {
        assert_eq!(decode("\"a%20b\"").unwrap(), "a b");
    }
}
