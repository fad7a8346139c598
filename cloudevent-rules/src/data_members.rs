//! Members named twice in one object of JSON `data` (issue 27). RFC 8259 4 says the names of
//! an object SHOULD be unique and leaves a repeated name's meaning to each parser: serde_json,
//! Python and JavaScript keep the last value, others the first or refuse the document. A
//! producer and a consumer that read one `data` two ways disagree on the event; the strict
//! profile refuses it at every door that reads JSON `data`.
//!
//! The walk is one pass over the text, without recursion (its open objects and arrays are a
//! list on the heap), with a count per member name of each open object; the text is one a
//! JSON reader has already accepted, and text that is not JSON ends the walk early. A repeated member is one
//! finding with its count, and at most [`MAX_REPEATED_MEMBERS`] are listed, plus one finding
//! counting the rest: the report stays bounded whatever the input.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::profile::{Policy, Profile};
use crate::rule;
use crate::violation::Violation;

/// The most repeated members listed one by one for one `data` value; the rest are counted in
/// one more finding.
pub const MAX_REPEATED_MEMBERS: usize = 16;

impl Policy {
    /// The members named more than once in one object of JSON `data` (RFC 8259 4): an error
    /// under the strict INTG-STD-015 profile (a producer and a consumer may read different
    /// values), nothing under the others, which do not look inside `data`. Each finding names
    /// the object's JSON pointer and the member, with how often it appears; text that is not
    /// JSON gives no finding (the reader that parsed it reports that).
    ///
    /// ```
    /// use cloudevent_rules::{Policy, Profile};
    ///
    /// let strict = Policy::new(Profile::IntgStd015);
    /// let found = strict.check_data_members(r#"{"to": "a", "item": {"n": 1, "n": 2, "n": 3}, "to": "b"}"#);
    /// assert_eq!(found.len(), 2);
    /// assert_eq!(found[0].value, "/item");
    /// assert_eq!(found[0].part.as_deref(), Some("member `n`"));
    /// assert!(found[0].problem.contains("3 times"), "{}", found[0].problem);
    /// assert_eq!(found[1].value, "");
    /// assert!(strict.check_data_members(r#"{"a": {"b": 1}, "b": [{"b": 2}, {"b": 3}]}"#).is_empty());
    /// assert!(Policy::new(Profile::CloudEvents).check_data_members(r#"{"a": 1, "a": 2}"#).is_empty());
    /// ```
    pub fn check_data_members(&self, json: &str) -> Vec<Violation> {
        if self.profile() != Profile::IntgStd015 || !json.contains('{') {
            return Vec::new();
        }
        let walk = walk(json);
        let mut found: Vec<Violation> = walk.found.into_iter().map(finding).collect();
        if walk.more > 0 {
            found.push(
                Violation::error(
                    rule::RFC_8259_4,
                    "data",
                    "",
                    format!(
                        "{} more members appear more than once in an object of `data` (not listed)",
                        walk.more
                    ),
                )
                .with_hint(HINT),
            );
        }
        found
    }
}

const HINT: &str = "name each member of a JSON object once; a consumer that keeps the first value and one that keeps the last read different events";

fn finding((pointer, name, count): (String, String, usize)) -> Violation {
    let times = if count == 2 {
        "twice".to_owned()
    } else {
        format!("{count} times")
    };
    Violation::error(
        rule::RFC_8259_4,
        "data",
        pointer,
        format!("an object of `data` names a member {times}"),
    )
    .with_part(format!("member `{name}`"))
    .with_hint(HINT)
}

#[derive(Default)]
struct Walk {
    /// (object pointer, member, count), at most [`MAX_REPEATED_MEMBERS`].
    found: Vec<(String, String, usize)>,
    /// Repeated members past the bound.
    more: usize,
}

/// Objects with up to this many distinct member names count them in a list; larger ones
/// move to a hash map (a valid event's small objects then pay no hashing).
const LISTED_NAMES: usize = 16;

/// A member name as the walk keeps it: its text between the quotes when it holds no escape
/// (that text is its value), or where its decoded text sits in [`Names::decoded`]. It is
/// `Copy`, so closing an object forgets its names without dropping each one.
#[derive(Clone, Copy)]
enum Name<'a> {
    Plain(&'a str),
    Decoded(usize),
}

/// The member names of the open objects, with how often each appeared.
#[derive(Default)]
struct Names<'a> {
    /// Each open object's run of names with their counts, an inner object's run above its
    /// parent's, dropped when it closes: a valid event's objects allocate nothing once the
    /// list has grown.
    listed: Vec<(Name<'a>, usize)>,
    /// The maps of the open objects that name more than [`LISTED_NAMES`] members, an inner
    /// object's on top.
    hashed: Vec<HashMap<Cow<'a, str>, usize>>,
    /// The decoded text of every name that holds an escape.
    decoded: Vec<String>,
    /// The names seen twice in the open objects, each with the depth of its object, in the
    /// order they reached two: an inner object's above its parent's, taken when it closes.
    repeated: Vec<(usize, Name<'a>)>,
}

impl<'a> Names<'a> {
    fn text(&self, name: Name<'a>) -> &str {
        match name {
            Name::Plain(text) => text,
            Name::Decoded(at) => self.decoded.get(at).map_or("", String::as_str),
        }
    }

    fn same(&self, one: Name<'a>, other: Name<'a>) -> bool {
        match (one, other) {
            (Name::Plain(one), Name::Plain(other)) => one == other,
            _ => self.text(one) == self.text(other),
        }
    }

    /// Counts `name` once more in the object at `depth` whose names `counts` holds; a name
    /// reaching two is kept for the object's findings.
    fn add(&mut self, counts: &mut Counts, depth: usize, name: Name<'a>) {
        let count = match counts {
            Counts::Listed(start) => {
                let start = *start;
                let found = self
                    .listed
                    .get(start..)
                    .unwrap_or_default()
                    .iter()
                    .position(|&(seen, _)| self.same(seen, name));
                if let Some(i) = found {
                    let Some((_, count)) = self.listed.get_mut(start + i) else {
                        return;
                    };
                    *count += 1;
                    *count
                } else if self.listed.len().saturating_sub(start) < LISTED_NAMES {
                    self.listed.push((name, 1));
                    1
                } else {
                    self.hash(start, name);
                    *counts = Counts::Hashed;
                    1
                }
            }
            Counts::Hashed => {
                let text = match name {
                    Name::Plain(text) => text,
                    Name::Decoded(at) => self.decoded.get(at).map_or("", String::as_str),
                };
                let Some(map) = self.hashed.last_mut() else {
                    return;
                };
                if let Some(count) = map.get_mut(text) {
                    *count += 1;
                    *count
                } else {
                    map.insert(owned_text(&self.decoded, name), 1);
                    1
                }
            }
        };
        if count == 2 {
            self.repeated.push((depth, name));
        }
    }

    /// Moves the names listed from `start` on, and `name` once, to a map of their own: an
    /// object naming more than [`LISTED_NAMES`] members.
    #[cold]
    fn hash(&mut self, start: usize, name: Name<'a>) {
        let mut map = HashMap::new();
        for (seen, count) in self.listed.drain(start..) {
            map.insert(owned_text(&self.decoded, seen), count);
        }
        map.insert(owned_text(&self.decoded, name), 1);
        self.hashed.push(map);
    }

    /// Forgets the names of the object at `depth` that just closed (`open` holds its
    /// parents), after reporting those it named more than once.
    fn close(&mut self, counts: Counts, depth: usize, open: &[Open<'_>], walk: &mut Walk) {
        if self.repeated.last().is_some_and(|&(d, _)| d == depth) {
            self.report(&counts, depth, open, walk);
        }
        match counts {
            Counts::Listed(start) => self.listed.truncate(start),
            Counts::Hashed => {
                self.hashed.pop();
            }
        }
    }

    /// The findings of the object at `depth` that just closed, kept out of the walk's loop:
    /// a valid event never gets here.
    #[cold]
    fn report(&mut self, counts: &Counts, depth: usize, open: &[Open<'_>], walk: &mut Walk) {
        let from = self
            .repeated
            .iter()
            .rposition(|&(d, _)| d != depth)
            .map_or(0, |i| i + 1);
        for &(_, name) in self.repeated.get(from..).unwrap_or_default() {
            if walk.found.len() < MAX_REPEATED_MEMBERS {
                let count = self.count(counts, name).unwrap_or(2);
                let shown: String = self.text(name).chars().take(64).collect();
                walk.found.push((pointer(open), shown, count));
            } else {
                walk.more += 1;
            }
        }
        self.repeated.truncate(from);
    }

    fn count(&self, counts: &Counts, name: Name<'a>) -> Option<usize> {
        match counts {
            Counts::Listed(start) => self
                .listed
                .get(*start..)
                .unwrap_or_default()
                .iter()
                .find(|&&(seen, _)| self.same(seen, name))
                .map(|&(_, count)| count),
            Counts::Hashed => self.hashed.last()?.get(self.text(name)).copied(),
        }
    }
}

/// A name's text as a hash map keeps it: borrowed from the JSON text, or a copy of its
/// decoded text.
fn owned_text<'a>(decoded: &[String], name: Name<'a>) -> Cow<'a, str> {
    match name {
        Name::Plain(text) => Cow::Borrowed(text),
        Name::Decoded(at) => Cow::Owned(decoded.get(at).cloned().unwrap_or_default()),
    }
}

/// Where one object counts its member names.
enum Counts {
    /// In [`Names::listed`], from this index on.
    Listed(usize),
    /// In the map on top of [`Names::hashed`].
    Hashed,
}

/// An open object or array.
struct Open<'a> {
    /// For an object: where it counts its member names; `None` for an array.
    members: Option<Counts>,
    /// The member (for an object: its name as written, between the quotes) or element (for
    /// an array: its index) being read: one step of the pointer of what it holds, spelled
    /// out only when a finding needs it.
    name: &'a str,
    index: usize,
    /// For an object: the next string is a member name.
    expect_name: bool,
}

/// The JSON pointer (RFC 6901) of the object or array opened inside `open`'s last member or
/// element.
fn pointer(open: &[Open<'_>]) -> String {
    let mut pointer = String::new();
    for step in open {
        pointer.push('/');
        if step.members.is_some() {
            let name = decoded(step.name);
            pointer.push_str(&name.replace('~', "~0").replace('/', "~1"));
        } else {
            pointer.push_str(&step.index.to_string());
        }
    }
    pointer
}

/// Walks JSON text once, counting the member names of every object. Text, not bytes: a
/// string between two ASCII quotes of UTF-8 text is UTF-8, so no name is checked again.
fn walk(json: &str) -> Walk {
    let text = json.as_bytes();
    let mut walk = Walk::default();
    // Sized for usual `data` up front (8 levels, 32 names open at once): growing them from
    // nothing took five allocations and three copies a walk.
    let mut open: Vec<Open<'_>> = Vec::with_capacity(8);
    let mut names = Names {
        listed: Vec::with_capacity(32),
        ..Names::default()
    };
    let mut at = 0;
    while at < text.len() {
        match text[at] {
            b'{' | b'[' => {
                let object = text[at] == b'{';
                open.push(Open {
                    members: object.then_some(Counts::Listed(names.listed.len())),
                    name: "",
                    index: 0,
                    expect_name: object,
                });
                at += 1;
            }
            b'}' | b']' => {
                let depth = open.len();
                let Some(closed) = open.pop() else { break };
                if let Some(counts) = closed.members {
                    names.close(counts, depth, &open, &mut walk);
                }
                at += 1;
            }
            b',' => {
                if let Some(top) = open.last_mut() {
                    if top.members.is_some() {
                        top.expect_name = true;
                    } else {
                        top.index += 1;
                    }
                }
                at += 1;
            }
            b'"' => {
                let Some((end, escaped)) = string_end(text, at) else {
                    break;
                };
                let start = at + 1;
                at = end;
                let depth = open.len();
                let Some(top) = open.last_mut() else { continue };
                if !top.expect_name {
                    continue;
                }
                let Some(raw) = json.get(start..end - 1) else {
                    break;
                };
                top.expect_name = false;
                let Some(counts) = top.members.as_mut() else {
                    continue;
                };
                top.name = raw;
                let name = if escaped {
                    names.decoded.push(unescape(raw));
                    Name::Decoded(names.decoded.len() - 1)
                } else {
                    Name::Plain(raw)
                };
                names.add(counts, depth, name);
                // A name's colon, and a string value right after it, are stepped over here
                // rather than by turns of the loop.
                if text.get(at) == Some(&b':') {
                    at += 1;
                    if text.get(at) == Some(&b'"') {
                        let Some((end, _)) = string_end(text, at) else {
                            break;
                        };
                        at = end;
                    }
                }
            }
            _ => at += 1,
        }
    }
    walk
}

/// Where the string starting at the quote at `at` ends (after its closing quote), and
/// whether it holds an escape; `None` when the text ends inside it. The plain bytes between
/// are skipped 8 at a time.
fn string_end(text: &[u8], at: usize) -> Option<(usize, bool)> {
    let mut i = at + 1;
    let mut escaped = false;
    loop {
        i = crate::scan::json_quote_or_backslash(text, i);
        match *text.get(i)? {
            b'\\' => {
                escaped = true;
                i += 2;
            }
            b'"' => return Some((i + 1, escaped)),
            _ => i += 1,
        }
    }
}

/// A JSON string's body (between its quotes) with its escapes decoded; borrowed when it has
/// no escape.
fn decoded(raw: &str) -> Cow<'_, str> {
    if raw.contains('\\') {
        Cow::Owned(unescape(raw))
    } else {
        Cow::Borrowed(raw)
    }
}

/// The text of a JSON string's body (RFC 8259 7): `\uXXXX` pairs joined, a lone surrogate
/// read as U+FFFD.
fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    let hex = |chars: &mut std::str::Chars<'_>| -> Option<u32> {
        let digits: String = chars.by_ref().take(4).collect();
        u32::from_str_radix(&digits, 16).ok()
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('u') => {
                let Some(first) = hex(&mut chars) else { break };
                let code = if (0xD800..0xDC00).contains(&first) && chars.as_str().starts_with("\\u")
                {
                    let mut ahead = chars.clone();
                    ahead.next();
                    ahead.next();
                    match hex(&mut ahead) {
                        Some(low) if (0xDC00..0xE000).contains(&low) => {
                            chars = ahead;
                            0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00)
                        }
                        _ => first,
                    }
                } else {
                    first
                };
                out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
            }
            Some(other) => out.push(other),
            None => break,
        }
    }
    out
}

#[cfg(test)]
mod differential;

#[cfg(test)]
mod tests {
    use super::*;

    fn strict(json: &str) -> Vec<Violation> {
        Policy::new(Profile::IntgStd015).check_data_members(json)
    }

    #[test]
    fn a_repeated_member_is_one_finding_with_its_count_and_pointer() {
        let found = strict(r#"[0, {"a~/b": {"x": 1, "x": 2}}]"#);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].value, "/1/a~0~1b");
        assert!(found[0].problem.contains("twice"), "{}", found[0].problem);
        assert!(found[0].is_error());
        assert_eq!(found[0].rule, rule::RFC_8259_4);
    }

    #[test]
    fn a_value_right_after_its_colon_is_read() {
        // Compact text: the walk steps over a name's colon, and a string value after it,
        // itself, never past the value or into the next member.
        let found = strict(
            r#"{"a":{"x":1,"x":2},"b":["c",{"y":0,"y":1}],"s":"t\"{","s":"}","v":"","v":0}"#,
        );
        let found: Vec<(String, String)> = found
            .into_iter()
            .map(|f| (f.value.to_string(), f.part.unwrap_or_default().to_string()))
            .collect();
        assert_eq!(
            found,
            [
                ("/a".into(), "member `x`".into()),
                ("/b/1".into(), "member `y`".into()),
                ("".into(), "member `s`".into()),
                ("".into(), "member `v`".into())
            ]
        );
    }

    #[test]
    fn escaped_names_are_compared_unescaped() {
        assert_eq!(strict(r#"{"a": 1, "\u0061": 2}"#).len(), 1);
    }

    #[test]
    fn objects_listed_and_hashed_keep_their_own_counts_when_nested() {
        let many = |extra: &str| {
            let names: Vec<String> = (0..20).map(|i| format!("\"n{i}\": {i}")).collect();
            format!("{}, {extra}", names.join(", "))
        };
        let shown = |found: Vec<Violation>| -> Vec<(String, String)> {
            found
                .into_iter()
                .map(|f| (f.value.to_string(), f.part.unwrap_or_default().to_string()))
                .collect()
        };
        // A hashed parent (20 names) around a listed child; the parent repeats after it.
        let json = format!(
            "{{{}}}",
            many(r#""c": {"x": 1, "y": {"x": 0}, "x": 2}, "n3": 5"#)
        );
        assert_eq!(
            shown(strict(&json)),
            [
                ("/c".into(), "member `x`".into()),
                ("".into(), "member `n3`".into())
            ]
        );
        // A listed parent around a hashed child; the parent repeats after it.
        let json = format!(
            r#"{{"a": 1, "c": {{{}}}, "b": [{{"a": 1}}], "a": 2}}"#,
            many(r#""n0": 0"#)
        );
        assert_eq!(
            shown(strict(&json)),
            [
                ("/c".into(), "member `n0`".into()),
                ("".into(), "member `a`".into())
            ]
        );
    }

    #[test]
    fn many_repeated_members_are_bounded() {
        let mut json = String::from("{");
        for i in 0..5_000 {
            json.push_str(&format!("\"m{i}\": 1, \"m{i}\": 2, "));
        }
        json.push_str("\"end\": 0}");
        let found = strict(&json);
        assert_eq!(found.len(), MAX_REPEATED_MEMBERS + 1);
        assert!(
            found[MAX_REPEATED_MEMBERS].problem.contains("4984 more"),
            "{}",
            found[MAX_REPEATED_MEMBERS].problem
        );
        let one = format!("{{{}\"k\": 0}}", "\"k\": 0, ".repeat(25_000));
        let found = strict(&one);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].problem.contains("25001 times"),
            "{}",
            found[0].problem
        );
    }

    #[test]
    fn deep_or_broken_text_gives_no_panic() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(strict(&deep).is_empty());
        // An object the text never closes is the reader's syntax error, not a finding here.
        assert!(strict(r#"{"a": 1, "a": 2, "#).is_empty());
        assert!(strict(r#"{"a": "\"}{", "a\u00": 1, "\ud83d\ude00": 1, "😀": 2}"#).len() == 1);
        assert!(strict("not json {").is_empty());
    }
}
