//! Owned attribute values of the CloudEvents type system that `String` does not cover.
//!
//! Each constructor checks its input through `cloudevent-rules`, so a [`Timestamp`], [`Uri`]
//! or [`UriRef`] that exists is well-formed.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use cloudevent_rules::{Profile, Violation};
use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::error::ValueError;

pub(crate) mod inline;
mod schema_integer;
use inline::{InlineText, ShortText, TIMESTAMP_CAPACITY};
pub use schema_integer::SchemaInteger;

/// Keeps the errors of a rules check, or succeeds when there are none (warnings pass).
fn errors_only(violations: Vec<Violation>) -> Result<(), ValueError> {
    let errors: Vec<Violation> = violations.into_iter().filter(Violation::is_error).collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ValueError::new(errors))
    }
}

/// An RFC 3339 timestamp, kept as the string it was given or generated as.
///
/// ```
/// use cloudevent_runtime::Timestamp;
///
/// let t = Timestamp::try_from("2026-03-28T14:22:31.482Z").unwrap();
/// assert_eq!(t.as_str(), "2026-03-28T14:22:31.482Z");
/// assert!(Timestamp::now().as_str().ends_with('Z'));
/// assert_eq!(Timestamp::from_unix(0, 0).unwrap().as_str(), "1970-01-01T00:00:00Z");
/// ```
#[derive(Clone)]
pub struct Timestamp(Repr);

/// Where the text lives ([`ShortText`]). Every timestamp this crate writes, and most it
/// reads, fits in [`TIMESTAMP_CAPACITY`] bytes, so `Timestamp::now()` on the `Event::new` path
/// and the typed reader allocate nothing for it; longer text (an offset with nine fraction
/// digits, or more digits than that) is a `String`.
type Repr = ShortText<TIMESTAMP_CAPACITY>;

impl Timestamp {
    /// The current time in UTC with millisecond precision, e.g. `2026-03-28T14:22:31.482Z`:
    /// always three fraction digits, written without allocating.
    ///
    /// ```
    /// use cloudevent_runtime::Timestamp;
    /// assert!(Timestamp::now().as_str().ends_with('Z'));
    /// assert_eq!(Timestamp::now().as_str().len(), "2026-03-28T14:22:31.482Z".len());
    /// ```
    pub fn now() -> Self {
        // A clock before 1970 is a misconfigured host; the epoch is the least wrong answer.
        Timestamp::at(crate::id::since_epoch())
    }

    /// [`Timestamp::now`] for a time read earlier, `since_epoch` after the Unix epoch.
    pub(crate) fn at(since_epoch: std::time::Duration) -> Self {
        let secs = i64::try_from(since_epoch.as_secs()).unwrap_or(i64::MAX);
        let nanos = since_epoch.subsec_millis() * 1_000_000;
        Timestamp::utc(secs, nanos, 3).unwrap_or_else(|| {
            Timestamp::utc(0, 0, 3).unwrap_or(Timestamp(Repr::Heap(String::new())))
        })
    }

    /// The UTC timestamp `secs` seconds and `nanos` nanoseconds after the Unix epoch. The
    /// fraction is written with 3, 6 or 9 digits, whichever keeps every non-zero digit.
    ///
    /// `None` when `nanos` is a second or more, or the year falls outside 0000–9999, which
    /// RFC 3339 cannot write.
    ///
    /// ```
    /// use cloudevent_runtime::Timestamp;
    /// assert_eq!(Timestamp::from_unix(1, 500_000_000).unwrap().as_str(), "1970-01-01T00:00:01.500Z");
    /// assert_eq!(Timestamp::from_unix(0, 1_000_000_000), None);
    /// ```
    pub fn from_unix(secs: i64, nanos: u32) -> Option<Self> {
        let digits = if nanos == 0 {
            0
        } else if nanos.is_multiple_of(1_000_000) {
            3
        } else if nanos.is_multiple_of(1_000) {
            6
        } else {
            9
        };
        Timestamp::utc(secs, nanos, digits)
    }

    /// Writes `YYYY-MM-DDTHH:MM:SSZ` with `digits` (0, 3, 6 or 9) fraction digits into the
    /// inline buffer, two digits at a time from a table: `write!` through `fmt` cost more
    /// than the rest of `Event::new` without its ids.
    fn utc(secs: i64, nanos: u32, digits: usize) -> Option<Self> {
        if nanos >= 1_000_000_000 {
            return None;
        }
        let days = secs.div_euclid(86_400);
        let second_of_day = secs.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        let year = u32::try_from(year).ok().filter(|year| *year <= 9999)?;
        // In range by construction: 0..86_400.
        let second_of_day = u32::try_from(second_of_day).unwrap_or(0);
        let mut bytes = [0u8; TIMESTAMP_CAPACITY];
        let [y0, y1] = two_digits(year / 100);
        let [y2, y3] = two_digits(year % 100);
        let [m0, m1] = two_digits(month);
        let [d0, d1] = two_digits(day);
        let [h0, h1] = two_digits(second_of_day / 3600);
        let [n0, n1] = two_digits(second_of_day % 3600 / 60);
        let [s0, s1] = two_digits(second_of_day % 60);
        bytes[..19].copy_from_slice(&[
            y0, y1, y2, y3, b'-', m0, m1, b'-', d0, d1, b'T', h0, h1, b':', n0, n1, b':', s0, s1,
        ]);
        let mut len = 19;
        if digits > 0 {
            bytes[len] = b'.';
            len += 1;
            // The fraction's leading `digits` digits, two at a time from the nanoseconds'
            // nine (`digits` is 3, 6 or 9: a group of three is one digit and a pair).
            let mut nanos = nanos;
            let mut fraction = [0u8; 9];
            for group in fraction.chunks_exact_mut(3).rev() {
                let [a, b] = two_digits(nanos % 100);
                group[0] = b'0' + (nanos / 100 % 10) as u8;
                group[1] = a;
                group[2] = b;
                nanos /= 1000;
            }
            bytes[len..len + digits].copy_from_slice(&fraction[..digits]);
            len += digits;
        }
        bytes[len] = b'Z';
        len += 1;
        // Digits and ASCII separators only, so the text is always kept inline.
        InlineText::new(bytes, len).map(|text| Timestamp(Repr::Inline(text)))
    }

    /// The RFC 3339 string.
    ///
    /// ```
    /// use cloudevent_runtime::Timestamp;
    /// assert_eq!(Timestamp::from_unix(0, 0).unwrap().as_str(), "1970-01-01T00:00:00Z");
    /// ```
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// Wraps a string already known to be valid (generated here, or checked by the caller).
    pub(crate) fn new_unchecked(value: String) -> Self {
        Timestamp(Repr::Heap(value))
    }

    /// Wraps text already known to be valid, copying it inline when it fits, so a reader that
    /// borrowed it from the input allocates nothing.
    pub(crate) fn from_checked(value: Cow<'_, str>) -> Self {
        // Kept inline when ASCII and short enough; RFC 3339 text is ASCII.
        match InlineText::copy(&value) {
            Some(text) => Timestamp(Repr::Inline(text)),
            None => Timestamp(Repr::Heap(value.into_owned())),
        }
    }
}

/// `value` (below 100) as two ASCII digits, from one table: a division and a remainder a
/// digit, nineteen times a timestamp, were most of `Timestamp::utc` (issue 40).
fn two_digits(value: u32) -> [u8; 2] {
    const PAIRS: [[u8; 2]; 100] = {
        let mut pairs = [[0; 2]; 100];
        let mut i = 0;
        while i < 100 {
            pairs[i] = [b'0' + (i / 10) as u8, b'0' + (i % 10) as u8];
            i += 1;
        }
        pairs
    };
    PAIRS[(value % 100) as usize]
}

impl PartialEq for Timestamp {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Timestamp {}

impl std::hash::Hash for Timestamp {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialOrd for Timestamp {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Timestamp {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl fmt::Debug for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Timestamp").field(&self.as_str()).finish()
    }
}

/// The proleptic Gregorian `(year, month, day)` of a day count since 1970-01-01, after
/// Howard Hinnant's `civil_from_days`; it avoids a date-time dependency for one conversion.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    // Both are in range by construction (1..=31, 1..=12).
    (year, day_or_month(month), day_or_month(day))
}

fn day_or_month(value: i64) -> u32 {
    u32::try_from(value).unwrap_or(1)
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The one date-time check of this crate: a [`Timestamp`] (an event's `time`, a `date-time`
/// member of a generated type of a schema set) and the registry's `format: "date-time"`
/// (`registry/schema.rs`) both read text with it, so they give one verdict.
pub(crate) fn time_violations(text: &str) -> Vec<Violation> {
    cloudevent_rules::check_time(text, Profile::CloudEvents)
}

/// Checks an RFC 3339 date-time (CE 1.0.2 time). Offsets other than `Z` are accepted
/// here; the `intg-std-015` profile's validator reports them (INTG-STD-015 gateway 4). `FromStr` and `TryFrom<&str>` check a borrowed value the same way.
///
/// # Errors
/// The rules' violations when the value breaks the rule.
///
/// ```
/// use cloudevent_runtime::Timestamp;
/// assert!(Timestamp::try_from(String::from("2026-03-28T15:22:31+01:00")).is_ok());
/// assert!(Timestamp::try_from("2026-03-28T15:22:31+01:00").is_ok());
/// assert!("2026-02-30T00:00:00Z".parse::<Timestamp>().is_err());
/// ```
impl TryFrom<String> for Timestamp {
    type Error = ValueError;

    fn try_from(value: String) -> Result<Self, Self::Error> {
        errors_only(time_violations(&value))?;
        Ok(Timestamp(Repr::Heap(value)))
    }
}

impl TryFrom<&str> for Timestamp {
    type Error = ValueError;

    fn try_from(value: &str) -> Result<Self, Self::Error> {
        Timestamp::try_from(value.to_owned())
    }
}

impl FromStr for Timestamp {
    type Err = ValueError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Timestamp::try_from(s)
    }
}

impl AsRef<str> for Timestamp {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

/// An absolute URI (RFC 3986 4.3).
///
/// ```
/// use cloudevent_runtime::Uri;
///
/// let uri = Uri::try_from("https://schemas.example.com/orders/v1.json").unwrap();
/// assert_eq!(uri.as_str(), "https://schemas.example.com/orders/v1.json");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Uri(String);

impl Uri {
    /// The URI as a string.
    ///
    /// ```
    /// use cloudevent_runtime::Uri;
    /// assert_eq!(Uri::try_from("https://example.com/a").unwrap().as_str(), "https://example.com/a");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub(crate) fn new_unchecked(value: String) -> Self {
        Uri(value)
    }
}

impl fmt::Display for Uri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Checks an absolute URI (CE 1.0.2 type system). `FromStr` and `TryFrom<&str>` check a borrowed value the same way.
///
/// # Errors
/// The rules' violations when the value breaks the rule.
///
/// ```
/// use cloudevent_runtime::Uri;
/// assert!(Uri::try_from(String::from("urn:example:orders")).is_ok());
/// assert!(Uri::try_from("urn:example:orders").is_ok());
/// assert!("/relative".parse::<Uri>().is_err());
/// ```
impl TryFrom<String> for Uri {
    type Error = ValueError;

    fn try_from(value: String) -> Result<Self, Self::Error> {
        errors_only(cloudevent_rules::check_uri("URI", &value))?;
        Ok(Uri(value))
    }
}

impl TryFrom<&str> for Uri {
    type Error = ValueError;

    fn try_from(value: &str) -> Result<Self, Self::Error> {
        Uri::try_from(value.to_owned())
    }
}

impl FromStr for Uri {
    type Err = ValueError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Uri::try_from(s)
    }
}

/// A URI-reference (RFC 3986 4.1): an absolute URI or a relative reference.
///
/// ```
/// use cloudevent_runtime::UriRef;
///
/// let source = UriRef::try_from("/orders/checkout").unwrap();
/// assert_eq!(source.as_str(), "/orders/checkout");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UriRef(String);

impl UriRef {
    /// The reference as a string.
    ///
    /// ```
    /// use cloudevent_runtime::UriRef;
    /// assert_eq!(UriRef::try_from("/a").unwrap().as_str(), "/a");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub(crate) fn new_unchecked(value: String) -> Self {
        UriRef(value)
    }
}

impl fmt::Display for UriRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Checks a URI-reference (CE 1.0.2 type system). `FromStr` and `TryFrom<&str>` check a borrowed value the same way.
///
/// # Errors
/// The rules' violations when the value breaks the rule.
///
/// ```
/// use cloudevent_runtime::UriRef;
/// assert!(UriRef::try_from(String::from("../orders")).is_ok());
/// assert!(UriRef::try_from("../orders").is_ok());
/// assert!("has space".parse::<UriRef>().is_err());
/// ```
impl TryFrom<String> for UriRef {
    type Error = ValueError;

    fn try_from(value: String) -> Result<Self, Self::Error> {
        errors_only(cloudevent_rules::check_uri_reference(
            "URI-reference",
            &value,
        ))?;
        Ok(UriRef(value))
    }
}

impl TryFrom<&str> for UriRef {
    type Error = ValueError;

    fn try_from(value: &str) -> Result<Self, Self::Error> {
        UriRef::try_from(value.to_owned())
    }
}

impl FromStr for UriRef {
    type Err = ValueError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        UriRef::try_from(s)
    }
}

impl From<Uri> for UriRef {
    fn from(uri: Uri) -> Self {
        UriRef(uri.0)
    }
}

/// Binary data; base64 in the JSON format.
///
/// As an event payload it goes to `data_base64` when the `datacontenttype` is not JSON.
///
/// ```
/// use cloudevent_runtime::Binary;
///
/// let bytes: Binary = "eyAieHl6IjogMTIzIH0=".parse().unwrap();
/// assert_eq!(bytes.as_bytes(), br#"{ "xyz": 123 }"#);
/// assert_eq!(bytes.to_string(), "eyAieHl6IjogMTIzIH0=");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Binary(Vec<u8>);

impl Binary {
    /// The bytes.
    ///
    /// ```
    /// use cloudevent_runtime::Binary;
    /// assert_eq!(Binary::from(vec![1, 2]).as_bytes(), [1, 2]);
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The bytes, owned.
    ///
    /// ```
    /// use cloudevent_runtime::Binary;
    /// assert_eq!(Binary::from(vec![1, 2]).into_bytes(), vec![1, 2]);
    /// ```
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }
}

/// Wraps bytes: a `Vec<u8>`, a slice or an array.
///
/// ```
/// use cloudevent_runtime::Binary;
/// assert_eq!(Binary::from(*b"hi").as_bytes(), b"hi");
/// assert_eq!(Binary::from(&[1u8, 2][..]), Binary::from(vec![1, 2]));
/// ```
impl From<Vec<u8>> for Binary {
    fn from(bytes: Vec<u8>) -> Self {
        Binary(bytes)
    }
}

impl From<&[u8]> for Binary {
    fn from(bytes: &[u8]) -> Self {
        Binary(bytes.to_vec())
    }
}

impl<const N: usize> From<[u8; N]> for Binary {
    fn from(bytes: [u8; N]) -> Self {
        Binary(bytes.to_vec())
    }
}

impl<const N: usize> From<&[u8; N]> for Binary {
    fn from(bytes: &[u8; N]) -> Self {
        Binary(bytes.to_vec())
    }
}

/// The canonical string of a Binary value (CE 1.0.2 type system): standard, padded base64
/// (RFC 4648 4).
///
/// ```
/// use cloudevent_runtime::Binary;
/// assert_eq!(Binary::from(*b"hi").to_string(), "aGk=");
/// ```
impl fmt::Display for Binary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&base64::display::Base64Display::new(&self.0, &BASE64), f)
    }
}

/// Decodes the canonical string: standard, padded base64 (RFC 4648 4, CE 1.0.2 type system).
///
/// # Errors
/// When the text is not valid base64.
///
/// ```
/// use cloudevent_runtime::Binary;
/// assert_eq!("aGk=".parse::<Binary>().unwrap().as_bytes(), b"hi");
/// assert!("aGk".parse::<Binary>().is_err());
/// ```
impl FromStr for Binary {
    type Err = base64::DecodeError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        BASE64.decode(text).map(Binary)
    }
}

macro_rules! string_serde {
    ($($t:ident),*) => {$(
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = String::deserialize(deserializer)?;
                $t::try_from(text).map_err(de::Error::custom)
            }
        }
    )*};
}
string_serde!(Timestamp, Uri, UriRef);

impl Serialize for Binary {
    /// Base64 text in human-readable formats (JSON); raw bytes otherwise, which is how an
    /// event payload signals that it belongs in `data_base64`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            serializer.collect_str(&base64::display::Base64Display::new(&self.0, &BASE64))
        } else {
            serializer.serialize_bytes(&self.0)
        }
    }
}

impl<'de> Deserialize<'de> for Binary {
    /// Accepts base64 text (JSON) or raw bytes (the decoded `data_base64` of an event).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BinaryVisitor;

        impl<'de> Visitor<'de> for BinaryVisitor {
            type Value = Binary;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("base64 text or bytes")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Binary, E> {
                v.parse::<Binary>()
                    .map_err(|e| E::custom(format_args!("invalid base64: {e}")))
            }

            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Binary, E> {
                Ok(Binary(v.to_vec()))
            }

            fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Binary, E> {
                Ok(Binary(v))
            }
        }

        deserializer.deserialize_any(BinaryVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_unix_writes_calendar_dates() {
        let cases = [
            (0, 0, "1970-01-01T00:00:00Z"),
            (951_782_400, 0, "2000-02-29T00:00:00Z"),
            (1_774_707_751, 482_000_000, "2026-03-28T14:22:31.482Z"),
            (-1, 0, "1969-12-31T23:59:59Z"),
            (
                253_402_300_799,
                999_999_999,
                "9999-12-31T23:59:59.999999999Z",
            ),
            (1_709_164_800, 1_000, "2024-02-29T00:00:00.000001Z"),
        ];
        for (secs, nanos, expected) in cases {
            assert_eq!(
                Timestamp::from_unix(secs, nanos).map(|t| t.as_str().to_owned()),
                Some(expected.to_owned()),
                "{secs}"
            );
        }
    }

    #[test]
    fn from_unix_refuses_what_rfc3339_cannot_write() {
        assert_eq!(Timestamp::from_unix(253_402_300_800, 0), None);
        assert_eq!(Timestamp::from_unix(-62_167_219_201, 0), None);
        assert_eq!(Timestamp::from_unix(0, 1_000_000_000), None);
    }

    #[test]
    fn now_writes_three_fraction_digits_even_on_a_whole_second() {
        let whole = Timestamp::utc(1_774_707_751, 0, 3).unwrap();
        assert_eq!(whole.as_str(), "2026-03-28T14:22:31.000Z");
        assert_eq!(
            Timestamp::utc(-62_167_219_200, 7_000_000, 3)
                .unwrap()
                .as_str(),
            "0000-01-01T00:00:00.007Z"
        );
    }

    #[test]
    fn inline_and_heap_text_are_one_value() {
        use std::collections::hash_map::DefaultHasher;
        use std::hash::{Hash, Hasher};

        let text = "2026-03-28T14:22:31.482Z";
        let written = Timestamp::from_unix(1_774_707_751, 482_000_000).unwrap();
        let parsed = Timestamp::try_from(text).unwrap();
        let borrowed = Timestamp::from_checked(Cow::Borrowed(text));
        assert!(matches!(written.0, Repr::Inline(_)));
        assert!(matches!(parsed.0, Repr::Heap(_)));
        assert!(matches!(borrowed.0, Repr::Inline(_)));
        assert_eq!(written, parsed);
        assert_eq!(borrowed, parsed);
        assert_eq!(written.cmp(&parsed), std::cmp::Ordering::Equal);
        let hash = |t: &Timestamp| {
            let mut h = DefaultHasher::new();
            t.hash(&mut h);
            h.finish()
        };
        assert_eq!(hash(&written), hash(&parsed));
        assert_eq!(format!("{written:?}"), format!("{:?}", parsed));
        assert_eq!(format!("{written:?}"), format!("Timestamp({text:?})"));
        let later = Timestamp::try_from("2026-03-28T14:22:32Z").unwrap();
        assert!(written < later);

        // Too long to keep inline: an offset and nine digits.
        let long = "2026-03-28T15:22:31.123456789+01:00";
        let kept = Timestamp::from_checked(Cow::Borrowed(long));
        assert!(matches!(kept.0, Repr::Heap(_)));
        assert_eq!(kept.as_str(), long);
        assert_eq!(serde_json::to_string(&kept).unwrap(), format!("\"{long}\""));
    }

    #[test]
    fn now_is_utc_with_millis() {
        let now = Timestamp::now();
        let text = now.as_str();
        assert_eq!(text.len(), "2026-03-28T14:22:31.482Z".len(), "{text}");
        assert!(text.ends_with('Z'));
        assert!(text.as_bytes()[10] == b'T');
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2_000))]

        /// Issue 40: the pairs table writes what `format!` writes for the same fields, for
        /// every instant a Timestamp can name and every fraction width.
        #[test]
        fn pairs_write_what_format_writes(
            secs in -62_167_219_200_i64..=253_402_300_799,
            nanos in proptest::prop_oneof![0_u32..1_000_000_000, proptest::prelude::Just(0), proptest::prelude::Just(999_999_999)],
            digits in proptest::sample::select(vec![0_usize, 3, 6, 9]),
        ) {
            let (year, month, day) = civil_from_days(secs.div_euclid(86_400));
            let s = secs.rem_euclid(86_400);
            let mut expected = format!(
                "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
                s / 3600,
                s % 3600 / 60,
                s % 60
            );
            if digits > 0 {
                expected.push('.');
                expected.push_str(&format!("{nanos:09}")[..digits]);
            }
            expected.push('Z');
            let written = Timestamp::utc(secs, nanos, digits).unwrap();
            proptest::prop_assert_eq!(written.as_str(), expected.as_str());
        }
    }

    #[test]
    fn binary_round_trips_through_json_as_base64() {
        let binary = Binary::from(vec![0u8, 255, 7]);
        let json = serde_json::to_string(&binary).unwrap();
        assert_eq!(json, "\"AP8H\"");
        assert_eq!(serde_json::from_str::<Binary>(&json).unwrap(), binary);
        assert!(serde_json::from_str::<Binary>("\"not base64!\"").is_err());
    }
}
