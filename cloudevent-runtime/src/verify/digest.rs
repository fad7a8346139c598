//! `CORE_DIGEST` and `EXT_DIGEST` (Signing Protocol steps 3 to 5) over an [`AnyEvent`].
//!
//! Every door reads into the same `AnyEvent` fields, so the digest is taken from one place:
//! `data` is the bytes the format carried for it ([`Data::Json`]: the JSON value's text as
//! received, without the whitespace around it, which RFC 8259 section 2 makes part of the
//! separators, not of the value; [`Data::Text`]: the string's UTF-8; [`Data::Binary`]: the
//! bytes, `data_base64` decoded), and `time` goes through the rules crate's
//! [`utc_seconds`](cloudevent_rules::utc_seconds).

use cloudevent_rules::{DIGEST_ATTRIBUTES, canonical_value, utc_seconds};
use sha2::{Digest as _, Sha256};

use crate::any::{AnyEvent, Data};

/// The bytes of `data` that are hashed.
pub(crate) fn data_bytes(data: Option<&Data>) -> &[u8] {
    match data {
        None => b"",
        Some(Data::Json(raw)) => raw.get().as_bytes(),
        Some(Data::Text(text)) => text.as_bytes(),
        Some(Data::Binary(bytes)) => bytes,
    }
}

/// `CORE_DIGEST`: SHA-256 over the SHA-256 of each attribute of [`DIGEST_ATTRIBUTES`] in its
/// order, then of `data`; an attribute not set contributes the SHA-256 of no bytes.
pub(crate) fn core_digest(event: &AnyEvent) -> [u8; 32] {
    let time = event.time.as_ref().map(|time| {
        // A `Timestamp` the runtime holds is RFC 3339; were it not, its text is hashed as is.
        utc_seconds(time.as_str()).unwrap_or_else(|| time.as_str().to_owned())
    });
    let mut outer = Sha256::new();
    for name in DIGEST_ATTRIBUTES {
        let value: Option<&str> = match name {
            "id" => Some(&event.id),
            "source" => Some(&event.source),
            "specversion" => Some("1.0"),
            "type" => Some(&event.ty),
            "datacontenttype" => event.datacontenttype.as_deref(),
            "dataschema" => event.dataschema.as_deref(),
            "subject" => event.subject.as_deref(),
            "time" => time.as_deref(),
            _ => None,
        };
        outer.update(Sha256::digest(value.unwrap_or_default().as_bytes()));
    }
    outer.update(Sha256::digest(data_bytes(event.data.as_ref())));
    outer.finalize().into()
}

/// `EXT_DIGEST`: SHA-256 over the SHA-256 of each named extension's canonical value, in the
/// list's order; an extension not on the event contributes the SHA-256 of no bytes.
pub(crate) fn ext_digest(event: &AnyEvent, names: &[String]) -> [u8; 32] {
    let mut outer = Sha256::new();
    for name in names {
        let inner = match event.extensions.get(name) {
            Some(value) => Sha256::digest(canonical_value(value.as_value())),
            None => Sha256::digest(b""),
        };
        outer.update(inner);
    }
    outer.finalize().into()
}
