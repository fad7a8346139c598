//! axum extractors, a response type and the Web Hook validation handshake.
//!
//! - [`Event<T>`], [`AnyEvent`], [`Batch`] and [`Events<E>`] are extractors. A bad event is
//!   answered 400 with a JSON validation report, a body above the limit 413 — decided from
//!   `Content-Length` before anything is read, and enforced while reading — and a content
//!   type naming another mode or format 415 (CloudEvents Web Hooks §2, INTG-STD-015 R-11,
//!   R-12).
//! - [`EventResponse`] answers with an event, in structured (default, R-9) or binary mode.
//! - [`WebHook`] answers the abuse-protection handshake (CloudEvents Web Hooks §4.2).

use std::future::Ready;

use axum::body::Body;
use axum::extract::{FromRequest, Request};
use axum::response::{IntoResponse, Response};
use http::header::{ALLOW, CONTENT_LENGTH, CONTENT_TYPE};
use http::{HeaderMap, HeaderValue, StatusCode};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{BindingError, BindingEvent, ContentMode};
use crate::{AnyEvent, Batch, CloudEventData, Event, FormatError, Profile, Validator, Violation};

/// The largest single-event body accepted: 256 KiB (INTG-STD-015 R-11).
pub const MAX_EVENT_BODY: usize = crate::limits::MAX_EVENT_BYTES;
/// The largest batch body accepted: 1 MiB (INTG-STD-015 R-10).
pub const MAX_BATCH_BODY: usize = crate::limits::MAX_BATCH_BYTES;

/// Why a request was refused; answers with its status and a JSON report.
///
/// The body is `{"status": 400, "error": "...", "findings": [{"rule": "...",
/// "severity": "error", "attribute": "...", "message": "..."}]}`.
#[derive(Debug)]
pub struct EventRejection {
    status: StatusCode,
    error: String,
    findings: Vec<Violation>,
}

impl EventRejection {
    /// The status the rejection answers with.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The findings reported.
    pub fn findings(&self) -> &[Violation] {
        &self.findings
    }

    fn too_large(size: usize, limit: usize) -> Self {
        EventRejection {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            error: BindingError::TooLarge { size, limit }.to_string(),
            findings: Vec::new(),
        }
    }

    fn from_binding(error: BindingError, headers: &HeaderMap, body: &[u8]) -> Self {
        let status = match &error {
            BindingError::UnsupportedFormat { .. } | BindingError::UnexpectedMode { .. } => {
                StatusCode::UNSUPPORTED_MEDIA_TYPE
            }
            BindingError::Event(FormatError::TooLarge { .. }) | BindingError::TooLarge { .. } => {
                StatusCode::PAYLOAD_TOO_LARGE
            }
            _ => StatusCode::BAD_REQUEST,
        };
        let mut findings = Vec::new();
        if status == StatusCode::BAD_REQUEST {
            // A structured event gets the validator's full report, every finding at once; the
            // other modes report the one problem that stopped parsing.
            let structured = matches!(
                super::http::content_mode(headers),
                Ok(ContentMode::Structured)
            );
            if structured {
                findings = Validator::new(Profile::CloudEvents)
                    .validate_slice(body)
                    .findings()
                    .to_vec();
            }
            if findings.is_empty()
                && let BindingError::Event(format) = &error
                && let Some(violation) = format.violation()
            {
                findings.push(violation.clone());
            }
        }
        EventRejection {
            status,
            error: error.to_string(),
            findings,
        }
    }
}

#[derive(Serialize)]
struct Report<'a> {
    status: u16,
    error: &'a str,
    findings: Vec<Finding<'a>>,
}

#[derive(Serialize)]
struct Finding<'a> {
    rule: String,
    severity: String,
    attribute: &'a str,
    message: String,
}

impl IntoResponse for EventRejection {
    fn into_response(self) -> Response {
        let report = Report {
            status: self.status.as_u16(),
            error: &self.error,
            findings: self
                .findings
                .iter()
                .map(|v| Finding {
                    rule: v.rule.to_string(),
                    severity: v.severity.to_string(),
                    attribute: &v.attribute,
                    message: v.to_string(),
                })
                .collect(),
        };
        let body = serde_json::to_vec(&report).unwrap_or_default();
        let mut response = Response::new(Body::from(body));
        *response.status_mut() = self.status;
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        response
    }
}

impl std::fmt::Display for EventRejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status, self.error)
    }
}

/// Reads the body, at most `limit` bytes: a `Content-Length` above the limit is refused
/// before reading, and reading stops as soon as the limit is passed.
async fn read_limited(
    request: Request,
    limit: usize,
) -> Result<(HeaderMap, Vec<u8>), EventRejection> {
    let announced = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok());
    if let Some(size) = announced
        && size > limit
    {
        return Err(EventRejection::too_large(size, limit));
    }
    let (parts, body) = request.into_parts();
    match axum::body::to_bytes(body, limit).await {
        Ok(bytes) => Ok((parts.headers, bytes.to_vec())),
        Err(error) => {
            let too_large = std::error::Error::source(&error)
                .is_some_and(|s| s.is::<http_body_util::LengthLimitError>())
                || error.into_inner().is::<http_body_util::LengthLimitError>();
            if too_large {
                Err(EventRejection::too_large(limit + 1, limit))
            } else {
                Err(EventRejection {
                    status: StatusCode::BAD_REQUEST,
                    error: "the request body could not be read".to_owned(),
                    findings: Vec::new(),
                })
            }
        }
    }
}

async fn extract_event<E: BindingEvent>(request: Request) -> Result<E, EventRejection> {
    let (headers, body) = read_limited(request, MAX_EVENT_BODY).await?;
    let event = super::http::read_event::<E>(&headers, &body)
        .map_err(|error| EventRejection::from_binding(error, &headers, &body))?;
    crate::patterns::receipt::received(&event);
    Ok(event)
}

async fn extract_batch<E: BindingEvent>(request: Request) -> Result<Vec<E>, EventRejection> {
    let (headers, body) = read_limited(request, MAX_BATCH_BODY).await?;
    let events = super::http::read_batch::<E>(&headers, &body)
        .map_err(|error| EventRejection::from_binding(error, &headers, &body))?;
    events.iter().for_each(crate::patterns::receipt::received);
    Ok(events)
}

/// Extracts a typed event in binary or structured mode.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Event};
///
/// async fn receive(event: AnyEvent) -> &'static str {
///     assert!(!event.id().is_empty());
///     "ok"
/// }
/// let app: axum::Router = axum::Router::new().route("/events", axum::routing::post(receive));
/// ```
impl<S, T> FromRequest<S> for Event<T>
where
    S: Send + Sync,
    T: CloudEventData + Serialize + DeserializeOwned + Send,
{
    type Rejection = EventRejection;

    async fn from_request(request: Request, _state: &S) -> Result<Self, Self::Rejection> {
        extract_event(request).await
    }
}

impl<S: Send + Sync> FromRequest<S> for AnyEvent {
    type Rejection = EventRejection;

    async fn from_request(request: Request, _state: &S) -> Result<Self, Self::Rejection> {
        extract_event(request).await
    }
}

impl<S: Send + Sync> FromRequest<S> for Batch {
    type Rejection = EventRejection;

    async fn from_request(request: Request, _state: &S) -> Result<Self, Self::Rejection> {
        extract_batch::<AnyEvent>(request).await.map(Batch::from)
    }
}

/// Extracts a batch of typed events (`application/cloudevents-batch+json`, R-10); every
/// event must be of the type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Events<E>(pub Vec<E>);

impl<S: Send + Sync, E: BindingEvent + Send> FromRequest<S> for Events<E> {
    type Rejection = EventRejection;

    async fn from_request(request: Request, _state: &S) -> Result<Self, Self::Rejection> {
        extract_batch(request).await.map(Events)
    }
}

/// An event as a response, structured mode unless [`EventResponse::binary`] says otherwise.
///
/// ```
/// use axum::response::IntoResponse;
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::axum::EventResponse;
///
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// let response = EventResponse::new(event).into_response();
/// assert_eq!(response.headers()["content-type"], "application/cloudevents+json; charset=utf-8");
/// ```
#[derive(Debug, Clone)]
pub struct EventResponse<E> {
    status: StatusCode,
    mode: ContentMode,
    event: E,
}

impl<E: BindingEvent> EventResponse<E> {
    /// 200 with the event in structured mode.
    pub fn new(event: E) -> Self {
        EventResponse {
            status: StatusCode::OK,
            mode: ContentMode::Structured,
            event,
        }
    }

    /// Binary mode instead.
    pub fn binary(mut self) -> Self {
        self.mode = ContentMode::Binary;
        self
    }

    /// Another status.
    pub fn with_status(mut self, status: StatusCode) -> Self {
        self.status = status;
        self
    }
}

impl<E: BindingEvent> IntoResponse for EventResponse<E> {
    fn into_response(self) -> Response {
        match super::http::event_response(self.status, &self.event, self.mode) {
            Ok(response) => response.map(Body::from),
            Err(error) => EventRejection {
                status: StatusCode::INTERNAL_SERVER_ERROR,
                error: error.to_string(),
                findings: Vec::new(),
            }
            .into_response(),
        }
    }
}

/// The delivery target's side of the Web Hook abuse-protection handshake (CloudEvents
/// HTTP 1.1 Web Hooks §4): an `OPTIONS` request with `WebHook-Request-Origin` is answered
/// with `WebHook-Allowed-Origin` and `WebHook-Allowed-Rate` when the origin is allowed.
///
/// ```
/// use cloudevent_runtime::binding::axum::WebHook;
///
/// let webhook = WebHook::allow_any_origin().with_rate(120);
/// let mut headers = http::HeaderMap::new();
/// headers.insert("webhook-request-origin", "eventemitter.example.com".parse().unwrap());
/// let response = webhook.respond(&headers);
/// assert_eq!(response.status(), http::StatusCode::OK);
/// assert_eq!(response.headers()["webhook-allowed-origin"], "eventemitter.example.com");
/// assert_eq!(response.headers()["webhook-allowed-rate"], "120");
///
/// // Mount it: `.route("/events", post(receive).options(webhook.handler()))`.
/// ```
#[derive(Debug, Clone)]
pub struct WebHook {
    origins: Option<Vec<String>>,
    rate: Option<u32>,
}

/// `WebHook-Request-Origin` (§4.1.1).
pub const WEBHOOK_REQUEST_ORIGIN: &str = "webhook-request-origin";
/// `WebHook-Allowed-Origin` (§4.2.1).
pub const WEBHOOK_ALLOWED_ORIGIN: &str = "webhook-allowed-origin";
/// `WebHook-Allowed-Rate` (§4.2.2).
pub const WEBHOOK_ALLOWED_RATE: &str = "webhook-allowed-rate";

impl WebHook {
    /// Grants every origin.
    pub fn allow_any_origin() -> Self {
        WebHook {
            origins: None,
            rate: None,
        }
    }

    /// Grants only these origins (compared case-insensitively, as host names are).
    pub fn allow_origins<I: IntoIterator<Item = S>, S: Into<String>>(origins: I) -> Self {
        WebHook {
            origins: Some(origins.into_iter().map(Into::into).collect()),
            rate: None,
        }
    }

    /// Grants this many requests per minute; without it the rate is `*` (no limit).
    pub fn with_rate(mut self, per_minute: u32) -> Self {
        self.rate = Some(per_minute.max(1));
        self
    }

    /// The answer to a validation request: 200 with the grant headers for an allowed
    /// origin; 403 without them otherwise (§4.2: the status is not consent, the headers
    /// are); 400 when `WebHook-Request-Origin` is missing.
    pub fn respond(&self, headers: &HeaderMap) -> Response {
        let Some(origin) = headers
            .get(WEBHOOK_REQUEST_ORIGIN)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
            .filter(|v| !v.is_empty())
        else {
            return (StatusCode::BAD_REQUEST, "missing WebHook-Request-Origin").into_response();
        };
        let allowed = self
            .origins
            .as_ref()
            .is_none_or(|list| list.iter().any(|o| o.eq_ignore_ascii_case(origin)));
        let mut response = Response::new(Body::empty());
        response
            .headers_mut()
            .insert(ALLOW, HeaderValue::from_static("POST, OPTIONS"));
        if !allowed {
            *response.status_mut() = StatusCode::FORBIDDEN;
            return response;
        }
        if let Ok(value) = HeaderValue::from_str(origin) {
            response.headers_mut().insert(WEBHOOK_ALLOWED_ORIGIN, value);
        }
        let rate = self
            .rate
            .map_or_else(|| HeaderValue::from_static("*"), HeaderValue::from);
        response.headers_mut().insert(WEBHOOK_ALLOWED_RATE, rate);
        response
    }

    /// An axum handler answering the handshake, for `.options(...)`.
    pub fn handler(self) -> impl Fn(HeaderMap) -> Ready<Response> + Clone + Send + Sync + 'static {
        move |headers: HeaderMap| std::future::ready(self.respond(&headers))
    }
}

#[cfg(all(test, feature = "tracing"))]
mod tests {
    use super::*;
    use crate::patterns::receipt::capture::{captured, field};

    const EVENT: &str = r#"{"specversion":"1.0","id":"r-1","source":"https://orders.example.com","type":"com.example.order.created","time":"2026-03-28T14:22:31Z"}"#;

    fn post(content_type: &str, body: String) -> Request {
        http::Request::builder()
            .method("POST")
            .header(CONTENT_TYPE, content_type)
            .body(Body::from(body))
            .unwrap()
    }

    fn block_on<F: Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(future)
    }

    #[test]
    fn the_extractors_log_the_receipt_of_every_event_r15() {
        let request = post("application/cloudevents+json", EVENT.to_owned());
        let logged = captured(|| {
            block_on(extract_event::<AnyEvent>(request)).unwrap();
        });
        assert_eq!(logged.len(), 1, "{logged:?}");
        assert_eq!(logged[0].target, crate::patterns::receipt::TARGET);
        assert_eq!(field(&logged[0], "id"), Some("r-1"));
        assert_eq!(field(&logged[0], "time"), Some("2026-03-28T14:22:31Z"));

        let batch = format!("[{EVENT},{}]", EVENT.replace("r-1", "r-2"));
        let request = post("application/cloudevents-batch+json", batch);
        let logged = captured(|| {
            block_on(extract_batch::<AnyEvent>(request)).unwrap();
        });
        let ids: Vec<_> = logged.iter().map(|l| field(l, "id")).collect();
        assert_eq!(ids, [Some("r-1"), Some("r-2")]);
    }

    #[test]
    fn a_rejected_event_logs_no_receipt() {
        let request = post("application/cloudevents+json", "{}".to_owned());
        let logged = captured(|| {
            block_on(extract_event::<AnyEvent>(request)).unwrap_err();
        });
        assert!(logged.is_empty(), "{logged:?}");
    }
}
