//! The JSON event format document binary-mode parts stand for: written for a validator that
//! lists every finding ([`BinaryParts::to_structured_document`]), and measured without being
//! written, so the reader holds the parts to the R-11 size limit on the document's length.

use super::{
    BinaryParts, BindingError, BodyData, PartsRef, TypedExtension, body_data, hint,
    not_cloud_events,
};
use crate::Binary;
use crate::FormatError;

/// At least [`document_len`], from the byte lengths alone: a string takes at most six bytes a
/// byte in JSON (`\u00XX`) plus its quotes. With hints (typed values from the transport or
/// the payload, rare) it is the exact length.
pub(super) fn document_len_bound(
    parts: &PartsRef<'_>,
    hints: &[TypedExtension],
    data: Option<&BodyData>,
) -> usize {
    if !hints.is_empty() {
        return document_len(parts, hints, data);
    }
    let string = |len: usize| 2 + 6 * len;
    let mut members = 0_usize;
    let mut len = 2; // `{` and `}`
    for (name, value) in parts.attributes.iter() {
        members += 1;
        len += string(name.len()) + 1 + string(value.len());
    }
    if let Some(content_type) = &parts.datacontenttype {
        members += 1;
        len += "\"datacontenttype\":".len() + string(content_type.len());
    }
    match data {
        None => {}
        Some(BodyData::Json(text)) => {
            members += 1;
            len += "\"data\":".len() + text.len();
        }
        Some(BodyData::Text(text)) => {
            members += 1;
            len += "\"data\":".len() + string(text.len());
        }
        Some(BodyData::Bytes(bytes)) => {
            members += 1;
            len += "\"data_base64\":".len() + 2 + 4 * bytes.len().div_ceil(3);
        }
    }
    len + members.saturating_sub(1)
}

/// The length in bytes of the document [`write_document`] writes, without writing it: the
/// size the JSON reader would hold against the R-11 limit.
pub(super) fn document_len(
    parts: &PartsRef<'_>,
    hints: &[TypedExtension],
    data: Option<&BodyData>,
) -> usize {
    let mut members = 0_usize;
    let mut len = 2; // `{` and `}`
    let mut member = |name: usize, value: usize| {
        members += 1;
        len += name + 1 + value; // `"name":value`
    };
    for (name, value) in parts.attributes.iter() {
        let value_len = hint(hints, name, value).map_or_else(|| json_string_len(value), str::len);
        member(json_string_len(name), value_len);
    }
    if let Some(content_type) = &parts.datacontenttype {
        member("\"datacontenttype\"".len(), json_string_len(content_type));
    }
    match data {
        None => {}
        Some(BodyData::Json(text)) => member("\"data\"".len(), text.len()),
        Some(BodyData::Text(text)) => member("\"data\"".len(), json_string_len(text)),
        Some(BodyData::Bytes(bytes)) => {
            member("\"data_base64\"".len(), 2 + 4 * bytes.len().div_ceil(3));
        }
    }
    len + members.saturating_sub(1)
}

/// Whether any byte is one serde_json escapes: a control character (below 0x20), `"` or `\\`.
/// Eight bytes at a time (the byte-wise fold it replaces was 6 % of an HTTP binary decode):
/// `(x - 0x01..01 * n) & !x & 0x80..80` is non-zero exactly when some byte of `x` is below
/// `n` (for `n` up to 0x80), and a byte equal to `c` is a zero byte of `x ^ 0x..cc..`.
fn needs_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = ONES * 0x80;
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x;
    let mut words = bytes.chunks_exact(8);
    let mut found = 0;
    for word in &mut words {
        let mut le = [0; 8];
        le.copy_from_slice(word);
        let x = u64::from_le_bytes(le);
        found |= below(x, 0x20)
            | below(x ^ (ONES * u64::from(b'"')), 1)
            | below(x ^ (ONES * u64::from(b'\\')), 1);
    }
    found & HIGH != 0
        || words
            .remainder()
            .iter()
            .any(|&byte| byte < 0x20 || byte == b'"' || byte == b'\\')
}

/// The length of a string as serde_json writes it: quoted, `"` and `\` escaped, control
/// characters as `\n`-style or `\u00XX` escapes, everything else as its UTF-8 bytes.
pub(super) fn json_string_len(text: &str) -> usize {
    // Header values nearly never need an escape: a word-at-a-time scan says so, and only a
    // value with an escape is measured byte by byte.
    if !needs_escape(text.as_bytes()) {
        return 2 + text.len();
    }
    2 + text
        .bytes()
        .map(|byte| match byte {
            b'"' | b'\\' | b'\x08' | b'\x0c' | b'\n' | b'\r' | b'\t' => 2,
            0x00..=0x1f => 6,
            _ => 1,
        })
        .sum::<usize>()
}

impl BinaryParts {
    /// The JSON event format document these parts stand for: what a validator can report on
    /// in full (every finding, not only the first); a receiver reads the parts to the same
    /// verdict without writing it. A JSON body goes in `data`, text under a text type in
    /// `data` as a string, anything else in `data_base64`.
    ///
    /// ```
    /// use cloudevent_runtime::Validate;
    /// use cloudevent_runtime::{Json, Profile, Validator};
    /// use cloudevent_runtime::binding::BinaryParts;
    ///
    /// let parts = BinaryParts {
    ///     attributes: vec![("specversion".into(), "1.0".into()), ("id".into(), "".into())],
    ///     datacontenttype: Some("text/plain".into()),
    ///     data: Some(b"hi".to_vec()),
    /// };
    /// let document = parts.to_structured_document().unwrap();
    /// assert_eq!(document, br#"{"specversion":"1.0","id":"","datacontenttype":"text/plain","data":"hi"}"#);
    /// let report = Validator::new(Profile::CloudEvents).validate_bytes::<Json>(&document);
    /// assert!(report.errors().count() >= 3); // empty id, no source, no type
    /// ```
    ///
    /// # Errors
    /// No attribute at all (not a CloudEvent), or a JSON content type over a body that is not
    /// JSON.
    pub fn to_structured_document(&self) -> Result<Vec<u8>, BindingError> {
        structured_document(&self.borrowed(), &[])
    }
}

/// The document the parts stand for, with the typed values of `hints` where they apply.
pub(in crate::binding) fn structured_document(
    parts: &PartsRef<'_>,
    hints: &[TypedExtension],
) -> Result<Vec<u8>, BindingError> {
    not_cloud_events(parts)?;
    let data = body_data(parts)?;
    write_document(parts, hints, data.as_ref())
}

pub(super) fn write_document(
    parts: &PartsRef<'_>,
    hints: &[TypedExtension],
    data: Option<&BodyData>,
) -> Result<Vec<u8>, BindingError> {
    // Written member by member rather than through serde_json's map serializer: the JSON
    // texts (a typed extension's, `data` under a JSON content type) were each read as JSON
    // already (`body_data`, `hints`), so they are copied as they are instead of being parsed
    // a second time to be written raw. The bytes are serde_json's compact output.
    let mut out = Vec::with_capacity(256 + parts.data.map_or(0, <[u8]>::len));
    let mut first = true;
    let mut member = |out: &mut Vec<u8>, name: &str| -> Result<(), BindingError> {
        out.push(if first { b'{' } else { b',' });
        first = false;
        json_string(out, name)?;
        out.push(b':');
        Ok(())
    };
    for (name, value) in parts.attributes.iter() {
        member(&mut out, name)?;
        match hint(hints, name, value) {
            Some(json) => out.extend_from_slice(json.as_bytes()),
            None => json_string(&mut out, value)?,
        }
    }
    if let Some(content_type) = &parts.datacontenttype {
        member(&mut out, "datacontenttype")?;
        json_string(&mut out, content_type)?;
    }
    match data {
        None => {}
        Some(BodyData::Json(text)) => {
            member(&mut out, "data")?;
            out.extend_from_slice(text.as_bytes());
        }
        Some(BodyData::Text(text)) => {
            member(&mut out, "data")?;
            json_string(&mut out, text)?;
        }
        Some(BodyData::Bytes(bytes)) => {
            member(&mut out, "data_base64")?;
            json_string(&mut out, &Binary::from(&bytes[..]).to_string())?;
        }
    }
    if first {
        out.push(b'{');
    }
    out.push(b'}');
    Ok(out)
}

/// `text` as a JSON string, escaped as serde_json escapes it.
fn json_string(out: &mut Vec<u8>, text: &str) -> Result<(), BindingError> {
    serde_json::to_writer(out, text).map_err(|e| BindingError::Event(FormatError::Json(e)))
}
