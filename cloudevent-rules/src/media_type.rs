use std::borrow::Cow;

use crate::uri::describe_char;
use crate::{Violation, rule};

const EXAMPLE: &str = "application/json; charset=utf-8";
/// The media type [`check_media_type`] answers without parsing.
const COMMON: &str = "application/json";

/// Checks a `datacontenttype` has the RFC 2046 shape `type/subtype[; param=value]*`
/// (CE 1.0.2 datacontenttype).
///
/// `type` and `subtype` are RFC 6838 restricted names (a letter or digit, then letters,
/// digits and `!#$&-^_.+`, at most 127 characters), so the wildcards `*/*` of an `Accept`
/// header are refused. Parameters are RFC 9110 `token=token` or `token="quoted string"`,
/// separated by `;` with optional spaces; an empty parameter (`a/b;`) is allowed, as RFC 9110
/// allows it.
///
/// ```
/// use cloudevent_rules::check_media_type;
///
/// assert!(check_media_type("application/json").is_empty());
/// assert!(check_media_type("application/cloudevents+json; charset=utf-8").is_empty());
/// assert!(check_media_type(r#"multipart/form-data; boundary="a b""#).is_empty());
///
/// let found = check_media_type("application json");
/// assert_eq!(
///     found[0].to_string(),
///     "datacontenttype `application json` character ` ` (space) at byte 11: expected `/` between type \
///      and subtype (CE 1.0.2 datacontenttype); e.g. `application/json; charset=utf-8`"
/// );
/// ```
pub fn check_media_type(value: &str) -> Vec<Violation> {
    // The media type of nearly every JSON payload: `parse` finds it clean
    // (`media_type::tests::the_common_type_is_what_parse_finds_clean`), and `check_media_type`
    // depends on the text alone, so it is answered without being parsed again for every
    // event (issue 40: 240 instructions of a Protobuf decode).
    if value == COMMON {
        return Vec::new();
    }
    let mut found = Vec::new();
    if let Err((part, problem)) = parse(value) {
        let violation =
            Violation::error(rule::CE_DATACONTENTTYPE, "datacontenttype", value, problem)
                .with_hint(format!("e.g. `{EXAMPLE}`"));
        found.push(match part {
            Some(part) => violation.with_part(part),
            None => violation,
        });
    }
    found
}

type Problem = (Option<String>, Cow<'static, str>);

fn is_restricted_name_char(b: u8) -> bool {
    RESTRICTED_NAME_CHAR[usize::from(b)]
}

/// [`is_restricted_name_char`] as one lookup a byte (every `datacontenttype` of every event
/// is read through it), built from the predicate it replaced (`restricted_name_char`),
/// which `media_type::tests::the_table_is_the_predicate` compares on all 256 bytes.
const RESTRICTED_NAME_CHAR: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = restricted_name_char(b as u8);
        b += 1;
    }
    table
};

const fn restricted_name_char(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'!' | b'#' | b'$' | b'&' | b'-' | b'^' | b'_' | b'.' | b'+'
        )
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'!' | b'#'
                | b'$'
                | b'%'
                | b'&'
                | b'\''
                | b'*'
                | b'+'
                | b'-'
                | b'.'
                | b'^'
                | b'_'
                | b'`'
                | b'|'
                | b'~'
        )
}

fn parse(value: &str) -> Result<(), Problem> {
    if value.is_empty() {
        return Err((None, "must not be empty".into()));
    }
    let bytes = value.as_bytes();
    let at = |i: usize, expected: &str| -> Problem {
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
    let restricted_name = |start: usize, what: &str| -> Result<usize, Problem> {
        if !bytes.get(start).is_some_and(u8::is_ascii_alphanumeric) {
            return Err(at(
                start,
                &format!("a {what} starting with a letter or digit"),
            ));
        }
        let end = start
            + bytes[start..]
                .iter()
                .take_while(|&&b| is_restricted_name_char(b))
                .count();
        if end - start > 127 {
            return Err((
                Some(format!("{what} at byte {start}")),
                format!("a {what} has at most 127 characters").into(),
            ));
        }
        Ok(end)
    };
    let skip_spaces = |mut i: usize| {
        while matches!(bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        i
    };

    let mut i = restricted_name(0, "type")?;
    if bytes.get(i) != Some(&b'/') {
        return Err(at(i, "`/` between type and subtype"));
    }
    i = restricted_name(i + 1, "subtype")?;
    loop {
        i = skip_spaces(i);
        match bytes.get(i) {
            None => return Ok(()),
            Some(b';') => i = skip_spaces(i + 1),
            Some(_) => return Err(at(i, "`;` before a parameter, or the end")),
        }
        if matches!(bytes.get(i), None | Some(b';')) {
            continue;
        }
        let name_end = i + bytes[i..].iter().take_while(|&&b| is_tchar(b)).count();
        if name_end == i {
            return Err(at(i, "a parameter name"));
        }
        if bytes.get(name_end) != Some(&b'=') {
            return Err(at(name_end, "`=` after the parameter name"));
        }
        i = name_end + 1;
        if bytes.get(i) == Some(&b'"') {
            i = quoted_string_end(value, i).ok_or_else(|| {
                (
                    Some(format!("quoted string at byte {name_end}")),
                    "a quoted string must be closed with `\"`".into(),
                )
            })?;
        } else {
            let end = i + bytes[i..].iter().take_while(|&&b| is_tchar(b)).count();
            if end == i {
                return Err(at(i, "a parameter value (a token or a quoted string)"));
            }
            i = end;
        }
    }
}

/// The index just past the closing quote of the quoted string opening at `start`.
fn quoted_string_end(value: &str, start: usize) -> Option<usize> {
    let bytes = value.as_bytes();
    let mut i = start + 1;
    loop {
        match *bytes.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => {
                // quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
                let next = *bytes.get(i + 1)?;
                if next == b'\t' || next >= 0x20 && next != 0x7f {
                    i += 2;
                } else {
                    return None;
                }
            }
            b'\t' | 0x20..=0x7e | 0x80..=0xff => i += 1,
            _ => return None,
        }
    }
}

/// Whether a media type is JSON: `*/json` or `*/*+json`, parameters ignored,
/// case-insensitive (CE-JSON 3.1: such data is embedded in `data` as JSON).
///
/// ```
/// use cloudevent_rules::is_json_media_type;
///
/// assert!(is_json_media_type("application/json"));
/// assert!(is_json_media_type("Application/JSON; charset=utf-8"));
/// assert!(is_json_media_type("application/cloudevents+json"));
/// assert!(is_json_media_type("text/json"));
/// assert!(!is_json_media_type("application/jsonx"));
/// assert!(!is_json_media_type("application/xml"));
/// ```
pub fn is_json_media_type(value: &str) -> bool {
    // The type nearly every event carries, answered before parsing: every reader asks
    // several times per event.
    if value == "application/json" {
        return true;
    }
    let essence = value.split(';').next().unwrap_or(value).trim();
    let Some((kind, subtype)) = essence.split_once('/') else {
        return false;
    };
    let subtype = subtype.trim().as_bytes();
    let suffix = b"+json";
    !kind.trim().is_empty()
        && (subtype.eq_ignore_ascii_case(b"json")
            || (subtype.len() > suffix.len()
                && subtype[subtype.len() - suffix.len()..].eq_ignore_ascii_case(suffix)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 40: the one text `check_media_type` answers without `parse` is one `parse` finds
    /// clean, so the answer (nothing found) is the same.
    #[test]
    fn the_common_type_is_what_parse_finds_clean() {
        assert_eq!(parse(COMMON), Ok(()));
        assert!(check_media_type(COMMON).is_empty());
    }

    #[test]
    fn accepts_media_types() {
        for ok in [
            "application/json",
            "application/cloudevents+json; charset=utf-8",
            "application/cloudevents-batch+json",
            "text/plain;charset=us-ascii",
            "text/plain ; charset=us-ascii",
            "application/vnd.example.order.v1+json",
            r#"multipart/form-data; boundary="----x \" y""#,
            "application/octet-stream;",
            "application/json;;charset=utf-8",
            "image/svg+xml",
            "application/x-www-form-urlencoded",
        ] {
            assert!(
                check_media_type(ok).is_empty(),
                "{ok}: {:?}",
                check_media_type(ok)
            );
        }
    }

    #[test]
    fn rejects_malformed_media_types() {
        for (bad, part, problem) in [
            ("", None, "must not be empty"),
            (
                "json",
                Some("end at byte 4"),
                "ends early: expected `/` between type and subtype",
            ),
            (
                "application/",
                Some("end at byte 12"),
                "ends early: expected a subtype starting with a letter or digit",
            ),
            (
                "/json",
                Some("character `/` at byte 0"),
                "expected a type starting with a letter or digit",
            ),
            (
                "*/*",
                Some("character `*` at byte 0"),
                "expected a type starting with a letter or digit",
            ),
            (
                " application/json",
                Some("character ` ` (space) at byte 0"),
                "expected a type starting with a letter or digit",
            ),
            (
                "application/json charset=utf-8",
                Some("character `c` at byte 17"),
                "expected `;` before a parameter, or the end",
            ),
            (
                "application/json; charset",
                Some("end at byte 25"),
                "ends early: expected `=` after the parameter name",
            ),
            (
                "application/json; charset=",
                Some("end at byte 26"),
                "ends early: expected a parameter value (a token or a quoted string)",
            ),
            (
                "application/json; charset=\"utf-8",
                Some("quoted string at byte 25"),
                "a quoted string must be closed with `\"`",
            ),
            (
                "application/json; =utf-8",
                Some("character `=` at byte 18"),
                "expected a parameter name",
            ),
            (
                "application/jsön",
                Some("character `ö` at byte 14"),
                "expected `;` before a parameter, or the end",
            ),
            (
                "application/json; a=b c",
                Some("character `c` at byte 22"),
                "expected `;` before a parameter, or the end",
            ),
        ] {
            let found = check_media_type(bad);
            assert_eq!(found.len(), 1, "{bad}");
            assert_eq!(found[0].rule, rule::CE_DATACONTENTTYPE);
            assert_eq!(found[0].part.as_deref(), part, "{bad}");
            assert_eq!(found[0].problem, problem, "{bad}");
        }
    }

    #[test]
    fn json_media_types() {
        for (value, json) in [
            ("application/json", true),
            ("APPLICATION/JSON", true),
            ("application/json; charset=utf-8", true),
            ("application/json ;charset=utf-8", true),
            ("text/json", true),
            ("application/cloudevents+json", true),
            ("application/vnd.api+JSON", true),
            ("application/jsonx", false),
            ("application/x-json-stream", false),
            ("application/+json", false),
            ("application/json-seq", false),
            ("application/xml", false),
            ("json", false),
            ("/json", false),
            ("", false),
        ] {
            assert_eq!(is_json_media_type(value), json, "{value}");
        }
    }

    /// Issue 25 (Protobuf decode): the lookup table is the predicate, on every byte.
    #[test]
    fn the_table_is_the_predicate() {
        for b in 0..=u8::MAX {
            let before = b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'!' | b'#' | b'$' | b'&' | b'-' | b'^' | b'_' | b'.' | b'+'
                );
            assert_eq!(is_restricted_name_char(b), before, "byte {b:#04x}");
        }
    }
}
