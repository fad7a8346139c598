//! The DSSE v1.0.2 side: the pre-authentication encoding (protocol.md), the JSON envelope
//! (envelope.md), and the extension's `VERIFICATION_MATERIAL` object carried as its payload.
//!
//! Both JSON objects are written compactly, members in the order the extension shows them
//! (`payloadType`, `payload`, `signatures`; `keyid`, `sig`; `core`, `ext`, `signedextattrs`),
//! which is the order of the extension's test vectors; Base64 is RFC 4648's standard alphabet
//! with padding. Readers ignore unknown members (as the extension requires) and refuse a
//! member named twice (serde's "duplicate field"): which of two `payload`s a verifier took
//! must never be a question.

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD as BASE64, URL_SAFE as BASE64_URL};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::error::{Field, VerifyError};

/// `PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body`, `LEN` in ASCII
/// decimal (DSSE v1.0.2 protocol.md).
pub(crate) fn pae(payload_type: &str, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 + payload_type.len() + body.len());
    out.extend_from_slice(b"DSSEv1 ");
    out.extend_from_slice(payload_type.len().to_string().as_bytes());
    out.push(b' ');
    out.extend_from_slice(payload_type.as_bytes());
    out.push(b' ');
    out.extend_from_slice(body.len().to_string().as_bytes());
    out.push(b' ');
    out.extend_from_slice(body);
    out
}

#[derive(Serialize)]
struct EnvelopeOut<'a> {
    #[serde(rename = "payloadType")]
    payload_type: &'a str,
    payload: String,
    signatures: [SignatureOut<'a>; 1],
}

#[derive(Serialize)]
struct SignatureOut<'a> {
    keyid: &'a str,
    sig: String,
}

/// The envelope's JSON text for one signature.
pub(crate) fn write_envelope(payload_type: &str, body: &[u8], key_id: &str, sig: &[u8]) -> Vec<u8> {
    let envelope = EnvelopeOut {
        payload_type,
        payload: BASE64.encode(body),
        signatures: [SignatureOut {
            keyid: key_id,
            sig: BASE64.encode(sig),
        }],
    };
    // Strings and a fixed array of them: serializing cannot fail.
    serde_json::to_vec(&envelope).unwrap_or_default()
}

/// An envelope as read, its payload still Base64.
#[derive(Deserialize)]
pub(crate) struct Envelope {
    pub(crate) payload: String,
    #[serde(rename = "payloadType")]
    pub(crate) payload_type: String,
    pub(crate) signatures: Vec<Signature>,
}

/// One signature as read. DSSE makes `keyid` optional; a signature without one names no key a
/// resolver could accept and is skipped.
#[derive(Deserialize)]
pub(crate) struct Signature {
    #[serde(default)]
    pub(crate) keyid: Option<String>,
    pub(crate) sig: String,
}

/// Reads the envelope (Verification Protocol step 4). The extension asks for "at least one
/// signature object containing `keyid` and `sig`"; an empty list is a malformed envelope.
pub(crate) fn read_envelope(text: &str) -> Result<Envelope, VerifyError> {
    let not_json = |detail: String| VerifyError::EnvelopeNotJson { detail };
    if !starts_object(text) {
        return Err(not_json("not a JSON object".into()));
    }
    let envelope: Envelope = serde_json::from_str(text).map_err(|e| not_json(e.to_string()))?;
    if envelope.signatures.is_empty() {
        return Err(not_json("`signatures` is empty".into()));
    }
    Ok(envelope)
}

/// Decodes a DSSE Base64 field: DSSE envelope.md allows the standard and the URL-safe
/// alphabets; padding must be canonical.
pub(crate) fn dsse_base64(field: Field, text: &str) -> Result<Vec<u8>, VerifyError> {
    BASE64
        .decode(text)
        .or_else(|standard| BASE64_URL.decode(text).map_err(|_| standard))
        .map_err(|e| VerifyError::NotBase64 {
            field,
            detail: e.to_string(),
        })
}

/// serde derives read a struct from a JSON array too; the extension's objects are objects.
fn starts_object(text: &str) -> bool {
    text.trim_start_matches([' ', '\t', '\n', '\r'])
        .starts_with('{')
}

/// `VERIFICATION_MATERIAL`: the signed digests and the names of the signed extensions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Material {
    pub(crate) core: [u8; 32],
    /// `EXT_DIGEST` and `signedextattrs`, present together or not at all.
    pub(crate) ext: Option<([u8; 32], Vec<String>)>,
}

#[derive(Serialize)]
struct MaterialOut<'a> {
    core: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    ext: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    signedextattrs: Option<&'a [String]>,
}

/// A member as read: `None` when absent, `Some(Value::Null)` when written as `null`.
#[derive(Deserialize)]
struct MaterialIn {
    #[serde(default, deserialize_with = "present")]
    core: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    ext: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    signedextattrs: Option<Value>,
}

fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

impl Material {
    /// `CORE_DIGEST`.
    pub fn core(&self) -> &[u8; 32] {
        &self.core
    }

    /// `EXT_DIGEST`, when extensions are signed.
    pub fn ext(&self) -> Option<&[u8; 32]> {
        self.ext.as_ref().map(|(digest, _)| digest)
    }

    /// `signedextattrs`: the signed extensions in the order their digests were taken; empty
    /// when none are signed.
    pub fn signed_extensions(&self) -> &[String] {
        self.ext.as_ref().map_or(&[], |(_, names)| names)
    }

    /// The JSON text (Signing Protocol step 6), the DSSE `SERIALIZED_BODY`.
    pub(crate) fn to_json(&self) -> Vec<u8> {
        let out = MaterialOut {
            core: BASE64.encode(self.core),
            ext: self.ext.as_ref().map(|(digest, _)| BASE64.encode(digest)),
            signedextattrs: self.ext.as_ref().map(|(_, names)| names.as_slice()),
        };
        serde_json::to_vec(&out).unwrap_or_default()
    }

    /// Reads the material (Verification Protocol steps 6.1 to 6.5).
    pub(crate) fn from_json(body: &[u8]) -> Result<Self, VerifyError> {
        let not_json = |detail: String| VerifyError::MaterialNotJson { detail };
        let text = std::str::from_utf8(body).map_err(|e| not_json(e.to_string()))?;
        if !starts_object(text) {
            return Err(not_json("not a JSON object".into()));
        }
        let read: MaterialIn = serde_json::from_str(text).map_err(|e| not_json(e.to_string()))?;
        let core = match read.core {
            Some(value) => digest(Field::Core, &value)?,
            None => return Err(not_json("`core` is missing".into())),
        };
        let ext = read
            .ext
            .map(|value| digest(Field::Ext, &value))
            .transpose()?;
        let names = read.signedextattrs.map(names).transpose()?;
        if let Some(names) = &names {
            cloudevent_rules::check_signed_extensions(names.iter().map(String::as_str))
                .map_err(VerifyError::SignedExtAttrs)?;
        }
        match (ext, names) {
            (None, None) => Ok(Material { core, ext: None }),
            (Some(ext), Some(names)) => Ok(Material {
                core,
                ext: Some((ext, names)),
            }),
            (Some(_), None) => Err(VerifyError::ExtWithoutNames {
                present: "ext",
                absent: "signedextattrs",
            }),
            (None, Some(_)) => Err(VerifyError::ExtWithoutNames {
                present: "signedextattrs",
                absent: "ext",
            }),
        }
    }
}

/// A `core` or `ext` member: a Base64 string of 32 bytes (steps 6.2.1, 6.3.1).
fn digest(field: Field, value: &Value) -> Result<[u8; 32], VerifyError> {
    let Value::String(text) = value else {
        return Err(VerifyError::MaterialNotJson {
            detail: format!("`{field}` is not a string"),
        });
    };
    let bytes = BASE64.decode(text).map_err(|e| VerifyError::NotBase64 {
        field,
        detail: e.to_string(),
    })?;
    <[u8; 32]>::try_from(bytes.as_slice()).map_err(|_| VerifyError::DigestLength {
        field,
        found: bytes.len(),
    })
}

/// `signedextattrs`: a JSON array of strings (step 6.4).
fn names(value: Value) -> Result<Vec<String>, VerifyError> {
    let not_names = || VerifyError::MaterialNotJson {
        detail: "`signedextattrs` is not an array of strings".into(),
    };
    let Value::Array(items) = value else {
        return Err(not_names());
    };
    items
        .into_iter()
        .map(|item| match item {
            Value::String(name) => Ok(name),
            _ => Err(not_names()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pae_is_dssev1_with_decimal_lengths() {
        assert_eq!(
            pae("http://example.com/HelloWorld", b"hello world"),
            b"DSSEv1 29 http://example.com/HelloWorld 11 hello world"
        );
        assert_eq!(pae("", b""), b"DSSEv1 0  0 ");
    }

    #[test]
    fn material_round_trips_and_keeps_member_order() {
        let material = Material {
            core: [1; 32],
            ext: Some(([2; 32], vec!["exta".into(), "extb".into()])),
        };
        let json = material.to_json();
        assert!(json.starts_with(br#"{"core":"AQEB"#));
        assert_eq!(Material::from_json(&json).unwrap(), material);
        let core_only = Material {
            core: [1; 32],
            ext: None,
        };
        assert_eq!(
            String::from_utf8(core_only.to_json()).unwrap(),
            format!(r#"{{"core":"{}"}}"#, BASE64.encode([1; 32]))
        );
    }

    #[test]
    fn null_members_are_present_and_wrong() {
        let core = BASE64.encode([0; 32]);
        let err = Material::from_json(format!(r#"{{"core":"{core}","ext":null}}"#).as_bytes())
            .unwrap_err();
        assert_eq!(err.step(), "6.1");
        let err = Material::from_json(format!(r#"["{core}"]"#).as_bytes()).unwrap_err();
        assert_eq!(err.step(), "6.1");
    }
}
