//! Where claim-checked payloads are kept: the [`ClaimCheckStore`] trait, in memory and on
//! the file system.

use super::*;

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
#[non_exhaustive]
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
        let not_regular = || StoreError::ForeignUri {
            uri: uri.to_owned(),
            reason: "names a symbolic link or a file that is not a regular file, which this store never writes",
        };
        let file = match open_regular(&path) {
            Ok(file) => file,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return Err(StoreError::NotFound {
                    uri: uri.to_owned(),
                });
            }
            Err(error) if is_link_refusal(&error) => return Err(not_regular()),
            Err(error) => return Err(self.io_error(&path)(error)),
        };
        if !file.metadata().map_err(self.io_error(&path))?.is_file() {
            return Err(not_regular());
        }
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

/// Opens a stored object for reading without following a symbolic link planted in the
/// store's directory (`O_NOFOLLOW`) and without blocking on a FIFO planted there
/// (`O_NONBLOCK`, which changes nothing for a regular file); the caller then requires a
/// regular file.
fn open_regular(path: &Path) -> io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Whether opening failed because the path is a symbolic link (`ELOOP` under `O_NOFOLLOW`).
fn is_link_refusal(error: &io::Error) -> bool {
    #[cfg(unix)]
    {
        error.raw_os_error() == Some(libc::ELOOP)
    }
    #[cfg(not(unix))]
    {
        let _ = error;
        false
    }
}

/// 128 random bits as 32 lowercase hexadecimal digits.
fn object_name() -> io::Result<String> {
    let mut bits = [0u8; NAME_LEN / 2];
    // Straight from the operating system: an object name must not be guessable.
    rand::TryRng::try_fill_bytes(&mut rand::rngs::SysRng, &mut bits)
        .map_err(|e| io::Error::other(e.to_string()))?;
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
