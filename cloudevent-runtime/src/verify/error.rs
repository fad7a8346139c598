//! Why a signer refuses to sign ([`SignError`]) and why a verifier discards an event
//! ([`VerifyError`]): one variant a step of the extension's protocols, its `Display` quoting
//! the step and the extension's words.

use cloudevent_rules::{RuleId, SignedExtensionProblem, Violation, rule};

use crate::error::BuildError;

/// Which part of the verification material a Base64 or length finding concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The DSSE envelope's `payload` (the verification material).
    Payload,
    /// A DSSE signature's `sig`.
    Sig,
    /// The verification material's `core` (`CORE_DIGEST`).
    Core,
    /// The verification material's `ext` (`EXT_DIGEST`).
    Ext,
}

impl Field {
    fn name(self) -> &'static str {
        match self {
            Field::Payload => "payload",
            Field::Sig => "sig",
            Field::Core => "core",
            Field::Ext => "ext",
        }
    }
}

impl std::fmt::Display for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why an event was discarded: each variant is a step of the extension's Verification
/// Protocol where the event "MUST be discarded", named in its message, in the order the
/// protocol takes them (the first failing step is the one reported).
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::verify::{TrustedKeys, VerifyError, verify};
///
/// let event = AnyEvent::new("1", "example/uri", "example.type");
/// let err = verify(&event, &TrustedKeys::new()).unwrap_err();
/// assert_eq!(err, VerifyError::Unsigned);
/// assert_eq!(err.step(), "2.1");
/// assert!(err.to_string().contains("MUST discard"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// `dssematerial` is absent or empty.
    #[error(
        "dssematerial is absent or empty: the event was not signed; a consumer whose policy \
         requires it to be signed MUST discard the event (CE verifiability, Verification \
         Protocol step 2.1)"
    )]
    Unsigned,
    /// The `dssematerial` value is not a Binary value (Base64 text in the JSON format and the
    /// header bindings) that decodes.
    #[error(
        "dssematerial is not a Binary value in Base64 ({detail}): the verification material \
         cannot be obtained and the event MUST be discarded (CE verifiability, Verification \
         Protocol step 3; CE 1.0.2 type system, Binary)"
    )]
    MaterialNotBase64 {
        /// What the decoder found.
        detail: String,
    },
    /// The material is not UTF-8.
    #[error(
        "dssematerial is not valid UTF-8: the verification material is corrupted and the event \
         MUST be discarded (CE verifiability, Verification Protocol step 3.1)"
    )]
    MaterialNotUtf8,
    /// The material is not a DSSE JSON envelope.
    #[error(
        "dssematerial is not a DSSE v1.0.2 JSON envelope ({detail}): the verification material \
         is corrupted and the event MUST be discarded (CE verifiability, Verification Protocol \
         step 4.1)"
    )]
    EnvelopeNotJson {
        /// What the parser found.
        detail: String,
    },
    /// The envelope's `payloadType` is not this extension's.
    #[error(
        "payloadType `{found}` is not `https://cloudevents.io/verifiability/dsse/v0.1`: the \
         verification payload is unknown and the event MUST be discarded (CE verifiability, \
         Verification Protocol step 5.1)"
    )]
    UnknownPayloadType {
        /// The `payloadType` the envelope names.
        found: String,
    },
    /// A Base64 field does not decode.
    #[error(
        "`{field}` is not Base64 ({detail}): the verification payload is corrupted and the event \
         MUST be discarded (CE verifiability, Verification Protocol step {})",
        self.step()
    )]
    NotBase64 {
        /// The field.
        field: Field,
        /// What the decoder found.
        detail: String,
    },
    /// The verification material is not the JSON object the extension describes (not JSON,
    /// not an object, `core` missing, a member of the wrong JSON type).
    #[error(
        "the verification material is not the JSON object the extension describes ({detail}): \
         the verification payload is corrupted and the event MUST be discarded (CE \
         verifiability, Verification Protocol step 6.1)"
    )]
    MaterialNotJson {
        /// What the parser found.
        detail: String,
    },
    /// `core` or `ext` is not 32 bytes.
    #[error(
        "`{field}` decodes to {found} bytes, not 32: the verification payload is corrupted and \
         the event MUST be discarded (CE verifiability, Verification Protocol step {})",
        self.step()
    )]
    DigestLength {
        /// `core` or `ext`.
        field: Field,
        /// The decoded length.
        found: usize,
    },
    /// The `signedextattrs` list breaks a rule of the `dssematerial` definition.
    #[error("{0}; the event MUST be discarded (Verification Protocol step 6.4.1)")]
    SignedExtAttrs(SignedExtensionProblem),
    /// Only one of `ext` and `signedextattrs` is present.
    #[error(
        "the verification material has `{present}` without `{absent}`: `ext` and \
         `signedextattrs` MUST both be present or both be absent, and the event MUST be \
         discarded (CE verifiability, Verification Protocol step 6.5)"
    )]
    ExtWithoutNames {
        /// The member present.
        present: &'static str,
        /// The member missing.
        absent: &'static str,
    },
    /// No signature names a key the resolver accepts for this event's `source` and `type`.
    #[error(
        "no signature of the envelope names a key accepted for source `{event_source}` and type \
         `{event_type}` (key ids {}): DSSE verification fails and the event MUST be discarded (CE \
         verifiability, Verification Protocol steps 1 and 7.1)",
        KeyIds(.key_ids)
    )]
    NoAcceptableKey {
        /// The key ids the signatures name (empty strings for signatures without one).
        key_ids: Vec<String>,
        /// The event's `source`.
        event_source: String,
        /// The event's `type`.
        event_type: String,
    },
    /// A signature by an accepted key does not verify over the DSSE PAE.
    #[error(
        "the signature of key `{key_id}` does not verify over the DSSE v1.0.2 PAE of the \
         payload: the event MUST be discarded (CE verifiability, Verification Protocol step \
         7.2)"
    )]
    BadSignature {
        /// The key id of the last accepted signature that failed.
        key_id: String,
    },
    /// The recomputed `CORE_DIGEST` differs from the signed one.
    #[error(
        "CORE_DIGEST of the event's context attributes and data differs from the signed `core`: \
         the event has been modified in transit and MUST be discarded (CE verifiability, \
         Verification Protocol step 8.1)"
    )]
    CoreMismatch,
    /// The recomputed `EXT_DIGEST` differs from the signed one.
    #[error(
        "EXT_DIGEST of the signed extension attributes ({}) differs from the signed `ext`: the \
         extension attributes have been modified in transit and the event MUST be discarded \
         (CE verifiability, Verification Protocol step 9.1)",
        .signed.join(", ")
    )]
    ExtMismatch {
        /// The names `signedextattrs` lists.
        signed: Vec<String>,
    },
}

struct KeyIds<'a>(&'a [String]);

impl std::fmt::Display for KeyIds<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            return f.write_str("none");
        }
        for (i, id) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{id}`")?;
        }
        Ok(())
    }
}

impl VerifyError {
    /// The rule id every verification finding carries.
    pub const fn rule(&self) -> RuleId {
        rule::CE_VERIFIABILITY
    }

    /// The finding as a [`Violation`] about `dssematerial`, for the reports every door gives
    /// (the axum extractor's 401 body, `cloudevent verify`).
    ///
    /// ```
    /// use cloudevent_runtime::verify::VerifyError;
    /// let finding = VerifyError::CoreMismatch.violation();
    /// assert_eq!((finding.rule.as_str(), &*finding.attribute), ("CE verifiability", "dssematerial"));
    /// ```
    pub fn violation(&self) -> Violation {
        Violation::error(self.rule(), "dssematerial", "", self.to_string())
    }

    /// The step of the extension's Verification Protocol that discards the event.
    ///
    /// ```
    /// use cloudevent_runtime::verify::VerifyError;
    /// assert_eq!(VerifyError::CoreMismatch.step(), "8.1");
    /// ```
    pub fn step(&self) -> &'static str {
        match self {
            VerifyError::Unsigned => "2.1",
            VerifyError::MaterialNotBase64 { .. } => "3",
            VerifyError::MaterialNotUtf8 => "3.1",
            VerifyError::EnvelopeNotJson { .. } => "4.1",
            VerifyError::UnknownPayloadType { .. } => "5.1",
            VerifyError::NotBase64 { field, .. } | VerifyError::DigestLength { field, .. } => {
                match field {
                    Field::Payload => "6.1",
                    Field::Core => "6.2.1",
                    Field::Ext => "6.3.1",
                    Field::Sig => "7.2",
                }
            }
            VerifyError::MaterialNotJson { .. } => "6.1",
            VerifyError::SignedExtAttrs(_) => "6.4.1",
            VerifyError::ExtWithoutNames { .. } => "6.5",
            VerifyError::NoAcceptableKey { .. } => "7.1",
            VerifyError::BadSignature { .. } => "7.2",
            VerifyError::CoreMismatch => "8.1",
            VerifyError::ExtMismatch { .. } => "9.1",
        }
    }
}

/// Why a signer refuses to produce verification material.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::verify::{SignError, SigningKey, sign};
///
/// let key = SigningKey::ed25519("k1", &[7; 32]);
/// let mut event = AnyEvent::new("1", "example/uri", "example.type");
/// let err = sign(&mut event, &key, &["id"]).unwrap_err();
/// assert!(matches!(err, SignError::SignedExtAttrs(_)));
/// assert!(err.to_string().contains("MUST refuse"));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SignError {
    /// The list of extensions to sign breaks a rule of the `dssematerial` definition.
    #[error("{0}; the signing function MUST refuse to produce material (Signing Protocol step 2)")]
    SignedExtAttrs(SignedExtensionProblem),
    /// The typed event could not be written, so the bytes of its `data` are unknown.
    #[error("the event cannot be written to find the bytes of its data: {0}")]
    Write(#[from] BuildError),
    /// The signature primitive failed.
    #[error("the key could not sign: {0}")]
    Key(String),
}
