//! A [`Deduplicator`] shared by consumer replicas through Redis (ADR-0003).

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use super::{Claim, Deduplicator, Delivery, key};

/// The value of a claimed key (its lease is the key's own expiry); any other value is committed.
const LEASE: &str = "lease";
/// The value of a committed key.
const DONE: &str = "done";

/// A [`Deduplicator`] on Redis: `claim` is `SET <key> lease NX PX <lease>` (set only when
/// absent, expiring with the lease, so a killed holder's claim frees itself), else a `GET`
/// tells a live lease ([`Claim::InFlight`]) from a commit ([`Claim::Done`]); `commit` is
/// `SET <key> done PX <window>`; `check` is `SET <key> done NX PX <window>`, so exactly one
/// replica sees [`Delivery::New`] for an event within the window; `forget` is `DEL`. A connection that failed (a server restart) is
/// replaced on the next call; the failed call returns the error, so the caller retries.
///
/// ```no_run
/// use std::time::Duration;
/// use cloudevent_runtime::dedupe::{Deduplicator, Delivery, RedisDeduplicator};
///
/// let seen = RedisDeduplicator::connect("redis://127.0.0.1:6379", Duration::from_secs(3600))?;
/// assert_eq!(seen.check("/orders", "01J0A")?, Delivery::New);
/// assert_eq!(seen.check("/orders", "01J0A")?, Delivery::Duplicate);
/// # Ok::<(), redis::RedisError>(())
/// ```
pub struct RedisDeduplicator {
    client: redis::Client,
    connection: Mutex<Option<redis::Connection>>,
    window_ms: u64,
}

impl std::fmt::Debug for RedisDeduplicator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisDeduplicator")
            .field("window_ms", &self.window_ms)
            .finish_non_exhaustive()
    }
}

impl RedisDeduplicator {
    /// Connects to the Redis server at `url`; keys live for `window` (at least 1 ms).
    ///
    /// # Errors
    /// When the URL is not a Redis URL or the server cannot be reached.
    pub fn connect(url: &str, window: Duration) -> Result<Self, redis::RedisError> {
        let client = redis::Client::open(url)?;
        let connection = client.get_connection()?;
        Ok(RedisDeduplicator {
            client,
            connection: Mutex::new(Some(connection)),
            window_ms: u64::try_from(window.as_millis()).unwrap_or(u64::MAX).max(1),
        })
    }

    fn run<T: redis::FromRedisValue>(&self, command: &redis::Cmd) -> Result<T, redis::RedisError> {
        let mut slot = self
            .connection
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let connection = match slot.as_mut() {
            Some(connection) => connection,
            None => slot.insert(self.client.get_connection()?),
        };
        let result = command.query(connection);
        if result
            .as_ref()
            .is_err_and(|e| e.is_io_error() || e.is_connection_dropped())
        {
            *slot = None;
        }
        result
    }
}

/// The Redis key of a `(source, id)` pair.
fn redis_key(source: &str, id: &str) -> String {
    format!("cloudevent:dedupe:{}", key(source, id))
}

impl Deduplicator for RedisDeduplicator {
    type Error = redis::RedisError;

    fn claim(&self, source: &str, id: &str, lease: Duration) -> Result<Claim, redis::RedisError> {
        let key = redis_key(source, id);
        let lease_ms = u64::try_from(lease.as_millis())
            .unwrap_or(u64::MAX)
            .clamp(1, i64::MAX as u64);
        // A few rounds: the key may expire between the refused SET and the GET.
        for _ in 0..4 {
            let set: Option<String> = self.run(
                redis::cmd("SET")
                    .arg(&key)
                    .arg(LEASE)
                    .arg("NX")
                    .arg("PX")
                    .arg(lease_ms),
            )?;
            if set.is_some() {
                return Ok(Claim::Claimed);
            }
            let held: Option<String> = self.run(redis::cmd("GET").arg(&key))?;
            match held.as_deref() {
                None => continue,
                Some(LEASE) => return Ok(Claim::InFlight),
                Some(_) => return Ok(Claim::Done),
            }
        }
        Ok(Claim::InFlight)
    }

    fn commit(&self, source: &str, id: &str) -> Result<(), redis::RedisError> {
        self.run::<Option<String>>(
            redis::cmd("SET")
                .arg(redis_key(source, id))
                .arg(DONE)
                .arg("PX")
                .arg(self.window_ms),
        )
        .map(drop)
    }

    fn check(&self, source: &str, id: &str) -> Result<Delivery, redis::RedisError> {
        let set: Option<String> = self.run(
            redis::cmd("SET")
                .arg(redis_key(source, id))
                .arg(DONE)
                .arg("NX")
                .arg("PX")
                .arg(self.window_ms),
        )?;
        Ok(if set.is_some() {
            Delivery::New
        } else {
            Delivery::Duplicate
        })
    }

    fn forget(&self, source: &str, id: &str) -> Result<(), redis::RedisError> {
        self.run::<i64>(redis::cmd("DEL").arg(redis_key(source, id)))
            .map(drop)
    }
}
