use std::borrow::Cow;

use crate::uri::describe_char;
use crate::{Violation, rule};

const TRACEPARENT_EXAMPLE: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

/// The most list members a `tracestate` may hold (W3C Trace Context 3.3.1.1).
pub const MAX_TRACESTATE_MEMBERS: usize = 32;
/// The most characters a `tracestate` should hold (W3C Trace Context 3.3.1.5).
pub const MAX_TRACESTATE_LEN: usize = 512;

/// Checks a W3C `traceparent`: `00-<32 hex>-<16 hex>-<2 hex>`, lowercase, not all zeros.
///
/// The version is two lowercase hex digits other than `ff`. Version `00` is exactly 55
/// characters; a later version may append fields after a `-`, which are not checked, as the
/// W3C specification asks of a version-00 parser.
///
/// ```
/// use cloudevent_rules::check_traceparent;
///
/// assert!(check_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").is_empty());
/// let found = check_traceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01");
/// assert_eq!(found[0].part.as_deref(), Some("trace-id `00000000000000000000000000000000`"));
/// assert_eq!(found[0].rule.as_str(), "W3C trace-context");
/// ```
pub fn check_traceparent(value: &str) -> Vec<Violation> {
    let mut found = Vec::new();
    if let Err((part, problem)) = traceparent_problem(value) {
        found.push(
            Violation::error(rule::W3C_TRACE_CONTEXT, "traceparent", value, problem)
                .with_part(part)
                .with_hint(format!("e.g. `{TRACEPARENT_EXAMPLE}`")),
        );
    }
    found
}

fn is_lower_hex(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

type Problem = (String, Cow<'static, str>);

fn traceparent_problem(value: &str) -> Result<(), Problem> {
    let field = |name: &str, start: usize, len: usize| -> Result<&str, Problem> {
        let text = value
            .get(start..start + len)
            .unwrap_or_else(|| value.get(start..).unwrap_or(""));
        if text.len() != len || !is_lower_hex(text) {
            return Err((
                format!("{name} `{text}`"),
                format!("must be {len} lowercase hex digits").into(),
            ));
        }
        Ok(text)
    };
    let dash = |at: usize, after: &str| -> Result<(), Problem> {
        if value.as_bytes().get(at) == Some(&b'-') {
            Ok(())
        } else {
            let found = value
                .get(at..)
                .and_then(|rest| rest.chars().next())
                .map_or_else(|| "the end".to_owned(), describe_char);
            Err((
                format!("{found} at byte {at}"),
                format!("expected `-` after the {after}").into(),
            ))
        }
    };

    let version = field("version", 0, 2)?;
    if version == "ff" {
        return Err(("version `ff`".to_owned(), "version `ff` is invalid".into()));
    }
    dash(2, "version")?;
    let trace_id = field("trace-id", 3, 32)?;
    if trace_id.bytes().all(|b| b == b'0') {
        return Err((
            format!("trace-id `{trace_id}`"),
            "must not be all zeros".into(),
        ));
    }
    dash(35, "trace-id")?;
    let parent_id = field("parent-id", 36, 16)?;
    if parent_id.bytes().all(|b| b == b'0') {
        return Err((
            format!("parent-id `{parent_id}`"),
            "must not be all zeros".into(),
        ));
    }
    dash(52, "parent-id")?;
    field("trace-flags", 53, 2)?;
    if value.len() > 55 {
        if version == "00" {
            return Err((
                format!("`{}` after the trace-flags", &value[55..]),
                "version 00 ends after the trace-flags".into(),
            ));
        }
        dash(55, "trace-flags")?;
    }
    Ok(())
}

/// Checks a W3C `tracestate`: up to 32 comma-separated `key=value` members, at most 512
/// characters, keys unique.
///
/// Keys are `lcalpha 0*255( lcalpha / DIGIT / "_" / "-" / "*" / "/" )` or the multi-tenant
/// `tenant@system` form; values are 1 to 256 printable ASCII characters other than `,` and
/// `=`, not ending in a space. Empty members (`a=1,,b=2`) and spaces around members are
/// allowed, as the W3C specification allows them.
///
/// ```
/// use cloudevent_rules::check_tracestate;
///
/// assert!(check_tracestate("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE").is_empty());
/// assert!(check_tracestate("tenant@vendor=x").is_empty());
/// let found = check_tracestate("Rojo=1");
/// assert_eq!(found[0].part.as_deref(), Some("key `Rojo`"));
/// ```
pub fn check_tracestate(value: &str) -> Vec<Violation> {
    let mut found = Vec::new();
    let error = |part: String, problem: Cow<'static, str>| {
        Violation::error(rule::W3C_TRACE_CONTEXT, "tracestate", value, problem)
            .with_part(part)
            .with_hint("e.g. `rojo=00f067aa0ba902b7,congo=t61rcWkgMzE`")
    };
    let length = value.chars().count();
    if length > MAX_TRACESTATE_LEN {
        found.push(error(
            format!("{length} characters"),
            "must be at most 512 characters".into(),
        ));
    }
    let members = || {
        value
            .split(',')
            .map(|m| m.trim_matches([' ', '\t']))
            .filter(|m| !m.is_empty())
    };
    let count = members().count();
    if count > MAX_TRACESTATE_MEMBERS {
        found.push(error(
            format!("{count} members"),
            "must hold at most 32 list members".into(),
        ));
    }
    for (index, member) in members().enumerate() {
        let Some((key, member_value)) = member.split_once('=') else {
            found.push(error(
                format!("member `{member}`"),
                "must be `key=value`".into(),
            ));
            continue;
        };
        if let Some(problem) = key_problem(key) {
            found.push(error(format!("key `{key}`"), problem.into()));
        } else if members()
            .take(index)
            .any(|m| m.split_once('=').is_some_and(|(k, _)| k == key))
        {
            found.push(error(
                format!("key `{key}`"),
                "appears twice; each key appears once".into(),
            ));
        }
        if let Some(problem) = value_problem(member_value) {
            found.push(error(format!("value `{member_value}`"), problem.into()));
        }
    }
    found
}

fn is_key_char(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'_' | b'-' | b'*' | b'/')
}

fn key_problem(key: &str) -> Option<&'static str> {
    let bytes = key.as_bytes();
    if !bytes.iter().all(|&b| is_key_char(b) || b == b'@') {
        return Some("a key holds only `a-z`, `0-9`, `_`, `-`, `*`, `/` and one `@`");
    }
    match key.split_once('@') {
        None => {
            if !bytes.first().is_some_and(u8::is_ascii_lowercase) {
                return Some("a key must start with a lowercase letter");
            }
            if bytes.len() > 256 {
                return Some("a key has at most 256 characters");
            }
        }
        Some((tenant, system)) => {
            if system.contains('@') {
                return Some("a key holds at most one `@`");
            }
            if !tenant
                .as_bytes()
                .first()
                .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                || tenant.len() > 241
            {
                return Some("a tenant id is 1 to 241 characters starting with `a-z` or `0-9`");
            }
            if !system
                .as_bytes()
                .first()
                .is_some_and(u8::is_ascii_lowercase)
                || system.len() > 14
            {
                return Some("a system id is 1 to 14 characters starting with `a-z`");
            }
        }
    }
    None
}

fn value_problem(value: &str) -> Option<&'static str> {
    if value.is_empty() || value.len() > 256 {
        return Some("a value has 1 to 256 characters");
    }
    if !value
        .bytes()
        .all(|b| (0x20..=0x7e).contains(&b) && b != b',' && b != b'=')
    {
        return Some("a value holds printable ASCII other than `,` and `=`");
    }
    if value.ends_with(' ') {
        return Some("a value must not end with a space");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traceparent_accepts() {
        for ok in [
            TRACEPARENT_EXAMPLE,
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00",
            "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-future",
            "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-09",
        ] {
            assert!(
                check_traceparent(ok).is_empty(),
                "{ok}: {:?}",
                check_traceparent(ok)
            );
        }
    }

    #[test]
    fn traceparent_rejects() {
        for (bad, part, problem) in [
            ("", "version ``", "must be 2 lowercase hex digits"),
            (
                "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                "version `ff`",
                "version `ff` is invalid",
            ),
            (
                "0g-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                "version `0g`",
                "must be 2 lowercase hex digits",
            ),
            (
                "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
                "trace-id `4BF92F3577B34DA6A3CE929D0E0E4736`",
                "must be 32 lowercase hex digits",
            ),
            (
                "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
                "trace-id `00000000000000000000000000000000`",
                "must not be all zeros",
            ),
            (
                "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
                "trace-id `4bf92f3577b34da6a3ce929d0e0e473-`",
                "must be 32 lowercase hex digits",
            ),
            (
                "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
                "parent-id `0000000000000000`",
                "must not be all zeros",
            ),
            (
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",
                "trace-flags `1`",
                "must be 2 lowercase hex digits",
            ),
            (
                "00-4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7-01",
                "`_` at byte 35",
                "expected `-` after the trace-id",
            ),
            (
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",
                "`-x` after the trace-flags",
                "version 00 ends after the trace-flags",
            ),
            (
                "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",
                "`x` at byte 55",
                "expected `-` after the trace-flags",
            ),
            (
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
                "the end at byte 52",
                "expected `-` after the parent-id",
            ),
            (
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902é-01",
                "parent-id `00f067aa0ba902é`",
                "must be 16 lowercase hex digits",
            ),
        ] {
            let found = check_traceparent(bad);
            assert_eq!(found.len(), 1, "{bad}");
            assert_eq!(found[0].part.as_deref(), Some(part), "{bad}");
            assert_eq!(found[0].problem, problem, "{bad}");
        }
    }

    #[test]
    fn tracestate_accepts() {
        for ok in [
            "",
            "rojo=00f067aa0ba902b7",
            "rojo=00f067aa0ba902b7, congo=t61rcWkgMzE",
            "a=1,,b=2",
            "tenant@vendor=x",
            "0tenant@sys=x y",
            "k_-*/9=v",
        ] {
            assert!(
                check_tracestate(ok).is_empty(),
                "{ok}: {:?}",
                check_tracestate(ok)
            );
        }
        let members: Vec<String> = (0..32).map(|i| format!("k{i}=v")).collect();
        assert!(check_tracestate(&members.join(",")).is_empty());
    }

    #[test]
    fn tracestate_rejects() {
        for (bad, part, problem) in [
            ("rojo", "member `rojo`", "must be `key=value`"),
            (
                "Rojo=1",
                "key `Rojo`",
                "a key holds only `a-z`, `0-9`, `_`, `-`, `*`, `/` and one `@`",
            ),
            (
                "1rojo=1",
                "key `1rojo`",
                "a key must start with a lowercase letter",
            ),
            ("a@b@c=1", "key `a@b@c`", "a key holds at most one `@`"),
            (
                "a@1b=1",
                "key `a@1b`",
                "a system id is 1 to 14 characters starting with `a-z`",
            ),
            (
                "@b=1",
                "key `@b`",
                "a tenant id is 1 to 241 characters starting with `a-z` or `0-9`",
            ),
            ("rojo=", "value ``", "a value has 1 to 256 characters"),
            (
                "rojo=a=b",
                "value `a=b`",
                "a value holds printable ASCII other than `,` and `=`",
            ),
            (
                "rojo=é",
                "value `é`",
                "a value holds printable ASCII other than `,` and `=`",
            ),
            (
                "rojo=1,rojo=2",
                "key `rojo`",
                "appears twice; each key appears once",
            ),
        ] {
            let found = check_tracestate(bad);
            assert_eq!(found.len(), 1, "{bad}: {found:?}");
            assert_eq!(found[0].part.as_deref(), Some(part), "{bad}");
            assert_eq!(found[0].problem, problem, "{bad}");
        }
        let members: Vec<String> = (0..33).map(|i| format!("k{i}=v")).collect();
        assert_eq!(
            check_tracestate(&members.join(","))[0].part.as_deref(),
            Some("33 members")
        );
        let long = format!("k={}", "v".repeat(256));
        assert_eq!(check_tracestate(&long).len(), 0);
        let too_long: Vec<String> = (0..3)
            .map(|i| format!("k{i}={}", "v".repeat(200)))
            .collect();
        assert_eq!(
            check_tracestate(&too_long.join(","))[0].problem,
            "must be at most 512 characters"
        );
    }
}
