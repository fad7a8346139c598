//! Event ids: a new one for every emission (ADR-0003 decision 2), ULID by default, UUIDv4 on
//! request (INTG-STD-015 R-2: "UUID v4 or ULID RECOMMENDED").

use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Which kind of id [`Event`](crate::Event) generates.
///
/// ```
/// use cloudevent_runtime::IdKind;
///
/// let ulid = IdKind::Ulid.generate();
/// assert_eq!(ulid.len(), 26);
/// let uuid = IdKind::UuidV4.generate();
/// assert_eq!(uuid.len(), 36);
/// assert_eq!(&uuid[14..15], "4");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum IdKind {
    /// A ULID: 48 bits of milliseconds since the epoch then 80 random bits, in Crockford
    /// base32 (26 characters). Ids sort by creation time, which helps reading logs (R-15).
    #[default]
    Ulid,
    /// A random UUID (RFC 9562 version 4), lowercase and hyphenated.
    UuidV4,
}

impl IdKind {
    /// A fresh id of this kind.
    ///
    /// ```
    /// use cloudevent_runtime::IdKind;
    /// assert_ne!(IdKind::Ulid.generate(), IdKind::Ulid.generate());
    /// ```
    pub fn generate(self) -> String {
        match self {
            IdKind::Ulid => ulid(),
            IdKind::UuidV4 => uuid_v4(),
        }
    }
}

const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// A new ULID (<https://github.com/ulid/spec>).
pub(crate) fn ulid() -> String {
    let millis = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let mut random = [0u8; 10];
    fill_random(&mut random);
    let mut value = (millis & 0xFFFF_FFFF_FFFF) << 80;
    for (i, byte) in random.iter().enumerate() {
        value |= u128::from(*byte) << (8 * (9 - i));
    }
    // 26 digits of 5 bits cover 130 bits; the top two are always zero.
    (0..26)
        .map(|i| char::from(CROCKFORD[((value >> (5 * (25 - i))) & 0x1F) as usize]))
        .collect()
}

/// A new random UUID, version 4, variant RFC 9562.
pub(crate) fn uuid_v4() -> String {
    use std::fmt::Write as _;

    let mut bytes = [0u8; 16];
    fill_random(&mut bytes);
    bytes[6] = (bytes[6] & 0x0F) | 0x40;
    bytes[8] = (bytes[8] & 0x3F) | 0x80;
    let mut out = String::with_capacity(36);
    for (i, byte) in bytes.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        // Writing to a String cannot fail.
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// Fills `buf` from the operating system's random source. Should that fail (a sandbox
/// without `getrandom(2)`), ids must still be unique, so it falls back to std's randomly
/// keyed SipHash over the clock and a process-wide counter.
fn fill_random(buf: &mut [u8]) {
    if getrandom::fill(buf).is_ok() {
        return;
    }
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let keys = std::collections::hash_map::RandomState::new();
    for chunk in buf.chunks_mut(8) {
        let mut hasher = keys.build_hasher();
        hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
        hasher.write_u128(
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        let bytes = hasher.finish().to_le_bytes();
        chunk.copy_from_slice(&bytes[..chunk.len()]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ulid_is_26_crockford_characters_and_unique() {
        let a = ulid();
        let b = ulid();
        assert_eq!(a.len(), 26);
        assert!(a.bytes().all(|c| CROCKFORD.contains(&c)), "{a}");
        // The first character holds only the top 3 bits of the timestamp.
        assert!(a.as_bytes()[0] <= b'7');
        assert_ne!(a, b);
    }

    #[test]
    fn ulid_starts_with_the_current_millisecond() {
        let before = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let id = ulid();
        let decoded = id[..10].bytes().fold(0u128, |acc, c| {
            let digit = CROCKFORD.iter().position(|&d| d == c).unwrap_or(0) as u128;
            (acc << 5) | digit
        });
        assert!(
            decoded >= before && decoded < before + 5_000,
            "{decoded} vs {before}"
        );
    }

    #[test]
    fn uuid_v4_has_version_and_variant() {
        let id = uuid_v4();
        assert_eq!(id.len(), 36);
        let parts: Vec<&str> = id.split('-').collect();
        assert_eq!(
            parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            [8, 4, 4, 4, 12]
        );
        assert!(parts[2].starts_with('4'));
        assert!(matches!(parts[3].as_bytes()[0], b'8' | b'9' | b'a' | b'b'));
        assert_ne!(id, uuid_v4());
    }
}
