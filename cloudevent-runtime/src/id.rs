//! Event ids: a new one for every emission (ADR-0003 decision 2), ULID by default, UUIDv4 on
//! request (INTG-STD-015 R-2: "UUID v4 or ULID RECOMMENDED").

use std::cell::RefCell;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rand::rngs::{StdRng, SysRng};
use rand::{Rng as _, SeedableRng as _};

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

/// A new ULID (<https://github.com/ulid/spec>): the current millisecond then 80 random bits.
pub(crate) fn ulid() -> String {
    with_ulid(str::to_owned)
}

/// A new ULID's text handed to `keep`, so a caller that holds it inline allocates nothing.
pub(crate) fn with_ulid<R>(keep: impl FnOnce(&str) -> R) -> R {
    with_ulid_at(since_epoch(), keep)
}

/// The time since the Unix epoch; zero for a clock before 1970 (a misconfigured host).
pub(crate) fn since_epoch() -> Duration {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
}

/// [`with_ulid`] for a ULID of the millisecond `since_epoch`, so one read of the clock can
/// stamp several attributes (`Event::new`'s `id`, `time` and `correlationid`).
pub(crate) fn with_ulid_at<R>(since_epoch: Duration, keep: impl FnOnce(&str) -> R) -> R {
    let millis = since_epoch.as_millis();
    let mut random = [0u8; 16];
    fill_random(&mut random);
    // `from_parts` keeps the low 48 bits of the time and the low 80 of the randomness.
    let ulid = ulid::Ulid::from_parts(millis as u64, u128::from_le_bytes(random));
    let mut text = [0u8; ulid::ULID_LEN];
    keep(ulid.array_to_str(&mut text))
}

/// A new random UUID, version 4, variant RFC 9562.
pub(crate) fn uuid_v4() -> String {
    let mut random = [0u8; 16];
    fill_random(&mut random);
    let uuid = uuid::Builder::from_random_bytes(random).into_uuid();
    let mut text = [0u8; uuid::fmt::Hyphenated::LENGTH];
    String::from(&*uuid.hyphenated().encode_lower(&mut text))
}

thread_local! {
    /// This thread's id generator and the fork generation it was seeded in.
    static GENERATOR: RefCell<Option<(u64, StdRng)>> = const { RefCell::new(None) };
}

/// How many times this process has been forked from its ancestors, counted in the child by a
/// `pthread_atfork` handler. A generator seeded in an earlier generation holds its parent's
/// state, and would hand the child the very ids the parent generates next.
static FORK_GENERATION: AtomicU64 = AtomicU64::new(0);

/// Fills `buf` from this thread's ChaCha12 generator (`StdRng`), seeded from the operating
/// system once per thread and again in a forked child. One system call per id (the
/// `getrandom` of earlier versions) cost about 370 ns of a ULID's 470.
fn fill_random(buf: &mut [u8]) {
    let generation = FORK_GENERATION.load(Ordering::Relaxed);
    let filled = GENERATOR.try_with(|cell| {
        let mut slot = cell.borrow_mut();
        let rng = match &mut *slot {
            Some((seeded_in, rng)) if *seeded_in == generation => rng,
            slot => &mut slot.insert((generation, seeded())).1,
        };
        rng.fill_bytes(buf);
    });
    // Only while this thread's locals are being destroyed: a one-off generator.
    if filled.is_err() {
        seeded().fill_bytes(buf);
    }
}

/// A generator seeded from the operating system's random source. Should that fail (a sandbox
/// without `getrandom(2)`), ids must still be unique, so the seed falls back to std's
/// randomly keyed SipHash over the clock and a process-wide counter.
fn seeded() -> StdRng {
    watch_forks();
    if let Ok(rng) = StdRng::try_from_rng(&mut SysRng) {
        return rng;
    }
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let keys = std::collections::hash_map::RandomState::new();
    let mut seed = [0u8; 32];
    for chunk in seed.chunks_mut(8) {
        let mut hasher = keys.build_hasher();
        hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
        hasher.write_u64(u64::from(std::process::id()));
        hasher.write_u128(
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        chunk.copy_from_slice(&hasher.finish().to_le_bytes());
    }
    StdRng::from_seed(seed)
}

/// Registers, once per process, the fork handler that moves [`FORK_GENERATION`] on in the
/// child. Checking `std::process::id()` per id instead would cost a system call per id again
/// (`getpid` is not cached by glibc since 2.25; about 250 ns measured here). A process
/// created by a raw `clone(2)` without the C library's fork path would not run the handler.
fn watch_forks() {
    #[cfg(unix)]
    {
        static REGISTERED: std::sync::Once = std::sync::Once::new();
        REGISTERED.call_once(|| {
            extern "C" fn in_child() {
                // An atomic add is async-signal-safe, as a fork handler must be.
                FORK_GENERATION.fetch_add(1, Ordering::Relaxed);
            }
            // The C library's fork handler registry has no safe wrapper in std or libc.
            #[allow(unsafe_code)]
            // SAFETY: `in_child` is a plain `extern "C" fn` that lives as long as the process
            // and only touches an atomic; the null prepare and parent handlers are allowed.
            let registered = unsafe { libc::pthread_atfork(None, None, Some(in_child)) };
            // ENOMEM is the only documented failure; ids then stay unique within a process.
            let _ = registered;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

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
