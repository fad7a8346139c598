//! Keys: a signing key with its DSSE `keyid`, a verifying key, and the resolver through which
//! a consumer says which keys it accepts for which events (Verification Protocol step 1).
//! The library holds no key store, fetches nothing and rotates nothing: that is the
//! deployment's (the extension's "Key management" appendix).
//!
//! Signatures are those the extension's test vectors use: ECDSA over NIST P-256 with SHA-256
//! and deterministic RFC 6979 nonces, encoded as the raw concatenation of `r` and `s` (64
//! bytes); and Ed25519 (RFC 8032, 64 bytes). The primitives are RustCrypto's (`p256`,
//! `ed25519-dalek`).

use std::fmt;

use p256::ecdsa::signature::{Signer as _, Verifier as _};
use p256::pkcs8::{DecodePrivateKey as _, DecodePublicKey as _};

/// A key that signs, with the `keyid` its signatures carry.
///
/// ```
/// use cloudevent_runtime::verify::SigningKey;
///
/// let key = SigningKey::ed25519("orders-2026", &[7; 32]);
/// assert_eq!(key.key_id(), "orders-2026");
/// assert!(SigningKey::p256("k", &[0; 32]).is_err());
/// ```
#[derive(Clone)]
pub struct SigningKey {
    key_id: String,
    secret: Secret,
}

#[derive(Clone)]
enum Secret {
    P256(p256::ecdsa::SigningKey),
    Ed25519(ed25519_dalek::SigningKey),
}

/// A key that checks signatures.
///
/// ```
/// use cloudevent_runtime::verify::{SigningKey, VerifyingKey};
///
/// let public = SigningKey::ed25519("k", &[7; 32]).verifying_key();
/// let bytes: [u8; 32] = public.to_bytes().try_into().unwrap();
/// assert_eq!(VerifyingKey::ed25519(&bytes).unwrap(), public);
/// assert!(VerifyingKey::p256_sec1(&[4; 65]).is_err());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct VerifyingKey(Public);

#[derive(Clone, PartialEq, Eq)]
enum Public {
    P256(p256::ecdsa::VerifyingKey),
    Ed25519(ed25519_dalek::VerifyingKey),
}

/// Key bytes that are not a key of the algorithm.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a {algorithm} key: {detail}")]
pub struct KeyError {
    algorithm: &'static str,
    detail: &'static str,
}

impl SigningKey {
    /// An ECDSA P-256 key from its secret scalar `d` (32 bytes, big-endian).
    ///
    /// # Errors
    /// When `d` is not 32 bytes or is not in `1..n`.
    pub fn p256(key_id: impl Into<String>, d: &[u8]) -> Result<Self, KeyError> {
        let key = p256::ecdsa::SigningKey::from_slice(d).map_err(|_| KeyError {
            algorithm: "P-256",
            detail: "the secret scalar must be 32 bytes in 1..n",
        })?;
        Ok(SigningKey {
            key_id: key_id.into(),
            secret: Secret::P256(key),
        })
    }

    /// An Ed25519 key from its 32-byte seed (RFC 8032 section 5.1.5).
    pub fn ed25519(key_id: impl Into<String>, seed: &[u8; 32]) -> Self {
        SigningKey {
            key_id: key_id.into(),
            secret: Secret::Ed25519(ed25519_dalek::SigningKey::from_bytes(seed)),
        }
    }

    /// A P-256 or Ed25519 key from a PKCS#8 PEM document (`-----BEGIN PRIVATE KEY-----`), as
    /// `openssl genpkey` writes it.
    ///
    /// ```
    /// use cloudevent_runtime::verify::SigningKey;
    ///
    /// let pem = "-----BEGIN PRIVATE KEY-----
    /// MC4CAQAwBQYDK2VwBCIEIDKJ7juJzbAVkS0wxSw+BgXmJdKkueckGX25nXP/94cb
    /// -----END PRIVATE KEY-----";
    /// let key = SigningKey::from_pkcs8_pem("ed-1", pem).unwrap();
    /// assert_eq!(key.key_id(), "ed-1");
    /// assert!(SigningKey::from_pkcs8_pem("x", "not a key").is_err());
    /// ```
    ///
    /// # Errors
    /// When the document is neither a P-256 nor an Ed25519 PKCS#8 private key.
    pub fn from_pkcs8_pem(key_id: impl Into<String>, pem: &str) -> Result<Self, KeyError> {
        let secret = if let Ok(key) = p256::ecdsa::SigningKey::from_pkcs8_pem(pem) {
            Secret::P256(key)
        } else if let Ok(key) = ed25519_dalek::SigningKey::from_pkcs8_pem(pem) {
            Secret::Ed25519(key)
        } else {
            return Err(KeyError {
                algorithm: "P-256 or Ed25519",
                detail: "expected a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----)",
            });
        };
        Ok(SigningKey {
            key_id: key_id.into(),
            secret,
        })
    }

    /// The DSSE `keyid` the signatures carry.
    pub fn key_id(&self) -> &str {
        &self.key_id
    }

    /// The matching verifying key.
    pub fn verifying_key(&self) -> VerifyingKey {
        VerifyingKey(match &self.secret {
            Secret::P256(key) => Public::P256(*key.verifying_key()),
            Secret::Ed25519(key) => Public::Ed25519(key.verifying_key()),
        })
    }

    /// Signs `message` (the DSSE PAE): P-256 hashes it with SHA-256 and draws the nonce by
    /// RFC 6979, so the same message gives the same signature.
    pub(crate) fn sign(&self, message: &[u8]) -> Result<Vec<u8>, String> {
        match &self.secret {
            Secret::P256(key) => {
                let signature: p256::ecdsa::Signature =
                    key.try_sign(message).map_err(|e| e.to_string())?;
                Ok(signature.to_bytes().to_vec())
            }
            Secret::Ed25519(key) => {
                let signature = key.try_sign(message).map_err(|e| e.to_string())?;
                Ok(signature.to_bytes().to_vec())
            }
        }
    }
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The secret is never printed.
        let algorithm = match self.secret {
            Secret::P256(_) => "P-256",
            Secret::Ed25519(_) => "Ed25519",
        };
        f.debug_struct("SigningKey")
            .field("key_id", &self.key_id)
            .field("algorithm", &algorithm)
            .finish_non_exhaustive()
    }
}

impl VerifyingKey {
    /// An ECDSA P-256 public key from its SEC1 encoding (`04 || X || Y`, or compressed).
    ///
    /// # Errors
    /// When the bytes are not a point of the curve.
    pub fn p256_sec1(bytes: &[u8]) -> Result<Self, KeyError> {
        p256::ecdsa::VerifyingKey::from_sec1_bytes(bytes)
            .map(|key| VerifyingKey(Public::P256(key)))
            .map_err(|_| KeyError {
                algorithm: "P-256",
                detail: "the SEC1 bytes are not a point of the curve",
            })
    }

    /// An Ed25519 public key from its 32 bytes.
    ///
    /// # Errors
    /// When the bytes are not a point of the curve.
    pub fn ed25519(bytes: &[u8; 32]) -> Result<Self, KeyError> {
        ed25519_dalek::VerifyingKey::from_bytes(bytes)
            .map(|key| VerifyingKey(Public::Ed25519(key)))
            .map_err(|_| KeyError {
                algorithm: "Ed25519",
                detail: "the 32 bytes are not a point of the curve",
            })
    }

    /// A P-256 or Ed25519 public key from an SPKI PEM document (`-----BEGIN PUBLIC KEY-----`),
    /// as `openssl pkey -pubout` writes it.
    ///
    /// ```
    /// use cloudevent_runtime::verify::{SigningKey, VerifyingKey};
    ///
    /// let pem = "-----BEGIN PUBLIC KEY-----
    /// MCowBQYDK2VwAyEAM6r4oVRC6BK6Y2mBexXeZYkhNYHgv+R5+hyHiCa8RKQ=
    /// -----END PUBLIC KEY-----";
    /// let public = VerifyingKey::from_public_key_pem(pem).unwrap();
    /// let private = "-----BEGIN PRIVATE KEY-----
    /// MC4CAQAwBQYDK2VwBCIEIDKJ7juJzbAVkS0wxSw+BgXmJdKkueckGX25nXP/94cb
    /// -----END PRIVATE KEY-----";
    /// assert_eq!(SigningKey::from_pkcs8_pem("k", private).unwrap().verifying_key(), public);
    /// assert!(VerifyingKey::from_public_key_pem("-----BEGIN PUBLIC KEY-----").is_err());
    /// ```
    ///
    /// # Errors
    /// When the document is neither a P-256 nor an Ed25519 SPKI public key.
    pub fn from_public_key_pem(pem: &str) -> Result<Self, KeyError> {
        if let Ok(key) = p256::ecdsa::VerifyingKey::from_public_key_pem(pem) {
            Ok(VerifyingKey(Public::P256(key)))
        } else if let Ok(key) = ed25519_dalek::VerifyingKey::from_public_key_pem(pem) {
            Ok(VerifyingKey(Public::Ed25519(key)))
        } else {
            Err(KeyError {
                algorithm: "P-256 or Ed25519",
                detail: "expected an SPKI PEM public key (-----BEGIN PUBLIC KEY-----)",
            })
        }
    }

    /// The key's public bytes: SEC1 uncompressed for P-256 (65 bytes), 32 bytes for Ed25519.
    pub fn to_bytes(&self) -> Vec<u8> {
        match &self.0 {
            Public::P256(key) => key.to_encoded_point(false).as_bytes().to_vec(),
            Public::Ed25519(key) => key.to_bytes().to_vec(),
        }
    }

    /// Whether `signature` is this key's over `message`. P-256 takes the 64-byte `r || s`
    /// form only; Ed25519 is checked strictly (no small-order keys, canonical `S`).
    pub(crate) fn verifies(&self, message: &[u8], signature: &[u8]) -> bool {
        match &self.0 {
            Public::P256(key) => p256::ecdsa::Signature::from_slice(signature)
                .is_ok_and(|signature| key.verify(message, &signature).is_ok()),
            Public::Ed25519(key) => ed25519_dalek::Signature::from_slice(signature)
                .is_ok_and(|signature| key.verify_strict(message, &signature).is_ok()),
        }
    }
}

impl fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let algorithm = match self.0 {
            Public::P256(_) => "P-256",
            Public::Ed25519(_) => "Ed25519",
        };
        f.debug_tuple("VerifyingKey")
            .field(&algorithm)
            .field(&self.to_bytes())
            .finish()
    }
}

/// Which keys a consumer accepts: the key a DSSE `keyid` names, if it may sign events of this
/// `source` and `type` (the extension's "Consumer" appendix: a key must not only match, it
/// must belong to the producer). Returning `None` skips the signature (Verification Protocol
/// step 7.1).
///
/// ```
/// use cloudevent_runtime::verify::{KeyResolver, SigningKey, VerifyingKey};
///
/// /// One key, accepted only for the orders service's events.
/// struct Orders(VerifyingKey);
///
/// impl KeyResolver for Orders {
///     fn resolve(&self, key_id: &str, source: &str, _ty: &str) -> Option<&VerifyingKey> {
///         (key_id == "orders-2026" && source.starts_with("https://orders.example.com"))
///             .then_some(&self.0)
///     }
/// }
///
/// let keys = Orders(SigningKey::ed25519("orders-2026", &[7; 32]).verifying_key());
/// assert!(keys.resolve("orders-2026", "https://orders.example.com/eu", "t").is_some());
/// assert!(keys.resolve("orders-2026", "https://evil.example.com", "t").is_none());
/// ```
pub trait KeyResolver {
    /// The key `key_id` names, if it is accepted for an event of `source` and type `ty`.
    fn resolve(&self, key_id: &str, source: &str, ty: &str) -> Option<&VerifyingKey>;
}

/// A fixed list of accepted keys, each for every event or for one `source`.
///
/// ```
/// use cloudevent_runtime::verify::{KeyResolver, SigningKey, TrustedKeys};
///
/// let public = SigningKey::ed25519("k1", &[7; 32]).verifying_key();
/// let keys = TrustedKeys::new().with_key_for_source("k1", public, "https://orders.example.com");
/// assert!(keys.resolve("k1", "https://orders.example.com", "t").is_some());
/// assert!(keys.resolve("k1", "https://other.example.com", "t").is_none());
/// assert!(keys.resolve("k2", "https://orders.example.com", "t").is_none());
/// ```
#[derive(Debug, Clone, Default)]
pub struct TrustedKeys {
    keys: Vec<(String, VerifyingKey, Option<String>)>,
}

impl TrustedKeys {
    /// No key: every signed event is refused ([`super::VerifyError::NoAcceptableKey`]).
    pub fn new() -> Self {
        TrustedKeys::default()
    }

    /// Accepts `key` under `key_id` for events of any source and type.
    pub fn with_key(mut self, key_id: impl Into<String>, key: VerifyingKey) -> Self {
        self.keys.push((key_id.into(), key, None));
        self
    }

    /// Accepts `key` under `key_id` for events whose `source` is exactly `source`.
    pub fn with_key_for_source(
        mut self,
        key_id: impl Into<String>,
        key: VerifyingKey,
        source: impl Into<String>,
    ) -> Self {
        self.keys.push((key_id.into(), key, Some(source.into())));
        self
    }
}

impl KeyResolver for TrustedKeys {
    fn resolve(&self, key_id: &str, source: &str, _ty: &str) -> Option<&VerifyingKey> {
        self.keys
            .iter()
            .find(|(id, _, only)| id == key_id && only.as_deref().is_none_or(|s| s == source))
            .map(|(_, key, _)| key)
    }
}

impl<R: KeyResolver + ?Sized> KeyResolver for &R {
    fn resolve(&self, key_id: &str, source: &str, ty: &str) -> Option<&VerifyingKey> {
        (**self).resolve(key_id, source, ty)
    }
}
