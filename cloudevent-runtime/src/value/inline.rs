//! Short ASCII text kept inline, read back as `&str` without a UTF-8 check: the
//! [`Timestamp`](crate::Timestamp) every event carries is read on every attribute view (a filter, a
//! check), and `str::from_utf8` over its bytes was half of what an `exact` filter cost
//! (issue 40: 122 of 250 instructions).

/// At most [`InlineText::CAPACITY`] ASCII bytes. The fields are private to this module and
/// [`InlineText::new`] is the only constructor, so every value holds ASCII text in
/// `bytes[..len]`.
#[derive(Clone)]
pub(crate) struct InlineText {
    len: u8,
    bytes: [u8; InlineText::CAPACITY],
}

impl InlineText {
    /// `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`, the longest UTC form with nine fraction digits.
    pub(crate) const CAPACITY: usize = 30;

    /// The first `len` bytes of `bytes`, when they are ASCII and `len` fits; `None` otherwise.
    pub(crate) fn new(bytes: [u8; InlineText::CAPACITY], len: usize) -> Option<InlineText> {
        let text = bytes.get(..len)?;
        text.is_ascii().then_some(InlineText {
            len: len as u8,
            bytes,
        })
    }

    /// `text` copied inline, when it is ASCII and fits.
    pub(crate) fn copy(text: &str) -> Option<InlineText> {
        let mut bytes = [0u8; InlineText::CAPACITY];
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

#[cfg(test)]
mod tests {
    use super::InlineText;

    #[test]
    fn only_ascii_that_fits_is_kept() {
        assert_eq!(
            InlineText::copy("2026-03-28T14:22:31.482Z").map(|t| t.as_str().to_owned()),
            Some("2026-03-28T14:22:31.482Z".to_owned())
        );
        assert!(InlineText::copy("2026-03-28T14:22:31.482é").is_none());
        assert!(InlineText::copy(&"1".repeat(InlineText::CAPACITY + 1)).is_none());
        assert_eq!(
            InlineText::copy(&"1".repeat(InlineText::CAPACITY)).map(|t| t.as_str().len()),
            Some(InlineText::CAPACITY)
        );
        let mut bytes = [b'0'; InlineText::CAPACITY];
        bytes[3] = 0xC3;
        assert!(InlineText::new(bytes, 4).is_none());
        assert_eq!(
            InlineText::new(bytes, 3).map(|t| t.as_str().to_owned()),
            Some("000".to_owned())
        );
        assert!(InlineText::new(bytes, InlineText::CAPACITY + 1).is_none());
    }
}
