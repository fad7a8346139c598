//! The one RFC 3986 parser behind `source`, `dataschema`, `dataref` and every URI or
//! URI-reference value: the rules look at its parts (scheme, host, port, path) instead of
//! matching the whole string with a pattern.

use std::borrow::Cow;
use std::net::Ipv6Addr;

/// A URI-reference split into its RFC 3986 components. Every slice borrows the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UriRef<'a> {
    pub scheme: Option<&'a str>,
    pub authority: Option<Authority<'a>>,
    pub path: &'a str,
    pub query: Option<&'a str>,
    pub fragment: Option<&'a str>,
}

/// `[ userinfo "@" ] host [ ":" port ]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Authority<'a> {
    pub userinfo: Option<&'a str>,
    pub host: Host<'a>,
    /// The digits after `:`; `Some("")` when the `:` is there without digits.
    pub port: Option<&'a str>,
}

/// The host of an authority.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Host<'a> {
    /// A registered name or a dotted IPv4 address, still percent-encoded as written.
    RegName(&'a str),
    /// `[...]` holding an IPv6 address.
    Ipv6(Ipv6Addr),
    /// `[v1.xyz]`, a future IP literal format.
    IpFuture(&'a str),
}

/// Why a string is not a URI-reference: the offending part and the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UriError {
    pub part: String,
    pub problem: Cow<'static, str>,
}

impl UriError {
    fn new(part: String, problem: impl Into<Cow<'static, str>>) -> Self {
        UriError {
            part,
            problem: problem.into(),
        }
    }
}

/// Parses a URI-reference (RFC 3986 4.1). The empty string is a valid (empty) relative
/// reference; callers that need a non-empty value check that first.
pub(crate) fn parse(s: &str) -> Result<UriRef<'_>, UriError> {
    let delimiters = check_characters(s)?;

    // Every delimiter is ASCII, so the byte offsets found are char boundaries.
    let (rest, fragment) = match delimiters.hash {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let (rest, query) = match delimiters.question {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };

    let (scheme, rest) = match rest.bytes().position(|b| b == b':' || b == b'/') {
        Some(i) if rest.as_bytes()[i] == b':' => {
            let candidate = &rest[..i];
            if candidate.is_empty() {
                return Err(UriError::new(
                    "character `:` at byte 0".to_owned(),
                    "a URI cannot start with `:`; a scheme such as `https` must come before it",
                ));
            }
            if let Some(bad) = scheme_error(candidate) {
                return Err(bad);
            }
            (Some(candidate), &rest[i + 1..])
        }
        _ => (None, rest),
    };

    let (authority, path) = match rest.strip_prefix("//") {
        Some(after) => {
            let (end, plain) = authority_end(after);
            let authority = &after[..end];
            // A host name alone (no `@`, `:`, `[` or `]`) is what `parse_authority` reads
            // as a registered name without userinfo or port: taken as such without its
            // three more scans of the same bytes.
            let authority = if plain {
                Authority {
                    userinfo: None,
                    host: Host::RegName(authority),
                    port: None,
                }
            } else {
                parse_authority(authority)?
            };
            (Some(authority), &after[end..])
        }
        None => (None, rest),
    };

    // Without `[` or `]` anywhere, no component holds one; without a second `#`, the
    // fragment (all after the first) holds none.
    if delimiters.bracket {
        check_component(path, "path", s)?;
        if let Some(query) = query {
            check_component(query, "query", s)?;
        }
        if let Some(fragment) = fragment {
            check_component(fragment, "fragment", s)?;
        }
    }
    if let Some(fragment) = fragment.filter(|_| delimiters.second_hash)
        && let Some(i) = find_byte(fragment, b'#')
    {
        return Err(UriError::new(
            format!("character `#` at byte {}", offset(s, fragment) + i),
            "a URI holds at most one `#`; percent-encode it as `%23`",
        ));
    }

    Ok(UriRef {
        scheme,
        authority,
        path,
        query,
        fragment,
    })
}

/// Where the authority after `//` ends (the first `/`, else the end), and whether it holds
/// none of `@`, `:`, `[` and `]` (then it is a host name alone): one pass over the bytes.
/// Held to `find_byte` and [`parse_authority`] by `uri::tests::one_pass_authority_is_parse_authority`.
fn authority_end(after: &str) -> (usize, bool) {
    let mut plain = true;
    for (i, &b) in after.as_bytes().iter().enumerate() {
        if b == b'/' {
            return (i, plain);
        }
        plain &= !matches!(b, b'@' | b':' | b'[' | b']');
    }
    (after.len(), plain)
}

/// The first `byte` (ASCII) in `s`.
fn find_byte(s: &str, byte: u8) -> Option<usize> {
    s.bytes().position(|b| b == byte)
}

/// The first `[` or `]` in `s`.
fn find_bracket(s: &str) -> Option<usize> {
    s.bytes().position(|b| b == b'[' || b == b']')
}

/// The byte offset of `part` (a sub-slice) inside `whole`.
fn offset(whole: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize)
}

/// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, or the reason it is not one.
fn scheme_error(candidate: &str) -> Option<UriError> {
    // By bytes: every allowed character is one ASCII byte, and a multi-byte char's bytes
    // are all 0x80 or above, so a char is allowed exactly when its first byte is (held to
    // the char walk it replaced by `uri::tests::scheme_bytes_are_scheme_chars`).
    let bytes = candidate.as_bytes();
    let starts_with_letter = bytes.first().is_some_and(u8::is_ascii_alphabetic);
    let bad = bytes
        .iter()
        .skip(1)
        .any(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')));
    if starts_with_letter && !bad {
        return None;
    }
    Some(UriError::new(
        format!("`{candidate}:`"),
        "is neither a scheme (a letter, then letters, digits, `+`, `-` or `.`) nor a relative path \
         (whose first segment cannot hold `:`)",
    ))
}

const fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

const fn is_sub_delim(b: u8) -> bool {
    matches!(
        b,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

const fn is_gen_delim(b: u8) -> bool {
    matches!(b, b':' | b'/' | b'?' | b'#' | b'[' | b']' | b'@')
}

/// What [`check_characters`] found on its way, so [`parse`] splits the components without
/// scanning the string again.
struct Delimiters {
    /// The first `#`.
    hash: Option<usize>,
    /// Whether a second `#` follows the first.
    second_hash: bool,
    /// The first `?` before the first `#`.
    question: Option<usize>,
    /// Whether a `[` or `]` appears anywhere.
    bracket: bool,
}

/// A byte allowed in a URI as it is (unreserved, sub-delims, gen-delims) that splits nothing.
const PLAIN: u8 = 1;
/// `#`, `?`, `[` or `]`, which [`Delimiters`] records.
const DELIMITER: u8 = 2;
/// `%`, which starts an escape.
const PERCENT: u8 = 3;

/// Each byte's class, one lookup a byte instead of three sets of compares; 0 is a byte a
/// URI cannot hold as it is.
const URI_BYTE: [u8; 256] = {
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = match byte {
            b'#' | b'?' | b'[' | b']' => DELIMITER,
            b'%' => PERCENT,
            _ if is_unreserved(byte) || is_sub_delim(byte) || is_gen_delim(byte) => PLAIN,
            _ => 0,
        };
        b += 1;
    }
    table
};

/// Every character must be allowed somewhere in a URI, and every `%` must start `%HH`.
fn check_characters(s: &str) -> Result<Delimiters, UriError> {
    let bytes = s.as_bytes();
    let mut found = Delimiters {
        hash: None,
        second_hash: false,
        question: None,
        bracket: false,
    };
    let mut i = 0;
    // Below this offset the bytes are taken one at a time: the block starting before it
    // held something other than plain bytes.
    let mut one_at_a_time = 0;
    while i < bytes.len() {
        // Most of a URI is plain bytes: 16 lookups that do not wait on each other, then one
        // branch, instead of a branch a byte.
        if i >= one_at_a_time
            && let Some(block) = bytes.get(i..i + 16)
        {
            if block.iter().fold(true, |plain, &b| {
                plain & (URI_BYTE[usize::from(b)] == PLAIN)
            }) {
                i += 16;
                continue;
            }
            one_at_a_time = i + 16;
        }
        let b = bytes[i];
        match URI_BYTE[usize::from(b)] {
            PLAIN => {
                i += 1;
                continue;
            }
            DELIMITER => {
                match b {
                    b'#' if found.hash.is_some() => found.second_hash = true,
                    b'#' => found.hash = Some(i),
                    b'?' if found.hash.is_none() && found.question.is_none() => {
                        found.question = Some(i);
                    }
                    b'[' | b']' => found.bracket = true,
                    _ => {}
                }
                i += 1;
                continue;
            }
            PERCENT => {
                let hex = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_hexdigit);
                if !(hex(i + 1) && hex(i + 2)) {
                    return Err(bad_escape(s, i));
                }
                i += 3;
                continue;
            }
            _ => {}
        }
        return Err(bad_character(s, i));
    }
    Ok(found)
}

// The refusals of `check_characters`, out of line: a valid URI reaches neither (issue 40, the
// L1i footprint of the checks).

#[cold]
#[inline(never)]
fn bad_escape(s: &str, i: usize) -> UriError {
    let escape: String = s[i..].chars().take(3).collect();
    UriError::new(
        format!("`{escape}` at byte {i}"),
        "`%` must start a percent-escape of two hex digits (`%HH`); write a literal `%` as `%25`",
    )
}

#[cold]
#[inline(never)]
fn bad_character(s: &str, i: usize) -> UriError {
    let c = s[i..].chars().next().unwrap_or(char::REPLACEMENT_CHARACTER);
    let mut encoded = String::new();
    for byte in c.to_string().bytes() {
        encoded.push_str(&format!("%{byte:02X}"));
    }
    let problem = if c.is_ascii() {
        format!("is not allowed in a URI; percent-encode it as `{encoded}`")
    } else {
        format!(
            "raw non-ASCII is not allowed in a URI; percent-encode its UTF-8 bytes as `{encoded}`"
        )
    };
    UriError::new(
        format!("character {} at byte {i}", describe_char(c)),
        problem,
    )
}

/// A character as shown in messages: visible ones in backticks, the others as `U+XXXX`.
pub(crate) fn describe_char(c: char) -> String {
    if c == ' ' {
        "` ` (space)".to_owned()
    } else if c.is_control()
        || matches!(u32::from(c), 0xFDD0..=0xFDEF)
        || u32::from(c) & 0xFFFE == 0xFFFE
    {
        // Invisible or unprintable: the code point says what it is.
        format!("U+{:04X}", u32::from(c))
    } else {
        format!("`{c}`")
    }
}

/// Path, query and fragment may hold any character that passed [`check_characters`] except
/// `[` and `]`, which RFC 3986 keeps for IP literals in the host.
fn check_component(component: &str, name: &str, whole: &str) -> Result<(), UriError> {
    match find_bracket(component) {
        Some(i) => {
            let c = &component[i..=i];
            Err(UriError::new(
                format!("character `{c}` at byte {}", offset(whole, component) + i),
                format!(
                    "`[` and `]` are only allowed around an IP literal host, not in the {name}; percent-encode them as `%5B` / `%5D`"
                ),
            ))
        }
        None => Ok(()),
    }
}

// Out of line: `parse` reads a host name alone without it.
#[inline(never)]
fn parse_authority(authority: &str) -> Result<Authority<'_>, UriError> {
    let (userinfo, host_port) = match find_byte(authority, b'@') {
        Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
        None => (None, authority),
    };
    if let Some(userinfo) = userinfo
        && let Some(i) = find_bracket(userinfo)
    {
        return Err(UriError::new(
            format!("userinfo `{userinfo}`"),
            format!(
                "character `{}` is not allowed in userinfo",
                &userinfo[i..=i]
            ),
        ));
    }

    if let Some(literal) = host_port.strip_prefix('[') {
        let Some(close) = literal.find(']') else {
            return Err(UriError::new(
                format!("host `{host_port}`"),
                "an IP literal opened with `[` must be closed with `]`",
            ));
        };
        let inside = &literal[..close];
        let after = &literal[close + 1..];
        let port = match after.strip_prefix(':') {
            Some(port) => Some(port),
            None if after.is_empty() => None,
            None => {
                return Err(UriError::new(
                    format!("`{after}` after host `[{inside}]`"),
                    "only `:` and a port may follow an IP literal",
                ));
            }
        };
        check_port(port)?;
        let host = if inside.starts_with(['v', 'V']) {
            check_ip_future(inside)?;
            Host::IpFuture(inside)
        } else {
            match inside.parse::<Ipv6Addr>() {
                Ok(address) => Host::Ipv6(address),
                Err(_) => {
                    return Err(UriError::new(
                        format!("host `[{inside}]`"),
                        "is not an IPv6 address (RFC 4291 text form; zone ids are not allowed)",
                    ));
                }
            }
        };
        return Ok(Authority {
            userinfo,
            host,
            port,
        });
    }

    let (host, port) = match find_byte(host_port, b':') {
        Some(i) => (&host_port[..i], Some(&host_port[i + 1..])),
        None => (host_port, None),
    };
    check_port(port)?;
    if let Some(i) = host.bytes().position(|b| matches!(b, b'[' | b']' | b'@')) {
        return Err(UriError::new(
            format!("host `{host}`"),
            format!("character `{}` is not allowed in a host name", &host[i..=i]),
        ));
    }
    Ok(Authority {
        userinfo,
        host: Host::RegName(host),
        port,
    })
}

fn check_port(port: Option<&str>) -> Result<(), UriError> {
    match port {
        Some(port) if !port.bytes().all(|b| b.is_ascii_digit()) => Err(UriError::new(
            format!("port `{port}`"),
            "a port holds digits only",
        )),
        _ => Ok(()),
    }
}

/// `"v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
fn check_ip_future(inside: &str) -> Result<(), UriError> {
    let body = &inside[1..];
    let valid = match body.split_once('.') {
        Some((version, rest)) => {
            !version.is_empty()
                && version.bytes().all(|b| b.is_ascii_hexdigit())
                && !rest.is_empty()
                && rest
                    .bytes()
                    .all(|b| is_unreserved(b) || is_sub_delim(b) || b == b':')
        }
        None => false,
    };
    if valid {
        Ok(())
    } else {
        Err(UriError::new(
            format!("host `[{inside}]`"),
            "is neither an IPv6 address nor an IPvFuture literal (`v<hex>.<text>`)",
        ))
    }
}

/// Percent-decodes a host for comparison, allocating only when it holds an escape.
pub(crate) fn decode_host(host: &str) -> Cow<'_, str> {
    if !host.contains('%') {
        return Cow::Borrowed(host);
    }
    let bytes = host.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = host
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(byte) = hex {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_components() {
        let uri = parse("https://user@orders.example.com:8080/a/b?x=1#top").unwrap();
        assert_eq!(uri.scheme, Some("https"));
        let authority = uri.authority.unwrap();
        assert_eq!(authority.userinfo, Some("user"));
        assert_eq!(authority.host, Host::RegName("orders.example.com"));
        assert_eq!(authority.port, Some("8080"));
        assert_eq!(uri.path, "/a/b");
        assert_eq!(uri.query, Some("x=1"));
        assert_eq!(uri.fragment, Some("top"));
    }

    #[test]
    fn accepts_valid_references() {
        for ok in [
            "",
            "/orders/checkout",
            "orders/checkout",
            "//orders.example.com/checkout",
            "urn:nld:oin:00000001823288444000:systeem:BRP-component",
            "urn:nld:gemeente-Bergen%20%28L%29.burgerzakensysteem",
            "https://[2001:db8::1]/x",
            "https://[v1.fe80::a+en1]/x",
            "mailto:someone@example.com",
            "file:///etc/hosts",
            "?query",
            "#fragment",
        ] {
            assert!(parse(ok).is_ok(), "{ok:?} should parse: {:?}", parse(ok));
        }
    }

    #[test]
    fn rejects_invalid_references() {
        for (bad, part) in [
            ("has space", "character ` ` (space) at byte 3"),
            ("https://example.com/é", "character `é` at byte 20"),
            ("https://example.com/%zz", "`%zz` at byte 20"),
            ("https://example.com/%4", "`%4` at byte 20"),
            ("a\u{7}b", "character U+0007 at byte 1"),
            ("1abc:foo", "`1abc:`"),
            (":foo", "character `:` at byte 0"),
            ("https://example.com/a[b]", "character `[` at byte 21"),
            ("https://[::1/x", "host `[::1`"),
            ("https://[zz::1]/x", "host `[zz::1]`"),
            ("https://host:80a/x", "port `80a`"),
            ("https://a#b#c", "character `#` at byte 11"),
            ("https://exa<mple.com", "character `<` at byte 11"),
        ] {
            match parse(bad) {
                Ok(uri) => panic!("{bad:?} should fail, parsed as {uri:?}"),
                Err(error) => assert_eq!(error.part, part, "{bad:?}: {}", error.problem),
            }
        }
    }

    #[test]
    fn non_ascii_hint_shows_utf8_escape() {
        let error = parse("https://example.com/é").unwrap_err();
        assert!(error.problem.contains("%C3%A9"), "{}", error.problem);
    }

    #[test]
    fn decodes_hosts() {
        assert_eq!(decode_host("%6cocalhost"), "localhost");
        assert_eq!(decode_host("example.com"), "example.com");
        assert!(matches!(decode_host("example.com"), Cow::Borrowed(_)));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2_000))]

        /// Issue 25 (Protobuf decode): the one-pass authority split gives what the old
        /// split gave (kept here as the oracle: `find_byte` for the end, then
        /// `parse_authority` on every authority): the same end, and a host name taken
        /// alone is what `parse_authority` reads (any other authority still goes to it).
        #[test]
        fn one_pass_authority_is_parse_authority(
            after in "(a|Z|0|-|\\.|@|:|\\[|\\]|/|%41|%|v1\\.x|::1|8080|é|\\?|#){0,12}",
        ) {
            let end = find_byte(&after, b'/').unwrap_or(after.len());
            let old = parse_authority(&after[..end]);
            let (new_end, plain) = authority_end(&after);
            proptest::prop_assert_eq!(new_end, end);
            if plain {
                let taken = Authority {
                    userinfo: None,
                    host: Host::RegName(&after[..end]),
                    port: None,
                };
                proptest::prop_assert_eq!(Ok(taken), old);
            }
        }

        /// Issue 25 (Protobuf decode): the byte test of a scheme gives the char walk's
        /// verdict (the old code, kept here as the oracle) on ASCII and non-ASCII text.
        #[test]
        fn scheme_bytes_are_scheme_chars(candidate in "(h|T|1|\\+|-|\\.|_|é|日|:| ){0,8}") {
            let mut chars = candidate.char_indices();
            let starts_with_letter =
                matches!(chars.next(), Some((_, c)) if c.is_ascii_alphabetic());
            let bad = chars
                .find(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')));
            proptest::prop_assert_eq!(
                scheme_error(&candidate).is_none(),
                starts_with_letter && bad.is_none()
            );
        }
    }
}
