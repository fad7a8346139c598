//! An HTTP sender on reqwest that follows INTG-STD-015 R-12 and the CloudEvents Web Hook spec
//! §2: POST, 2xx is success, 429 backs off honouring `Retry-After`, 5xx (and a failed
//! connection) retries with exponential backoff and jitter for a bounded number of attempts,
//! any other status fails at once with the response body.
//!
//! The sender posts a prepared [`http::Request`]; the HTTP binding builds one from an event
//! or a batch.

use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

use http::header::RETRY_AFTER;
use http::{HeaderMap, Request, StatusCode};

/// When and how often to retry.
///
/// ```
/// use std::time::Duration;
/// use cloudevent_runtime::binding::reqwest::RetryPolicy;
///
/// let policy = RetryPolicy { max_attempts: 3, initial_backoff: Duration::from_millis(10), ..RetryPolicy::default() };
/// assert_eq!(policy.max_backoff, Duration::from_secs(10));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included. At least 1.
    pub max_attempts: u32,
    /// The backoff before the second attempt; doubled for each further one.
    pub initial_backoff: Duration,
    /// The longest backoff, however many attempts failed.
    pub max_backoff: Duration,
    /// The longest wait a `Retry-After` header may impose; a longer one gives up instead.
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 5,
            initial_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(10),
            max_retry_after: Duration::from_secs(60),
        }
    }
}

impl RetryPolicy {
    /// The wait after failed attempt number `attempt` (from 1): exponential, capped, with
    /// "equal jitter" (half fixed, half random) so that many senders do not retry in step.
    pub(crate) fn backoff(&self, attempt: u32) -> Duration {
        let exponent = attempt.saturating_sub(1).min(31);
        let full = self
            .initial_backoff
            .saturating_mul(1u32 << exponent)
            .min(self.max_backoff);
        let half = full / 2;
        let random = random_u64();
        let jitter_nanos = match u64::try_from(half.as_nanos()) {
            Ok(0) | Err(_) => 0,
            Ok(nanos) => random % (nanos + 1),
        };
        half + Duration::from_nanos(jitter_nanos)
    }
}

/// A random number from the standard library's per-process random hasher keys; jitter needs
/// no cryptographic quality and this avoids a dependency.
fn random_u64() -> u64 {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos().into()),
    );
    hasher.finish()
}

/// Why an event was not delivered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SendError {
    /// The event could not be put into an HTTP request.
    #[error(transparent)]
    Binding(#[from] super::BindingError),
    /// The receiver refused the event with a 4xx other than 429; retrying would not help.
    #[error("receiver refused the event with {status} (INTG-STD-015 R-12): {body}")]
    Rejected {
        /// The status.
        status: StatusCode,
        /// The response body, lossily decoded and cut at 64 KiB.
        body: String,
    },
    /// Every attempt failed with 429, 5xx or a connection error.
    #[error("gave up after {attempts} attempts (INTG-STD-015 R-12); last: {last}")]
    GaveUp {
        /// Attempts made.
        attempts: u32,
        /// The last failure, as text.
        last: String,
        /// The last status, when the receiver answered.
        status: Option<StatusCode>,
    },
    /// A `Retry-After` longer than the policy accepts.
    #[error("receiver asked to retry after {retry_after:?}, longer than the {limit:?} allowed")]
    RetryAfterTooLong {
        /// What the receiver asked.
        retry_after: Duration,
        /// The policy's limit.
        limit: Duration,
    },
    /// The delivery target did not grant the Web Hook handshake (§4.2: only the
    /// `WebHook-Allowed-Origin` header is consent, whatever the status).
    #[error(
        "delivery target refused origin `{origin}` in the Web Hook handshake (status {status})"
    )]
    NotPermitted {
        /// The origin asked for.
        origin: String,
        /// The status of the OPTIONS answer.
        status: StatusCode,
    },
    /// The request could not be built (bad URL, ...).
    #[error("the request could not be built: {0}")]
    Request(reqwest::Error),
}

/// The answer to a delivered event.
#[derive(Debug, Clone)]
pub struct Delivered {
    /// The 2xx status.
    pub status: StatusCode,
    /// How many attempts it took.
    pub attempts: u32,
    /// The response headers.
    pub headers: HeaderMap,
    /// The response body.
    pub body: Vec<u8>,
}

/// The most response-body bytes kept for an error message.
const MAX_ERROR_BODY: usize = 64 * 1024;

/// Sends prepared HTTP requests with the R-12 retry rules.
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use cloudevent_runtime::binding::reqwest::{RetryPolicy, Sender};
///
/// let sender = Sender::new(reqwest::Client::new(), RetryPolicy::default());
/// let request = http::Request::post("http://127.0.0.1:8080/events")
///     .header("content-type", "application/cloudevents+json; charset=utf-8")
///     .body(br#"{"specversion":"1.0"}"#.to_vec())?;
/// let delivered = sender.send(request).await?;
/// assert!(delivered.status.is_success());
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Sender {
    client: reqwest::Client,
    policy: RetryPolicy,
}

impl Sender {
    /// A sender using `client` (pool, timeouts, TLS are the client's business).
    pub fn new(client: reqwest::Client, policy: RetryPolicy) -> Self {
        Sender { client, policy }
    }

    /// Sends `request`, retrying per the policy.
    ///
    /// # Errors
    /// See [`SendError`].
    pub async fn send(&self, request: Request<Vec<u8>>) -> Result<Delivered, SendError> {
        // What every receiver refuses is refused here, before anything is sent: one event
        // over 256 KiB (R-11), a batch over 1 MiB (R-10).
        let limit = match super::http::content_mode(request.headers()) {
            Ok(super::ContentMode::Batch) => crate::limits::MAX_BATCH_BYTES,
            _ => crate::limits::MAX_EVENT_BYTES,
        };
        if request.body().len() > limit {
            return Err(SendError::Binding(super::BindingError::TooLarge {
                size: request.body().len(),
                limit,
            }));
        }
        let (parts, body) = request.into_parts();
        let url = parts.uri.to_string();
        let max_attempts = self.policy.max_attempts.max(1);
        let mut attempt = 0;
        loop {
            attempt += 1;
            let outcome = self
                .client
                .request(parts.method.clone(), &url)
                .headers(parts.headers.clone())
                .body(body.clone())
                .send()
                .await;
            let (wait, last, status) = match outcome {
                Ok(response) => {
                    let status = response.status();
                    let headers = response.headers().clone();
                    if status.is_success() {
                        let body = response
                            .bytes()
                            .await
                            .map(|b| b.to_vec())
                            .unwrap_or_default();
                        return Ok(Delivered {
                            status,
                            attempts: attempt,
                            headers,
                            body,
                        });
                    }
                    let text = read_error_body(response).await;
                    if status == StatusCode::TOO_MANY_REQUESTS {
                        let wait = match retry_after(&headers) {
                            Some(wait) if wait > self.policy.max_retry_after => {
                                return Err(SendError::RetryAfterTooLong {
                                    retry_after: wait,
                                    limit: self.policy.max_retry_after,
                                });
                            }
                            Some(wait) => wait,
                            None => self.policy.backoff(attempt),
                        };
                        (wait, format!("{status}: {text}"), Some(status))
                    } else if status.is_server_error() {
                        // A 503 may also name a Retry-After; honour it when it is longer.
                        let wait = self
                            .policy
                            .backoff(attempt)
                            .max(retry_after(&headers).unwrap_or_default())
                            .min(self.policy.max_retry_after);
                        (wait, format!("{status}: {text}"), Some(status))
                    } else {
                        return Err(SendError::Rejected { status, body: text });
                    }
                }
                Err(error) if error.is_builder() => return Err(SendError::Request(error)),
                Err(error) => (self.policy.backoff(attempt), error.to_string(), None),
            };
            if attempt >= max_attempts {
                return Err(SendError::GaveUp {
                    attempts: attempt,
                    last,
                    status,
                });
            }
            tokio::time::sleep(wait).await;
        }
    }
}

/// What a delivery target granted in the Web Hook handshake (§4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grant {
    /// Requests per minute; `None` for `*` (no limit) or when the header is absent.
    pub requests_per_minute: Option<u32>,
}

impl Sender {
    /// The sender's side of the Web Hook abuse-protection handshake (CloudEvents HTTP 1.1
    /// Web Hooks §4.1, INTG-STD-015 R-12): `OPTIONS` with `WebHook-Request-Origin` (and
    /// `WebHook-Request-Rate` when given); granted when the answer carries
    /// `WebHook-Allowed-Origin` equal to the origin or `*`.
    ///
    /// # Errors
    /// [`SendError::NotPermitted`] without a grant; a transport error as
    /// [`SendError::GaveUp`] after one attempt.
    pub async fn handshake(
        &self,
        url: &str,
        origin: &str,
        requests_per_minute: Option<u32>,
    ) -> Result<Grant, SendError> {
        let mut request = self
            .client
            .request(http::Method::OPTIONS, url)
            .header("webhook-request-origin", origin);
        if let Some(rate) = requests_per_minute {
            request = request.header("webhook-request-rate", rate.to_string());
        }
        let response = request.send().await.map_err(|error| SendError::GaveUp {
            attempts: 1,
            last: error.to_string(),
            status: None,
        })?;
        let headers = response.headers();
        let allowed = headers
            .get("webhook-allowed-origin")
            .and_then(|v| v.to_str().ok())
            .map(str::trim);
        if !allowed.is_some_and(|allowed| allowed == "*" || allowed.eq_ignore_ascii_case(origin)) {
            return Err(SendError::NotPermitted {
                origin: origin.to_owned(),
                status: response.status(),
            });
        }
        let requests_per_minute = headers
            .get("webhook-allowed-rate")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u32>().ok());
        Ok(Grant {
            requests_per_minute,
        })
    }
}

async fn read_error_body(mut response: reqwest::Response) -> String {
    let mut body = Vec::new();
    while let Ok(Some(chunk)) = response.chunk().await {
        let room = MAX_ERROR_BODY - body.len();
        body.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if body.len() >= MAX_ERROR_BODY {
            break;
        }
    }
    String::from_utf8_lossy(&body).into_owned()
}

/// `Retry-After` as a wait: delta-seconds, or an HTTP-date (RFC 7231 §7.1.3) from now.
pub(crate) fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let when = httpdate::parse_http_date(value).ok()?;
    Some(
        when.duration_since(std::time::SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_is_capped_and_jittered() {
        let policy = RetryPolicy {
            max_attempts: 10,
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(400),
            max_retry_after: Duration::from_secs(1),
        };
        for (attempt, full) in [(1, 100), (2, 200), (3, 400), (4, 400), (40, 400)] {
            let wait = policy.backoff(attempt);
            assert!(
                wait >= Duration::from_millis(full / 2),
                "{attempt}: {wait:?}"
            );
            assert!(wait <= Duration::from_millis(full), "{attempt}: {wait:?}");
        }
        let distinct: std::collections::HashSet<_> = (0..20).map(|_| policy.backoff(3)).collect();
        assert!(distinct.len() > 1, "no jitter");
    }

    #[test]
    fn retry_after_ignores_garbage() {
        let mut headers = HeaderMap::new();
        assert_eq!(retry_after(&headers), None);
        headers.insert(RETRY_AFTER, "soon".parse().unwrap());
        assert_eq!(retry_after(&headers), None);
    }
}
