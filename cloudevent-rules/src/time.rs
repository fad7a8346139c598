use std::borrow::Cow;

use crate::uri::describe_char;
use crate::{Profile, RuleId, Violation, rule};

/// The standard's own example time, quoted in hints.
const EXAMPLE: &str = "2026-03-28T14:22:31.482Z";

/// Checks a `time`: RFC 3339 with real calendar values; `intg-std-015` (gateway 4) accepts
/// only UTC `Z`: `^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?Z$`.
///
/// Calendar values are real: month `01`–`12`, the day exists in that month (leap years
/// included), hour `00`–`23`, minute `00`–`59`, second `00`–`60` (a leap second), offset
/// hours `00`–`23`. In `cloudevents` and `nl-gov` (CE 1.0.2 time) the lowercase `t` and `z`
/// that RFC 3339 allows are accepted, and so are numeric offsets and fractions of any length.
/// In `intg-std-015` an offset is refused with a hint that gives the same instant in UTC.
///
/// ```
/// use cloudevent_rules::{check_time, Profile};
///
/// assert!(check_time("2026-03-28T14:22:31.482Z", Profile::IntgStd015).is_empty());
/// assert!(check_time("2026-03-28t16:22:31+02:00", Profile::CloudEvents).is_empty());
///
/// let found = check_time("2026-03-28T16:22:31+02:00", Profile::IntgStd015);
/// assert_eq!(
///     found[0].to_string(),
///     "time `2026-03-28T16:22:31+02:00` offset `+02:00`: must be UTC with the `Z` suffix \
///      (INTG-STD-015 gateway 4); e.g. `2026-03-28T14:22:31Z`, the same instant in UTC"
/// );
///
/// let found = check_time("2023-02-29T00:00:00Z", Profile::CloudEvents);
/// assert_eq!(found[0].problem, "February 2023 has 28 days");
/// ```
pub fn check_time(value: &str, profile: Profile) -> Vec<Violation> {
    let mut found = Vec::new();
    let strict = profile == Profile::IntgStd015;
    let id = if strict {
        rule::INTG_GATEWAY_4
    } else {
        rule::CE_TIME
    };
    let time = match parse(value) {
        Ok(time) => time,
        Err((part, problem)) => {
            let violation = Violation::error(id, "time", value, problem).with_hint(format!(
                "an RFC 3339 date-time{}, e.g. `{EXAMPLE}`",
                if strict { " in UTC" } else { "" }
            ));
            found.push(match part {
                Some(part) => violation.with_part(part),
                None => violation,
            });
            return found;
        }
    };
    if let Some((part, problem)) = calendar_problem(&time) {
        found.push(
            Violation::error(id, "time", value, problem)
                .with_part(part)
                .with_hint(format!("e.g. `{EXAMPLE}`")),
        );
        return found;
    }
    if strict {
        check_strict(value, &time, id, &mut found);
    }
    found
}

/// The instant an RFC 3339 date-time names, in seconds since the Unix epoch (a fraction is
/// dropped; an offset is applied, so `2026-06-30T02:00:00+02:00` and `2026-06-30T00:00:00Z`
/// are the same instant). `None` for text that is not a date-time of the calendar: the same
/// reading [`check_time`] makes, so a sunset or a deadline is compared as the rules read it.
///
/// ```
/// use cloudevent_rules::unix_seconds;
///
/// assert_eq!(unix_seconds("1970-01-01T00:00:00Z"), Some(0));
/// assert_eq!(unix_seconds("2026-06-30T02:00:00.5+02:00"), unix_seconds("2026-06-30T00:00:00Z"));
/// assert_eq!(unix_seconds("2026-02-30T00:00:00Z"), None);
/// assert_eq!(unix_seconds("2026-06-30"), None);
/// ```
pub fn unix_seconds(value: &str) -> Option<i64> {
    let time = parse(value).ok()?;
    if calendar_problem(&time).is_some() {
        return None;
    }
    let days = days_from_civil(
        i64::from(time.year),
        i64::from(time.month),
        i64::from(time.day),
    );
    let offset = i64::from(time.offset_minutes.unwrap_or(0));
    Some(
        days * 86_400
            + i64::from(time.hour) * 3_600
            + i64::from(time.minute) * 60
            + i64::from(time.second)
            - offset * 60,
    )
}

/// The instant in UTC with the `Z` suffix and second precision, any fraction dropped (the
/// verifiability extension's `RFC3339(UTC(t))`); `None` for text that is not a date-time of
/// the calendar. A leap second keeps its `60`.
pub(crate) fn utc_seconds(value: &str) -> Option<String> {
    let time = parse(value).ok()?;
    if calendar_problem(&time).is_some() {
        return None;
    }
    let utc = DateTime {
        fraction: "",
        ..time
    };
    Some(utc.to_utc())
}

fn check_strict(value: &str, time: &DateTime<'_>, id: RuleId, found: &mut Vec<Violation>) {
    let error = |part: String, problem: &'static str| {
        Violation::error(id, "time", value, problem).with_part(part)
    };
    if time.separator == b't' {
        found.push(
            error(
                "separator `t` at byte 10".to_owned(),
                "must use an uppercase `T`",
            )
            .with_hint(format!("e.g. `{}`", value.replacen('t', "T", 1))),
        );
    }
    if time.fraction.len() > 9 {
        found.push(
            error(
                format!("fraction `.{}`", time.fraction),
                "must have at most 9 fractional digits (nanoseconds)",
            )
            .with_hint(format!("e.g. `.{}`", &time.fraction[..9])),
        );
    }
    match time.offset_minutes {
        None if time.zone == "z" => found.push(
            error("zone `z`".to_owned(), "must use an uppercase `Z`")
                .with_hint(format!("e.g. `{}Z`", &value[..value.len() - 1])),
        ),
        None => {}
        Some(_) => found.push(
            error(
                format!("offset `{}`", time.zone),
                "must be UTC with the `Z` suffix",
            )
            .with_hint(format!("e.g. `{}`, the same instant in UTC", time.to_utc())),
        ),
    }
}

/// A date-time as written, split into its fields.
#[cfg_attr(test, derive(Debug, PartialEq))]
struct DateTime<'a> {
    year: u32,
    month: u32,
    day: u32,
    hour: u32,
    minute: u32,
    second: u32,
    separator: u8,
    fraction: &'a str,
    /// `Z`, `z` or the numeric offset as written.
    zone: &'a str,
    /// The numeric offset east of UTC; `None` for `Z`.
    offset_minutes: Option<i32>,
}

type Problem = (Option<String>, Cow<'static, str>);

/// Reads the RFC 3339 `date-time` shape; calendar ranges are checked afterwards.
fn parse(value: &str) -> Result<DateTime<'_>, Problem> {
    if value.is_empty() {
        return Err((None, "must not be empty".into()));
    }
    let bytes = value.as_bytes();
    let at = |i: usize, expected: &'static str| -> Problem {
        match value.get(i..).and_then(|rest| rest.chars().next()) {
            Some(c) => (
                Some(format!("character {} at byte {i}", describe_char(c))),
                format!("expected {expected}").into(),
            ),
            None => (
                Some(format!("end at byte {i}")),
                format!("ends early: expected {expected}").into(),
            ),
        }
    };
    let digits = |start: usize, count: usize, what: &'static str| -> Result<u32, Problem> {
        let mut number = 0;
        for i in start..start + count {
            match bytes.get(i) {
                Some(b) if b.is_ascii_digit() => number = number * 10 + u32::from(b - b'0'),
                _ => return Err(at(i, what)),
            }
        }
        Ok(number)
    };
    let literal = |i: usize, expected: u8, what: &'static str| -> Result<(), Problem> {
        if bytes.get(i) == Some(&expected) {
            Ok(())
        } else {
            Err(at(i, what))
        }
    };

    // The common layout read in one match; anything else (and every error) goes the
    // field-by-field way, which gives the same fields for that layout.
    let (year, month, day, separator, hour, minute, second) = match fixed_prefix(bytes) {
        Some(prefix) => prefix,
        None => {
            let year = digits(0, 4, "a 4-digit year")?;
            literal(4, b'-', "`-` after the year")?;
            let month = digits(5, 2, "a 2-digit month")?;
            literal(7, b'-', "`-` after the month")?;
            let day = digits(8, 2, "a 2-digit day")?;
            let separator = match bytes.get(10) {
                Some(&b) if b == b'T' || b == b't' => b,
                Some(b' ') => {
                    return Err((
                        Some("space at byte 10".to_owned()),
                        "date and time are separated by `T`, not a space".into(),
                    ));
                }
                _ => return Err(at(10, "`T` between date and time")),
            };
            let hour = digits(11, 2, "a 2-digit hour")?;
            literal(13, b':', "`:` after the hour")?;
            let minute = digits(14, 2, "a 2-digit minute")?;
            literal(16, b':', "`:` after the minute (seconds are required)")?;
            let second = digits(17, 2, "2-digit seconds")?;
            (year, month, day, separator, hour, minute, second)
        }
    };

    let mut i = 19;
    let mut fraction = "";
    if bytes.get(i) == Some(&b'.') {
        let start = i + 1;
        let end = start
            + bytes[start..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
        if end == start {
            return Err(at(start, "at least one digit after `.`"));
        }
        fraction = &value[start..end];
        i = end;
    }

    let zone = &value[i..];
    let offset_minutes = match bytes.get(i) {
        Some(b'Z' | b'z') if zone.len() == 1 => None,
        Some(b'Z' | b'z') => return Err(at(i + 1, "the end after `Z`")),
        Some(&sign @ (b'+' | b'-')) => {
            let hours = digits(i + 1, 2, "a 2-digit offset hour")?;
            literal(i + 3, b':', "`:` in the offset")?;
            let minutes = digits(i + 4, 2, "a 2-digit offset minute")?;
            if value.len() > i + 6 {
                return Err(at(i + 6, "the end after the offset"));
            }
            if hours > 23 || minutes > 59 {
                return Err((
                    Some(format!("offset `{zone}`")),
                    "offset hours must be 00-23 and minutes 00-59".into(),
                ));
            }
            let total = i32::try_from(hours * 60 + minutes).unwrap_or(0);
            Some(if sign == b'-' { -total } else { total })
        }
        _ => {
            return Err(at(
                i,
                "`Z` or a `+hh:mm` / `-hh:mm` offset (a time zone is required)",
            ));
        }
    };

    Ok(DateTime {
        year,
        month,
        day,
        hour,
        minute,
        second,
        separator,
        fraction,
        zone,
        offset_minutes,
    })
}

/// `YYYY-MM-DDTHH:MM:SS` (`T` or `t`) at the start of `bytes`, its fields read in one slice
/// match: what [`parse`]'s field-by-field reading gives for the same bytes (held to the old
/// `parse`, kept as the oracle, by `time::tests::fixed_prefix_reads_what_the_fields_read`).
#[allow(
    clippy::type_complexity,
    reason = "the fields in `parse`'s order, read once, used once"
)]
fn fixed_prefix(bytes: &[u8]) -> Option<(u32, u32, u32, u8, u32, u32, u32)> {
    let [
        y0,
        y1,
        y2,
        y3,
        b'-',
        m0,
        m1,
        b'-',
        d0,
        d1,
        separator @ (b'T' | b't'),
        h0,
        h1,
        b':',
        n0,
        n1,
        b':',
        s0,
        s1,
        ..,
    ] = *bytes
    else {
        return None;
    };
    let digits = [y0, y1, y2, y3, m0, m1, d0, d1, h0, h1, n0, n1, s0, s1];
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = |b: u8| u32::from(b - b'0');
    Some((
        n(y0) * 1000 + n(y1) * 100 + n(y2) * 10 + n(y3),
        n(m0) * 10 + n(m1),
        n(d0) * 10 + n(d1),
        separator,
        n(h0) * 10 + n(h1),
        n(n0) * 10 + n(n1),
        n(s0) * 10 + n(s1),
    ))
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

fn is_leap_year(year: u32) -> bool {
    year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400))
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn calendar_problem(time: &DateTime<'_>) -> Option<(String, Cow<'static, str>)> {
    if !(1..=12).contains(&time.month) {
        return Some((
            format!("month `{:02}`", time.month),
            "month must be 01-12".into(),
        ));
    }
    let last_day = days_in_month(time.year, time.month);
    if time.day == 0 || time.day > last_day {
        let month = MONTHS[time.month as usize - 1];
        return Some((
            format!("day `{:02}`", time.day),
            format!("{month} {} has {last_day} days", time.year).into(),
        ));
    }
    if time.hour > 23 {
        return Some((
            format!("hour `{:02}`", time.hour),
            "hour must be 00-23".into(),
        ));
    }
    if time.minute > 59 {
        return Some((
            format!("minute `{:02}`", time.minute),
            "minute must be 00-59".into(),
        ));
    }
    if time.second > 60 {
        return Some((
            format!("second `{:02}`", time.second),
            "second must be 00-60 (60 only for a leap second)".into(),
        ));
    }
    None
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_index = (month + 9) % 12;
    let day_of_year = (153 * month_index + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

impl DateTime<'_> {
    /// The same instant written in UTC with `Z`, keeping the fraction (trimmed to 9 digits).
    fn to_utc(&self) -> String {
        let offset = i64::from(self.offset_minutes.unwrap_or(0));
        let local = days_from_civil(
            i64::from(self.year),
            i64::from(self.month),
            i64::from(self.day),
        ) * 1440
            + i64::from(self.hour) * 60
            + i64::from(self.minute);
        let utc = local - offset;
        let (year, month, day) = civil_from_days(utc.div_euclid(1440));
        let minute_of_day = utc.rem_euclid(1440);
        let fraction = &self.fraction[..self.fraction.len().min(9)];
        let dot = if fraction.is_empty() { "" } else { "." };
        format!(
            "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}{dot}{fraction}Z",
            minute_of_day / 60,
            minute_of_day % 60,
            self.second
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    fn first(value: &str, profile: Profile) -> (Option<String>, String) {
        let found = check_time(value, profile);
        let v = found
            .first()
            .unwrap_or_else(|| panic!("{value} should fail in {profile}"));
        assert_eq!(v.severity, Severity::Error);
        (v.part.clone(), v.problem.to_string())
    }

    #[test]
    fn accepts_valid_times() {
        for (value, strict_ok) in [
            ("2026-03-28T14:22:31Z", true),
            ("2026-03-28T14:22:31.482Z", true),
            ("2026-03-28T14:22:31.123456789Z", true),
            ("2024-02-29T00:00:00Z", true),
            ("2000-02-29T23:59:59Z", true),
            ("2016-12-31T23:59:60Z", true),
            ("0001-01-01T00:00:00Z", true),
            ("2026-03-28t14:22:31z", false),
            ("2026-03-28T14:22:31+02:00", false),
            ("2026-03-28T14:22:31-00:00", false),
            ("2026-03-28T14:22:31.1234567891Z", false),
        ] {
            assert!(
                check_time(value, Profile::CloudEvents).is_empty(),
                "{value}"
            );
            assert!(check_time(value, Profile::NlGov).is_empty(), "{value}");
            assert_eq!(
                check_time(value, Profile::IntgStd015).is_empty(),
                strict_ok,
                "{value}"
            );
        }
    }

    #[test]
    fn rejects_bad_calendar_values() {
        for (value, part, problem) in [
            ("2026-13-01T00:00:00Z", "month `13`", "month must be 01-12"),
            ("2026-00-01T00:00:00Z", "month `00`", "month must be 01-12"),
            ("2026-04-31T00:00:00Z", "day `31`", "April 2026 has 30 days"),
            (
                "2023-02-29T00:00:00Z",
                "day `29`",
                "February 2023 has 28 days",
            ),
            (
                "1900-02-29T00:00:00Z",
                "day `29`",
                "February 1900 has 28 days",
            ),
            (
                "2026-01-00T00:00:00Z",
                "day `00`",
                "January 2026 has 31 days",
            ),
            ("2026-01-01T24:00:00Z", "hour `24`", "hour must be 00-23"),
            (
                "2026-01-01T00:60:00Z",
                "minute `60`",
                "minute must be 00-59",
            ),
            (
                "2026-01-01T00:00:61Z",
                "second `61`",
                "second must be 00-60 (60 only for a leap second)",
            ),
            (
                "2026-01-01T00:00:00+24:00",
                "offset `+24:00`",
                "offset hours must be 00-23 and minutes 00-59",
            ),
        ] {
            for profile in Profile::ALL {
                assert_eq!(
                    first(value, profile),
                    (Some(part.to_owned()), problem.to_owned()),
                    "{value}"
                );
            }
        }
    }

    #[test]
    fn rejects_bad_shapes() {
        for (value, part, problem) in [
            ("", None, "must not be empty"),
            (
                "2026-03-28",
                Some("end at byte 10"),
                "ends early: expected `T` between date and time",
            ),
            (
                "2026-03-28 14:22:31Z",
                Some("space at byte 10"),
                "date and time are separated by `T`, not a space",
            ),
            (
                "26-03-28T14:22:31Z",
                Some("character `-` at byte 2"),
                "expected a 4-digit year",
            ),
            (
                "2026/03/28T14:22:31Z",
                Some("character `/` at byte 4"),
                "expected `-` after the year",
            ),
            (
                "2026-3-28T14:22:31Z",
                Some("character `-` at byte 6"),
                "expected a 2-digit month",
            ),
            (
                "2026-03-28T14:22Z",
                Some("character `Z` at byte 16"),
                "expected `:` after the minute (seconds are required)",
            ),
            (
                "2026-03-28T14:22:31",
                Some("end at byte 19"),
                "ends early: expected `Z` or a `+hh:mm` / `-hh:mm` offset (a time zone is required)",
            ),
            (
                "2026-03-28T14:22:31.Z",
                Some("character `Z` at byte 20"),
                "expected at least one digit after `.`",
            ),
            (
                "2026-03-28T14:22:31+0200",
                Some("character `0` at byte 22"),
                "expected `:` in the offset",
            ),
            (
                "2026-03-28T14:22:31Zjunk",
                Some("character `j` at byte 20"),
                "expected the end after `Z`",
            ),
            (
                "2026-03-28T14:22:31+02:00x",
                Some("character `x` at byte 25"),
                "expected the end after the offset",
            ),
            (
                "２026-03-28T14:22:31Z",
                Some("character `２` at byte 0"),
                "expected a 4-digit year",
            ),
        ] {
            for profile in Profile::ALL {
                assert_eq!(
                    first(value, profile),
                    (part.map(str::to_owned), problem.to_owned()),
                    "{value}"
                );
            }
        }
    }

    #[test]
    fn strict_profile_requires_utc_z() {
        for (value, part, problem, hint) in [
            (
                "2026-03-28T16:22:31+02:00",
                "offset `+02:00`",
                "must be UTC with the `Z` suffix",
                "e.g. `2026-03-28T14:22:31Z`, the same instant in UTC",
            ),
            (
                "2026-01-01T01:30:00.5+05:30",
                "offset `+05:30`",
                "must be UTC with the `Z` suffix",
                "e.g. `2025-12-31T20:00:00.5Z`, the same instant in UTC",
            ),
            (
                "2024-02-28T22:00:00-03:00",
                "offset `-03:00`",
                "must be UTC with the `Z` suffix",
                "e.g. `2024-02-29T01:00:00Z`, the same instant in UTC",
            ),
            (
                "2026-03-28T14:22:31+00:00",
                "offset `+00:00`",
                "must be UTC with the `Z` suffix",
                "e.g. `2026-03-28T14:22:31Z`, the same instant in UTC",
            ),
            (
                "2026-03-28t14:22:31Z",
                "separator `t` at byte 10",
                "must use an uppercase `T`",
                "e.g. `2026-03-28T14:22:31Z`",
            ),
            (
                "2026-03-28T14:22:31z",
                "zone `z`",
                "must use an uppercase `Z`",
                "e.g. `2026-03-28T14:22:31Z`",
            ),
            (
                "2026-03-28T14:22:31.1234567891Z",
                "fraction `.1234567891`",
                "must have at most 9 fractional digits (nanoseconds)",
                "e.g. `.123456789`",
            ),
        ] {
            let found = check_time(value, Profile::IntgStd015);
            assert_eq!(found.len(), 1, "{value}");
            assert_eq!(found[0].rule, rule::INTG_GATEWAY_4);
            assert_eq!(found[0].part.as_deref(), Some(part), "{value}");
            assert_eq!(found[0].problem, problem, "{value}");
            assert_eq!(found[0].hint.as_deref(), Some(hint), "{value}");
        }
        assert_eq!(
            check_time("2026-13-01T00:00:00Z", Profile::IntgStd015)[0].rule,
            rule::INTG_GATEWAY_4
        );
        assert_eq!(
            check_time("2026-13-01T00:00:00Z", Profile::CloudEvents)[0].rule,
            rule::CE_TIME
        );
    }

    #[test]
    fn civil_round_trip() {
        for days in [-800_000, -1, 0, 1, 59, 60, 11_016, 20_000, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
    }

    /// `parse` as it was before issue 25's Protobuf decode row, kept as the oracle.
    mod before {
        use super::super::{DateTime, Problem, describe_char};

        pub(super) fn parse(value: &str) -> Result<DateTime<'_>, Problem> {
            if value.is_empty() {
                return Err((None, "must not be empty".into()));
            }
            let bytes = value.as_bytes();
            let at = |i: usize, expected: &'static str| -> Problem {
                match value.get(i..).and_then(|rest| rest.chars().next()) {
                    Some(c) => (
                        Some(format!("character {} at byte {i}", describe_char(c))),
                        format!("expected {expected}").into(),
                    ),
                    None => (
                        Some(format!("end at byte {i}")),
                        format!("ends early: expected {expected}").into(),
                    ),
                }
            };
            let digits = |start: usize, count: usize, what: &'static str| -> Result<u32, Problem> {
                let mut number = 0;
                for i in start..start + count {
                    match bytes.get(i) {
                        Some(b) if b.is_ascii_digit() => number = number * 10 + u32::from(b - b'0'),
                        _ => return Err(at(i, what)),
                    }
                }
                Ok(number)
            };
            let literal = |i: usize, expected: u8, what: &'static str| -> Result<(), Problem> {
                if bytes.get(i) == Some(&expected) {
                    Ok(())
                } else {
                    Err(at(i, what))
                }
            };

            let year = digits(0, 4, "a 4-digit year")?;
            literal(4, b'-', "`-` after the year")?;
            let month = digits(5, 2, "a 2-digit month")?;
            literal(7, b'-', "`-` after the month")?;
            let day = digits(8, 2, "a 2-digit day")?;
            let separator = match bytes.get(10) {
                Some(&b) if b == b'T' || b == b't' => b,
                Some(b' ') => {
                    return Err((
                        Some("space at byte 10".to_owned()),
                        "date and time are separated by `T`, not a space".into(),
                    ));
                }
                _ => return Err(at(10, "`T` between date and time")),
            };
            let hour = digits(11, 2, "a 2-digit hour")?;
            literal(13, b':', "`:` after the hour")?;
            let minute = digits(14, 2, "a 2-digit minute")?;
            literal(16, b':', "`:` after the minute (seconds are required)")?;
            let second = digits(17, 2, "2-digit seconds")?;

            let mut i = 19;
            let mut fraction = "";
            if bytes.get(i) == Some(&b'.') {
                let start = i + 1;
                let end = start
                    + bytes[start..]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                if end == start {
                    return Err(at(start, "at least one digit after `.`"));
                }
                fraction = &value[start..end];
                i = end;
            }

            let zone = &value[i..];
            let offset_minutes = match bytes.get(i) {
                Some(b'Z' | b'z') if zone.len() == 1 => None,
                Some(b'Z' | b'z') => return Err(at(i + 1, "the end after `Z`")),
                Some(&sign @ (b'+' | b'-')) => {
                    let hours = digits(i + 1, 2, "a 2-digit offset hour")?;
                    literal(i + 3, b':', "`:` in the offset")?;
                    let minutes = digits(i + 4, 2, "a 2-digit offset minute")?;
                    if value.len() > i + 6 {
                        return Err(at(i + 6, "the end after the offset"));
                    }
                    if hours > 23 || minutes > 59 {
                        return Err((
                            Some(format!("offset `{zone}`")),
                            "offset hours must be 00-23 and minutes 00-59".into(),
                        ));
                    }
                    let total = i32::try_from(hours * 60 + minutes).unwrap_or(0);
                    Some(if sign == b'-' { -total } else { total })
                }
                _ => {
                    return Err(at(
                        i,
                        "`Z` or a `+hh:mm` / `-hh:mm` offset (a time zone is required)",
                    ));
                }
            };

            Ok(DateTime {
                year,
                month,
                day,
                hour,
                minute,
                second,
                separator,
                fraction,
                zone,
                offset_minutes,
            })
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2_000))]

        /// Issue 25 (Protobuf decode): the one-match reading of the common layout gives the
        /// fields, or the error (part and problem), the field-by-field reading gave, on
        /// date-times edited at random places (digits, separators, `t`, a space, multi-byte
        /// chars, cuts).
        #[test]
        fn fixed_prefix_reads_what_the_fields_read(
            base in proptest::sample::select(vec![
                "2026-11-22T10:15:30.123456Z", "2026-03-28t16:22:31+02:00", "0001-01-01T00:00:00Z",
                "9999-12-31T23:59:60.999999999z", "2023-02-29T00:00:00-00:30",
            ]),
            edits in proptest::collection::vec(
                (0usize..30, proptest::sample::select(vec![
                    "0", "9", "-", ":", "T", "t", " ", "Z", ".", "é", "a", "+", "",
                ])),
                0..3,
            ),
            cut in 0usize..32,
        ) {
            let mut text = base.to_owned();
            for (at, with) in edits {
                if text.is_char_boundary(at) && text.is_char_boundary((at + 1).min(text.len())) && at < text.len() {
                    text.replace_range(at..at + 1, with);
                }
            }
            while !text.is_char_boundary(cut.min(text.len())) {
                text.pop();
            }
            text.truncate(cut.min(text.len()));
            proptest::prop_assert_eq!(parse(&text), before::parse(&text));
        }
    }
}
