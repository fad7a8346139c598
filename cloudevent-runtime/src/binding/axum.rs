//! axum extractors, a response type and the Web Hook validation handshake.
//!
//! - [`Event<T>`], [`AnyEvent`], [`Batch`] and [`Events<E>`] are extractors. A bad event is
//!   answered 400 with a JSON validation report, a body above the limit 413 — decided from
//!   `Content-Length` before anything is read, and enforced while reading — and a content
//!   type naming another mode or format 415 (CloudEvents Web Hooks §2, INTG-STD-015 R-11,
//!   R-12).
//! - Every request is read once, to one verdict. [`AnyEvent`], [`Batch`], [`Checked`] and
//!   `Registered` share one path: the validator's read of the body (or of the document a
//!   binary-mode message stands for) lists every finding and, when none is an error, is
//!   also the event accepted; the status follows from that report alone. [`Event<T>`]
//!   reads with the type's own reader; when it refuses an event, the 400 body is that same
//!   validator's report (every finding, the event's id and attributes), the typed reader's
//!   refusal listed after them when it is not one of them (another `type`, a payload `T`
//!   does not take). [`Events<E>`] answers with the report `Checked<Batch>` gives, the
//!   typed refusal in the report of the event it names.
//! - [`EventResponse`] answers with an event, in structured (default, R-9) or binary mode.
//! - [`WebHook`] answers the abuse-protection handshake (CloudEvents Web Hooks §4.2).

use std::future::Ready;

use axum::body::Body;
use axum::extract::{FromRef, FromRequest, Request};
use axum::response::{IntoResponse, Response};
use http::header::{ALLOW, CONTENT_LENGTH, CONTENT_TYPE};
use http::{HeaderMap, HeaderValue, StatusCode};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::format::WithFormat;
use super::{BindingError, BindingEvent, ContentMode};
use crate::validate::Then;
use crate::{
    AnyEvent, Batch, BatchReport, CloudEventData, Event, EventFormat, FormatError, Policy,
    ValidationReport, Validator, Violation,
};

#[cfg(feature = "registry")]
mod registry;
#[cfg(feature = "verify")]
mod verify;
#[cfg(feature = "registry")]
#[cfg_attr(docsrs, doc(cfg(feature = "registry")))]
pub use registry::Registered;
#[cfg(feature = "verify")]
#[cfg_attr(docsrs, doc(cfg(feature = "verify")))]
pub use verify::{AcceptedKeys, Signed};

/// The largest single-event body accepted: 256 KiB (INTG-STD-015 R-11).
pub const MAX_EVENT_BODY: usize = crate::limits::MAX_EVENT_BYTES;
/// The largest batch body accepted: 1 MiB (INTG-STD-015 R-10).
pub const MAX_BATCH_BODY: usize = crate::limits::MAX_BATCH_BYTES;

/// Why a request was refused; answers with its status and the JSON report: every finding of
/// the validator's read (the untyped extractors; [`Event<T>`] and [`Events<E>`] with the
/// typed reader's refusal listed too when it is not among them), or the binding's (415,
/// 413, a bad header).
///
/// The body has one shape with the library's [`ValidationReport`] (and, for a batch,
/// [`BatchReport`]) and `cloudevent validate --output json`: `{"valid": false, "profile",
/// "id", "findings": [{"rule", "severity", "attribute", "value", "part", "message",
/// "hint"}], "attributes": {...}}`. It never echoes the request body: findings name
/// attributes and headers, and `data` is never quoted.
#[derive(Debug)]
pub struct EventRejection {
    status: StatusCode,
    report: Report,
}

#[derive(Debug)]
enum Report {
    Event(ValidationReport),
    Batch(BatchReport),
}

impl EventRejection {
    /// The status the rejection answers with.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The findings reported (for a batch: about the batch, then each event's).
    pub fn findings(&self) -> Vec<Violation> {
        match &self.report {
            Report::Event(report) => report.findings().to_vec(),
            Report::Batch(report) => report
                .findings()
                .iter()
                .chain(report.events().iter().flat_map(ValidationReport::findings))
                .cloned()
                .collect(),
        }
    }

    fn too_large(size: usize, limit: usize, policy: &Policy) -> Self {
        let error = BindingError::TooLarge { size, limit };
        EventRejection {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            report: Report::Event(ValidationReport::refused(
                policy.profile(),
                vec![error.violation_under(policy)],
            )),
        }
    }

    /// The answer to a message the binding refuses (415 for what is not a CloudEvent in a
    /// format we read or not the mode the extractor takes, 413 over the limit, else 400), or
    /// that a typed reader refused before any event could be read: the one violation that
    /// stopped the read is the report.
    fn refused_message(error: &BindingError, policy: &Policy) -> Self {
        let mut violation = error.violation_under(policy);
        if matches!(
            error,
            BindingError::HeaderValue { .. } | BindingError::HeaderNotText { .. }
        ) && let Err(Some(why)) = policy.literal_header(
            cloudevent_rules::LiteralHeader::NonAscii,
            violation.attribute.as_ref(),
            "",
        ) {
            // The tolerance was asked for where the profile never grants it: say so.
            violation.hint = Some(match violation.hint {
                Some(hint) => format!("{hint}; {why}"),
                None => why.to_owned(),
            });
        }
        EventRejection {
            status: binding_status(error),
            report: Report::Event(ValidationReport::refused(policy.profile(), vec![violation])),
        }
    }
}

impl EventRejection {
    /// The answer to an event a typed reader refused: the binding's answer when the message
    /// is refused before any event is read (415, 413, a bad header); else 400 with the full
    /// report `Checked<AnyEvent>` gives, the typed reader's refusal listed after the
    /// validator's findings when it is not one of them (issue 41).
    fn refused_typed(
        error: &BindingError,
        headers: &HeaderMap,
        body: &[u8],
        policy: &Policy,
    ) -> Self {
        if binding_status(error) != StatusCode::BAD_REQUEST {
            return Self::refused_message(error, policy);
        }
        match super::http::full_report(headers, body, policy, error) {
            Some(report) => EventRejection {
                status: StatusCode::BAD_REQUEST,
                report: Report::Event(report),
            },
            None => Self::refused_message(error, policy),
        }
    }

    /// [`EventRejection::refused_typed`] for a typed batch: the report `Checked<Batch>`
    /// gives, the typed reader's refusal in the report of the event it names.
    fn refused_typed_batch(
        error: &BindingError,
        headers: &HeaderMap,
        body: &[u8],
        policy: &Policy,
    ) -> Self {
        if binding_status(error) != StatusCode::BAD_REQUEST {
            return Self::refused_message(error, policy);
        }
        match super::http::full_batch_report(headers, body, policy, error) {
            Some(report) => EventRejection {
                status: StatusCode::BAD_REQUEST,
                report: Report::Batch(report),
            },
            None => Self::refused_message(error, policy),
        }
    }
}

/// The status of a binding's refusal: 415 for what is not a CloudEvent in a format we read,
/// 413 over the limit, 400 for the rest.
fn binding_status(error: &BindingError) -> StatusCode {
    match error {
        BindingError::UnsupportedFormat { .. }
        | BindingError::UnexpectedMode { .. }
        | BindingError::NotCloudEvents { .. } => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        BindingError::Event(FormatError::TooLarge { .. }) | BindingError::TooLarge { .. } => {
            StatusCode::PAYLOAD_TOO_LARGE
        }
        _ => StatusCode::BAD_REQUEST,
    }
}

impl IntoResponse for EventRejection {
    fn into_response(self) -> Response {
        let body = match &self.report {
            Report::Event(report) => serde_json::to_vec(report),
            Report::Batch(report) => serde_json::to_vec(report),
        }
        .expect("a validation report (strings, numbers, string-keyed maps) always serializes");
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
        write!(f, "{}", self.status)?;
        for finding in self.findings().iter().filter(|f| f.is_error()) {
            write!(f, "; {}", finding.report_line())?;
        }
        Ok(())
    }
}

/// Reads the body, at most `limit` bytes: a `Content-Length` above the limit is refused
/// before reading, and reading stops as soon as the limit is passed.
async fn read_limited(
    request: Request,
    limit: usize,
    policy: &Policy,
) -> Result<(HeaderMap, axum::body::Bytes), EventRejection> {
    let announced = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok());
    if let Some(size) = announced
        && size > limit
    {
        return Err(EventRejection::too_large(size, limit, policy));
    }
    let (parts, body) = request.into_parts();
    match axum::body::to_bytes(body, limit).await {
        // The body as hyper handed it over, not copied: every reader takes a slice.
        Ok(bytes) => Ok((parts.headers, bytes)),
        Err(error) => {
            let too_large = std::error::Error::source(&error)
                .is_some_and(|s| s.is::<http_body_util::LengthLimitError>())
                || error.into_inner().is::<http_body_util::LengthLimitError>();
            if too_large {
                Err(EventRejection::too_large(limit + 1, limit, policy))
            } else {
                Err(EventRejection {
                    status: StatusCode::BAD_REQUEST,
                    report: Report::Event(ValidationReport::refused(
                        policy.profile(),
                        vec![Violation::error(
                            crate::rules::rule::INTG_R12,
                            "body",
                            "",
                            "the request body could not be read",
                        )],
                    )),
                })
            }
        }
    }
}

/// Reads one typed event with `E`'s own reader (one read, stopping at the first error, which
/// is the refusal's report) and logs its receipt (INTG-STD-015 R-15). The typed reader
/// checks what the validator cannot (the event type `E` takes, its payload); [`gate`] reads
/// untyped events and lists every finding.
async fn extract_event<E: BindingEvent>(
    request: Request,
    policy: &Policy,
) -> Result<E, EventRejection> {
    let (headers, body) = read_limited(request, MAX_EVENT_BODY, policy).await?;
    let event = super::http::read_event::<E>(&headers, &body)
        .map_err(|error| EventRejection::refused_typed(&error, &headers, &body, policy))?;
    crate::patterns::receipt::received(&event);
    Ok(event)
}

/// [`extract_event`] for a batch of typed events.
async fn extract_batch<E: BindingEvent>(
    request: Request,
    policy: &Policy,
) -> Result<Vec<E>, EventRejection> {
    let (headers, body) = read_limited(request, MAX_BATCH_BODY, policy).await?;
    let events = super::http::read_batch::<E>(&headers, &body)
        .map_err(|error| EventRejection::refused_typed_batch(&error, &headers, &body, policy))?;
    events.iter().for_each(crate::patterns::receipt::received);
    Ok(events)
}

/// What checks a request for [`gate`]: a [`Policy`] (the profile's findings) or, with the
/// feature `registry`, a `RegistryValidator` (the profile's, then the registry's).
trait Gate {
    /// The validator whose read reads the request.
    fn validator(&self) -> Validator;
    /// What the gate adds to each event's report once the profile's findings are in.
    fn then(&self) -> &impl Then;
}

impl Gate for Policy {
    fn validator(&self) -> Validator {
        Validator::new(self.clone())
    }
    fn then(&self) -> &impl Then {
        &()
    }
}

/// What a [`gate`] reads from a request: one event, or a batch.
trait Read: Sized {
    /// The largest body read.
    const LIMIT: usize;
    /// Whether the extractor takes a batch (else one event).
    const BATCH: bool;
    /// The validator's one read of `bytes` in the format `F`: the report, and what was read
    /// when it has no error.
    fn read<F: EventFormat>(validator: &Validator, bytes: &[u8], then: &impl Then)
    -> Verdict<Self>;
    /// The events read, for the receipt log.
    fn events(&self) -> &[AnyEvent];
}

/// One read's verdict: what was read, or the rejection (its report and its status).
type Verdict<T> = Result<T, EventRejection>;

/// The one refusal of a read: 400 when the profile refused, 422 when only what the gate
/// adds (a registry) did.
fn refused(report: Report, profile_valid: bool) -> EventRejection {
    EventRejection {
        status: if profile_valid {
            StatusCode::UNPROCESSABLE_ENTITY
        } else {
            StatusCode::BAD_REQUEST
        },
        report,
    }
}

impl Read for AnyEvent {
    const LIMIT: usize = MAX_EVENT_BODY;
    const BATCH: bool = false;
    fn read<F: EventFormat>(
        validator: &Validator,
        bytes: &[u8],
        then: &impl Then,
    ) -> Verdict<Self> {
        let reading = validator.read_event_then::<F>(bytes, then);
        reading
            .read
            .ok_or_else(|| refused(Report::Event(reading.report), reading.profile_valid))
    }
    fn events(&self) -> &[AnyEvent] {
        std::slice::from_ref(self)
    }
}

impl Read for Batch {
    const LIMIT: usize = MAX_BATCH_BODY;
    const BATCH: bool = true;
    fn read<F: EventFormat>(
        validator: &Validator,
        bytes: &[u8],
        then: &impl Then,
    ) -> Verdict<Self> {
        let reading = validator.read_batch_then::<F>(bytes, then);
        reading
            .read
            .map(Batch::from)
            .ok_or_else(|| refused(Report::Batch(reading.report), reading.profile_valid))
    }
    fn events(&self) -> &[AnyEvent] {
        self
    }
}

/// The one request path of [`AnyEvent`], [`Batch`], [`Checked`] and `Registered`: the body
/// (at most `R::LIMIT` bytes), then the content mode; a message the binding refuses (415,
/// 413, a bad header) is answered with the binding's violation. Otherwise the validator
/// reads the event (or batch) once — the structured body as sent, in the format its
/// content type names, or the document a binary-mode message stands for — collecting
/// every finding; that one read is both the report and the event, so the status and the
/// report cannot disagree. The receipt is logged once the event is accepted (R-15).
async fn gate<R: Read, G: Gate>(request: Request, gate: &G) -> Result<R, EventRejection> {
    let validator = gate.validator();
    let policy = validator.policy();
    let (headers, body) = read_limited(request, R::LIMIT, policy).await?;
    let (format, bytes, warnings) = super::http::validator_input(&headers, &body, R::BATCH, policy)
        .map_err(|error| EventRejection::refused_message(&error, policy))?;
    let read = format.with(ReadIn::<R, _> {
        validator: &validator,
        bytes: &bytes,
        then: &super::http::WithWarnings {
            warnings,
            then: gate.then(),
        },
        read: std::marker::PhantomData,
    })?;
    // Received only once accepted (R-15 logs what the consumer takes).
    read.events()
        .iter()
        .for_each(crate::patterns::receipt::received);
    Ok(read)
}

/// [`Read::read`] in the format a request names.
struct ReadIn<'a, R, T> {
    validator: &'a Validator,
    bytes: &'a [u8],
    then: &'a T,
    read: std::marker::PhantomData<R>,
}

impl<R: Read, T: Then> WithFormat for ReadIn<'_, R, T> {
    type Output = Verdict<R>;
    fn call<F: EventFormat>(self) -> Verdict<R> {
        R::read::<F>(self.validator, self.bytes, self.then)
    }
}

/// Extracts a typed event in binary or structured mode.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Attributes, Event};
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
        extract_event(request, &Event::<T>::POLICY).await
    }
}

/// Extracts any event under the CloudEvents 1.0.2 MUSTs ([`AnyEvent::DEFAULT_POLICY`]);
/// [`Checked<AnyEvent>`] reads under the policy in the router's state instead.
impl<S: Send + Sync> FromRequest<S> for AnyEvent {
    type Rejection = EventRejection;

    async fn from_request(request: Request, _state: &S) -> Result<Self, Self::Rejection> {
        gate(request, &AnyEvent::DEFAULT_POLICY).await
    }
}

impl<S: Send + Sync> FromRequest<S> for Batch {
    type Rejection = EventRejection;

    async fn from_request(request: Request, _state: &S) -> Result<Self, Self::Rejection> {
        gate(request, &AnyEvent::DEFAULT_POLICY).await
    }
}

/// An [`AnyEvent`] or a [`Batch`] read under the [`Policy`] in the router's state: an
/// INTG-STD-015 gateway is one line, `.with_state(Policy::new(Profile::IntgStd015))`. A
/// request the policy refuses is answered 400 with that profile's report, the same
/// findings `cloudevent validate --profile intg-std-015` lists; 413 over the size limit,
/// 415 for a body that is neither a CloudEvents format nor a binary-mode message.
///
/// A state of your own provides the policy with `FromRef`.
///
/// ```
/// use axum::{Router, routing::post};
/// use cloudevent_runtime::{AnyEvent, Attributes, Policy, Profile};
/// use cloudevent_runtime::binding::axum::Checked;
///
/// async fn gateway(Checked(event): Checked<AnyEvent>) -> String {
///     event.id().to_owned()
/// }
/// let app: Router = Router::new()
///     .route("/events", post(gateway))
///     .with_state(Policy::new(Profile::IntgStd015));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Checked<E>(pub E);

impl<S> FromRequest<S> for Checked<AnyEvent>
where
    S: Send + Sync,
    Policy: FromRef<S>,
{
    type Rejection = EventRejection;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        gate(request, &Policy::from_ref(state)).await.map(Checked)
    }
}

impl<S> FromRequest<S> for Checked<Batch>
where
    S: Send + Sync,
    Policy: FromRef<S>,
{
    type Rejection = EventRejection;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        gate(request, &Policy::from_ref(state)).await.map(Checked)
    }
}

/// Extracts a batch of typed events (`application/cloudevents-batch+json`, R-10); every
/// event must be of the type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Events<E>(pub Vec<E>);

impl<S: Send + Sync, E: BindingEvent + Send> FromRequest<S> for Events<E> {
    type Rejection = EventRejection;

    async fn from_request(request: Request, _state: &S) -> Result<Self, Self::Rejection> {
        extract_batch(request, &E::policy()).await.map(Events)
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
                report: Report::Event(ValidationReport::refused(
                    E::policy().profile(),
                    vec![error.violation_under(&E::policy())],
                )),
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
mod tests;

#[cfg(test)]
mod one_read;
