use std::net::{Ipv4Addr, Ipv6Addr};

use crate::uri::{self, Authority, Host, UriRef};
use crate::{Profile, RuleId, Violation, rule};

/// The standard's own example source, quoted in hints.
const EXAMPLE: &str = "https://orders.example.com/checkout";

/// Checks a `source`: a non-empty RFC 3986 URI-reference in every profile.
///
/// `intg-std-015` adds R-5/R-14 hygiene, errors unless said otherwise:
/// - no IP literal. Private, loopback, link-local, unique-local, CGNAT and unspecified
///   addresses (10/8, 172.16/12, 192.168/16, 127/8, 169.254/16, 100.64/10, 0/8, `::1`, `::`,
///   fc00::/7, fe80::/10, fec0::/10, and IPv4-mapped IPv6 of those) are reported under R-14;
///   any other IP address under R-5 ("MUST NOT expose ... IP addresses"). IPv4 is recognised
///   in every form a resolver accepts (`inet_aton`): `3232235777`, `0x0a.0.0.1`, `012.1.1.1`,
///   `10.1`, and percent-encoded hosts are decoded first;
/// - no `localhost` or `*.localhost`, no host ending in `.internal`, `.local`,
///   `.localdomain`, `.svc` or `.home.arpa` (whole labels: `localhost.example.com` is fine;
///   trailing dots are dropped first, however many);
/// - an `http`, `https`, `ws`, `wss` or `ftp` source without `//host` (`http:/127.0.0.1/x`,
///   `http:127.0.0.1`, `http:///127.0.0.1/x`) is refused under R-5, and the host a WHATWG
///   parser (the `url` crate) reads from it is checked as above;
/// - no percent-encoded byte in a host name (R-14): WHATWG URL parsers (the `url` crate,
///   Node's `URL`) decode a host and map it (IDNA/UTS-46) before resolving it, so
///   `127.0.0.1%e3%80%82` (an ideographic full stop), `%EF%BC%91%EF%BC%92%EF%BC%97.0.0.1`
///   (full-width digits) or `local%C2%ADhost` (a soft hyphen) reach an internal host; write
///   the host in ASCII, an internationalised name in its punycode (`xn--`) form;
/// - a single-label host such as `orders-svc` warns: it is an internal name;
/// - no `k8s://` scheme, no explicit port (even `:443`), no userinfo (credentials);
/// - a relative reference warns (absolute URI RECOMMENDED). A network-path reference
///   (`//orders.example.com/checkout`, the standard's own example) names the producing
///   system as fully as an absolute URI and does not warn.
///
/// `nl-gov` warns when the source is not a `urn:nld:` URN (NL-GOV source).
///
/// A valid source returns an empty `Vec` without allocating.
///
/// ```
/// use cloudevent_rules::{check_source, Profile, Severity};
///
/// assert!(check_source("https://orders.example.com/checkout", Profile::IntgStd015).is_empty());
/// assert!(check_source("//orders.example.com/checkout", Profile::IntgStd015).is_empty());
/// assert!(check_source("urn:example:orders", Profile::IntgStd015).is_empty());
///
/// let found = check_source("https://192.168.1.1/x", Profile::IntgStd015);
/// assert_eq!(
///     found[0].to_string(),
///     "source `https://192.168.1.1/x` host `192.168.1.1`: is a private IP address (192.168.0.0/16); \
///      the source must not expose internal infrastructure (INTG-STD-015 R-14); \
///      name the producing system by its public name, e.g. `https://orders.example.com/checkout`"
/// );
/// assert_eq!(check_source("https://orders.example.com:443/", Profile::IntgStd015)[0].rule.as_str(), "INTG-STD-015 R-5");
/// assert_eq!(check_source("http://127.0.0.1%e3%80%82/x", Profile::IntgStd015)[0].rule.as_str(), "INTG-STD-015 R-14");
/// assert_eq!(check_source("/orders/checkout", Profile::IntgStd015)[0].severity, Severity::Warning);
/// assert!(check_source("/orders/checkout", Profile::CloudEvents).is_empty());
/// assert_eq!(check_source("has space", Profile::CloudEvents)[0].rule.as_str(), "CE 1.0.2 source");
/// ```
pub fn check_source(value: &str, profile: Profile) -> Vec<Violation> {
    let mut found = Vec::new();
    let id = match profile {
        Profile::IntgStd015 => rule::INTG_R5,
        Profile::CloudEvents | Profile::NlGov => rule::CE_SOURCE,
    };
    if value.is_empty() {
        found.push(
            Violation::error(id, "source", value, "must be a non-empty URI-reference")
                .with_hint(format!("e.g. `{EXAMPLE}`")),
        );
        return found;
    }
    let parsed = match uri::parse(value) {
        Ok(parsed) => parsed,
        Err(error) => {
            found.push(
                Violation::error(id, "source", value, error.problem)
                    .with_part(error.part)
                    .with_hint("a source is an RFC 3986 URI-reference, e.g. `https://orders.example.com/checkout`"),
            );
            return found;
        }
    };
    match profile {
        Profile::IntgStd015 => check_hygiene(value, &parsed, &mut found),
        Profile::NlGov => {
            let is_nld_urn = value
                .get(..8)
                .is_some_and(|p| p.eq_ignore_ascii_case("urn:nld:"));
            if !is_nld_urn {
                found.push(
                    Violation::warning(
                        rule::NL_GOV_SOURCE,
                        "source",
                        value,
                        "should be a URN in the `nld` namespace",
                    )
                    .with_hint("e.g. `urn:nld:oin:00000001823288444000:systeem:BRP-component`"),
                );
            }
        }
        Profile::CloudEvents => {}
    }
    found
}

/// The WHATWG URL standard's special schemes whose URLs always have a host (`file` may
/// have none).
const WHATWG_SPECIAL: [&str; 5] = ["http", "https", "ws", "wss", "ftp"];

fn check_hygiene(value: &str, parsed: &UriRef<'_>, found: &mut Vec<Violation>) {
    let hint = || format!("name the producing system by its public name, e.g. `{EXAMPLE}`");
    let error = |id: RuleId, part: String, problem: String| {
        Violation::error(id, "source", value, problem)
            .with_part(part)
            .with_hint(hint())
    };

    if let Some(scheme) = parsed.scheme
        && scheme.eq_ignore_ascii_case("k8s")
    {
        found.push(error(
            rule::INTG_R14,
            format!("scheme `{scheme}`"),
            "is an infrastructure identifier; the source must not expose internal infrastructure"
                .to_owned(),
        ));
    }

    // A special scheme (WHATWG URL) without `//host`: `http:/127.0.0.1/x`, `http:127.0.0.1`,
    // `http:///127.0.0.1/x`. RFC 3986 reads no host there, but browsers and the `url`
    // crate behind reqwest skip the slashes and read `http://127.0.0.1/`: refused, and
    // the host as they read it checked.
    if let Some(scheme) = parsed.scheme
        && WHATWG_SPECIAL
            .iter()
            .any(|s| scheme.eq_ignore_ascii_case(s))
        && parsed.authority.as_ref().is_none_or(|a| {
            matches!(a.host, Host::RegName("")) && a.userinfo.is_none() && a.port.is_none()
        })
    {
        let rest = value[scheme.len() + 1..].trim_start_matches('/');
        let as_read = format!("{scheme}://{rest}");
        let problem = if rest.is_empty() {
            format!("names no host; an `{scheme}` source names its host after `//`")
        } else {
            format!(
                "a URL parser (WHATWG, the `url` crate) reads it as `{as_read}`; an `{scheme}` source names its host after `//`"
            )
        };
        found.push(error(
            rule::INTG_R5,
            format!("scheme `{scheme}:` without `//host`"),
            problem,
        ));
        if let Ok(reread) = uri::parse(&as_read)
            && let Some(authority) = &reread.authority
        {
            check_authority(value, authority, found);
        }
        return;
    }

    match &parsed.authority {
        Some(authority) => check_authority(value, authority, found),
        None if parsed.scheme.is_none() => found.push(
            Violation::warning(
                rule::INTG_R5,
                "source",
                value,
                "is a relative reference; producers should use an absolute URI",
            )
            .with_hint(format!("e.g. `{EXAMPLE}`")),
        ),
        None => {}
    }
}

fn check_authority(value: &str, authority: &Authority<'_>, found: &mut Vec<Violation>) {
    let error = |id: RuleId, part: String, problem: String| {
        Violation::error(id, "source", value, problem)
            .with_part(part)
            .with_hint(format!(
                "name the producing system by its public name, e.g. `{EXAMPLE}`"
            ))
    };
    if let Some(userinfo) = authority.userinfo {
        found.push(error(
            rule::INTG_R14,
            format!("userinfo `{userinfo}@`"),
            "carries credentials; the source must not hold them".to_owned(),
        ));
    }
    if let Some(port) = authority.port {
        found.push(error(
            rule::INTG_R5,
            format!("port `:{port}`"),
            "the source must not expose a port number, not even the default one".to_owned(),
        ));
    }
    let internal = "the source must not expose internal infrastructure";
    match &authority.host {
        Host::Ipv6(address) => {
            let part = format!("host `[{address}]`");
            match ipv6_range(address) {
                Some(range) => found.push(error(
                    rule::INTG_R14,
                    part,
                    format!("is a {range}; {internal}"),
                )),
                None => found.push(error(
                    rule::INTG_R5,
                    part,
                    "is an IP address; the source must not expose IP addresses".to_owned(),
                )),
            }
        }
        Host::IpFuture(literal) => found.push(error(
            rule::INTG_R5,
            format!("host `[{literal}]`"),
            "is an IP literal; the source must not expose IP addresses".to_owned(),
        )),
        Host::RegName(raw) => {
            let decoded = uri::decode_host(raw);
            // Every trailing dot: `localhost..` is `localhost` to a resolver that trims them.
            let host = decoded.trim_end_matches('.');
            // Built only for a finding: a valid source is checked without allocating.
            let part = || format!("host `{raw}`");
            if let Some(address) = parse_ipv4(host) {
                match ipv4_range(address) {
                    Some(range) => found.push(error(
                        rule::INTG_R14,
                        part(),
                        format!("is a {range}; {internal}"),
                    )),
                    None => found.push(error(
                        rule::INTG_R5,
                        part(),
                        format!(
                            "is the IP address {address}; the source must not expose IP addresses"
                        ),
                    )),
                }
            } else if let Some(reason) = internal_host(host) {
                found.push(error(
                    rule::INTG_R14,
                    part(),
                    format!("{reason}; {internal}"),
                ));
            } else if let Some(problem) = hidden_host(raw) {
                // Checked after the address and name checks, which decode the host first
                // and give the more precise finding when it decodes to one of them.
                found.push(
                    Violation::error(rule::INTG_R14, "source", value, problem)
                        .with_part(part())
                        .with_hint(format!(
                            "write the host as it is resolved, in ASCII: an internationalised \
                             name in its punycode form (`xn--...`), e.g. `{EXAMPLE}`"
                        )),
                );
            } else if !host.is_empty() && !host.contains('.') {
                found.push(
                    Violation::warning(
                        rule::INTG_R14,
                        "source",
                        value,
                        "a single-label host is an internal name; use a fully qualified public name",
                    )
                    .with_part(part())
                    .with_hint(format!("e.g. `{EXAMPLE}`")),
                );
            }
        }
    }
}

/// Why a registered name hides the host URL parsers reach, or `None`: a percent-encoded
/// byte (or, defensively, a byte that is not visible ASCII, which [`uri::parse`] lets through
/// nowhere today). WHATWG parsers (the `url` crate behind reqwest, Node's `URL`) decode a
/// host, then map it (IDNA/UTS-46: full-width and circled digits to ASCII, `。` and `．` to
/// `.`, soft hyphens and zero-width spaces removed) before resolving it, so
/// `127.0.0.1%e3%80%82` is `127.0.0.1.` to them. Refusing the encoded byte (INTG-STD-015
/// R-14; issue 38) keeps this check std-only and sure: no host reaches a resolver other than
/// the one checked here.
fn hidden_host(raw: &str) -> Option<String> {
    let bytes = raw.as_bytes();
    let start = bytes
        .iter()
        .position(|&b| b == b'%' || !b.is_ascii_graphic())?;
    if bytes[start] != b'%' {
        let c = raw[start..]
            .chars()
            .next()
            .unwrap_or(char::REPLACEMENT_CHARACTER);
        return Some(format!(
            "holds the character {}, which URL parsers (WHATWG, the `url` crate, Node's `URL`) \
             map (IDNA/UTS-46) or refuse before resolving the host; the source must not hide its host",
            shown(c)
        ));
    }
    // The run of escapes that starts there: `%e3%80%82` is one character once decoded.
    let mut end = start;
    while bytes.get(end) == Some(&b'%') && end + 3 <= bytes.len() {
        end += 3;
    }
    let run = &raw[start..end];
    let decoded: Vec<u8> = (start..end)
        .step_by(3)
        .filter_map(|i| u8::from_str_radix(&raw[i + 1..i + 3], 16).ok())
        .collect();
    let meaning = match std::str::from_utf8(&decoded) {
        Ok(text) => {
            const SHOWN: usize = 4;
            let mut list: Vec<String> = text.chars().take(SHOWN).map(shown).collect();
            if text.chars().nth(SHOWN).is_some() {
                list.push("...".to_owned());
            }
            format!("{} once decoded", list.join(", "))
        }
        Err(_) => "bytes that are not UTF-8".to_owned(),
    };
    Some(format!(
        "holds percent-encoded bytes, first `{run}` ({meaning}): URL parsers (WHATWG, the \
         `url` crate, Node's `URL`) decode a host and map it (IDNA/UTS-46) before resolving it, \
         so the host they reach is not the one checked here; the source must not hide its host"
    ))
}

/// A character as a host finding shows it: the glyph where one shows, and the code point.
fn shown(c: char) -> String {
    let code = u32::from(c);
    // Letters, digits and the CJK and full-width punctuation a host is spoofed with show a
    // glyph; controls, spaces and format characters (soft hyphen, zero-width space) do not.
    let visible = !c.is_whitespace()
        && (c.is_ascii_graphic()
            || c.is_alphanumeric()
            || matches!(code, 0x3001..=0x303F | 0xFF01..=0xFF60));
    if c == ' ' {
        "` ` (space) U+0020".to_owned()
    } else if visible {
        format!("`{c}` U+{code:04X}")
    } else {
        format!("U+{code:04X}")
    }
}

/// Why a host name is internal, or `None`. Labels are compared whole and case-insensitively.
fn internal_host(host: &str) -> Option<&'static str> {
    let last_label = host.rsplit('.').next().unwrap_or(host);
    if last_label.eq_ignore_ascii_case("localhost") {
        return Some("is `localhost`");
    }
    if last_label.eq_ignore_ascii_case("internal") {
        return Some("ends in `.internal`, an internal domain");
    }
    if last_label.eq_ignore_ascii_case("local") {
        return Some("ends in `.local`, a link-local (mDNS) domain");
    }
    if last_label.eq_ignore_ascii_case("localdomain") {
        return Some("ends in `.localdomain`, the local host's own domain");
    }
    if last_label.eq_ignore_ascii_case("svc") {
        return Some("ends in `.svc`, a Kubernetes service name");
    }
    let arpa = "home.arpa";
    let is_home_arpa = host.eq_ignore_ascii_case(arpa)
        || (host.len() > arpa.len()
            && host.as_bytes()[host.len() - arpa.len() - 1] == b'.'
            && host.as_bytes()[host.len() - arpa.len()..].eq_ignore_ascii_case(arpa.as_bytes()));
    if is_home_arpa {
        return Some("ends in `.home.arpa`, a residential network domain");
    }
    None
}

/// The internal range an IPv4 address falls in, or `None` for other addresses.
fn ipv4_range(address: Ipv4Addr) -> Option<&'static str> {
    let [a, b, ..] = address.octets();
    Some(match (a, b) {
        (10, _) => "private IP address (10.0.0.0/8)",
        (172, 16..=31) => "private IP address (172.16.0.0/12)",
        (192, 168) => "private IP address (192.168.0.0/16)",
        (127, _) => "loopback IP address (127.0.0.0/8)",
        (169, 254) => "link-local IP address (169.254.0.0/16)",
        (100, 64..=127) => "shared (CGNAT) IP address (100.64.0.0/10)",
        (0, _) => "unspecified IP address (0.0.0.0/8)",
        _ => return None,
    })
}

/// The internal range an IPv6 address falls in, or `None` for other addresses.
fn ipv6_range(address: &Ipv6Addr) -> Option<&'static str> {
    if address.is_loopback() {
        return Some("loopback IP address (::1)");
    }
    if address.is_unspecified() {
        return Some("unspecified IP address (::)");
    }
    let first = address.segments()[0];
    if first & 0xfe00 == 0xfc00 {
        return Some("unique-local IP address (fc00::/7)");
    }
    if first & 0xffc0 == 0xfe80 {
        return Some("link-local IP address (fe80::/10)");
    }
    if first & 0xffc0 == 0xfec0 {
        return Some("site-local IP address (fec0::/10)");
    }
    address.to_ipv4_mapped().and_then(ipv4_range)
}

/// An IPv4 address in any form `inet_aton` and URL parsers accept: one to four parts split
/// by dots, each decimal, `0x` hexadecimal or `0`-prefixed octal, the last part filling the
/// remaining bytes (`10.1` is 10.0.0.1, `3232235777` is 192.168.1.1).
pub(crate) fn parse_ipv4(host: &str) -> Option<Ipv4Addr> {
    if host.is_empty() {
        return None;
    }
    let mut parts = [0u64; 4];
    let mut count = 0;
    for part in host.split('.') {
        if count == 4 {
            return None;
        }
        parts[count] = parse_ipv4_part(part)?;
        count += 1;
    }
    let (last, leading) = (parts[count - 1], &parts[..count - 1]);
    if leading.iter().any(|&p| p > 255) {
        return None;
    }
    let last_bits = 8 * (5 - count) as u32;
    if last >= 1u64 << last_bits {
        return None;
    }
    let mut number = last;
    for (i, &p) in leading.iter().enumerate() {
        number |= p << (24 - 8 * i as u32);
    }
    u32::try_from(number).ok().map(Ipv4Addr::from)
}

fn parse_ipv4_part(part: &str) -> Option<u64> {
    let (digits, radix) =
        if let Some(hex) = part.strip_prefix("0x").or_else(|| part.strip_prefix("0X")) {
            (hex, 16)
        } else if part.len() > 1 && part.starts_with('0') {
            (&part[1..], 8)
        } else {
            (part, 10)
        };
    if digits.is_empty() {
        // `0x` alone is zero to URL parsers; an empty part is not a number.
        return (radix == 16).then_some(0);
    }
    if digits.len() > 12 || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u64::from_str_radix(digits, radix).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    fn summary(found: &[Violation]) -> Vec<(&'static str, Severity, Option<&str>)> {
        found
            .iter()
            .map(|v| (v.rule.as_str(), v.severity, v.part.as_deref()))
            .collect()
    }

    #[test]
    fn accepts_clean_sources() {
        for ok in [
            "https://orders.example.com/checkout",
            "//orders.example.com/checkout",
            "urn:example:orders:checkout",
            "urn:nld:oin:00000001823288444000:systeem:BRP-component",
            "https://localhost.example.com/x",
            "https://internal.example.com/x",
            "https://local.example.com/x",
            "https://orders.example.com",
            "https://1password.example.com/x",
            "https://123.example.com/x",
            "https://orders.example.com/checkout?region=eu",
            "tag:example.com,2026:orders",
            "mailto:orders@example.com",
        ] {
            assert!(
                check_source(ok, Profile::IntgStd015).is_empty(),
                "{ok}: {:?}",
                check_source(ok, Profile::IntgStd015)
            );
        }
    }

    #[test]
    fn refuses_internal_ip_literals_in_every_form() {
        for (bad, part) in [
            ("https://10.0.0.1/x", "host `10.0.0.1`"),
            ("https://172.16.5.4/x", "host `172.16.5.4`"),
            ("https://172.31.255.255/x", "host `172.31.255.255`"),
            ("https://192.168.1.1/x", "host `192.168.1.1`"),
            ("https://127.0.0.1/x", "host `127.0.0.1`"),
            ("https://169.254.169.254/latest", "host `169.254.169.254`"),
            ("https://100.64.0.1/x", "host `100.64.0.1`"),
            ("https://0.0.0.0/x", "host `0.0.0.0`"),
            ("https://3232235777/x", "host `3232235777`"),
            ("https://0x0a.0.0.1/x", "host `0x0a.0.0.1`"),
            ("https://0xC0A80101/x", "host `0xC0A80101`"),
            ("https://012.1.1.1/x", "host `012.1.1.1`"),
            ("https://10.1/x", "host `10.1`"),
            ("https://127.1/x", "host `127.1`"),
            ("https://192.168.257/x", "host `192.168.257`"),
            ("https://10.0.0.1./x", "host `10.0.0.1.`"),
            ("https://%31%30.0.0.1/x", "host `%31%30.0.0.1`"),
            ("https://[::1]/x", "host `[::1]`"),
            ("https://[fc00::1]/x", "host `[fc00::1]`"),
            ("https://[fd12:3456::1]/x", "host `[fd12:3456::1]`"),
            ("https://[fe80::1]/x", "host `[fe80::1]`"),
            (
                "https://[::ffff:192.168.1.1]/x",
                "host `[::ffff:192.168.1.1]`",
            ),
            ("https://[::ffff:7f00:1]/x", "host `[::ffff:127.0.0.1]`"),
            ("//10.0.0.1/x", "host `10.0.0.1`"),
        ] {
            let found = check_source(bad, Profile::IntgStd015);
            assert_eq!(
                summary(&found),
                [("INTG-STD-015 R-14", Severity::Error, Some(part))],
                "{bad}"
            );
            assert!(check_source(bad, Profile::CloudEvents).is_empty(), "{bad}");
        }
    }

    #[test]
    fn refuses_public_ip_literals_under_r5() {
        for bad in [
            "https://203.0.113.7/x",
            "https://[2001:db8::1]/x",
            "https://8.8.8.8",
            "https://[v1.x]/",
        ] {
            let found = check_source(bad, Profile::IntgStd015);
            assert_eq!(found.len(), 1, "{bad}");
            assert_eq!(found[0].rule, rule::INTG_R5, "{bad}");
        }
        assert_eq!(
            check_source("https://134744072/x", Profile::IntgStd015)[0].problem,
            "is the IP address 8.8.8.8; the source must not expose IP addresses"
        );
    }

    /// Issue 27: a special scheme without `//` is read by WHATWG parsers with a host.
    #[test]
    fn refuses_a_special_scheme_without_slashes_and_checks_the_host_as_whatwg_reads_it() {
        for (bad, host) in [
            ("http:/127.0.0.1/x", "host `127.0.0.1`"),
            ("http:127.0.0.1", "host `127.0.0.1`"),
            ("http:///127.0.0.1/x", "host `127.0.0.1`"),
        ] {
            let found = check_source(bad, Profile::IntgStd015);
            assert_eq!(
                summary(&found),
                [
                    (
                        "INTG-STD-015 R-5",
                        Severity::Error,
                        Some(&*format!(
                            "scheme `{}:` without `//host`",
                            &bad[..bad.find(':').unwrap()]
                        ))
                    ),
                    ("INTG-STD-015 R-14", Severity::Error, Some(host)),
                ],
                "{bad}"
            );
        }
        let found = check_source("https:orders.example.com/x", Profile::IntgStd015);
        assert_eq!(summary(&found).len(), 1, "{found:?}");
        // Other schemes, and `file:`, have no host to read there.
        assert!(check_source("urn:example:orders", Profile::IntgStd015).is_empty());
        assert!(check_source("mailto:orders@example.com", Profile::IntgStd015).is_empty());
    }

    #[test]
    fn refuses_internal_hosts_by_label() {
        for (bad, part) in [
            ("https://localhost/x", "host `localhost`"),
            ("https://LOCALHOST/x", "host `LOCALHOST`"),
            ("https://localhost./x", "host `localhost.`"),
            ("https://api.localhost/x", "host `api.localhost`"),
            ("https://orders.internal/x", "host `orders.internal`"),
            (
                "https://orders.svc.cluster.local/x",
                "host `orders.svc.cluster.local`",
            ),
            ("https://printer.local", "host `printer.local`"),
            ("https://nas.home.arpa/x", "host `nas.home.arpa`"),
            ("https://%6cocalhost/x", "host `%6cocalhost`"),
            (
                "https://localhost.localdomain/x",
                "host `localhost.localdomain`",
            ),
            ("https://orders.default.svc/x", "host `orders.default.svc`"),
            ("https://localhost../x", "host `localhost..`"),
        ] {
            let found = check_source(bad, Profile::IntgStd015);
            assert_eq!(
                summary(&found),
                [("INTG-STD-015 R-14", Severity::Error, Some(part))],
                "{bad}"
            );
        }
    }

    /// Issue 38 item 4: hosts that WHATWG parsers (the `url` crate, Node's `URL`) decode and
    /// map (IDNA/UTS-46) to internal addresses. A percent-encoded byte in a host is refused
    /// under R-14 whatever it decodes to: the check cannot see the host those parsers reach.
    #[test]
    fn refuses_percent_encoded_hosts_that_url_parsers_decode() {
        for (bad, part, shown) in [
            (
                "http://127.0.0.1%e3%80%82/x",
                "host `127.0.0.1%e3%80%82`",
                "`%e3%80%82` (`。` U+3002",
            ),
            (
                "http://%EF%BC%91%EF%BC%92%EF%BC%97.0.0.1/x",
                "host `%EF%BC%91%EF%BC%92%EF%BC%97.0.0.1`",
                "`%EF%BC%91%EF%BC%92%EF%BC%97` (`１` U+FF11, `２` U+FF12, `７` U+FF17",
            ),
            (
                "http://169.254.169.254%EF%BC%8E/x",
                "host `169.254.169.254%EF%BC%8E`",
                "`%EF%BC%8E` (`．` U+FF0E",
            ),
            (
                "http://%E2%91%A0%E2%91%A1%E2%91%A6.0.0.1/x",
                "host `%E2%91%A0%E2%91%A1%E2%91%A6.0.0.1`",
                "`%E2%91%A0%E2%91%A1%E2%91%A6` (`①` U+2460, `②` U+2461, `⑦` U+2466",
            ),
            (
                "http://local%C2%ADhost/x",
                "host `local%C2%ADhost`",
                "`%C2%AD` (U+00AD",
            ),
            (
                "http://local%E2%80%8Bhost/x",
                "host `local%E2%80%8Bhost`",
                "`%E2%80%8B` (U+200B",
            ),
            (
                "http://metadata.google.internal%E3%80%82/x",
                "host `metadata.google.internal%E3%80%82`",
                "`%E3%80%82` (`。` U+3002",
            ),
            (
                "http://%EF%BD%8C%EF%BD%8F%EF%BD%83%EF%BD%81%EF%BD%8C%EF%BD%88%EF%BD%8F%EF%BD%93%EF%BD%94/x",
                "host `%EF%BD%8C%EF%BD%8F%EF%BD%83%EF%BD%81%EF%BD%8C%EF%BD%88%EF%BD%8F%EF%BD%93%EF%BD%94`",
                "(`ｌ` U+FF4C, `ｏ` U+FF4F",
            ),
            (
                "http://127.0.0.1%09/x",
                "host `127.0.0.1%09`",
                "`%09` (U+0009",
            ),
            (
                "http://127.0.0.1%20/x",
                "host `127.0.0.1%20`",
                "`%20` (` ` (space) U+0020",
            ),
            (
                "http://127.0.0.1%00/x",
                "host `127.0.0.1%00`",
                "`%00` (U+0000",
            ),
            (
                "http://127.0.0.1%40evil.example.com/x",
                "host `127.0.0.1%40evil.example.com`",
                "`%40` (`@` U+0040",
            ),
            (
                "https://%6frders.example.com/x",
                "host `%6frders.example.com`",
                "`%6f` (`o` U+006F",
            ),
            (
                "http:/127.0.0.1%e3%80%82/x",
                "host `127.0.0.1%e3%80%82`",
                "`%e3%80%82`",
            ),
        ] {
            let found = check_source(bad, Profile::IntgStd015);
            let r14: Vec<_> = found.iter().filter(|v| v.rule == rule::INTG_R14).collect();
            assert_eq!(r14.len(), 1, "{bad}: {found:?}");
            assert_eq!(r14[0].severity, Severity::Error, "{bad}");
            assert_eq!(r14[0].part.as_deref(), Some(part), "{bad}");
            assert!(r14[0].problem.contains(shown), "{bad}: {}", r14[0].problem);
            assert!(
                r14[0].problem.contains("percent-encoded"),
                "{bad}: {}",
                r14[0].problem
            );
            assert!(
                r14[0]
                    .hint
                    .as_deref()
                    .is_some_and(|h| h.contains("punycode")),
                "{bad}: {:?}",
                r14[0].hint
            );
            // CloudEvents alone asks for a URI-reference, which these are.
            assert!(check_source(bad, Profile::CloudEvents).is_empty(), "{bad}");
        }
        // Raw non-ASCII is no URI at all (RFC 3986 2): refused before any host is read.
        let found = check_source("http://ｌｏｃａｌｈｏｓｔ/x", Profile::IntgStd015);
        assert_eq!(
            summary(&found),
            [(
                "INTG-STD-015 R-5",
                Severity::Error,
                Some("character `ｌ` at byte 7")
            )]
        );
    }

    /// The cloud metadata endpoint (`169.254.169.254`, AWS, GCP, Azure) is link-local.
    #[test]
    fn the_cloud_metadata_address_is_internal() {
        let found = check_source(
            "http://169.254.169.254/latest/meta-data",
            Profile::IntgStd015,
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].rule, rule::INTG_R14);
        assert!(
            found[0].problem.contains("169.254.0.0/16"),
            "{}",
            found[0].problem
        );
    }

    #[test]
    fn refuses_ports_userinfo_and_k8s() {
        for (bad, expected) in [
            (
                "https://orders.example.com:443/x",
                ("INTG-STD-015 R-5", Severity::Error, Some("port `:443`")),
            ),
            (
                "https://orders.example.com:/x",
                ("INTG-STD-015 R-5", Severity::Error, Some("port `:`")),
            ),
            (
                "https://user:pw@orders.example.com/x",
                (
                    "INTG-STD-015 R-14",
                    Severity::Error,
                    Some("userinfo `user:pw@`"),
                ),
            ),
            (
                "k8s://cluster/ns/orders",
                ("INTG-STD-015 R-14", Severity::Error, Some("scheme `k8s`")),
            ),
            (
                "https://orders-svc/x",
                (
                    "INTG-STD-015 R-14",
                    Severity::Warning,
                    Some("host `orders-svc`"),
                ),
            ),
        ] {
            let found = check_source(bad, Profile::IntgStd015);
            assert!(
                summary(&found).contains(&expected),
                "{bad}: {:?}",
                summary(&found)
            );
        }
        assert_eq!(
            check_source("k8s://cluster/ns/orders", Profile::IntgStd015).len(),
            2
        );
    }

    #[test]
    fn relative_references() {
        for relative in ["/orders/checkout", "orders/checkout", "orders"] {
            let found = check_source(relative, Profile::IntgStd015);
            assert_eq!(
                summary(&found),
                [("INTG-STD-015 R-5", Severity::Warning, None)],
                "{relative}"
            );
            assert!(check_source(relative, Profile::CloudEvents).is_empty());
        }
    }

    #[test]
    fn rejects_malformed_references() {
        for (bad, part) in [
            ("has space", "character ` ` (space) at byte 3"),
            ("https://example.com/ä", "character `ä` at byte 20"),
            ("https://example.com/%G1", "`%G1` at byte 20"),
            ("1http://x", "`1http:`"),
        ] {
            for profile in Profile::ALL {
                let found = check_source(bad, profile);
                assert_eq!(found.len(), 1, "{bad}");
                assert_eq!(found[0].severity, Severity::Error);
                assert_eq!(found[0].part.as_deref(), Some(part), "{bad}");
            }
        }
        assert_eq!(
            check_source("", Profile::CloudEvents)[0].rule,
            rule::CE_SOURCE
        );
        assert_eq!(check_source("", Profile::IntgStd015)[0].rule, rule::INTG_R5);
    }

    #[test]
    fn nl_gov_prefers_nld_urns() {
        assert!(
            check_source(
                "urn:nld:gemeente-nijmegen.burgerzakensysteem",
                Profile::NlGov
            )
            .is_empty()
        );
        assert!(check_source("URN:NLD:kvn:09220932", Profile::NlGov).is_empty());
        let found = check_source("https://brp.example.nl/", Profile::NlGov);
        assert_eq!(
            summary(&found),
            [("NL-GOV source", Severity::Warning, None)]
        );
    }

    #[test]
    fn ipv4_forms() {
        for (host, expected) in [
            ("192.168.1.1", Some([192, 168, 1, 1])),
            ("3232235777", Some([192, 168, 1, 1])),
            ("0x0a.0.0.1", Some([10, 0, 0, 1])),
            ("012.1.1.1", Some([10, 1, 1, 1])),
            ("10.1", Some([10, 0, 0, 1])),
            ("10.1.2", Some([10, 1, 0, 2])),
            ("0x", Some([0, 0, 0, 0])),
            ("256.1.1.1", None),
            ("1.2.3.4.5", None),
            ("4294967296", None),
            ("09.1.1.1", None),
            ("example.com", None),
            ("1.2.3.", None),
            ("+1.2.3.4", None),
            ("", None),
        ] {
            assert_eq!(parse_ipv4(host), expected.map(Ipv4Addr::from), "{host}");
        }
    }
}
