//! Short ASCII text kept inline, read back as `&str` without a UTF-8 check: the
//! [`Timestamp`](crate::Timestamp) every event carries is read on every attribute view (a filter, a
//! check), and `str::from_utf8` over its bytes was half of what an `exact` filter cost
//! (issue 40: 122 of 250 instructions). [`ShortText`] is text that lives inline when it is
//! short ASCII and on the heap otherwise: a received event's `id` (a ULID is 26 bytes) is
//! no allocation (issue 40).

/// At most `N` (at most 255) ASCII bytes. The fields are private to this module and
/// [`InlineText::new`] is the only constructor, so every value holds ASCII text in
/// `bytes[..len]`.
#[derive(Clone)]
pub(crate) struct InlineText<const N: usize> {
    len: u8,
    bytes: [u8; N],
}

/// `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`, the longest UTC form with nine fraction digits.
pub(crate) const TIMESTAMP_CAPACITY: usize = 30;

impl<const N: usize> InlineText<N> {
    #[cfg(test)]
    pub(crate) const CAPACITY: usize = N;

    /// The first `len` bytes of `bytes`, when they are ASCII and `len` fits; `None` otherwise.
    pub(crate) fn new(bytes: [u8; N], len: usize) -> Option<InlineText<N>> {
        let text = bytes.get(..len)?;
        let len = u8::try_from(len).ok()?;
        text.is_ascii().then_some(InlineText { len, bytes })
    }

    /// `text` copied inline, when it is ASCII and fits.
    pub(crate) fn copy(text: &str) -> Option<InlineText<N>> {
        let mut bytes = [0u8; N];
        bytes
            .get_mut(..text.len())?
            .copy_from_slice(text.as_bytes());
        InlineText::new(bytes, text.len())
    }

    pub(crate) fn as_str(&self) -> &str {
        let text = &self.bytes[..usize::from(self.len)];
        debug_assert!(text.is_ascii());
        // No safe conversion skips the check, and the check is what this type saves.
        #[allow(unsafe_code)]
        // SAFETY: `new`, the only constructor, checked that `bytes[..len]` is ASCII, which is
        // UTF-8; the fields are private to this module and never written after `new`.
        unsafe {
            std::str::from_utf8_unchecked(text)
        }
    }
}

/// Text inline when it is ASCII of at most `N` bytes, else a `String`. Compared, hashed and
/// printed as its text, whichever place holds it.
#[derive(Clone)]
pub(crate) enum ShortText<const N: usize> {
    Inline(InlineText<N>),
    Heap(String),
}

impl<const N: usize> ShortText<N> {
    /// `text`, copied inline when it fits, else into a `String`.
    pub(crate) fn copy(text: &str) -> Self {
        match InlineText::copy(text) {
            Some(inline) => ShortText::Inline(inline),
            None => ShortText::Heap(text.to_owned()),
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        match self {
            ShortText::Inline(text) => text.as_str(),
            ShortText::Heap(text) => text,
        }
    }
}

impl<const N: usize> From<String> for ShortText<N> {
    /// The `String` kept as it is: it is already allocated.
    fn from(text: String) -> Self {
        ShortText::Heap(text)
    }
}

impl<const N: usize> PartialEq for ShortText<N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl<const N: usize> Eq for ShortText<N> {}

impl<const N: usize> std::fmt::Debug for ShortText<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::{InlineText, ShortText, TIMESTAMP_CAPACITY};

    type Time = InlineText<TIMESTAMP_CAPACITY>;

    #[test]
    fn only_ascii_that_fits_is_kept() {
        assert_eq!(
            Time::copy("2026-03-28T14:22:31.482Z").map(|t| t.as_str().to_owned()),
            Some("2026-03-28T14:22:31.482Z".to_owned())
        );
        assert!(Time::copy("2026-03-28T14:22:31.482é").is_none());
        assert!(Time::copy(&"1".repeat(Time::CAPACITY + 1)).is_none());
        assert_eq!(
            Time::copy(&"1".repeat(Time::CAPACITY)).map(|t| t.as_str().len()),
            Some(Time::CAPACITY)
        );
        let mut bytes = [b'0'; TIMESTAMP_CAPACITY];
        bytes[3] = 0xC3;
        assert!(Time::new(bytes, 4).is_none());
        assert_eq!(
            Time::new(bytes, 3).map(|t| t.as_str().to_owned()),
            Some("000".to_owned())
        );
        assert!(Time::new(bytes, Time::CAPACITY + 1).is_none());
        // A capacity past what `len` counts keeps nothing inline rather than a wrong length.
        assert!(InlineText::<300>::copy(&"1".repeat(256)).is_none());
        assert_eq!(
            InlineText::<300>::copy(&"1".repeat(255)).map(|t| t.as_str().len()),
            Some(255)
        );
    }

    /// Short text is the same text wherever it lives: inline when ASCII that fits, on the heap
    /// otherwise, equal to every other holder of the same text.
    #[test]
    fn short_text_is_its_text_wherever_it_lives() {
        let cases = [
            "",
            "01JQ3V5ZKXG2M8Y4T6B9N0PCRD",
            "3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b",
            "3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0bx-longer-than-forty",
            "é",
            "order-é",
        ];
        for text in cases {
            let short = ShortText::<38>::copy(text);
            assert_eq!(short.as_str(), text);
            let inline = text.is_ascii() && text.len() <= 38;
            assert_eq!(matches!(short, ShortText::Inline(_)), inline, "{text}");
            assert_eq!(short, ShortText::from(text.to_owned()));
            assert_eq!(format!("{short:?}"), format!("{text:?}"));
        }
        assert_ne!(ShortText::<38>::copy("a"), ShortText::<38>::copy("b"));
    }
}
