//! `source` templates: a URI template (RFC 6570 level 1, `{var}` only) whose variables
//! name payload members, as xRegistry message definitions publish a source
//! (`{tenantid}/{deviceid}`). One parser for the derive (`source_template`), codegen
//! (`--source-template`) and the runtime's expansion.

use crate::rule;
use crate::violation::Violation;

/// A piece of a parsed template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TemplatePart<'a> {
    /// Text copied as written.
    Literal(&'a str),
    /// `{name}`: the value of the payload member `name`, percent-encoded.
    Variable(&'a str),
}

/// Parses a `source` template. Variables are `{name}` with `name` of ASCII letters, digits,
/// `_` and `.`; operators (`{+x}`, `{/x}`), lists (`{x,y}`) and modifiers are not level 1.
///
/// # Errors
/// A violation of RFC 6570 level 1 naming the offending part, or a template without any
/// variable (then it is a plain source).
///
/// ```
/// use cloudevent_rules::{TemplatePart, parse_source_template};
///
/// let parts = parse_source_template("/tenants/{tenantid}/devices/{deviceid}").unwrap();
/// assert_eq!(parts[1], TemplatePart::Variable("tenantid"));
/// assert!(parse_source_template("/tenants/{+tenantid}").is_err());
/// assert!(parse_source_template("/tenants/{tenantid").is_err());
/// assert!(parse_source_template("/tenants").is_err());
/// ```
pub fn parse_source_template(template: &str) -> Result<Vec<TemplatePart<'_>>, Box<Violation>> {
    let broken = |part: &str, problem: &str| {
        Box::new(
            Violation::error(rule::RFC_6570, "source", template, problem.to_owned())
                .with_part(part)
                .with_hint(
                    "write variables as `{name}`, e.g. `/tenants/{tenantid}/devices/{deviceid}`",
                ),
        )
    };
    let mut parts = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find(['{', '}']) {
        if rest[open..].starts_with('}') {
            return Err(broken("`}`", "has a `}` that closes no variable"));
        }
        if open > 0 {
            parts.push(TemplatePart::Literal(&rest[..open]));
        }
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            return Err(broken("`{`", "has a `{` that is never closed"));
        };
        let name = &after[..close];
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
        if !valid {
            return Err(broken(
                &format!("variable `{{{name}}}`"),
                "is not a level-1 variable (a name of letters, digits, `_` and `.`)",
            ));
        }
        parts.push(TemplatePart::Variable(name));
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        parts.push(TemplatePart::Literal(rest));
    }
    if !parts.iter().any(|p| matches!(p, TemplatePart::Variable(_))) {
        return Err(broken(
            "the whole template",
            "has no `{variable}`: it is a plain source, not a template",
        ));
    }
    Ok(parts)
}

/// Appends `value` as RFC 6570 simple string expansion does: unreserved characters as they
/// are, every other byte percent-encoded (so a value cannot add a `/` or `?` to the source).
///
/// ```
/// let mut out = String::from("/devices/");
/// cloudevent_rules::expand_template_variable(&mut out, "oven 1/a");
/// assert_eq!(out, "/devices/oven%201%2Fa");
/// ```
pub fn expand_template_variable(out: &mut String, value: &str) {
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xf)]));
        }
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// The template with every variable filled by `x`: what the policy checks at declaration
/// (a scheme, a host, a port in the literal parts are the template's own).
///
/// ```
/// let parts = cloudevent_rules::parse_source_template("https://{host}/a").unwrap();
/// assert_eq!(cloudevent_rules::sample_source(&parts), "https://x/a");
/// ```
pub fn sample_source(parts: &[TemplatePart<'_>]) -> String {
    parts
        .iter()
        .map(|p| match p {
            TemplatePart::Literal(text) => text,
            TemplatePart::Variable(_) => "x",
        })
        .collect()
}
