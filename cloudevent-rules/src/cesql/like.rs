//! `LIKE` patterns (CESQL v1 3.4.3): `%` any run of characters, `_` one character, `\%` and
//! `\_` (and `\\`) those characters literally; compiled once when the expression is parsed.
//! The common shapes (no wildcard, `abc%`, `%abc`) are a string comparison; the others are
//! matched in one forward pass (see [`General`]).

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Pattern {
    Exact(Box<str>),
    Prefix(Box<str>),
    Suffix(Box<str>),
    General(General),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Item {
    /// `%`.
    Any,
    /// `_`.
    One,
    Char(char),
}

/// A pattern holding `_`, or `%` other than at one end: the runs between the `%`s (a
/// pattern without `%` is one run, matched against the whole text).
///
/// Matched without backtracking: the first run is matched at the start of the text, the
/// last at its end, and each run between them at its leftmost place after the one before.
/// Leftmost is never worse than any later place for the runs that follow (what lies after
/// an earlier end is a superset), so the text matches exactly when this finds a place for
/// every run. Each run is found by one pass over the text it searches (below), and the
/// searches move forward only: the whole match reads each character of the text at most
/// twice, times one machine word per 64 characters of the run (issue 38: the backtracking
/// matcher it replaces was O(text × pattern), 78 s for a hostile pattern at a gateway).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct General {
    runs: Box<[Run]>,
    /// Whether the pattern holds a `%`: without one, the single run is the whole text.
    star: bool,
}

/// A run of characters and `_` between two `%`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Run {
    items: Box<[Item]>,
    /// The run as text when it holds no `_`: found with `str::find` (two-way, linear).
    literal: Option<Box<str>>,
    /// For a run with `_`, the bit-parallel (shift-and) search's masks: per distinct
    /// character, the positions it may stand at; and the positions of `_`, which any
    /// character may stand at. Position `i` is bit `i % 64` of word `i / 64`.
    masks: Box<[(char, Box<[u64]>)]>,
    any: Box<[u64]>,
}

impl Run {
    fn new(items: &[Item]) -> Run {
        let literal = items
            .iter()
            .map(|item| match item {
                Item::Char(c) => Some(*c),
                Item::Any | Item::One => None,
            })
            .collect::<Option<String>>()
            .map(String::into_boxed_str);
        let words = items.len().div_ceil(64);
        let mut masks: Vec<(char, Box<[u64]>)> = Vec::new();
        let mut any = vec![0u64; words];
        if literal.is_none() {
            for (i, item) in items.iter().enumerate() {
                let bit = 1u64 << (i % 64);
                match item {
                    Item::One => any[i / 64] |= bit,
                    Item::Char(c) => match masks.binary_search_by_key(c, |(k, _)| *k) {
                        Ok(at) => masks[at].1[i / 64] |= bit,
                        Err(at) => {
                            let mut mask = vec![0u64; words];
                            mask[i / 64] |= bit;
                            masks.insert(at, (*c, mask.into_boxed_slice()));
                        }
                    },
                    Item::Any => {}
                }
            }
        }
        Run {
            items: items.into(),
            literal,
            masks: masks.into_boxed_slice(),
            any: any.into_boxed_slice(),
        }
    }

    /// Whether `text` starts with the run; the byte length matched.
    fn at_start(&self, text: &str) -> Option<usize> {
        let mut chars = text.char_indices();
        for item in &self.items {
            let (_, c) = chars.next()?;
            if let Item::Char(expected) = item
                && *expected != c
            {
                return None;
            }
        }
        Some(chars.next().map_or(text.len(), |(at, _)| at))
    }

    /// Where the run's leftmost occurrence in `text` ends (a byte offset).
    fn find(&self, text: &str) -> Option<usize> {
        if let Some(literal) = &self.literal {
            return text.find(&**literal).map(|at| at + literal.len());
        }
        // Shift-and: bit `i` of `state` says the last `i + 1` characters read match the
        // run's first `i + 1` items. One pass, no backtracking.
        let last = self.items.len() - 1;
        // Runs of up to 1,024 items (any pattern within the default limit) keep their state
        // on the stack: a filter's `LIKE` allocates nothing.
        let mut small = [0u64; 16];
        let mut large = Vec::new();
        let state: &mut [u64] = if self.any.len() <= small.len() {
            &mut small[..self.any.len()]
        } else {
            large.resize(self.any.len(), 0);
            &mut large
        };
        for (at, c) in text.char_indices() {
            let mask = self
                .masks
                .binary_search_by_key(&c, |(k, _)| *k)
                .ok()
                .map(|i| &self.masks[i].1);
            let mut carry = 1u64;
            for (w, word) in state.iter_mut().enumerate() {
                let next_carry = *word >> 63;
                let allowed = self.any[w] | mask.map_or(0, |m| m[w]);
                *word = ((*word << 1) | carry) & allowed;
                carry = next_carry;
            }
            if state[last / 64] & (1u64 << (last % 64)) != 0 {
                return Some(at + c.len_utf8());
            }
        }
        None
    }

    /// The machine words one character of a search costs.
    fn words(&self) -> usize {
        if self.literal.is_some() {
            1
        } else {
            self.any.len().max(1)
        }
    }
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
        if let Some((Item::Any, rest)) = items.split_last()
            && let Some(text) = literal(rest)
        {
            return Pattern::Prefix(text);
        }
        if let Some((Item::Any, rest)) = items.split_first()
            && let Some(text) = literal(rest)
        {
            return Pattern::Suffix(text);
        }
        let star = items.contains(&Item::Any);
        // `%%` is `%`: an empty run between two is no constraint, and is dropped (the
        // first and last runs stay, empty or not: they are anchored).
        let pieces: Vec<&[Item]> = items.split(|item| *item == Item::Any).collect();
        let count = pieces.len();
        let runs = pieces
            .into_iter()
            .enumerate()
            .filter(|(i, run)| *i == 0 || *i == count - 1 || !run.is_empty())
            .map(|(_, run)| Run::new(run))
            .collect();
        Pattern::General(General { runs, star })
    }

    /// Inlined where a filter matches: the common shapes are one string comparison, not
    /// worth a call; the general matcher is a call of its own.
    #[inline(always)]
    pub(crate) fn matches(&self, text: &str) -> bool {
        match self {
            Pattern::Exact(p) => text == &**p,
            Pattern::Prefix(p) => text.starts_with(&**p),
            Pattern::Suffix(p) => text.ends_with(&**p),
            Pattern::General(general) => general.matches(text),
        }
    }

    /// What matching `text` costs, in the units of
    /// [`Limits::max_evaluation_cost`](super::Limits::max_evaluation_cost): its bytes, times
    /// the words a character costs the longest run with `_`.
    pub(crate) fn cost(&self, text: &str) -> usize {
        match self {
            Pattern::Exact(_) | Pattern::Prefix(_) | Pattern::Suffix(_) => text.len(),
            Pattern::General(general) => {
                let words = general.runs.iter().map(Run::words).max().unwrap_or(1);
                text.len().saturating_mul(words)
            }
        }
    }
}

impl General {
    #[inline(never)]
    fn matches(&self, text: &str) -> bool {
        let (first, rest) = match self.runs.split_first() {
            Some(split) => split,
            None => return text.is_empty(),
        };
        let Some(head) = first.at_start(text) else {
            return false;
        };
        if !self.star {
            return head == text.len();
        }
        let Some((last, middle)) = rest.split_last() else {
            return true;
        };
        // The last run sits at the very end, after the first: as many characters as it
        // has items, counted from the end.
        let after_head = &text[head..];
        let tail = match last.items.len() {
            0 => after_head.len(),
            n => match after_head.char_indices().rev().nth(n - 1) {
                Some((at, _)) => at,
                None => return false,
            },
        };
        if last.at_start(&after_head[tail..]) != Some(after_head.len() - tail) {
            return false;
        }
        let mut between = &after_head[..tail];
        for run in middle {
            match run.find(between) {
                Some(end) => between = &between[end..],
                None => return false,
            }
        }
        true
    }
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
        assert!(Pattern::new("a_c").matches("abc"));
        assert!(!Pattern::new("a_c").matches("abcd"));
        assert!(Pattern::new("%a_c%").matches("xxabcxx"));
        assert!(Pattern::new("_%_").matches("ab"));
        assert!(!Pattern::new("_%_").matches("a"));
        assert!(Pattern::new("a%%b").matches("ab"));
        assert!(
            !Pattern::new("ab%ba").matches("aba"),
            "the ends do not overlap"
        );
    }

    /// The definition, as a table over every (pattern item, text character) pair: the
    /// oracle the one-pass matcher is held to.
    fn reference(pattern: &str, text: &str) -> bool {
        let Pattern::General(_) = Pattern::new(pattern) else {
            return Pattern::new(pattern).matches(text);
        };
        let mut items = Vec::new();
        let mut chars = pattern.chars().peekable();
        while let Some(c) = chars.next() {
            items.push(match c {
                '\\' if matches!(chars.peek(), Some('%' | '_' | '\\')) => {
                    Item::Char(chars.next().unwrap_or('\\'))
                }
                '%' => Item::Any,
                '_' => Item::One,
                c => Item::Char(c),
            });
        }
        let text: Vec<char> = text.chars().collect();
        // matched[j]: the first `i` items match the first `j` characters.
        let mut matched = vec![false; text.len() + 1];
        matched[0] = true;
        for item in &items {
            let mut next = vec![false; text.len() + 1];
            for j in 0..=text.len() {
                next[j] = match item {
                    Item::Any => matched[j] || (j > 0 && next[j - 1]),
                    Item::One => j > 0 && matched[j - 1],
                    Item::Char(c) => j > 0 && matched[j - 1] && text[j - 1] == *c,
                };
            }
            matched = next;
        }
        matched[text.len()]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]

        /// The one-pass matcher gives the definition's verdict.
        #[test]
        fn one_pass_is_the_definition(
            pattern in "[ab%_é\\\\]{0,12}",
            text in "[abé]{0,16}",
        ) {
            proptest::prop_assert_eq!(
                Pattern::new(&pattern).matches(&text),
                reference(&pattern, &text),
                "{:?} LIKE {:?}", text, pattern
            );
        }

        /// Runs longer than one machine word (64 items) carry their state across words.
        #[test]
        fn long_runs_are_the_definition(
            run in "[ab_]{60,140}",
            text in "[ab]{0,300}",
        ) {
            let pattern = format!("%{run}%");
            proptest::prop_assert_eq!(
                Pattern::new(&pattern).matches(&text),
                reference(&pattern, &text)
            );
        }
    }

    /// Issue 38: `%aaa...ab%` over `aaa...a` cost the backtracking matcher a pass of the
    /// pattern for every character (30 s for a 1 KiB pattern over 255 KB in a debug
    /// build); one pass now.
    #[test]
    fn a_hostile_pattern_is_one_pass() {
        let text = "a".repeat(255 * 1024);
        for pattern in [
            format!("%{}b%", "a".repeat(1021)),
            format!("%{}b%", "a_".repeat(510)),
            format!("{}%b%", "%_a".repeat(340)),
        ] {
            let started = std::time::Instant::now();
            assert!(!Pattern::new(&pattern).matches(&text));
            let took = started.elapsed();
            assert!(
                took.as_secs_f64() < 2.0,
                "{} bytes: {took:?}",
                pattern.len()
            );
        }
    }
}
