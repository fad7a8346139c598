//! A [`Deduplicator`] shared by consumer replicas through a NATS JetStream key-value bucket
//! (ADR-0003: dedupe on `id` under JetStream's at-least-once delivery).

use std::sync::mpsc::{SyncSender, sync_channel};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use async_nats::jetstream::kv::{self, CreateErrorKind, Operation, UpdateErrorKind};
use async_nats::jetstream::{self, stream};
use bytes::Bytes;

use super::{Claim, Deduplicator, Delivery, key};

/// The shared store failed (unreachable, refused, or the worker thread is gone).
#[derive(Debug, thiserror::Error)]
#[error("dedupe store: {0}")]
pub struct StoreError(Box<dyn std::error::Error + Send + Sync>);

enum Request {
    Check(String, SyncSender<Result<Delivery, StoreError>>),
    Claim(String, Duration, SyncSender<Result<Claim, StoreError>>),
    Commit(String, SyncSender<Result<(), StoreError>>),
    Forget(String, SyncSender<Result<(), StoreError>>),
}

/// The value of a committed key.
const DONE: &[u8] = b"done";
/// The start of a claimed key's value, followed by the lease's end in Unix milliseconds.
const LEASE: &str = "lease ";

/// A [`Deduplicator`] on a JetStream key-value bucket: `claim` is an atomic create of the
/// event's key holding the lease's end (the first replica to create it processes the event);
/// a replica that finds a lease run out takes it over by a compare-and-set on the key's
/// revision (of two such replicas, one wins, the other sees [`Claim::InFlight`]); `commit`
/// writes `done`; `check` creates `done` at once. The bucket's `max_age` is the
/// deduplication window; `forget` purges the key so the redelivery is processed.
///
/// A pair's key is base64url of the pair up to 256 bytes; past that (a 3 KB `id`), its
/// SHA-256, so no key comes near the server's 4,096-byte control line.
///
/// The lease's end is the claiming replica's wall clock: replicas whose clocks disagree by
/// more than a small part of the lease shorten or lengthen it by that much.
///
/// The trait is synchronous and the NATS client asynchronous: the client runs on a thread of
/// its own, so `check` blocks its caller for one round trip and works from any context (a
/// tokio task on any runtime flavour, or plain threads).
///
/// ```no_run
/// use std::time::Duration;
/// use cloudevent_runtime::dedupe::{Deduplicator, Delivery, JetStreamDeduplicator};
///
/// let seen = JetStreamDeduplicator::connect("nats://127.0.0.1:4222", "dedupe", Duration::from_secs(3600))?;
/// assert_eq!(seen.check("/orders", "01J0A")?, Delivery::New);
/// assert_eq!(seen.check("/orders", "01J0A")?, Delivery::Duplicate);
/// # Ok::<(), cloudevent_runtime::dedupe::StoreError>(())
/// ```
#[derive(Debug)]
pub struct JetStreamDeduplicator {
    requests: tokio::sync::mpsc::UnboundedSender<Request>,
}

impl std::fmt::Debug for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Request")
    }
}

impl JetStreamDeduplicator {
    /// Connects to `url` and opens the bucket `bucket` (file storage, `window` as its
    /// `max_age`), creating its stream when it does not exist.
    ///
    /// # Errors
    /// When the server cannot be reached or the bucket cannot be opened or created.
    pub fn connect(url: &str, bucket: &str, window: Duration) -> Result<Self, StoreError> {
        let (requests, mut incoming) = tokio::sync::mpsc::unbounded_channel::<Request>();
        let (ready, opened) = sync_channel::<Result<(), StoreError>>(1);
        let (url, bucket) = (url.to_owned(), bucket.to_owned());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| StoreError(Box::new(e)))?;
        std::thread::Builder::new()
            .name("cloudevent-dedupe-nats".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let store = match open(&url, &bucket, window).await {
                        Ok(store) => {
                            let _ = ready.send(Ok(()));
                            store
                        }
                        Err(error) => {
                            let _ = ready.send(Err(error));
                            return;
                        }
                    };
                    // Ends when the deduplicator (the only sender) is dropped.
                    while let Some(request) = incoming.recv().await {
                        match request {
                            Request::Check(key, reply) => {
                                let _ = reply.send(check(&store, &key).await);
                            }
                            Request::Claim(key, lease, reply) => {
                                let _ = reply.send(claim(&store, &key, lease).await);
                            }
                            Request::Commit(key, reply) => {
                                let done = store
                                    .put(&key, Bytes::from_static(DONE))
                                    .await
                                    .map(drop)
                                    .map_err(|e| StoreError(Box::new(e)));
                                let _ = reply.send(done);
                            }
                            Request::Forget(key, reply) => {
                                let done =
                                    store.purge(&key).await.map_err(|e| StoreError(Box::new(e)));
                                let _ = reply.send(done);
                            }
                        }
                    }
                });
            })
            .map_err(|e| StoreError(Box::new(e)))?;
        opened.recv().map_err(|e| StoreError(Box::new(e)))??;
        Ok(JetStreamDeduplicator { requests })
    }

    fn ask<T>(
        &self,
        request: impl FnOnce(SyncSender<Result<T, StoreError>>) -> Request,
    ) -> Result<T, StoreError> {
        let (reply, answer) = sync_channel(1);
        self.requests
            .send(request(reply))
            .map_err(|_| StoreError("the NATS worker thread stopped".into()))?;
        answer
            .recv()
            .map_err(|_| StoreError("the NATS worker thread stopped".into()))?
    }
}

/// NATS keys take `[-_=.a-zA-Z0-9/]`: the pair's key, base64url, bounded by [`kv_key`].
fn bucket_key(source: &str, id: &str) -> String {
    use base64::Engine as _;
    kv_key(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(key(source, id)))
}

/// The longest key the NATS stores write as it is. A key travels in the subject of every
/// request (`$KV.<bucket>.<key>`, `$JS.API.DIRECT.GET.KV_<bucket>.$KV.<bucket>.<key>`), and
/// a control line past the server's `max_control_line` (4,096 bytes by default) makes the
/// server drop the connection: the call timed out after 15 s, and every call queued behind
/// it waited as long (issue 38). 256 leaves room for the bucket's name and the reply inbox.
pub(crate) const MAX_PLAIN_KV_KEY: usize = 256;

/// What starts a hashed key. The plain keys are unpadded base64url, which never holds `=`,
/// so a hashed key never equals a plain one.
const HASHED: &str = "sha256=";

/// A JetStream KV key for `plain` (base64url of a length-prefixed pair, so two pairs never
/// share one): `plain` itself up to [`MAX_PLAIN_KV_KEY`] bytes, so the keys stores hold
/// today stay valid; past it, [`HASHED`] and the SHA-256 of `plain` in base64url (50 bytes),
/// as collision-free as SHA-256 is. Decided here, before any round trip.
pub(crate) fn kv_key(plain: String) -> String {
    use base64::Engine as _;
    if plain.len() <= MAX_PLAIN_KV_KEY {
        return plain;
    }
    let digest = ring::digest::digest(&ring::digest::SHA256, plain.as_bytes());
    let mut key = String::with_capacity(HASHED.len() + 43);
    key.push_str(HASHED);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode_string(digest.as_ref(), &mut key);
    key
}

async fn open(url: &str, bucket: &str, window: Duration) -> Result<kv::Store, StoreError> {
    let boxed = |e: Box<dyn std::error::Error + Send + Sync>| StoreError(e);
    let client = async_nats::connect(url)
        .await
        .map_err(|e| boxed(Box::new(e)))?;
    let context = jetstream::new(client);
    // The stream a key-value bucket is, made directly: `create_key_value` first reads the
    // account's limits, a reply older servers (2.9) give in a shape the client cannot read.
    context
        .get_or_create_stream(stream::Config {
            name: format!("KV_{bucket}"),
            subjects: vec![format!("$KV.{bucket}.>")],
            max_messages_per_subject: 1,
            max_age: window,
            storage: stream::StorageType::File,
            allow_rollup: true,
            deny_delete: true,
            allow_direct: true,
            discard: stream::DiscardPolicy::New,
            ..Default::default()
        })
        .await
        .map_err(|e| boxed(Box::new(e)))?;
    context
        .get_key_value(bucket)
        .await
        .map_err(|e| boxed(Box::new(e)))
}

async fn check(store: &kv::Store, key: &str) -> Result<Delivery, StoreError> {
    match store.create(key, Bytes::from_static(DONE)).await {
        Ok(_) => Ok(Delivery::New),
        Err(error) if error.kind() == CreateErrorKind::AlreadyExists => Ok(Delivery::Duplicate),
        Err(error) => Err(StoreError(Box::new(error))),
    }
}

fn unix_ms(at: SystemTime) -> u64 {
    at.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Create the key with a lease; else read it: committed, a live lease, or one run out (taken
/// over by compare-and-set). A purged key (a tombstone) is created again.
async fn claim(store: &kv::Store, key: &str, lease: Duration) -> Result<Claim, StoreError> {
    let boxed = |e: Box<dyn std::error::Error + Send + Sync>| StoreError(e);
    let lease_value = || {
        let now = SystemTime::now();
        let until = now.checked_add(lease).map_or(u64::MAX, unix_ms);
        (unix_ms(now), Bytes::from(format!("{LEASE}{until}")))
    };
    // A few rounds: each lost round means another replica wrote the key meanwhile.
    for _ in 0..4 {
        let (_, value) = lease_value();
        match store.create(key, value).await {
            Ok(_) => return Ok(Claim::Claimed),
            Err(error) if error.kind() == CreateErrorKind::AlreadyExists => {}
            Err(error) => return Err(boxed(Box::new(error))),
        }
        let Some(entry) = store.entry(key).await.map_err(|e| boxed(Box::new(e)))? else {
            continue;
        };
        if entry.operation != Operation::Put {
            continue;
        }
        let held_until = std::str::from_utf8(&entry.value)
            .ok()
            .and_then(|text| text.strip_prefix(LEASE))
            .and_then(|until| until.parse::<u64>().ok());
        let Some(held_until) = held_until else {
            return Ok(Claim::Done);
        };
        let (now, value) = lease_value();
        if held_until > now {
            return Ok(Claim::InFlight);
        }
        match store.update(key, value, entry.revision).await {
            Ok(_) => return Ok(Claim::Claimed),
            Err(error) if error.kind() == UpdateErrorKind::WrongLastRevision => {
                return Ok(Claim::InFlight);
            }
            Err(error) => return Err(boxed(Box::new(error))),
        }
    }
    Ok(Claim::InFlight)
}

impl Deduplicator for JetStreamDeduplicator {
    type Error = StoreError;

    fn claim(&self, source: &str, id: &str, lease: Duration) -> Result<Claim, StoreError> {
        let key = bucket_key(source, id);
        self.ask(|reply| Request::Claim(key, lease, reply))
    }

    fn commit(&self, source: &str, id: &str) -> Result<(), StoreError> {
        let key = bucket_key(source, id);
        self.ask(|reply| Request::Commit(key, reply))
    }

    fn check(&self, source: &str, id: &str) -> Result<Delivery, StoreError> {
        let key = bucket_key(source, id);
        self.ask(|reply| Request::Check(key, reply))
    }

    fn forget(&self, source: &str, id: &str) -> Result<(), StoreError> {
        let key = bucket_key(source, id);
        self.ask(|reply| Request::Forget(key, reply))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_keys_stay_as_they_are_and_long_ones_are_hashed_apart() {
        // Today's keys, unchanged: base64url of `<len>:<source><id>`.
        assert_eq!(bucket_key("/orders", "01J0A"), "Nzovb3JkZXJzMDFKMEE");
        let longest_plain = "a".repeat(MAX_PLAIN_KV_KEY);
        assert_eq!(kv_key(longest_plain.clone()), longest_plain);
        let long = bucket_key("/orders", &"i".repeat(3 * 1024));
        assert!(
            long.starts_with(HASHED) && long.len() == HASHED.len() + 43,
            "{long}"
        );
        assert!(
            long.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_=".contains(&b))
        );
        assert_ne!(long, bucket_key("/orders", &"i".repeat(3 * 1024 + 1)));
        assert_ne!(
            bucket_key(&"s".repeat(3 * 1024), "e"),
            bucket_key(&"s".repeat(3 * 1024 - 1), "se")
        );
        // A plain key is base64url without padding: never an `=`, so never a hashed key.
        assert!(!bucket_key("/orders", "01J0A=").contains('='));
    }
}
