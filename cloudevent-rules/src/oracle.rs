//! The rules as they were before issue 13's fast paths, kept verbatim as the reference the
//! optimized ones are held to: the property tests below compare every finding (rule id,
//! severity, attribute, value, part, hint) of old and new on generated inputs. Only what
//! changed is copied: `check_source`, `check_uri` and `check_uri_reference` are unchanged code
//! over the URI parser, which is compared with its old self directly (`uri_parse_is_unchanged`).
#![allow(dead_code, clippy::all, clippy::pedantic)]

pub(crate) mod uri {
    // The one RFC 3986 parser behind `source`, `dataschema`, `dataref` and every URI or
    // URI-reference value: the rules look at its parts (scheme, host, port, path) instead of
    // matching the whole string with a pattern.

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
        check_characters(s)?;

        let (rest, fragment) = match s.find('#') {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => (s, None),
        };
        let (rest, query) = match rest.find('?') {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest, None),
        };

        let (scheme, rest) = match rest.find([':', '/']) {
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
                let end = after.find('/').unwrap_or(after.len());
                (Some(parse_authority(&after[..end])?), &after[end..])
            }
            None => (None, rest),
        };

        check_component(path, "path", s)?;
        if let Some(query) = query {
            check_component(query, "query", s)?;
        }
        if let Some(fragment) = fragment {
            check_component(fragment, "fragment", s)?;
            if let Some(i) = fragment.find('#') {
                return Err(UriError::new(
                    format!("character `#` at byte {}", offset(s, fragment) + i),
                    "a URI holds at most one `#`; percent-encode it as `%23`",
                ));
            }
        }

        Ok(UriRef {
            scheme,
            authority,
            path,
            query,
            fragment,
        })
    }

    /// The byte offset of `part` (a sub-slice) inside `whole`.
    fn offset(whole: &str, part: &str) -> usize {
        (part.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize)
    }

    /// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, or the reason it is not one.
    fn scheme_error(candidate: &str) -> Option<UriError> {
        let mut chars = candidate.char_indices();
        let starts_with_letter = matches!(chars.next(), Some((_, c)) if c.is_ascii_alphabetic());
        let bad =
            chars.find(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')));
        if starts_with_letter && bad.is_none() {
            return None;
        }
        Some(UriError::new(
            format!("`{candidate}:`"),
            "is neither a scheme (a letter, then letters, digits, `+`, `-` or `.`) nor a relative path \
         (whose first segment cannot hold `:`)",
        ))
    }

    fn is_unreserved(b: u8) -> bool {
        b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
    }

    fn is_sub_delim(b: u8) -> bool {
        matches!(
            b,
            b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
        )
    }

    fn is_gen_delim(b: u8) -> bool {
        matches!(b, b':' | b'/' | b'?' | b'#' | b'[' | b']' | b'@')
    }

    /// Every character must be allowed somewhere in a URI, and every `%` must start `%HH`.
    fn check_characters(s: &str) -> Result<(), UriError> {
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b == b'%' {
                let hex = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_hexdigit);
                if !(hex(i + 1) && hex(i + 2)) {
                    let escape: String = s[i..].chars().take(3).collect();
                    return Err(UriError::new(
                        format!("`{escape}` at byte {i}"),
                        "`%` must start a percent-escape of two hex digits (`%HH`); write a literal `%` as `%25`",
                    ));
                }
                i += 3;
                continue;
            }
            if is_unreserved(b) || is_sub_delim(b) || is_gen_delim(b) {
                i += 1;
                continue;
            }
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
            return Err(UriError::new(
                format!("character {} at byte {i}", describe_char(c)),
                problem,
            ));
        }
        Ok(())
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
        match component.find(['[', ']']) {
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

    fn parse_authority(authority: &str) -> Result<Authority<'_>, UriError> {
        let (userinfo, host_port) = match authority.find('@') {
            Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
            None => (None, authority),
        };
        if let Some(userinfo) = userinfo {
            if let Some(i) = userinfo.find(['[', ']']) {
                return Err(UriError::new(
                    format!("userinfo `{userinfo}`"),
                    format!(
                        "character `{}` is not allowed in userinfo",
                        &userinfo[i..=i]
                    ),
                ));
            }
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

        let (host, port) = match host_port.find(':') {
            Some(i) => (&host_port[..i], Some(&host_port[i + 1..])),
            None => (host_port, None),
        };
        check_port(port)?;
        if let Some(i) = host.find(['[', ']', '@']) {
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
}

pub(crate) mod dataschema {
    use super::uri::{self, UriRef};
    use crate::type_name::split_version;
    use crate::{Profile, Severity, Violation, rule, type_version};
    /// The standard's own example dataschema, quoted in hints.
    const EXAMPLE: &str = "https://schemas.example.com/orders/created/v1.json";

    /// Checks a `dataschema`: an absolute URI or URN without fragment (CE 1.0.2 dataschema); in
    /// `intg-std-015` it must hold a version token (INTG-STD-015 R-2: "MUST point to a versioned
    /// schema endpoint").
    ///
    /// A version token is `v<major>`, `v<major>.<minor>[.<patch>]` or `<major>.<minor>.<patch>`,
    /// found as
    /// - a whole path segment: `.../orders/created/v1/schema.json`, `.../orders/1.2.0/`;
    /// - a file stem, the segment without its alphabetic extension: `.../created/v1.json`;
    /// - the last `-` or `_` separated word of a stem, when it starts with `v` or is a full
    ///   `x.y.z`: `.../order-created-v2.json`, `.../order_1.0.0.json` (a bare `-2` is not a
    ///   version: it reads as a date or a counter);
    /// - a URN segment between `:`: `urn:example:schema:order:v1`.
    ///
    /// The host, the query and the fragment are never searched, and `latest` is not a version.
    /// When several tokens appear, the last one (nearest the schema itself) counts.
    ///
    /// ```
    /// use cloudevent_rules::{check_dataschema, Profile};
    ///
    /// assert!(check_dataschema("https://schemas.example.com/orders/created/v1.json", Profile::IntgStd015).is_empty());
    /// assert!(check_dataschema("urn:example:schema:order:v1", Profile::IntgStd015).is_empty());
    ///
    /// let found = check_dataschema("https://schemas.example.com/orders/latest.json", Profile::IntgStd015);
    /// assert_eq!(found[0].rule.as_str(), "INTG-STD-015 R-2");
    /// assert_eq!(found[0].part.as_deref(), Some("segment `latest.json`"));
    /// assert!(check_dataschema("https://schemas.example.com/orders/latest.json", Profile::CloudEvents).is_empty());
    ///
    /// let found = check_dataschema("/orders/v1.json", Profile::CloudEvents);
    /// assert_eq!(found[0].rule.as_str(), "CE 1.0.2 dataschema");
    /// ```
    pub fn check_dataschema(value: &str, profile: Profile) -> Vec<Violation> {
        let mut found = Vec::new();
        let error = |problem: &'static str| {
            Violation::error(rule::CE_DATASCHEMA, "dataschema", value, problem)
                .with_hint(format!("e.g. `{EXAMPLE}`"))
        };
        if value.is_empty() {
            found.push(error("must be a non-empty absolute URI"));
            return found;
        }
        let parsed = match uri::parse(value) {
            Ok(parsed) => parsed,
            Err(bad) => {
                found.push(
                    Violation::error(rule::CE_DATASCHEMA, "dataschema", value, bad.problem)
                        .with_part(bad.part)
                        .with_hint(format!("e.g. `{EXAMPLE}`")),
                );
                return found;
            }
        };
        if parsed.scheme.is_none() {
            found.push(error(
                "must be an absolute URI or a URN, not a relative reference",
            ));
        }
        if let Some(fragment) = parsed.fragment {
            found.push(
                error("an absolute URI has no fragment; put the version in the path")
                    .with_part(format!("fragment `#{fragment}`")),
            );
        }
        if profile == Profile::IntgStd015 && last_version(&parsed).is_none() {
            let latest = segments(&parsed).find(|s| {
                let stem = file_stem(s);
                stem.eq_ignore_ascii_case("latest")
                    || stem
                        .rsplit(['-', '_'])
                        .next()
                        .is_some_and(|w| w.eq_ignore_ascii_case("latest"))
            });
            let violation = Violation::error(
            rule::INTG_R2,
            "dataschema",
            value,
            match latest {
                Some(_) => "`latest` is not a version; point to a versioned schema",
                None => {
                    "must point to a versioned schema: `v<major>`, `v<major>.<minor>[.<patch>]` or `<major>.<minor>.<patch>` in the path"
                }
            },
        )
        .with_hint(format!("e.g. `{EXAMPLE}`"));
            found.push(match latest {
                Some(segment) => violation.with_part(format!("segment `{segment}`")),
                None => violation,
            });
        }
        found
    }

    /// The path segments a version token may sit in: split on `/`, and on `:` too for a URI
    /// without authority such as a URN.
    fn segments<'a>(parsed: &UriRef<'a>) -> impl Iterator<Item = &'a str> {
        let separators: &[char] = if parsed.authority.is_some() {
            &['/']
        } else {
            &['/', ':']
        };
        parsed.path.split(separators).filter(|s| !s.is_empty())
    }

    /// A segment without its alphabetic file extension: `v1.json` → `v1`; `v1.2` stays.
    fn file_stem(segment: &str) -> &str {
        match segment.rsplit_once('.') {
            Some((stem, ext))
                if !stem.is_empty()
                    && !ext.is_empty()
                    && ext.bytes().all(|b| b.is_ascii_alphabetic()) =>
            {
                stem
            }
            _ => segment,
        }
    }

    fn number(s: &str) -> Option<u64> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    }

    /// The major of a version token: `v1`, `v1.2`, `v1.2.3` or `1.2.3`, the three-part forms
    /// possibly with a semver pre-release (`0.6.0-draft`, `v1.2.3-rc.1`).
    fn token_major(token: &str) -> Option<u64> {
        let token = match token.split_once('-') {
            Some((numbers, pre))
                if numbers.matches('.').count() == 2
                    && !pre.is_empty()
                    && pre
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.') =>
            {
                numbers
            }
            _ => token,
        };
        let (numbers, prefixed) = match token.strip_prefix(['v', 'V']) {
            Some(rest) => (rest, true),
            None => (token, false),
        };
        let mut parts = numbers.split('.');
        let major = number(parts.next()?)?;
        let mut count = 1;
        for part in parts {
            number(part)?;
            count += 1;
        }
        let valid = if prefixed { count <= 3 } else { count == 3 };
        valid.then_some(major)
    }

    /// The major of the version token a segment holds, whole, as a file stem, or as its last
    /// `-`/`_` word.
    fn segment_major(segment: &str) -> Option<u64> {
        if let Some(major) = token_major(segment) {
            return Some(major);
        }
        let stem = file_stem(segment);
        if let Some(major) = token_major(stem) {
            return Some(major);
        }
        let word = stem.rsplit(['-', '_']).next()?;
        if word.len() == stem.len() {
            return None;
        }
        token_major(word)
    }

    fn last_version(parsed: &UriRef<'_>) -> Option<u64> {
        segments(parsed).filter_map(segment_major).last()
    }

    /// The major version named by a dataschema's version token, e.g. `1` for
    /// `https://schemas.example.com/orders/created/v1.json`; `None` when it holds none (see
    /// [`check_dataschema`] for where a token is found).
    ///
    /// ```
    /// use cloudevent_rules::schema_major;
    ///
    /// assert_eq!(schema_major("https://schemas.example.com/orders/created/v1.json"), Some(1));
    /// assert_eq!(schema_major("https://schemas.example.com/orders/2.1.0/created.json"), Some(2));
    /// assert_eq!(schema_major("urn:example:schema:order:v3"), Some(3));
    /// assert_eq!(schema_major("https://schemas.example.com/orders/latest.json"), None);
    /// ```
    pub fn schema_major(dataschema: &str) -> Option<u64> {
        let parsed = uri::parse(dataschema).ok()?;
        last_version(&parsed)
    }

    /// Checks that a type's `.vN` suffix and its dataschema's major version agree: a type ending
    /// `.vN` requires major N; a schema of major 2 or more requires the type's `.vN` suffix
    /// (INTG-STD-015 R-4: a version suffix marks a breaking schema change). A schema without a
    /// version token is [`check_dataschema`]'s concern and is not reported here.
    ///
    /// ```
    /// use cloudevent_rules::{check_type_schema_agreement, Profile, Severity};
    ///
    /// let v2 = "https://schemas.example.com/orders/created/v2.json";
    /// let strict = Profile::IntgStd015;
    /// assert!(check_type_schema_agreement("com.example.order.created.v2", v2, strict).is_empty());
    /// assert!(check_type_schema_agreement("com.example.order.created", "https://schemas.example.com/orders/created/v1.json", strict).is_empty());
    ///
    /// let found = check_type_schema_agreement("com.example.order.created", v2, strict);
    /// assert_eq!(found[0].hint.as_deref(), Some("e.g. `com.example.order.created.v2`"));
    /// let found = check_type_schema_agreement("com.example.order.created.v3", v2, strict);
    /// assert_eq!(found[0].rule.as_str(), "INTG-STD-015 R-4");
    /// assert_eq!(found[0].severity, Severity::Error);
    /// let found = check_type_schema_agreement("com.example.order.created.v3", v2, Profile::CloudEvents);
    /// assert_eq!(found[0].severity, Severity::Warning);
    /// ```
    pub fn check_type_schema_agreement(
        event_type: &str,
        dataschema: &str,
        profile: Profile,
    ) -> Vec<Violation> {
        // The `.vN` type suffix is INTG-STD-015's convention (R-4); the CloudEvents spec only
        // says a schema change SHOULD get a new URI, and NL GOV versions types its own way (a
        // `v1.2.3` suffix). So outside `intg-std-015` a disagreement is a warning.
        let severity = if profile == Profile::IntgStd015 {
            Severity::Error
        } else {
            Severity::Warning
        };
        let mut found = agreement(event_type, dataschema);
        for violation in &mut found {
            violation.severity = severity;
        }
        found
    }

    fn agreement(event_type: &str, dataschema: &str) -> Vec<Violation> {
        let mut found = Vec::new();
        let Some(major) = schema_major(dataschema) else {
            return found;
        };
        match type_version(event_type) {
        Some(version) if version != major => {
            let (name, suffix) = split_version(event_type);
            found.push(
                Violation::error(
                    rule::INTG_R4,
                    "type",
                    event_type,
                    format!(
                        "its version disagrees with the dataschema `{dataschema}`, which is major version {major}"
                    ),
                )
                .with_part(format!("version `{}`", suffix.unwrap_or_default()))
                .with_hint(format!(
                    "e.g. `{name}.v{major}`, or a dataschema of major version {version}"
                )),
            );
        }
        None if major >= 2 => found.push(
            Violation::error(
                rule::INTG_R4,
                "type",
                event_type,
                format!(
                    "needs the version suffix `.v{major}`: its dataschema `{dataschema}` is major version {major}"
                ),
            )
            .with_hint(format!("e.g. `{event_type}.v{major}`")),
        ),
        _ => {}
    }
        found
    }
}

pub(crate) mod extension {
    use crate::extension::{
        MAX_EXTENSION_NAME_LEN, Match, RESERVED_NAMES, SENSITIVE_WORDS, contains_ignore_case,
        ends_with_ignore_case, letter_first, starts_with_ignore_case,
    };

    /// The R-14 word scan without any prefilter: the definition the fast one is held to.
    pub(crate) fn sensitive_word(name: &str) -> Option<(&'static str, &'static str)> {
        SENSITIVE_WORDS
            .iter()
            .find(|(word, how, _)| match how {
                Match::Anywhere => contains_ignore_case(name, word),
                Match::Affix => {
                    starts_with_ignore_case(name, word) || ends_with_ignore_case(name, word)
                }
                Match::Whole => name.eq_ignore_ascii_case(word),
            })
            .map(|&(word, _, what)| (word, what))
    }
    use crate::uri::describe_char;
    use crate::{CORE_ATTRIBUTES, Profile, Violation, rule};
    pub fn check_extension_name(name: &str, profile: Profile) -> Vec<Violation> {
        let mut found = Vec::new();
        let error = |id, problem: &'static str| Violation::error(id, "extension", name, problem);
        if name.is_empty() {
            found.push(error(rule::CE_NAMING, "must not be empty").with_hint("e.g. `region`"));
            return found;
        }
        if RESERVED_NAMES.contains(&name) {
            found.push(
                error(
                    rule::CE_NAMING,
                    "is reserved for the event payload and cannot name an extension",
                )
                .with_hint("choose another name, e.g. `payloadkind`"),
            );
            return found;
        }
        if CORE_ATTRIBUTES.contains(&name) {
            found.push(
                error(
                    rule::CE_NAMING,
                    "is a core context attribute, not an extension; set the attribute itself",
                )
                .with_hint(format!("e.g. `{name}ext` if this is a different value")),
            );
            return found;
        }

        if let Some((at, c)) = name
            .char_indices()
            .find(|&(_, c)| !(c.is_ascii_lowercase() || c.is_ascii_digit()))
        {
            let problem = if c.is_ascii_uppercase() {
                "must be lowercase; only `a-z` and `0-9` are allowed"
            } else {
                "only lowercase `a-z` and `0-9` are allowed"
            };
            let mut violation = error(rule::CE_NAMING, problem)
                .with_part(format!("character {} at byte {at}", describe_char(c)));
            let fixed: String = name
                .chars()
                .map(|c| c.to_ascii_lowercase())
                .filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                .collect();
            if !fixed.is_empty() {
                violation = violation.with_hint(format!("e.g. `{fixed}`"));
            }
            found.push(violation);
        }

        let length = name.chars().count();
        match profile {
            Profile::IntgStd015 => {
                if name.as_bytes()[0].is_ascii_digit() {
                    found.push(
                        error(
                            rule::INTG_GATEWAY_5,
                            "must start with a letter (`^[a-z][a-z0-9]{0,19}$`)",
                        )
                        .with_part(format!("first character `{}`", &name[..1]))
                        .with_hint(format!("e.g. `{}`", letter_first(name))),
                    );
                }
                if length > MAX_EXTENSION_NAME_LEN {
                    found.push(
                        error(
                            rule::INTG_GATEWAY_5,
                            "must be at most 20 characters (`^[a-z][a-z0-9]{0,19}$`)",
                        )
                        .with_part(format!("{length} characters"))
                        .with_hint(format!(
                            "e.g. `{}`",
                            name.chars()
                                .take(MAX_EXTENSION_NAME_LEN)
                                .collect::<String>()
                        )),
                    );
                }
                if let Some((word, what)) = sensitive_word(name) {
                    found.push(
                    Violation::error(
                        rule::INTG_R14,
                        "extension",
                        name,
                        format!("announces {what}; extensions must not carry credentials, tokens, session identifiers or personal data"),
                    )
                    .with_part(format!("word `{word}`"))
                    .with_hint(
                        "leave it out of the envelope: credentials belong to the transport's authentication, personal data to the access-controlled `data`",
                    ),
                );
                }
            }
            Profile::CloudEvents | Profile::NlGov => {
                if length > MAX_EXTENSION_NAME_LEN {
                    found.push(
                        Violation::warning(
                            rule::CE_NAMING,
                            "extension",
                            name,
                            "should not exceed 20 characters",
                        )
                        .with_part(format!("{length} characters")),
                    );
                }
            }
        }
        found
    }
}

pub(crate) mod envelope {
    use crate::ExtensionValue;
    use crate::envelope::{Envelope, Mode, missing, with_rule};
    use crate::extension::documented_extension;
    use crate::{AttributeKind, Policy, Profile, Violation, limits, rule};

    /// Collects findings, stopping a [`Mode::FirstError`] check once an error is in.
    struct Sink {
        mode: Mode,
        found: Vec<Violation>,
        stopped: bool,
    }

    impl Sink {
        fn add(&mut self, violations: Vec<Violation>) -> Result<(), Stopped> {
            for violation in violations {
                self.push(violation)?;
            }
            Ok(())
        }

        fn push(&mut self, violation: Violation) -> Result<(), Stopped> {
            if self.stopped {
                return Err(Stopped);
            }
            let error = violation.is_error();
            // Profiles overlap (a rule may be reached by two checks); say each finding once.
            if !self.found.contains(&violation) {
                self.found.push(violation);
            }
            if error && self.mode == Mode::FirstError {
                self.stopped = true;
                return Err(Stopped);
            }
            Ok(())
        }
    }

    struct Stopped;

    pub(crate) struct Old<'p>(pub &'p Policy);

    impl std::ops::Deref for Old<'_> {
        type Target = Policy;
        fn deref(&self) -> &Policy {
            self.0
        }
    }

    impl Old<'_> {
        pub(crate) fn check_envelope(&self, envelope: &Envelope<'_>, mode: Mode) -> Vec<Violation> {
            let mut sink = Sink {
                mode,
                found: Vec::new(),
                stopped: false,
            };
            let _ = self.run(envelope, &mut sink);
            sink.found
        }

        fn run(&self, envelope: &Envelope<'_>, sink: &mut Sink) -> Result<(), Stopped> {
            let profile = self.profile();
            match envelope.specversion {
                None => sink.push(missing("specversion", self.specversion_rule()))?,
                Some(value) => sink.add(
                    crate::check_specversion(value)
                        .into_iter()
                        .map(|v| with_rule(v, self.specversion_rule()))
                        .collect(),
                )?,
            }
            for (name, value) in [
                ("id", envelope.id),
                ("source", envelope.source),
                ("type", envelope.ty),
            ] {
                match value {
                    None => sink.push(missing(name, self.required_rule()))?,
                    Some("") => sink.push(self.empty_required(name))?,
                    Some(value) => sink.add(super::value::check_string_value(name, value))?,
                }
            }
            for (name, value) in &envelope.core()[4..] {
                if let Some(value) = value {
                    sink.add(super::value::check_string_value(name, value))?;
                }
            }
            // Optional attributes, when present, are never empty (CE 1.0.2): absent is said by
            // leaving the member out or writing `null`.
            if let Some(subject) = envelope.subject {
                sink.add(crate::check_subject(subject))?;
            }
            if let Some(source) = envelope.source.filter(|s| !s.is_empty()) {
                sink.add(crate::check_source(source, profile))?;
            }
            if let Some(ty) = envelope.ty.filter(|s| !s.is_empty()) {
                sink.add(crate::check_type(ty, self))?;
            }
            if let Some(content_type) = envelope.datacontenttype {
                sink.add(crate::check_media_type(content_type))?;
            }
            if let Some(dataschema) = envelope.dataschema {
                sink.add(super::dataschema::check_dataschema(dataschema, profile))?;
                if let Some(ty) = envelope.ty.filter(|s| !s.is_empty()) {
                    sink.add(super::dataschema::check_type_schema_agreement(
                        ty, dataschema, profile,
                    ))?;
                }
            }
            if let Some(time) = envelope.time {
                sink.add(crate::check_time(time, profile))?;
            }
            let mut extensions = Ok(());
            envelope.extensions.for_each_extension(&mut |name, value| {
                if extensions.is_ok() {
                    extensions = sink.add(self.check_extension(name, value));
                }
            });
            extensions?;
            if profile == Profile::IntgStd015 {
                if envelope.time.is_none() {
                    sink.push(Violation::warning(
                        rule::INTG_R2,
                        "time",
                        "",
                        "is absent; producers should set it for the audit trail (R-2, R-15)",
                    ))?;
                }
                if envelope.data.is_some() && envelope.datacontenttype.is_none() {
                    sink.push(Violation::warning(
                        rule::INTG_R2,
                        "datacontenttype",
                        "",
                        "is absent though the event has data; producers should include it",
                    ))?;
                }
            }
            sink.add(limits::check_attributes_size(envelope.attributes_size()))?;
            if let Some(data) = envelope.data {
                sink.add(limits::check_data_size(data))?;
            }
            if self.requires_traceability() {
                self.check_traceability(envelope, sink)?;
            }
            Ok(())
        }

        fn check_traceability(
            &self,
            envelope: &Envelope<'_>,
            sink: &mut Sink,
        ) -> Result<(), Stopped> {
            for wanted in ["correlationid", "causationid"] {
                let mut found = None;
                envelope.extensions.for_each_extension(&mut |name, value| {
                    if name == wanted {
                        found = Some(match value {
                            ExtensionValue::String(s) if !s.is_empty() => None,
                            other => Some(other.shown()),
                        });
                    }
                });
                match found {
                    Some(None) => {}
                    Some(Some(shown)) => sink.push(Violation::error(
                        rule::ADR_0003,
                        wanted,
                        shown,
                        "must be a non-empty string",
                    ))?,
                    None => sink.push(
                        Violation::error(
                            rule::ADR_0003,
                            wanted,
                            "",
                            "is required on every event (traceability)",
                        )
                        .with_hint("build events with Event::new(..).caused_by(&parent)"),
                    )?,
                }
            }
            Ok(())
        }

        pub fn check_extension(&self, name: &str, value: ExtensionValue<'_>) -> Vec<Violation> {
            let mut found = super::extension::check_extension_name(name, self.profile());
            if let Some(documented) = documented_extension(name) {
                let fits = match documented.kind {
                    AttributeKind::UriReference => matches!(
                        value,
                        ExtensionValue::String(_)
                            | ExtensionValue::Uri(_)
                            | ExtensionValue::UriReference(_)
                    ),
                    kind => value.kind() == kind,
                };
                if !fits {
                    found.push(
                    Violation::error(
                        rule::INTG_R6,
                        name.to_owned(),
                        value.shown(),
                        format!(
                            "is {}, but the {} defines `{name}` as {}",
                            value.kind(),
                            documented.documented_by,
                            documented.kind
                        ),
                    )
                    .with_hint(
                        "custom extensions must not redefine documented ones; use the documented type or another name",
                    ),
                );
                }
            }
            match value {
                ExtensionValue::String(text) => {
                    found.extend(super::value::check_string_value(name, text));
                    match name {
                        "traceparent" => found.extend(crate::check_traceparent(text)),
                        "tracestate" => found.extend(crate::check_tracestate(text)),
                        "dataref" => found.extend(crate::check_uri_reference(name, text)),
                        _ => {}
                    }
                }
                ExtensionValue::Uri(text) => found.extend(crate::check_uri(name, text)),
                ExtensionValue::UriReference(text) => {
                    found.extend(crate::check_uri_reference(name, text))
                }
                ExtensionValue::Timestamp(text) => {
                    found.extend(crate::check_time(text, Profile::CloudEvents));
                }
                ExtensionValue::Boolean(_)
                | ExtensionValue::Integer(_)
                | ExtensionValue::Binary(_) => {}
            }
            found
        }
    }
}

pub(crate) mod value {
    use crate::type_name::is_forbidden_control;
    use crate::uri::describe_char;
    use crate::{Violation, rule};
    pub fn check_string_value(attribute: &str, value: &str) -> Vec<Violation> {
        let mut found = Vec::new();
        if !may_hold_forbidden(value.as_bytes()) {
            return found;
        }
        if let Some((at, c)) = value
            .char_indices()
            .find(|&(_, c)| is_forbidden_control(c) || is_noncharacter(c))
        {
            let problem = if is_forbidden_control(c) {
                "control characters (U+0000-001F, U+007F-009F) are not allowed in a String"
            } else {
                "Unicode noncharacters (U+FDD0-FDEF, U+FFFE, U+FFFF and the like) are not allowed in a String"
            };
            found.push(
                Violation::error(rule::CE_TYPE_SYSTEM, attribute.to_owned(), value, problem)
                    .with_part(format!("character {} at byte {at}", describe_char(c))),
            );
        }
        found
    }

    /// A Unicode noncharacter: U+FDD0..=U+FDEF, or a code point ending in FFFE or FFFF.
    fn is_noncharacter(c: char) -> bool {
        let c = u32::from(c);
        (0xFDD0..=0xFDEF).contains(&c) || c & 0xFFFE == 0xFFFE
    }

    /// Whether `bytes` may hold a forbidden character: a byte below 0x20, 0x7F, 0xC2 (the lead
    /// byte of U+0080–009F in UTF-8, and of other Latin-1 characters), 0xEF (the lead byte of
    /// U+F000–FFFF, where U+FDD0–FDEF is not but U+FFFE/FFFF are; U+FDxx leads with 0xEF too)
    /// or 0xF0–0xF4 (the planes above the BMP, each ending in two noncharacters); the exact
    /// check then tells them apart. Every attribute of every parsed event passes here, so it
    /// looks at 16 bytes at a time without branching inside a block, which the compiler turns
    /// into vector compares; walking chars was a tenth of a typed parse.
    fn may_hold_forbidden(bytes: &[u8]) -> bool {
        let suspect = |b: u8| b < 0x20 || b == 0x7F || b == 0xC2 || b == 0xEF || b >= 0xF0;
        let mut blocks = bytes.chunks_exact(16);
        for block in &mut blocks {
            if block.iter().fold(false, |hit, &b| hit | suspect(b)) {
                return true;
            }
        }
        blocks.remainder().iter().any(|&b| suspect(b))
    }
}

mod tests {
    use proptest::prelude::*;

    use crate::{Envelope, ExtensionValue, Mode, Policy, Profile};

    /// Pieces of URIs, valid and near-valid: schemes, delimiters, escapes good and broken,
    /// hosts internal and public, IP literals, version tokens, characters URIs refuse.
    const URI_PIECES: &[&str] = &[
        "https",
        "http",
        "urn",
        "k8s",
        "HTTPS",
        "1a",
        "+",
        ":",
        "//",
        "/",
        "/",
        "?",
        "#",
        "@",
        "[",
        "]",
        "%",
        "%2",
        "%41",
        "%zz",
        "v1",
        "V2",
        "v1.2",
        "v1.2.3",
        "1.2.3",
        "2.0",
        ".json",
        ".",
        "latest",
        "LATEST",
        "-",
        "_",
        "-v3",
        "_1.0.0",
        "localhost",
        "example.com",
        "orders.example.com",
        "schemas.example.com",
        "10.0.0.1",
        "192.168.1.1",
        "0x7f.1",
        "[::1]",
        "[2001:db8::1]",
        "[v1.x]",
        "[zz]",
        ":8080",
        ":",
        "80a",
        "user",
        "nld",
        "oin",
        "é",
        " ",
        "\u{7}",
        "<",
        "~",
        "!",
        "=",
        "&",
        "x",
        "y",
        "9",
        "svc.cluster.local",
    ];
    const NAME_PIECES: &[&str] = &[
        "Password",
        "CVV",
        "iban",
        "otp",
        "dob",
        "pin",
        "name",
        "first",
        "last",
        "ip",
        "a",
        "z",
        "0",
        "9",
        "region",
        "id",
        "data",
        "data_base64",
        "_",
        "A",
        "É",
        "é",
        "é1",
        "token",
        "ssn",
        "sid",
        "auth",
        "phone",
        "email",
        "correlationid",
        "causationid",
        "traceparent",
        "tracestate",
        "dataref",
        "sequence",
        "averyveryverylongname",
        " ",
        "\u{0}",
    ];
    const TEXT_PIECES: &[&str] = &[
        "a",
        "Z",
        " ",
        "~",
        "\u{7f}",
        "\u{0}",
        "\n",
        "\u{1f}",
        "\u{80}",
        "\u{9f}",
        "\u{a0}",
        "é",
        "\u{fdd0}",
        "\u{fdef}",
        "\u{fdf0}",
        "\u{fffe}",
        "\u{ffff}",
        "\u{fffd}",
        "\u{1fffe}",
        "\u{10ffff}",
        "\u{10fffd}",
        "🎉",
        "日本",
        "\u{ef}",
        "0123456789abcdef",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "k=v",
        ",",
    ];
    const TYPE_PIECES: &[&str] = &[
        "com", "example", "order", "placed", ".", ".", "v1", "v2", "v10", "Example", "-", "_", "1",
        "é", "", "io", "nl",
    ];
    const TIMES: &[&str] = &[
        "2026-11-22T10:15:30.123Z",
        "2026-03-28T14:22:31+01:00",
        "2026-03-28T14:22:31+00:00",
        "2026-02-30T00:00:00Z",
        "2026-03-28 14:22:31Z",
        "",
        "x",
    ];

    fn joined(pieces: &'static [&'static str], max: usize) -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(pieces), 0..max).prop_map(|p| p.concat())
    }

    fn uri() -> impl Strategy<Value = String> {
        prop_oneof![
            joined(URI_PIECES, 14),
            (
                prop::sample::select(&["https://", "urn:", "http://", "", "/"][..]),
                joined(URI_PIECES, 10)
            )
                .prop_map(|(a, b)| a.to_owned() + &b),
            Just("https://schemas.example.com/orders/placed/v1.json".to_owned()),
            Just("https://orders.example.com/checkout".to_owned()),
        ]
    }

    fn name() -> impl Strategy<Value = String> {
        joined(NAME_PIECES, 4)
    }

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![joined(TEXT_PIECES, 24), any::<String>()]
    }

    fn type_name() -> impl Strategy<Value = String> {
        joined(TYPE_PIECES, 10)
    }

    fn profile() -> impl Strategy<Value = Profile> {
        prop::sample::select(&Profile::ALL[..])
    }

    #[derive(Debug, Clone)]
    enum Value {
        Boolean(bool),
        Integer(i32),
        String(String),
        Binary(Vec<u8>),
        Uri(String),
        UriReference(String),
        Timestamp(String),
    }

    impl Value {
        fn view(&self) -> ExtensionValue<'_> {
            match self {
                Value::Boolean(b) => ExtensionValue::Boolean(*b),
                Value::Integer(i) => ExtensionValue::Integer(*i),
                Value::String(s) => ExtensionValue::String(s),
                Value::Binary(b) => ExtensionValue::Binary(b),
                Value::Uri(s) => ExtensionValue::Uri(s),
                Value::UriReference(s) => ExtensionValue::UriReference(s),
                Value::Timestamp(s) => ExtensionValue::Timestamp(s),
            }
        }
    }

    fn value() -> impl Strategy<Value = Value> {
        prop_oneof![
            any::<bool>().prop_map(Value::Boolean),
            any::<i32>().prop_map(Value::Integer),
            text().prop_map(Value::String),
            uri().prop_map(Value::String),
            prop::collection::vec(any::<u8>(), 0..8).prop_map(Value::Binary),
            uri().prop_map(Value::Uri),
            uri().prop_map(Value::UriReference),
            prop::sample::select(TIMES).prop_map(|t| Value::Timestamp(t.to_owned())),
        ]
    }

    #[derive(Debug, Clone)]
    struct Event {
        core: [Option<String>; 8],
        extensions: Vec<(String, Value)>,
        data: Option<usize>,
    }

    fn optional(s: impl Strategy<Value = String>) -> impl Strategy<Value = Option<String>> {
        prop_oneof![1 => Just(None), 6 => s.prop_map(Some)]
    }

    fn event() -> impl Strategy<Value = Event> {
        let core = (
            optional(prop_oneof![Just("1.0".to_owned()), text()]),
            optional(text()),
            optional(uri()),
            optional(prop_oneof![
                type_name(),
                Just("com.example.order.placed".to_owned()),
                Just("com.example.order.placed.v2".to_owned())
            ]),
            optional(prop_oneof![
                Just("application/json".to_owned()),
                Just("text/plain; charset=utf-8".to_owned()),
                text()
            ]),
            optional(uri()),
            optional(text()),
            optional(prop::sample::select(TIMES).prop_map(str::to_owned)),
        );
        (
            core,
            prop::collection::vec((name(), value()), 0..5),
            prop::option::of(0usize..(1 << 20)),
        )
            .prop_map(|(c, extensions, data)| Event {
                core: [c.0, c.1, c.2, c.3, c.4, c.5, c.6, c.7],
                extensions,
                data,
            })
    }

    fn policy() -> impl Strategy<Value = Policy> {
        (
            profile(),
            prop::option::of(prop::sample::select(&["com.example", "nl.vng", "Com"][..])),
            any::<bool>(),
        )
            .prop_map(|(profile, prefix, trace)| {
                let policy = Policy::new(profile).with_required_traceability(trace);
                match prefix {
                    Some(prefix) => policy.with_type_prefix(prefix),
                    None => policy,
                }
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        #[test]
        fn uri_parse_is_unchanged(s in uri()) {
            let new = crate::uri::parse(&s).map(|u| format!("{u:?}")).map_err(|e| (e.part, e.problem.into_owned()));
            let old = super::uri::parse(&s).map(|u| format!("{u:?}")).map_err(|e| (e.part, e.problem.into_owned()));
            prop_assert_eq!(new, old);
        }

        #[test]
        fn source_and_dataschema_are_unchanged(s in uri(), t in type_name(), profile in profile()) {
            prop_assert_eq!(crate::check_dataschema(&s, profile), super::dataschema::check_dataschema(&s, profile));
            prop_assert_eq!(crate::schema_major(&s), super::dataschema::schema_major(&s));
            prop_assert_eq!(
                crate::check_type_schema_agreement(&t, &s, profile),
                super::dataschema::check_type_schema_agreement(&t, &s, profile)
            );
        }

        #[test]
        fn extension_names_are_unchanged(n in prop_oneof![name(), text()], profile in profile()) {
            prop_assert_eq!(
                crate::check_extension_name(&n, profile),
                super::extension::check_extension_name(&n, profile)
            );
        }

        #[test]
        fn string_values_are_unchanged(s in text()) {
            prop_assert_eq!(crate::check_string_value("region", &s), super::value::check_string_value("region", &s));
        }

        #[test]
        fn envelopes_get_the_same_findings(event in event(), policy in policy()) {
            let extensions: Vec<(&str, ExtensionValue<'_>)> =
                event.extensions.iter().map(|(n, v)| (n.as_str(), v.view())).collect();
            let c = &event.core;
            let envelope = Envelope {
                specversion: c[0].as_deref(),
                id: c[1].as_deref(),
                source: c[2].as_deref(),
                ty: c[3].as_deref(),
                datacontenttype: c[4].as_deref(),
                dataschema: c[5].as_deref(),
                subject: c[6].as_deref(),
                time: c[7].as_deref(),
                extensions: &extensions,
                data: event.data,
            };
            for mode in [Mode::FirstError, Mode::Collect] {
                prop_assert_eq!(
                    policy.check_envelope(&envelope, mode),
                    super::envelope::Old(&policy).check_envelope(&envelope, mode)
                );
            }
        }
    }
}
