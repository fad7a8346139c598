//! [`SequenceStore`] on a NATS JetStream key-value bucket, for producer replicas that share
//! (source, partitionkey) groups.
//!
//! Each group is one key holding its last number. `reserve` reads the entry and its revision,
//! then writes the next number with an expected-revision condition (revision 0: the key must
//! not exist yet): JetStream accepts exactly one writer per revision, so two replicas never
//! issue the same number. The replica that lost the compare-and-set waits a little (growing
//! from 1 ms to 16 ms, with jitter), reads again and retries (64 times, then
//! [`SequenceError::Contended`]). An unreachable server or a refused
//! write is [`SequenceError::Unavailable`]: no number is returned, nothing gets stamped. A
//! write whose acknowledgement timed out may still have been stored: its number is then
//! skipped (a gap the consumer's ordering stage reports), never issued twice.
//!
//! A group's key is its text as the file store writes it, up to 256 bytes; a longer one (a
//! long `source` or `partitionkey`) is its SHA-256 (`sha256=` and base64url, 50 bytes), since
//! a key past about 4 KB made the server drop the connection (issue 38).

use std::future::Future;

use async_nats::jetstream::kv::{self, UpdateErrorKind};
use bytes::Bytes;

use super::{SequenceError, SequenceStore, group_key, next_after};
use crate::patterns::dedupe::kv_key;

/// How many compare-and-set rounds `reserve` makes before giving up.
const ATTEMPTS: u32 = 64;

/// A [`SequenceStore`] shared by replicas through a JetStream key-value bucket (history 1 is
/// enough; file storage, so counters survive a server restart).
///
/// ```no_run
/// use async_nats::jetstream::{self, kv, stream::StorageType};
/// use cloudevent_runtime::order::{JetStreamSequenceStore, Sequencer};
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let jetstream = jetstream::new(async_nats::connect("127.0.0.1:4222").await?);
/// let bucket = jetstream
///     .create_key_value(kv::Config {
///         bucket: "sequences".into(),
///         storage: StorageType::File,
///         ..Default::default()
///     })
///     .await?;
/// let sequencer = Sequencer::new(JetStreamSequenceStore::new(bucket));
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct JetStreamSequenceStore {
    bucket: kv::Store,
}

impl JetStreamSequenceStore {
    /// Counters in `bucket`, one key per (source, partitionkey) group.
    pub fn new(bucket: kv::Store) -> Self {
        JetStreamSequenceStore { bucket }
    }

    async fn reserve_now(
        &self,
        source: &str,
        partitionkey: Option<&str>,
    ) -> Result<i32, SequenceError> {
        // Bounded before any round trip: a long source or partitionkey is hashed (issue 38).
        let key = kv_key(group_key(source, partitionkey));
        let unavailable =
            |e: Box<dyn std::error::Error + Send + Sync>| SequenceError::Unavailable(e);
        for attempt in 0..ATTEMPTS {
            if attempt > 0 {
                // A lost race: let the winner's next write land before reading again, with a
                // little jitter so two replicas do not keep meeting (at most ~1 s in all).
                let jitter = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |t| t.subsec_nanos() % 1_000_000);
                let wait = std::time::Duration::from_millis(u64::from(attempt.min(16)))
                    + std::time::Duration::from_nanos(u64::from(jitter));
                tokio::time::sleep(wait).await;
            }
            let entry = self
                .bucket
                .entry(key.as_str())
                .await
                .map_err(|e| unavailable(Box::new(e)))?;
            let (last, revision) = match entry {
                Some(entry) if entry.operation == kv::Operation::Put => {
                    let last = std::str::from_utf8(&entry.value)
                        .ok()
                        .and_then(|text| text.parse::<i32>().ok())
                        .ok_or_else(|| {
                            SequenceError::Corrupt(format!(
                                "key {key} holds {:?}, not a number",
                                String::from_utf8_lossy(&entry.value)
                            ))
                        })?;
                    (Some(last), entry.revision)
                }
                // A deleted key is a new group; its marker's revision is the one to replace.
                Some(entry) => (None, entry.revision),
                None => (None, 0),
            };
            let number = next_after(last);
            match self
                .bucket
                .update(key.as_str(), Bytes::from(number.to_string()), revision)
                .await
            {
                Ok(_) => return Ok(number),
                Err(error) if error.kind() == UpdateErrorKind::WrongLastRevision => {}
                Err(error) => return Err(unavailable(Box::new(error))),
            }
        }
        Err(SequenceError::Contended { attempts: ATTEMPTS })
    }
}

impl SequenceStore for JetStreamSequenceStore {
    fn reserve(
        &self,
        source: &str,
        partitionkey: Option<&str>,
    ) -> impl Future<Output = Result<i32, SequenceError>> + Send {
        self.reserve_now(source, partitionkey)
    }
}
