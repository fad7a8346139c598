//! Verifiable CloudEvents (feature `verify`): the CloudEvents verifiability extension
//! (`cloudevents/spec`, `cloudevents/extensions/verifiability.md`, payload type
//! `https://cloudevents.io/verifiability/dsse/v0.1`), signing and verifying with DSSE v1.0.2
//! envelopes carried in the `dssematerial` extension.
//!
//! | the extension | here |
//! |---|---|
//! | Signing Protocol step 2: the list of signed extensions | [`cloudevent_rules::check_signed_extensions`], the one verdict of signer, verifier and derive |
//! | steps 3-4: `CORE_DIGEST` (id, source, specversion, type, datacontenttype, dataschema, subject, time in UTC to the second, data) | `digest.rs` |
//! | step 5, Canonical Value Serialization: `EXT_DIGEST` | `digest.rs`, [`cloudevent_rules::canonical_value`] |
//! | steps 6-8: `VERIFICATION_MATERIAL`, DSSE PAE and JSON envelope, `dssematerial` | `envelope.rs`, [`sign`] |
//! | Verification Protocol steps 1-10 | [`verify`], one [`VerifyError`] variant a step that discards |
//! | "only verified data" (`strict`), `passthrough`, `core-only` | [`Verified`]: [`Verified::event`], [`Verified::unverified_extensions`], [`Verified::into_core_only`] |
//! | key ids acceptable for a `source` and `type` | [`KeyResolver`], [`TrustedKeys`] |
//!
//! ```
//! use cloudevent_runtime::AnyEvent;
//! use cloudevent_runtime::verify::{SigningKey, TrustedKeys, sign, verify};
//!
//! // The producer signs its event and one extension.
//! let key = SigningKey::ed25519("orders-2026", &[7; 32]);
//! let mut event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1",
//!     "source":"https://orders.example.com","type":"com.example.order.created",
//!     "region":"eu","datacontenttype":"application/json","data":{"n":1}}"#).unwrap();
//! sign(&mut event, &key, &["region"]).unwrap();
//! let sent = event.to_vec();
//!
//! // A relay adds an extension; the consumer trusts the producer's key.
//! let mut relayed = AnyEvent::from_slice(&sent).unwrap();
//! relayed.extensions_mut().insert("hop", 1);
//! let keys = TrustedKeys::new().with_key("orders-2026", key.verifying_key());
//! let verified = verify(&relayed, &keys).unwrap();
//! assert!(verified.event().extensions().contains("region"));
//! assert!(!verified.event().extensions().contains("hop"));
//! assert!(verified.unverified_extensions().contains("hop"));
//!
//! // Any change to what was signed is refused.
//! relayed.set_subject(Some("order-2".into()));
//! assert_eq!(verify(&relayed, &keys).unwrap_err().step(), "8.1");
//! ```
//!
//! # Choices where the extension leaves room
//!
//! - `data` is hashed as the bytes the runtime holds for it, the same whichever format or
//!   binding carried it: a JSON value's text as received without the whitespace around it
//!   (RFC 8259 section 2 puts that whitespace in the separators), a string's UTF-8, binary
//!   data's bytes (`data_base64` decoded). A JSON document that is re-indented in transit no
//!   longer verifies (the extension's "Byte-preservation requirement").
//! - The extension's published test vectors disagree with its text in places; see the
//!   runtime's `tests/verify_vectors.rs`, which states which vectors, and how.
//! - An extension is hashed with the type it holds: a JSON string stays a String (CE-JSON
//!   2.2), so a Timestamp or Binary extension signed with its type by another SDK verifies
//!   only when its text is already in canonical form.
//! - A `signedextattrs` naming `signedextattrs` is refused (not in the extension's list).
//! - A signature without `keyid` is never accepted: the resolver decides by key id.
//! - A member named twice in the envelope or the material is refused as malformed JSON.

mod digest;
mod envelope;
mod error;
mod key;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use cloudevent_rules::{DSSE_PAYLOAD_TYPE, DSSEMATERIAL};
use serde::Serialize;

use crate::any::AnyEvent;
use crate::data::CloudEventData;
use crate::error::FormatError;
use crate::event::Event;
use crate::extension::{ExtensionValueBuf, Extensions};
use crate::value::Binary;

pub use envelope::Material;
pub use error::{Field, SignError, VerifyError};
pub use key::{KeyError, KeyResolver, SigningKey, TrustedKeys, VerifyingKey};

/// An event that can be signed: [`AnyEvent`] and [`Event<T>`].
pub trait Signable: sealed::Sealed {}

mod sealed {
    use super::{AnyEvent, SignError};
    use crate::extension::ExtensionValueBuf;

    pub trait Sealed {
        /// Runs `f` on the event as the formats write it.
        fn with_written<R>(&self, f: impl FnOnce(&AnyEvent) -> R) -> Result<R, SignError>;
        /// Sets `dssematerial`.
        fn set_material(&mut self, value: ExtensionValueBuf) -> Result<(), SignError>;
    }
}

impl Signable for AnyEvent {}

impl sealed::Sealed for AnyEvent {
    fn with_written<R>(&self, f: impl FnOnce(&AnyEvent) -> R) -> Result<R, SignError> {
        Ok(f(self))
    }

    fn set_material(&mut self, value: ExtensionValueBuf) -> Result<(), SignError> {
        self.extensions.insert(DSSEMATERIAL, value);
        Ok(())
    }
}

impl<T: CloudEventData + Serialize> Signable for Event<T> {}

impl<T: CloudEventData + Serialize> sealed::Sealed for Event<T> {
    /// The digest of a typed event is taken from the event its writer produces, so `data` is
    /// hashed as the bytes that are sent.
    fn with_written<R>(&self, f: impl FnOnce(&AnyEvent) -> R) -> Result<R, SignError> {
        Ok(f(&self.to_any()?))
    }

    fn set_material(&mut self, value: ExtensionValueBuf) -> Result<(), SignError> {
        Ok(self.insert_extension(DSSEMATERIAL.to_owned(), value)?)
    }
}

/// The verification material of `event` with `extensions` signed (Signing Protocol steps 2
/// to 6), without signing it.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::verify::material;
///
/// let event = AnyEvent::new("1", "example/uri", "example.type");
/// let m = material(&event, &["exta"]).unwrap();
/// assert_eq!(m.signed_extensions(), ["exta"]);
/// assert!(material(&event, &["exta", "exta"]).is_err());
/// ```
///
/// # Errors
/// [`SignError::SignedExtAttrs`] for a list the extension refuses; [`SignError::Write`] for a
/// typed event that cannot be written.
pub fn material(event: &impl Signable, extensions: &[&str]) -> Result<Material, SignError> {
    cloudevent_rules::check_signed_extensions(extensions.iter().copied())
        .map_err(SignError::SignedExtAttrs)?;
    event.with_written(|written| {
        let core = digest::core_digest(written);
        let ext = (!extensions.is_empty()).then(|| {
            let names: Vec<String> = extensions.iter().map(|&name| name.to_owned()).collect();
            (digest::ext_digest(written, &names), names)
        });
        Material { core, ext }
    })
}

/// Signs `event` with `key`, covering its context attributes, its data and `extensions` in
/// that order, and sets `dssematerial` to the DSSE envelope (Signing Protocol steps 1 to 8).
/// A `dssematerial` already present is replaced (a relay re-signing, the extension's "Proxy
/// Guidance"). With a P-256 key the result is deterministic (RFC 6979).
///
/// ```
/// use cloudevent_runtime::{AnyEvent, ExtensionValueBuf};
/// use cloudevent_runtime::verify::{SigningKey, sign};
///
/// let key = SigningKey::ed25519("k1", &[7; 32]);
/// let mut event = AnyEvent::new("1", "example/uri", "example.type");
/// sign(&mut event, &key, &[]).unwrap();
/// assert!(matches!(event.extensions().get("dssematerial"), Some(ExtensionValueBuf::Binary(_))));
/// ```
///
/// # Errors
/// As [`material`], and [`SignError::Key`] when the primitive fails.
pub fn sign(
    event: &mut impl Signable,
    key: &SigningKey,
    extensions: &[&str],
) -> Result<(), SignError> {
    let envelope = dsse_material(&material(event, extensions)?, key)?;
    event.set_material(ExtensionValueBuf::Binary(Binary::from(envelope)))
}

/// Signs a typed event with the extensions its type declares
/// (`#[cloudevent(sign(extensions = ".."))]`, [`CloudEventData::SIGNED_EXTENSIONS`]); a type
/// that declares no signing is signed over its core attributes and data only.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, CloudEvent, Event};
/// use cloudevent_runtime::verify::{SigningKey, TrustedKeys, sign_declared, verify};
///
/// #[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
/// #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com",
///     sign(extensions = "region"))]
/// struct OrderCreated { #[cloudevent(subject)] order_id: String, #[cloudevent(extension)] region: String }
///
/// let key = SigningKey::ed25519("orders", &[7; 32]);
/// let mut event = Event::new(OrderCreated { order_id: "o-1".into(), region: "eu".into() });
/// sign_declared(&mut event, &key).unwrap();
///
/// let received = AnyEvent::from_slice(&serde_json::to_vec(&event).unwrap()).unwrap();
/// let keys = TrustedKeys::new().with_key("orders", key.verifying_key());
/// assert_eq!(verify(&received, &keys).unwrap().material().signed_extensions(), ["region"]);
/// ```
///
/// # Errors
/// As [`sign`].
pub fn sign_declared<T: CloudEventData + Serialize>(
    event: &mut Event<T>,
    key: &SigningKey,
) -> Result<(), SignError> {
    sign(event, key, T::SIGNED_EXTENSIONS.unwrap_or_default())
}

/// The `dssematerial` bytes (a DSSE JSON envelope) for `material` signed by `key`.
fn dsse_material(material: &Material, key: &SigningKey) -> Result<Vec<u8>, SignError> {
    let body = material.to_json();
    let sig = key
        .sign(&envelope::pae(DSSE_PAYLOAD_TYPE, &body))
        .map_err(SignError::Key)?;
    Ok(envelope::write_envelope(
        DSSE_PAYLOAD_TYPE,
        &body,
        key.key_id(),
        &sig,
    ))
}

/// What a verification covered (the extension: "core only, core and extensions").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coverage {
    /// The context attributes and data; no extension was signed.
    Core,
    /// The context attributes, data and the extensions `signedextattrs` lists.
    CoreAndExtensions,
}

/// An event that passed verification, holding only what was signed: its context attributes,
/// its data and exactly the signed extensions (the extension's default `strict` mode). The
/// extensions that were not signed are kept apart, marked unverified (`passthrough`);
/// [`Verified::into_core_only`] drops the signed ones too (`core-only`).
#[derive(Debug, Clone, PartialEq)]
pub struct Verified<E = AnyEvent> {
    event: E,
    key_id: String,
    material: Material,
    unverified: Extensions,
}

impl<E> Verified<E> {
    /// The verified event: context attributes, data and the signed extensions only.
    pub fn event(&self) -> &E {
        &self.event
    }

    /// The verified event, taken out.
    pub fn into_event(self) -> E {
        self.event
    }

    /// The `keyid` of the signature that verified.
    pub fn key_id(&self) -> &str {
        &self.key_id
    }

    /// The verified material (digests and `signedextattrs`).
    pub fn material(&self) -> &Material {
        &self.material
    }

    /// What was verified.
    pub fn coverage(&self) -> Coverage {
        if self.material.ext.is_some() {
            Coverage::CoreAndExtensions
        } else {
            Coverage::Core
        }
    }

    /// The extensions the event carried that no signature covers (never `dssematerial`):
    /// not part of [`Verified::event`], for a consumer that takes responsibility for them
    /// (the extension's `passthrough` mode).
    pub fn unverified_extensions(&self) -> &Extensions {
        &self.unverified
    }
}

impl Verified<AnyEvent> {
    /// The event without any extension (the extension's `core-only` mode).
    ///
    /// ```
    /// # use cloudevent_runtime::AnyEvent;
    /// # use cloudevent_runtime::verify::{SigningKey, TrustedKeys, sign, verify};
    /// # let key = SigningKey::ed25519("k1", &[7; 32]);
    /// let mut event = AnyEvent::new("1", "example/uri", "example.type");
    /// event.extensions_mut().insert("exta", "value1");
    /// sign(&mut event, &key, &["exta"]).unwrap();
    /// let keys = TrustedKeys::new().with_key("k1", key.verifying_key());
    /// let core = verify(&event, &keys).unwrap().into_core_only();
    /// assert!(core.extensions().is_empty());
    /// ```
    pub fn into_core_only(self) -> AnyEvent {
        let mut event = self.event;
        event.extensions = Extensions::default();
        event
    }

    /// The verified event as `Event<T>` (its type checked, its data read into `T`), for a
    /// typed consumer: verification happens on the bytes received, before `data` is parsed.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, CloudEvent, Event};
    /// use cloudevent_runtime::verify::{SigningKey, TrustedKeys, sign, verify};
    ///
    /// #[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
    /// #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// struct OrderCreated { #[cloudevent(subject)] order_id: String }
    ///
    /// let key = SigningKey::ed25519("orders", &[7; 32]);
    /// let mut sent = Event::new(OrderCreated { order_id: "o-1".into() });
    /// sign(&mut sent, &key, &[]).unwrap();
    /// let bytes = serde_json::to_vec(&sent).unwrap();
    ///
    /// let keys = TrustedKeys::new().with_key("orders", key.verifying_key());
    /// let received = AnyEvent::from_slice(&bytes).unwrap();
    /// let order = verify(&received, &keys).unwrap().into_typed::<OrderCreated>().unwrap();
    /// assert_eq!(order.event().data().order_id, "o-1");
    /// ```
    ///
    /// # Errors
    /// When the event is of another type or its data does not fit `T`.
    pub fn into_typed<T>(self) -> Result<Verified<Event<T>>, FormatError>
    where
        T: CloudEventData + serde::de::DeserializeOwned,
    {
        Ok(Verified {
            event: self.event.into_typed()?,
            key_id: self.key_id,
            material: self.material,
            unverified: self.unverified,
        })
    }
}

/// Verifies `event` against the keys `keys` accepts for its `source` and `type` (the
/// extension's Verification Protocol, steps 1 to 10, in order) and returns what was signed.
///
/// The signature is checked before any digest is trusted (step 7 before 8); the first step
/// that discards the event is the error.
///
/// # Errors
/// The [`VerifyError`] of the step that discards the event.
pub fn verify<R: KeyResolver + ?Sized>(
    event: &AnyEvent,
    keys: &R,
) -> Result<Verified<AnyEvent>, VerifyError> {
    let bytes = material_bytes(event.extensions.get(DSSEMATERIAL))?;
    let text = std::str::from_utf8(&bytes).map_err(|_| VerifyError::MaterialNotUtf8)?;
    let envelope = envelope::read_envelope(text)?;
    if envelope.payload_type != DSSE_PAYLOAD_TYPE {
        return Err(VerifyError::UnknownPayloadType {
            found: envelope.payload_type,
        });
    }
    let body = envelope::dsse_base64(Field::Payload, &envelope.payload)?;
    let material = Material::from_json(&body)?;
    let key_id = check_signatures(&envelope, &body, event, keys)?;
    if digest::core_digest(event) != material.core {
        return Err(VerifyError::CoreMismatch);
    }
    if let Some((ext, names)) = &material.ext
        && digest::ext_digest(event, names) != *ext
    {
        return Err(VerifyError::ExtMismatch {
            signed: names.clone(),
        });
    }
    Ok(strict(event, key_id, material))
}

/// Step 2 and 3: the envelope's bytes from `dssematerial`, a Binary value (held as bytes, or
/// as Base64 text when a format or header carried it as a string).
fn material_bytes(value: Option<&ExtensionValueBuf>) -> Result<Vec<u8>, VerifyError> {
    let bytes = match value {
        None => return Err(VerifyError::Unsigned),
        Some(ExtensionValueBuf::Binary(bytes)) => bytes.as_bytes().to_vec(),
        Some(value) => match value.as_str() {
            Some("") => return Err(VerifyError::Unsigned),
            Some(text) => BASE64
                .decode(text)
                .map_err(|e| VerifyError::MaterialNotBase64 {
                    detail: e.to_string(),
                })?,
            None => {
                return Err(VerifyError::MaterialNotBase64 {
                    detail: format!("a {} value", value.as_value().kind()),
                });
            }
        },
    };
    if bytes.is_empty() {
        return Err(VerifyError::Unsigned);
    }
    Ok(bytes)
}

/// Step 7 (DSSE v1.0.2 protocol, verification): the signatures whose key id the resolver
/// accepts are checked over the PAE; the first that verifies wins.
fn check_signatures<R: KeyResolver + ?Sized>(
    envelope: &envelope::Envelope,
    body: &[u8],
    event: &AnyEvent,
    keys: &R,
) -> Result<String, VerifyError> {
    let pae = envelope::pae(&envelope.payload_type, body);
    let mut failed: Option<VerifyError> = None;
    for signature in &envelope.signatures {
        let Some(key_id) = signature.keyid.as_deref() else {
            continue;
        };
        let Some(key) = keys.resolve(key_id, &event.source, &event.ty) else {
            continue;
        };
        match envelope::dsse_base64(Field::Sig, &signature.sig) {
            Ok(sig) if key.verifies(&pae, &sig) => return Ok(key_id.to_owned()),
            Ok(_) => {
                failed = Some(VerifyError::BadSignature {
                    key_id: key_id.to_owned(),
                });
            }
            Err(err) => failed = Some(err),
        }
    }
    Err(failed.unwrap_or_else(|| VerifyError::NoAcceptableKey {
        key_ids: envelope
            .signatures
            .iter()
            .map(|s| s.keyid.clone().unwrap_or_default())
            .collect(),
        event_source: event.source.clone(),
        event_type: event.ty.clone(),
    }))
}

/// The verified event: the extensions split into those signed and the rest.
fn strict(event: &AnyEvent, key_id: String, material: Material) -> Verified<AnyEvent> {
    let mut verified = event.clone();
    let mut unverified = Extensions::default();
    for (name, value) in event.extensions.iter() {
        if material
            .signed_extensions()
            .iter()
            .any(|signed| signed == name)
        {
            continue;
        }
        verified.extensions.remove(name);
        if name != DSSEMATERIAL {
            unverified.insert(name, value.clone());
        }
    }
    Verified {
        event: verified,
        key_id,
        material,
        unverified,
    }
}
