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
use crate::data::CloudEventData;
use crate::error::{BuildError, FormatError, ValueError};
use crate::event::Event;
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

/// Where claim-checked payloads live: `put` stores bytes and returns a URI; `get` returns
/// the bytes stored under a URI. Methods take `&self` so producers and consumers can share
/// one store.
///
/// `get` receives URIs from events, which an attacker may write: an implementation must
/// only ever return its own objects for them (see [`FsStore`]).
///
/// ```
/// use cloudevent_runtime::claimcheck::{ClaimCheckStore, InMemoryStore};
///
/// let store = InMemoryStore::new();
/// let uri = store.put(b"a,b\n1,2\n", "text/csv").unwrap();
/// assert_eq!(store.get(uri.as_str()).unwrap(), b"a,b\n1,2\n");
/// ```
pub trait ClaimCheckStore {
    /// The store's failure.
    type Error: StdError + Send + Sync + 'static;

    /// Stores a payload of the given media type; returns the absolute URI to fetch it by.
    ///
    /// # Errors
    /// When the store cannot keep it.
    fn put(&self, payload: &[u8], content_type: &str) -> Result<Uri, Self::Error>;

    /// The payload stored under `uri`.
    ///
    /// # Errors
    /// When nothing is stored under it, it is not this store's URI, or reading fails.
    fn get(&self, uri: &str) -> Result<Vec<u8>, Self::Error>;
}

impl<S: ClaimCheckStore + ?Sized> ClaimCheckStore for &S {
    type Error = S::Error;

    fn put(&self, payload: &[u8], content_type: &str) -> Result<Uri, Self::Error> {
        (**self).put(payload, content_type)
    }

    fn get(&self, uri: &str) -> Result<Vec<u8>, Self::Error> {
        (**self).get(uri)
    }
}

impl<S: ClaimCheckStore + ?Sized> ClaimCheckStore for Arc<S> {
    type Error = S::Error;

    fn put(&self, payload: &[u8], content_type: &str) -> Result<Uri, Self::Error> {
        (**self).put(payload, content_type)
    }

    fn get(&self, uri: &str) -> Result<Vec<u8>, Self::Error> {
        (**self).get(uri)
    }
}

/// Why a built-in store could not put or get a payload.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Nothing is stored under the URI (deleted, expired, or never stored).
    #[error("claimCheckUri {uri:?}: no payload is stored under it (INTG-STD-015 R-11)")]
    NotFound {
        /// The URI asked for.
        uri: String,
    },
    /// The URI does not name an object of this store; it is refused without touching
    /// anything else (a hostile event cannot make the store read other files).
    #[error("claimCheckUri {uri:?}: {reason} (INTG-STD-015 R-11)")]
    ForeignUri {
        /// The URI asked for.
        uri: String,
        /// Why it is not this store's.
        reason: &'static str,
    },
    /// The stored payload is larger than the store agrees to read.
    #[error(
        "claimCheckUri {uri:?}: payload of {size} bytes exceeds the store's limit of {limit} bytes"
    )]
    TooLarge {
        /// The URI asked for.
        uri: String,
        /// The payload's size.
        size: u64,
        /// The store's limit.
        limit: u64,
    },
    /// The file system failed.
    #[error("claim-check store `{}`: {source}", path.display())]
    Io {
        /// The file or directory involved.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
}

/// A [`ClaimCheckStore`] in memory, for tests and examples. URIs are `memory:claimcheck/<n>`.
///
/// ```
/// use cloudevent_runtime::claimcheck::{ClaimCheckStore, InMemoryStore, StoreError};
///
/// let store = InMemoryStore::new();
/// let uri = store.put(b"{}", "application/json").unwrap();
/// assert!(uri.as_str().starts_with("memory:claimcheck/"));
/// assert_eq!(store.len(), 1);
/// assert!(matches!(store.get("memory:claimcheck/999"), Err(StoreError::NotFound { .. })));
/// ```
#[derive(Debug, Default)]
pub struct InMemoryStore {
    objects: Mutex<HashMap<String, Vec<u8>>>,
    next: AtomicU64,
}

impl InMemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        InMemoryStore::default()
    }

    /// How many payloads it holds.
    pub fn len(&self) -> usize {
        self.objects().len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn objects(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<u8>>> {
        // Inserts and reads complete or do not start, so a poisoned map is still consistent.
        self.objects
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl ClaimCheckStore for InMemoryStore {
    type Error = StoreError;

    fn put(&self, payload: &[u8], _content_type: &str) -> Result<Uri, StoreError> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let uri = format!("memory:claimcheck/{n}");
        self.objects().insert(uri.clone(), payload.to_vec());
        Ok(Uri::new_unchecked(uri))
    }

    fn get(&self, uri: &str) -> Result<Vec<u8>, StoreError> {
        self.objects()
            .get(uri)
            .cloned()
            .ok_or_else(|| StoreError::NotFound {
                uri: uri.to_owned(),
            })
    }
}

/// The embedded default [`ClaimCheckStore`]: one file per payload in a directory, named by
/// `file://` URIs.
///
/// File names are 32 random hexadecimal digits chosen by the store, never taken from the
/// payload or the event. `get` accepts only a URI made of this store's directory URI and
/// such a name, so a hostile `claimCheckUri` (`file:///etc/passwd`, `../` segments,
/// percent-encoded dots) is refused before any file is opened. Payloads are written to a
/// temporary file and renamed, so a reader never sees half a payload.
///
/// ```
/// use cloudevent_runtime::claimcheck::{ClaimCheckStore, FsStore, StoreError};
///
/// let dir = std::env::temp_dir().join(format!("claims-doc-{}", std::process::id()));
/// let store = FsStore::new(&dir).unwrap();
/// let uri = store.put(b"a,b\n", "text/csv").unwrap();
/// assert!(uri.as_str().starts_with("file:///"));
/// assert_eq!(store.get(uri.as_str()).unwrap(), b"a,b\n");
/// assert!(matches!(store.get("file:///etc/passwd"), Err(StoreError::ForeignUri { .. })));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct FsStore {
    dir: PathBuf,
    /// `file://` URI of the directory, ending in `/`.
    base: String,
    max_bytes: u64,
}

/// Name length of a stored payload: 128 random bits in hexadecimal.
const NAME_LEN: usize = 32;

impl FsStore {
    /// The default limit on a payload `get` reads: 64 MiB.
    pub const DEFAULT_MAX_BYTES: u64 = 64 * 1024 * 1024;

    /// A store in `dir`, created when missing.
    ///
    /// # Errors
    /// When the directory cannot be created or resolved, or its path is not UTF-8 (it would
    /// not fit a URI).
    pub fn new(dir: impl AsRef<Path>) -> Result<Self, StoreError> {
        let dir = dir.as_ref();
        let io_error = |source| StoreError::Io {
            path: dir.to_owned(),
            source,
        };
        fs::create_dir_all(dir).map_err(io_error)?;
        let dir = fs::canonicalize(dir).map_err(io_error)?;
        let Some(path) = dir.to_str() else {
            return Err(StoreError::Io {
                path: dir.clone(),
                source: io::Error::new(io::ErrorKind::InvalidInput, "the path is not UTF-8"),
            });
        };
        let base = format!("file://{}/", file_uri_path(path).trim_end_matches('/'));
        Ok(FsStore {
            dir,
            base,
            max_bytes: Self::DEFAULT_MAX_BYTES,
        })
    }

    /// Sets the largest payload `get` reads, in bytes.
    #[must_use]
    pub fn with_max_bytes(mut self, max_bytes: u64) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// The directory, canonical.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file behind one of this store's URIs, or why the URI is not one.
    fn path_of(&self, uri: &str) -> Result<PathBuf, StoreError> {
        let foreign = |reason| StoreError::ForeignUri {
            uri: uri.to_owned(),
            reason,
        };
        let name = uri
            .strip_prefix(self.base.as_str())
            .ok_or_else(|| foreign("is not in this store's directory"))?;
        if !is_object_name(name) {
            return Err(foreign("does not name an object of this store"));
        }
        Ok(self.dir.join(name))
    }

    fn io_error(&self, path: &Path) -> impl Fn(io::Error) -> StoreError {
        let path = path.to_owned();
        move |source| StoreError::Io {
            path: path.clone(),
            source,
        }
    }
}

impl ClaimCheckStore for FsStore {
    type Error = StoreError;

    fn put(&self, payload: &[u8], _content_type: &str) -> Result<Uri, StoreError> {
        let name = object_name().map_err(self.io_error(&self.dir))?;
        let path = self.dir.join(&name);
        let partial = self.dir.join(format!(".{name}.partial"));
        let written = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&partial)
            .and_then(|mut file| {
                file.write_all(payload)?;
                file.sync_all()
            })
            .and_then(|()| fs::rename(&partial, &path));
        if let Err(error) = written {
            // Best effort: the partial file is garbage either way.
            let _ = fs::remove_file(&partial);
            return Err(self.io_error(&path)(error));
        }
        Ok(Uri::new_unchecked(format!("{}{name}", self.base)))
    }

    fn get(&self, uri: &str) -> Result<Vec<u8>, StoreError> {
        let path = self.path_of(uri)?;
        let file = match fs::File::open(&path) {
            Ok(file) => file,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return Err(StoreError::NotFound {
                    uri: uri.to_owned(),
                });
            }
            Err(error) => return Err(self.io_error(&path)(error)),
        };
        let mut bytes = Vec::new();
        // Read one byte past the limit to tell "exactly the limit" from "more".
        file.take(self.max_bytes.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(self.io_error(&path))?;
        let size = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        if size > self.max_bytes {
            return Err(StoreError::TooLarge {
                uri: uri.to_owned(),
                size,
                limit: self.max_bytes,
            });
        }
        Ok(bytes)
    }
}

/// 128 random bits as 32 lowercase hexadecimal digits.
fn object_name() -> io::Result<String> {
    let mut bits = [0u8; NAME_LEN / 2];
    getrandom::fill(&mut bits).map_err(|e| io::Error::other(e.to_string()))?;
    let mut name = String::with_capacity(NAME_LEN);
    for byte in bits {
        // Writing to a String cannot fail.
        let _ = write!(name, "{byte:02x}");
    }
    Ok(name)
}

fn is_object_name(name: &str) -> bool {
    name.len() == NAME_LEN
        && name
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A file system path as the path of a `file://` URI (RFC 8089): `/` separators, a leading
/// `/` (Windows drive paths get one), everything but unreserved characters percent-encoded.
fn file_uri_path(path: &str) -> String {
    let path = path.replace('\\', "/");
    let mut out = String::with_capacity(path.len() + 1);
    if !path.starts_with('/') {
        out.push('/');
    }
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/:".contains(&byte) {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// Why a claim check could not be made or resolved.
#[derive(Debug, thiserror::Error)]
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

    /// The size above which events are offloaded.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Producer side: an event that fits the limit comes back unchanged; a larger one has
    /// its payload put in the store, `data` replaced by the [`ClaimCheck`],
    /// `datacontenttype` set to `application/json` (the claim check's own type; the
    /// payload's moves into `claimCheckContentType`) and `dataref` set to the URI. Other
    /// attributes, `dataschema` included, are kept: they describe the occurrence.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Data};
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

    /// [`offload`](Self::offload) for a typed event, which becomes an [`AnyEvent`]: its
    /// `data` is no longer a `T` once offloaded.
    ///
    /// # Errors
    /// As [`offload`](Self::offload); [`ClaimCheckError::Build`] when the payload cannot be
    /// serialized.
    pub fn offload_event<T>(&self, event: &Event<T>) -> Result<AnyEvent, ClaimCheckError>
    where
        T: CloudEventData + Serialize,
    {
        self.offload(event.to_any()?)
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
            .extension(DATAREF)
            .and_then(ExtensionValueBuf::as_str)
            .is_some_and(|dataref| dataref == claim.uri)
        {
            event.extensions_mut().remove(DATAREF);
        }
        event.set_datacontenttype(Some(claim.content_type));
        Ok(event)
    }

    /// [`resolve`](Self::resolve), then [`AnyEvent::into_typed`].
    ///
    /// # Errors
    /// As [`resolve`](Self::resolve); [`ClaimCheckError::Format`] when the event is not a `T`.
    pub fn resolve_typed<T>(&self, event: AnyEvent) -> Result<Event<T>, ClaimCheckError>
    where
        T: CloudEventData + serde::de::DeserializeOwned,
    {
        Ok(self.resolve(event)?.into_typed()?)
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
///     .with_dataref(UriRef::parse("https://blobs.example.com/reports/1").unwrap())
///     .unwrap();
/// assert_eq!(event.dataref().unwrap().unwrap().as_str(), "https://blobs.example.com/reports/1");
/// ```
pub trait Dataref: Sized {
    /// `dataref`, `None` when absent.
    ///
    /// # Errors
    /// When it is present but not a URI-reference (a received event's extension is a plain
    /// string until checked here).
    fn dataref(&self) -> Result<Option<UriRef>, ValueError>;

    /// Sets `dataref`.
    ///
    /// # Errors
    /// When the event's profile refuses the extension (it does not for the documented
    /// `dataref`; the signature follows [`Event::with_extension`]).
    fn with_dataref(self, dataref: UriRef) -> Result<Self, BuildError>;
}

/// A `dataref` value as a URI-reference.
fn as_dataref(value: ExtensionValue<'_>) -> Result<UriRef, ValueError> {
    match value {
        ExtensionValue::UriReference(text) | ExtensionValue::Uri(text) => {
            Ok(UriRef::new_unchecked(text.to_owned()))
        }
        ExtensionValue::String(text) => UriRef::parse(text).map_err(|e| {
            ValueError::new(
                e.into_violations()
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

impl Dataref for AnyEvent {
    fn dataref(&self) -> Result<Option<UriRef>, ValueError> {
        self.extension(DATAREF)
            .map(|value| as_dataref(value.as_value()))
            .transpose()
    }

    fn with_dataref(mut self, dataref: UriRef) -> Result<Self, BuildError> {
        self.extensions_mut()
            .insert(DATAREF, ExtensionValueBuf::UriReference(dataref));
        Ok(self)
    }
}

impl<T: CloudEventData> Dataref for Event<T> {
    fn dataref(&self) -> Result<Option<UriRef>, ValueError> {
        self.extension(DATAREF)
            .map(|value| as_dataref(value.as_value()))
            .transpose()
    }

    fn with_dataref(self, dataref: UriRef) -> Result<Self, BuildError> {
        self.with_extension(DATAREF, dataref)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_names_are_32_lowercase_hex_digits() {
        let name = object_name().unwrap();
        assert!(is_object_name(&name), "{name}");
        assert!(!is_object_name(&name.to_uppercase()));
        assert!(!is_object_name(&name[1..]));
        assert!(!is_object_name("../../../../../../../etc/passwd"));
    }

    #[test]
    fn file_uri_paths_percent_encode_what_a_uri_cannot_hold() {
        assert_eq!(file_uri_path("/var/claims"), "/var/claims");
        assert_eq!(file_uri_path("/tmp/a b/ü"), "/tmp/a%20b/%C3%BC");
        assert_eq!(file_uri_path(r"C:\claims"), "/C:/claims");
    }
}
