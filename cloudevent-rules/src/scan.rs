//! Scanning JSON text a block at a time: the one home of the string scan that the walk for
//! repeated members (`data_members`) and the runtime's borrowed `data` tree share.

/// The position of the first `"`, `\` or control byte (below 0x20) in `bytes` from `at` on,
/// looked for 8 bytes at a time; when the last block is shorter than 8 bytes, the position
/// where it starts (its bytes are for the caller to look at one by one). A string's plain run
/// between its quotes is what this skips.
///
/// ```
/// use cloudevent_rules::json_plain_run;
///
/// let text = br#""order-20260328-0042", "next""#;
/// assert_eq!(json_plain_run(text, 1), 20); // the closing quote
/// assert_eq!(json_plain_run(br#"ab\"cdefghijk"#, 0), 2); // a backslash
/// assert_eq!(json_plain_run(b"abc", 0), 0); // under 8 bytes left: the caller looks
/// ```
// Inlined across crates: the runtime's readers call it once per string.
#[inline]
pub fn json_plain_run(bytes: &[u8], at: usize) -> usize {
    first_stop::<true>(bytes, at)
}

/// [`json_plain_run`] without stopping at control bytes: the first `"` or `\` from `at` on,
/// or where a last block shorter than 8 bytes starts. The walk for repeated members steps
/// over a control byte like any other byte of a string (a reader refuses one there, and the
/// walk reads text a reader accepted), so it looks for the two bytes that end or escape a
/// string alone.
pub(crate) fn json_quote_or_backslash(bytes: &[u8], at: usize) -> usize {
    first_stop::<false>(bytes, at)
}

/// The scan of both: 8 bytes at a time, stopping at `"`, `\` and, with `CONTROL`, a byte
/// below 0x20.
#[inline(always)]
fn first_stop<const CONTROL: bool>(bytes: &[u8], mut at: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(block) = bytes.get(at..at + 8) {
        let Ok(block) = <[u8; 8]>::try_from(block) else {
            break;
        };
        let word = u64::from_le_bytes(block);
        let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
        let mut found =
            zero(word ^ (ONES * u64::from(b'"'))) | zero(word ^ (ONES * u64::from(b'\\')));
        if CONTROL {
            found |= word.wrapping_sub(ONES * 0x20) & !word & HIGH;
        }
        if found != 0 {
            // The lowest flag of each test is a true one (a false flag only ever sits above
            // a true one), so this is the first byte that needs a look.
            return at + (found.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::{json_plain_run, json_quote_or_backslash};

    /// Every input of up to `max_len` bytes of `a` with one stop byte (`"`, `\`, NUL, 0x1f)
    /// at each place and a UTF-8 lead byte after it, scanned from every start: `scan`'s
    /// answer must be the first byte `stops` names, or a position before it in the last
    /// short block (under 8 bytes from the end), which the caller steps through itself.
    fn holds_for_every_position(
        max_len: usize,
        scan: fn(&[u8], usize) -> usize,
        stops: fn(u8) -> bool,
    ) {
        for len in 0..max_len {
            for at in 0..=len {
                for stop in [b'"', b'\\', 0x00, 0x1f] {
                    for place in 0..len {
                        let mut bytes = vec![b'a'; len];
                        bytes[place] = stop;
                        // Bytes above 0x7f (UTF-8) and 0x20 are plain.
                        if place + 1 < len {
                            bytes[place + 1] = 0xC3;
                        }
                        let found = scan(&bytes, at);
                        let first = (at..len).find(|&i| stops(bytes[i]));
                        match first {
                            // Found in a whole block, or left in the last short one.
                            Some(first) => assert!(
                                found == first || (found <= first && len - found < 8),
                                "len {len} at {at} stop {stop} place {place}: {found}"
                            ),
                            None => assert!(
                                found >= at && len - found < 8 && found <= len,
                                "len {len} at {at} stop {stop} place {place}: {found}"
                            ),
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_first_byte_that_needs_a_look_in_every_position() {
        holds_for_every_position(40, json_plain_run, |b| {
            matches!(b, b'"' | b'\\') || b < 0x20
        });
    }

    #[test]
    fn the_first_quote_or_backslash_in_every_position() {
        // Control bytes are plain here.
        holds_for_every_position(48, json_quote_or_backslash, |b| matches!(b, b'"' | b'\\'));
    }
}
