//! `LIKE` patterns (CESQL v1 3.4.3): `%` any run of characters, `_` one character, `\%` and
//! `\_` (and `\\`) those characters literally; compiled once when the expression is parsed.
//! The common shapes (no wildcard, `abc%`, `%abc`) are a string comparison.

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Pattern {
    Exact(Box<str>),
    Prefix(Box<str>),
    Suffix(Box<str>),
    General(Box<[Item]>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Item {
    /// `%`.
    Any,
    /// `_`.
    One,
    Char(char),
}

impl Pattern {
    pub(crate) fn new(pattern: &str) -> Pattern {
        let mut items = Vec::new();
        let mut chars = pattern.chars().peekable();
        while let Some(c) = chars.next() {
            items.push(match c {
                '\\' => match chars.peek() {
                    Some(&next @ ('%' | '_' | '\\')) => {
                        chars.next();
                        Item::Char(next)
                    }
                    _ => Item::Char('\\'),
                },
                '%' => Item::Any,
                '_' => Item::One,
                c => Item::Char(c),
            });
        }
        let literal = |items: &[Item]| -> Option<Box<str>> {
            items
                .iter()
                .map(|item| match item {
                    Item::Char(c) => Some(*c),
                    Item::Any | Item::One => None,
                })
                .collect::<Option<String>>()
                .map(String::into_boxed_str)
        };
        if let Some(text) = literal(&items) {
            return Pattern::Exact(text);
        }
        if let Some((Item::Any, rest)) = items.split_last() {
            if let Some(text) = literal(rest) {
                return Pattern::Prefix(text);
            }
        }
        if let Some((Item::Any, rest)) = items.split_first() {
            if let Some(text) = literal(rest) {
                return Pattern::Suffix(text);
            }
        }
        Pattern::General(items.into_boxed_slice())
    }

    pub(crate) fn matches(&self, text: &str) -> bool {
        match self {
            Pattern::Exact(p) => text == &**p,
            Pattern::Prefix(p) => text.starts_with(&**p),
            Pattern::Suffix(p) => text.ends_with(&**p),
            Pattern::General(items) => wildcard(items, text),
        }
    }
}

/// The wildcard match with one backtrack point (the last `%`): linear in practice, at worst
/// the pattern's length times the text's, never exponential.
fn wildcard(items: &[Item], text: &str) -> bool {
    let mut p = 0;
    let mut t = 0;
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        let c = text[t..].chars().next().unwrap_or('\0');
        match items.get(p) {
            Some(Item::Any) => {
                star = Some((p, t));
                p += 1;
                continue;
            }
            Some(Item::One) => {
                p += 1;
                t += c.len_utf8();
                continue;
            }
            Some(Item::Char(expected)) if *expected == c => {
                p += 1;
                t += c.len_utf8();
                continue;
            }
            _ => {}
        }
        match star {
            Some((star_p, star_t)) => {
                let skipped = text[star_t..].chars().next().map_or(1, char::len_utf8);
                star = Some((star_p, star_t + skipped));
                p = star_p + 1;
                t = star_t + skipped;
            }
            None => return false,
        }
    }
    items[p..].iter().all(|item| *item == Item::Any)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_recognised() {
        assert_eq!(Pattern::new("abc"), Pattern::Exact("abc".into()));
        assert_eq!(Pattern::new("com.%"), Pattern::Prefix("com.".into()));
        assert_eq!(Pattern::new("%.error"), Pattern::Suffix(".error".into()));
        assert_eq!(Pattern::new("a\\%"), Pattern::Exact("a%".into()));
        assert!(matches!(Pattern::new("a%b"), Pattern::General(_)));
    }

    #[test]
    fn wildcards_match_as_the_spec_says() {
        let p = Pattern::new("_b%");
        for yes in ["ab", "abc", "abcd1"] {
            assert!(p.matches(yes), "{yes}");
        }
        for no in ["b", "acd", "aBc"] {
            assert!(!p.matches(no), "{no}");
        }
        assert!(Pattern::new("a%b%c").matches("azzzbzzzc"));
        assert!(!Pattern::new("a%b%c").matches("azzzbzzz"));
        assert!(Pattern::new("é_ü").matches("éxü"));
        assert!(Pattern::new("%%").matches(""));
    }
}
