//! `google.protobuf.Timestamp` and the RFC 3339 text the runtime keeps a [`Timestamp`] as.

use cloudevent_rules::{Violation, rule};

use crate::value::Timestamp;

/// 0001-01-01T00:00:00Z, the first instant a `google.protobuf.Timestamp` may hold.
const MIN_SECONDS: i64 = -62_135_596_800;
/// 9999-12-31T23:59:59Z, the last.
const MAX_SECONDS: i64 = 253_402_300_799;

/// The RFC 3339 text of a received `google.protobuf.Timestamp`, or why it has none (boxed,
/// as the reader carries every refusal).
pub(super) fn from_wire(
    attribute: &str,
    seconds: i64,
    nanos: i64,
) -> Result<Timestamp, Box<Violation>> {
    let in_range =
        (MIN_SECONDS..=MAX_SECONDS).contains(&seconds) && (0..1_000_000_000).contains(&nanos);
    let timestamp = in_range
        .then(|| Timestamp::from_unix(seconds, u32::try_from(nanos).unwrap_or(0)))
        .flatten();
    timestamp.ok_or_else(|| out_of_range(attribute, seconds, nanos))
}

/// [`from_wire`]'s refusal, out of line: never on a valid event's path.
#[cold]
#[inline(never)]
fn out_of_range(attribute: &str, seconds: i64, nanos: i64) -> Box<Violation> {
    Box::new(Violation::error(
        rule::CE_TYPE_SYSTEM,
        attribute.to_owned(),
        format!("seconds {seconds}, nanos {nanos}"),
        "is not a Timestamp: google.protobuf.Timestamp holds 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z with nanos 0 to 999999999",
    ))
}

/// The instant an RFC 3339 timestamp names, as seconds since the epoch and nanoseconds;
/// `None` for text that is not `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`.
pub(super) fn to_wire(text: &str) -> Option<(i64, i32)> {
    let text = text.as_bytes();
    let number = |range: std::ops::Range<usize>| -> Option<i64> {
        let digits = text.get(range)?;
        digits.iter().try_fold(0_i64, |n, d| {
            d.is_ascii_digit().then(|| n * 10 + i64::from(d - b'0'))
        })
    };
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    let (hour, minute, second) = (number(11..13)?, number(14..16)?, number(17..19)?);
    let mut rest = text.get(19..)?;
    let mut nanos = 0_i64;
    if let Some((b'.', fraction)) = rest.split_first() {
        let digits = fraction.iter().take_while(|d| d.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        for (i, d) in fraction[..digits].iter().enumerate() {
            if i < 9 {
                nanos += i64::from(d - b'0') * 10_i64.pow(8 - i as u32);
            }
        }
        rest = &fraction[digits..];
    }
    let offset = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let two = |a: u8, b: u8| -> Option<i64> {
                (a.is_ascii_digit() && b.is_ascii_digit())
                    .then(|| i64::from(a - b'0') * 10 + i64::from(b - b'0'))
            };
            let minutes = two(*h1, *h2)? * 60 + two(*m1, *m2)?;
            if *sign == b'-' { -minutes } else { minutes }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset * 60;
    Some((seconds, i32::try_from(nanos).ok()?))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`),
/// the inverse of the conversion `Timestamp::from_unix` uses.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_text_and_wire_agree_both_ways() {
        for (text, wire) in [
            ("1970-01-01T00:00:00Z", (0, 0)),
            ("2026-03-28T14:22:31.500Z", (1_774_707_751, 500_000_000)),
            ("0001-01-01T00:00:00Z", (MIN_SECONDS, 0)),
            ("9999-12-31T23:59:59.999999999Z", (MAX_SECONDS, 999_999_999)),
            ("1969-12-31T23:59:59.000001Z", (-1, 1_000)),
        ] {
            let timestamp = Timestamp::try_from(text).unwrap();
            assert_eq!(to_wire(timestamp.as_str()), Some(wire), "{text}");
            let back = from_wire("time", wire.0, i64::from(wire.1)).unwrap();
            assert_eq!(back.as_str(), text);
        }
    }

    #[test]
    fn an_offset_names_the_same_instant_in_utc() {
        let timestamp = Timestamp::try_from("2026-03-28T16:22:31+02:00").unwrap();
        assert_eq!(to_wire(timestamp.as_str()), Some((1_774_707_751, 0)));
    }

    use proptest::prelude::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 4000, ..Default::default() })]

        /// The reader claims `time` as prechecked (`Prechecked::time`) when it wrote the text
        /// here: every in-range instant's text passes the `time` rule and the String rule
        /// under every profile without a finding (nanos of each fraction width, the range's
        /// ends included), so the checks it skips could never find anything.
        #[test]
        fn every_in_range_instant_is_found_clean_by_every_profile(
            seconds in proptest::prop_oneof![
                MIN_SECONDS..=MAX_SECONDS,
                proptest::strategy::Just(MIN_SECONDS),
                proptest::strategy::Just(MAX_SECONDS),
                (MIN_SECONDS / 86_400..=MAX_SECONDS / 86_400).prop_map(|d| d * 86_400),
            ],
            nanos in proptest::prop_oneof![
                0_i64..1_000_000_000,
                (0_i64..1_000).prop_map(|n| n * 1_000_000),
                (0_i64..1_000_000).prop_map(|n| n * 1_000),
                proptest::strategy::Just(0),
                proptest::strategy::Just(999_999_999),
            ],
        ) {
            let text = from_wire("time", seconds, nanos).unwrap();
            let text = text.as_str();
            prop_assert!(cloudevent_rules::check_string_value("time", text).is_empty(), "{}", text);
            for profile in cloudevent_rules::Profile::ALL {
                let policy = cloudevent_rules::Policy::new(profile);
                prop_assert!(
                    cloudevent_rules::check_time(text, profile).is_empty(),
                    "{} under {:?}", text, profile
                );
                let claim = cloudevent_rules::Prechecked { time: Some(text), ..cloudevent_rules::Prechecked::NONE };
                prop_assert_eq!(policy.confirm_prechecked(&claim), claim);
            }
            prop_assert_eq!(to_wire(text), Some((seconds, i32::try_from(nanos).unwrap())));
        }
    }

    #[test]
    fn out_of_range_instants_are_refused() {
        for (seconds, nanos) in [
            (MIN_SECONDS - 1, 0),
            (MAX_SECONDS + 1, 0),
            (0, -1),
            (0, 1_000_000_000),
            (i64::MIN, 0),
        ] {
            let err = from_wire("time", seconds, nanos).unwrap_err();
            assert_eq!(err.rule, rule::CE_TYPE_SYSTEM);
            assert_eq!(err.attribute, "time");
        }
    }
}
