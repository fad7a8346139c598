//! A [`Deduplicator`] shared by consumer replicas through Redis (ADR-0003).

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use super::{Deduplicator, Delivery, key};

/// A [`Deduplicator`] on Redis: `check` is `SET <key> 1 NX PX <window>` (set only when
/// absent, expiring after the window), so exactly one replica sees [`Delivery::New`] for an
/// event within the window; `forget` is `DEL`. A connection that failed (a server restart) is
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

    fn check(&self, source: &str, id: &str) -> Result<Delivery, redis::RedisError> {
        let set: Option<String> = self.run(
            redis::cmd("SET")
                .arg(redis_key(source, id))
                .arg(1)
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
