//! The embedded [`SequenceStore`]: an append-only log in one local file.
//!
//! Each issued number is one line, `<group> <number>\n`, appended and synced (`fsync`) before
//! the number is returned; the last line of a group is its counter. A crash can cut only the
//! line being written, whose number was never returned: reopening ignores a last line without
//! its `\n`. Opening compacts the log (one line a group, written to a temporary file, synced,
//! renamed over the log, the directory synced), so it does not grow across restarts. An
//! exclusive lock on the file (`flock`, on Unix) keeps a second process from issuing the same
//! numbers; replicas share a [`JetStreamSequenceStore`](super::JetStreamSequenceStore)
//! instead.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::future::Future;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use super::{SequenceError, SequenceStore, group_key, next_after};

/// A crash-safe local [`SequenceStore`]: one synced log line per issued number, so a restart
/// continues each group with no gap and no reuse. One process at a time (the file is locked).
///
/// Each `reserve` costs one `fsync` of the log: fine for a producer's rate of events, and the
/// price of "no reuse after a crash".
///
/// ```
/// use cloudevent_runtime::order::{FileSequenceStore, SequenceStore};
///
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("sequence.log");
/// let store = FileSequenceStore::open(&path)?;
/// assert_eq!(store.reserve("/orders", Some("o-1")).await?, 1);
/// assert_eq!(store.reserve("/orders", Some("o-1")).await?, 2);
/// drop(store);
/// // A restart continues where the last one stopped.
/// let store = FileSequenceStore::open(&path)?;
/// assert_eq!(store.reserve("/orders", Some("o-1")).await?, 3);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct FileSequenceStore {
    path: PathBuf,
    state: Mutex<Log>,
}

#[derive(Debug)]
struct Log {
    file: File,
    /// The log's length after the last whole line: a failed append is cut back to it.
    len: u64,
    last: HashMap<String, i32>,
    /// An append failed and could not be cut back: the log's end is unknown.
    broken: bool,
}

impl FileSequenceStore {
    /// Opens (or creates) the log at `path`, reads every group's last number and compacts it.
    ///
    /// # Errors
    /// [`SequenceError::Io`] when the file cannot be read, written or locked (another process
    /// holds it); [`SequenceError::Corrupt`] for a whole line that is not `<group> <number>`.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, SequenceError> {
        let path = path.as_ref().to_path_buf();
        let io = |source| SequenceError::Io {
            path: path.clone(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)
            .map_err(io)?;
        lock(&file).map_err(io)?;
        let mut text = String::new();
        file.read_to_string(&mut text).map_err(io)?;
        let last = parse(&text)?;
        let compacted: String = last.iter().map(|(key, n)| format!("{key} {n}\n")).collect();
        let temp = path.with_extension("compacting");
        {
            let mut out = File::create(&temp).map_err(io)?;
            out.write_all(compacted.as_bytes()).map_err(io)?;
            out.sync_all().map_err(io)?;
        }
        std::fs::rename(&temp, &path).map_err(io)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            // The rename is durable once the directory entry is; not every platform can open
            // a directory, and there the rename is as durable as it gets.
            if let Ok(dir) = File::open(dir) {
                let _ = dir.sync_all();
            }
        }
        // The lock was on the old inode; take it on the compacted file.
        let file = OpenOptions::new().append(true).open(&path).map_err(io)?;
        lock(&file).map_err(io)?;
        Ok(FileSequenceStore {
            path,
            state: Mutex::new(Log {
                file,
                len: compacted.len() as u64,
                last,
                broken: false,
            }),
        })
    }

    fn reserve_now(&self, source: &str, partitionkey: Option<&str>) -> Result<i32, SequenceError> {
        let key = group_key(source, partitionkey);
        let mut log = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let io = |source| SequenceError::Io {
            path: self.path.clone(),
            source,
        };
        if log.broken {
            return Err(io(std::io::Error::other(
                "an earlier append failed; reopen the store",
            )));
        }
        let number = next_after(log.last.get(&key).copied());
        let line = format!("{key} {number}\n");
        let appended = log
            .file
            .write_all(line.as_bytes())
            .and_then(|()| log.file.sync_data());
        if let Err(error) = appended {
            let len = log.len;
            if log.file.set_len(len).is_err() {
                log.broken = true;
            }
            return Err(io(error));
        }
        log.len += line.len() as u64;
        log.last.insert(key, number);
        Ok(number)
    }
}

impl SequenceStore for FileSequenceStore {
    fn reserve(
        &self,
        source: &str,
        partitionkey: Option<&str>,
    ) -> impl Future<Output = Result<i32, SequenceError>> + Send {
        std::future::ready(self.reserve_now(source, partitionkey))
    }
}

/// Every group's last number; a last line cut by a crash (no `\n`) is ignored.
fn parse(text: &str) -> Result<HashMap<String, i32>, SequenceError> {
    let mut last = HashMap::new();
    let whole = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    for (index, line) in whole.lines().enumerate() {
        let parsed = line
            .split_once(' ')
            .and_then(|(key, n)| Some((key, n.parse::<i32>().ok()?)));
        match parsed {
            Some((key, n)) if !key.is_empty() => {
                last.insert(key.to_owned(), n);
            }
            _ => {
                return Err(SequenceError::Corrupt(format!(
                    "line {} is not `<group> <number>`: {}",
                    index + 1,
                    cloudevent_rules::shorten(line)
                )));
            }
        }
    }
    Ok(last)
}

#[cfg(unix)]
fn lock(file: &File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd as _;
    // `flock` directly: written when the MSRV (1.85) predated `File::try_lock` (1.89).
    #[allow(unsafe_code)]
    // SAFETY: `flock` takes a file descriptor we own for the call's duration; no memory is
    // shared with the kernel.
    let done = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if done == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(unix))]
fn lock(_: &File) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_last_line_is_ignored_and_a_bad_whole_line_refused() {
        let parsed = parse("a 1\nb 7\na 2\nb 8").unwrap();
        assert_eq!(parsed.get("a"), Some(&2));
        assert_eq!(parsed.get("b"), Some(&7));
        assert!(matches!(parse("a x\n"), Err(SequenceError::Corrupt(_))));
        assert!(parse("").unwrap().is_empty());
    }

    #[test]
    fn groups_count_apart_and_wrap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.log");
        std::fs::write(&path, format!("{} {}\n", group_key("/w", None), i32::MAX)).unwrap();
        let store = FileSequenceStore::open(&path).unwrap();
        assert_eq!(store.reserve_now("/w", None).unwrap(), i32::MIN);
        assert_eq!(store.reserve_now("/w", None).unwrap(), i32::MIN + 1);
        assert_eq!(store.reserve_now("/w", Some("k")).unwrap(), 1);
    }

    #[test]
    fn a_second_opener_is_refused_while_the_first_holds_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.log");
        let _first = FileSequenceStore::open(&path).unwrap();
        if cfg!(unix) {
            assert!(matches!(
                FileSequenceStore::open(&path),
                Err(SequenceError::Io { .. })
            ));
        }
    }
}
