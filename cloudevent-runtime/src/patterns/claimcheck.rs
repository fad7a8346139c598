//! The claim-check pattern (INTG-STD-015 R-11) and the `dataref` extension (NL GOV).
//!
//! An event MUST NOT exceed 256 KiB ([`limits::MAX_EVENT_BYTES`]). A larger payload is put
//! in a store and the event carries a claim check in its place:
//! `"data": {"claimCheckUri": "...", "claimCheckContentType": "..."}`. The producer calls
//! [`ClaimChecker::offload`], the consumer [`ClaimChecker::resolve`]; both go through the
//! same [`ClaimCheckStore`]. [`FsStore`] (a directory, `file://` URIs) is the embedded
//! default, [`InMemoryStore`] serves tests and examples; an object store (S3, Azure Blob)
//! implements the trait in a few lines.
//!
//! The offloaded event also gets the `dataref` extension (CloudEvents Dataref, used by the
//! NL GOV profile) pointing to the same URI, so consumers that know either convention find
//! the payload.
//!
//! ```
//! use cloudevent_runtime::{AnyEvent, Data};
//! use cloudevent_runtime::claimcheck::{ClaimCheck, ClaimChecker, InMemoryStore};
//!
//! let mut event = AnyEvent::new("01J0A", "https://reports.example.com", "com.example.report.generated");
//! event.set_datacontenttype(Some("text/csv".into()));
//! event.set_data(Some(Data::Text("a,b\n".repeat(100_000))));
//!
//! let checker = ClaimChecker::new(InMemoryStore::new());
//! let sent = checker.offload(event.clone()).unwrap();
//! assert!(sent.to_vec().len() < 1024);
//! let claim = ClaimCheck::from_event(&sent).unwrap();
//! assert_eq!(claim.content_type, "text/csv");
//!
//! let received = checker.resolve(sent).unwrap();
//! assert_eq!(received, event);
//! ```

use std::collections::HashMap;
use std::error::Error as StdError;
use std::fmt::Write as _;
use std::fs;
use std::io::{self, Read, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use cloudevent_rules::{Violation, rule};
use serde::{Deserialize, Serialize};

use crate::any::{AnyEvent, Data};
use crate::attributes::Attributes;
use crate::error::{BuildError, FormatError, ValueError};
use crate::extension::ExtensionValue;
use crate::extension::ExtensionValueBuf;
use crate::limits;
use crate::value::{Uri, UriRef};

/// The claim check's member naming the stored payload (INTG-STD-015 R-11).
pub const CLAIM_CHECK_URI: &str = "claimCheckUri";
/// The claim check's member carrying the stored payload's media type (INTG-STD-015 R-11).
pub const CLAIM_CHECK_CONTENT_TYPE: &str = "claimCheckContentType";
/// The Dataref extension: a URI-reference to where the payload is stored.
pub const DATAREF: &str = "dataref";

/// What an offloaded event carries in `data` (INTG-STD-015 R-11).
///
/// ```
/// use cloudevent_runtime::claimcheck::ClaimCheck;
///
/// let claim = ClaimCheck { uri: "file:///var/claims/0f".into(), content_type: "text/csv".into() };
/// assert_eq!(serde_json::to_string(&claim).unwrap(),
///     r#"{"claimCheckUri":"file:///var/claims/0f","claimCheckContentType":"text/csv"}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimCheck {
    /// Where the payload is stored.
    #[serde(rename = "claimCheckUri")]
    pub uri: String,
    /// The payload's media type (the event's `datacontenttype` before offloading).
    #[serde(rename = "claimCheckContentType")]
    pub content_type: String,
}

impl ClaimCheck {
    /// The claim check an event carries, if its `data` is one: a JSON object with exactly
    /// the two members, both strings. Any other payload is not a claim check.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Data};
    /// use cloudevent_runtime::claimcheck::ClaimCheck;
    ///
    /// let mut event = AnyEvent::new("1", "/reports", "com.example.report.generated");
    /// event.set_data(Some(Data::json(r#"{"claimCheckUri":"memory:1","claimCheckContentType":"text/csv"}"#).unwrap()));
    /// assert_eq!(ClaimCheck::from_event(&event).unwrap().uri, "memory:1");
    ///
    /// event.set_data(Some(Data::json(r#"{"claimCheckUri":"memory:1","rows":3}"#).unwrap()));
    /// assert_eq!(ClaimCheck::from_event(&event), None);
    /// ```
    pub fn from_event(event: &AnyEvent) -> Option<ClaimCheck> {
        match event.data()? {
            Data::Json(raw) => serde_json::from_str(raw.get()).ok(),
            Data::Text(_) | Data::Binary(_) => None,
        }
    }

    /// The claim check as `data`.
    fn to_data(&self) -> Result<Data, ClaimCheckError> {
        serde_json::to_string(self)
            .and_then(Data::json)
            .map_err(|e| ClaimCheckError::Payload(e.to_string()))
    }
}

mod store;

pub use store::{ClaimCheckStore, FsStore, InMemoryStore, StoreError};

/// Why a claim check could not be made or resolved.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClaimCheckError {
    /// The store failed.
    #[error("data: the claim-check store failed: {0} (INTG-STD-015 R-11)")]
    Store(#[source] Box<dyn StdError + Send + Sync>),
    /// Even with `data` moved out, the event is over the limit: its attributes are too big.
    #[error(
        "event of {size} bytes exceeds the limit of {limit} bytes even with `data` moved to the claim-check store; its attributes are too large (INTG-STD-015 R-11)"
    )]
    StillTooLarge {
        /// The event's size with the claim check in `data`.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The claim check, or the payload fetched for it, is malformed.
    #[error("{0}")]
    Invalid(Box<Violation>),
    /// The payload cannot be serialized or does not fit its content type.
    #[error("data: {0} (INTG-STD-015 R-11)")]
    Payload(String),
    /// A typed event could not be turned into JSON.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// The resolved event does not fit the requested type.
    #[error(transparent)]
    Format(#[from] FormatError),
}

/// The producer's and the consumer's side of the claim-check pattern over one store.
///
/// See the [module documentation](self) for a round trip.
#[derive(Debug, Clone)]
pub struct ClaimChecker<S> {
    store: S,
    limit: usize,
}

impl<S: ClaimCheckStore> ClaimChecker<S> {
    /// Offloads events over [`limits::MAX_EVENT_BYTES`] to `store`.
    pub fn new(store: S) -> Self {
        ClaimChecker {
            store,
            limit: limits::MAX_EVENT_BYTES,
        }
    }

    /// Offloads events over `limit` bytes instead (a bilateral agreement, a test).
    #[must_use]
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// Producer side: an event that fits the limit comes back unchanged; a larger one has
    /// its payload put in the store, `data` replaced by the [`ClaimCheck`],
    /// `datacontenttype` set to `application/json` (the claim check's own type; the
    /// payload's moves into `claimCheckContentType`) and `dataref` set to the URI. Other
    /// attributes, `dataschema` included, are kept: they describe the occurrence.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Attributes, Data};
    /// use cloudevent_runtime::claimcheck::{ClaimChecker, Dataref, InMemoryStore};
    ///
    /// let checker = ClaimChecker::new(InMemoryStore::new()).with_limit(400);
    /// let mut event = AnyEvent::new("1", "/reports", "com.example.report.generated");
    /// event.set_data(Some(Data::Binary(vec![7; 100])));
    /// let small = checker.offload(event.clone()).unwrap();
    /// assert_eq!(small, event);
    ///
    /// event.set_data(Some(Data::Binary(vec![7; 400])));
    /// let sent = checker.offload(event).unwrap();
    /// assert_eq!(sent.datacontenttype(), Some("application/json"));
    /// assert!(sent.dataref().unwrap().is_some());
    /// assert_eq!(checker.store().len(), 1);
    /// ```
    ///
    /// # Errors
    /// [`ClaimCheckError::Store`] when the store fails, [`ClaimCheckError::StillTooLarge`]
    /// when the event does not fit even without its payload.
    pub fn offload(&self, mut event: AnyEvent) -> Result<AnyEvent, ClaimCheckError> {
        let size = event.to_vec().len();
        if size <= self.limit {
            return Ok(event);
        }
        let Some(data) = event.take_data() else {
            return Err(ClaimCheckError::StillTooLarge {
                size,
                limit: self.limit,
            });
        };
        let content_type = event
            .datacontenttype()
            .map(str::to_owned)
            .unwrap_or_else(|| default_content_type(&data).to_owned());
        let payload: &[u8] = match &data {
            Data::Json(raw) => raw.get().as_bytes(),
            Data::Text(text) => text.as_bytes(),
            Data::Binary(bytes) => bytes,
        };
        let uri = self
            .store
            .put(payload, &content_type)
            .map_err(|e| ClaimCheckError::Store(Box::new(e)))?;
        let claim = ClaimCheck {
            uri: uri.as_str().to_owned(),
            content_type,
        };
        event.set_data(Some(claim.to_data()?));
        event.set_datacontenttype(Some("application/json".to_owned()));
        event
            .extensions_mut()
            .insert(DATAREF, ExtensionValueBuf::UriReference(UriRef::from(uri)));
        let size = event.to_vec().len();
        if size > self.limit {
            return Err(ClaimCheckError::StillTooLarge {
                size,
                limit: self.limit,
            });
        }
        Ok(event)
    }

    /// Consumer side: an event whose `data` is a [`ClaimCheck`] gets its payload back from
    /// the store, `datacontenttype` from `claimCheckContentType`, and loses a `dataref` equal
    /// to the claim check's URI; any other event comes back unchanged.
    ///
    /// The fetched payload becomes JSON data under a JSON content type, text under `text/*`
    /// when it is UTF-8, bytes (`data_base64`) otherwise.
    ///
    /// # Errors
    /// [`ClaimCheckError::Invalid`] when `claimCheckUri` is not an absolute URI or
    /// `claimCheckContentType` not a media type, [`ClaimCheckError::Store`] when fetching
    /// fails, [`ClaimCheckError::Payload`] when a JSON payload is not JSON.
    pub fn resolve(&self, mut event: AnyEvent) -> Result<AnyEvent, ClaimCheckError> {
        let Some(claim) = ClaimCheck::from_event(&event) else {
            return Ok(event);
        };
        let invalid = cloudevent_rules::check_uri(CLAIM_CHECK_URI, &claim.uri)
            .into_iter()
            .chain(
                cloudevent_rules::check_media_type(&claim.content_type)
                    .into_iter()
                    .map(|v| v.for_attribute(CLAIM_CHECK_CONTENT_TYPE)),
            )
            .find(Violation::is_error);
        if let Some(violation) = invalid {
            return Err(ClaimCheckError::Invalid(Box::new(violation)));
        }
        let payload = self
            .store
            .get(&claim.uri)
            .map_err(|e| ClaimCheckError::Store(Box::new(e)))?;
        let data = if cloudevent_rules::is_json_media_type(&claim.content_type) {
            let text = String::from_utf8(payload).map_err(|_| {
                ClaimCheckError::Payload(format!(
                    "the payload at {:?} is not UTF-8, but `{}` is JSON",
                    claim.uri, claim.content_type
                ))
            })?;
            Data::json(text).map_err(|e| {
                ClaimCheckError::Payload(format!(
                    "the payload at {:?} is not JSON ({e}), but `{}` is JSON",
                    claim.uri, claim.content_type
                ))
            })?
        } else if is_text(&claim.content_type) {
            match String::from_utf8(payload) {
                Ok(text) => Data::Text(text),
                Err(not_utf8) => Data::Binary(not_utf8.into_bytes()),
            }
        } else {
            Data::Binary(payload)
        };
        event.set_data(Some(data));
        if event
            .extensions()
            .get(DATAREF)
            .and_then(ExtensionValueBuf::as_str)
            .is_some_and(|dataref| dataref == claim.uri)
        {
            event.extensions_mut().remove(DATAREF);
        }
        event.set_datacontenttype(Some(claim.content_type));
        Ok(event)
    }
}

fn default_content_type(data: &Data) -> &'static str {
    match data {
        Data::Json(_) => "application/json",
        Data::Text(_) => "text/plain",
        Data::Binary(_) => "application/octet-stream",
    }
}

fn is_text(content_type: &str) -> bool {
    content_type
        .trim_start()
        .get(..5)
        .is_some_and(|kind| kind.eq_ignore_ascii_case("text/"))
}

/// The `dataref` extension (CloudEvents Dataref; NL GOV): a URI-reference to the payload.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, UriRef};
/// use cloudevent_runtime::claimcheck::Dataref;
///
/// let event = AnyEvent::new("1", "/reports", "com.example.report.generated")
///     .with_dataref(UriRef::try_from("https://blobs.example.com/reports/1").unwrap())
///     .unwrap();
/// assert_eq!(event.dataref().unwrap().unwrap().as_str(), "https://blobs.example.com/reports/1");
/// ```
pub trait Dataref: Attributes + Sized {
    /// `dataref`, `None` when absent.
    ///
    /// # Errors
    /// When it is present but not a URI-reference (a received event's extension is a plain
    /// string until checked here).
    fn dataref(&self) -> Result<Option<UriRef>, ValueError> {
        self.extension_value(DATAREF)
            .map(|value| as_dataref(value.as_value()))
            .transpose()
    }

    /// Sets `dataref`.
    ///
    /// # Errors
    /// When the event's profile refuses the extension (it does not for the documented
    /// `dataref`; the signature follows [`Event::with_extension`](crate::Event::with_extension)).
    fn with_dataref(mut self, dataref: UriRef) -> Result<Self, BuildError> {
        self.set_extension(DATAREF, ExtensionValueBuf::UriReference(dataref))?;
        Ok(self)
    }
}

impl<E: Attributes> Dataref for E {}

/// A `dataref` value as a URI-reference.
fn as_dataref(value: ExtensionValue<'_>) -> Result<UriRef, ValueError> {
    match value {
        ExtensionValue::UriReference(text) | ExtensionValue::Uri(text) => {
            Ok(UriRef::new_unchecked(text.to_owned()))
        }
        ExtensionValue::String(text) => UriRef::try_from(text).map_err(|e| {
            ValueError::new(
                Vec::from(e)
                    .into_iter()
                    .map(|v| v.for_attribute(DATAREF))
                    .collect(),
            )
        }),
        ExtensionValue::Boolean(_)
        | ExtensionValue::Integer(_)
        | ExtensionValue::Binary(_)
        | ExtensionValue::Timestamp(_) => Err(ValueError::new(vec![Violation::error(
            rule::CE_TYPE_SYSTEM,
            DATAREF,
            format!("{:?}", value.kind()),
            "must be a URI-reference (CloudEvents Dataref extension)",
        )])),
    }
}
