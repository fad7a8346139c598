//! The steps over JSON text that both of the registry's readers take: the borrowed tree
//! (`borrowed.rs`) and the text check (`text_check.rs`). The text was read as JSON once
//! already (it is an event's `data`), but neither reader relies on that: anything unexpected
//! is `None`.

/// A position in JSON text, and the steps over it.
pub(super) trait Lex<'a> {
    /// The whole text.
    fn text(&self) -> &'a str;

    /// The position, a byte offset into [`Lex::text`].
    fn at(&mut self) -> &mut usize;

    /// The byte at the position.
    fn peek(&mut self) -> Option<u8> {
        let at = *self.at();
        self.text().as_bytes().get(at).copied()
    }

    /// Steps over blanks (RFC 8259 2: space, tab, line feed, carriage return).
    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            *self.at() += 1;
        }
    }

    /// Steps over `byte` after blanks, or `None`.
    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_blanks();
        (self.peek()? == byte).then(|| *self.at() += 1)
    }

    /// Steps over `word` (`true`, `false`, `null`), or `None`.
    fn literal(&mut self, word: &str) -> Option<()> {
        let end = *self.at() + word.len();
        (self.text().as_bytes().get(*self.at()..end)? == word.as_bytes()).then(|| *self.at() = end)
    }

    /// Steps over the number at the position: its value when it is an integer of up to 18
    /// digits, written as serde_json reads an integer (no leading zero, not `-0`, which is a
    /// float there), else `None`, and the text of the whole number.
    fn number(&mut self) -> (Option<i64>, &'a str) {
        let bytes = self.text().as_bytes();
        let start = *self.at();
        let digits = start + usize::from(bytes.get(start) == Some(&b'-'));
        let mut at = digits;
        while bytes.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        let integer_end = at;
        while matches!(
            bytes.get(at),
            Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
        ) {
            at += 1;
        }
        *self.at() = at;
        let count = integer_end - digits;
        let short = at == integer_end
            && (count == 1 || ((2..=18).contains(&count) && bytes[digits] != b'0'));
        let value = short
            .then(|| {
                // Up to 18 digits: below 2^63, so the cast and the negation are exact.
                let magnitude = bytes[digits..integer_end]
                    .iter()
                    .fold(0_i64, |n, d| n * 10 + i64::from(d - b'0'));
                if digits == start {
                    magnitude
                } else {
                    -magnitude
                }
            })
            .filter(|&value| value != 0 || digits == start);
        (value, self.text().get(start..at).unwrap_or_default())
    }
}
