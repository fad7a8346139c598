//! The CloudEvents HTTP Protocol Binding 1.0.2 on the `http` 1.x crate's types.
//!
//! - Binary mode (§3.1): every attribute but `datacontenttype` in a `ce-` header (§3.1.3.1),
//!   values percent-encoded (§3.1.3.2, see [`percent`]); `datacontenttype` in
//!   `Content-Type` (§3.1.1); a `ce-datacontenttype` header is an error on receipt
//!   (INTG-STD-015 R-8).
//! - Structured mode (§3.2): the JSON event format with `Content-Type:
//!   application/cloudevents+json; charset=utf-8` (INTG-STD-015 R-7). The default (R-9).
//! - Batched mode (§3.3): the JSON batch format (INTG-STD-015 R-10).
//!
//! The receiver tells the modes apart by `Content-Type` ([`ContentMode::detect`]).

use std::borrow::Cow;

use http::header::CONTENT_TYPE;
use http::{HeaderMap, HeaderName, HeaderValue, Method, Request, Uri};

use super::error::BindingError;
use super::message::{self, ContentTypeCopy, Header, IncomingMessage, Modes};
use super::{BinaryParts, BindingEvent, ContentMode, percent};

mod report;

pub use super::message::Received;
pub use report::report_refusal;
#[cfg(feature = "axum")]
pub(crate) use report::{WithWarnings, full_batch_report, full_report, validator_input};

/// The default content mode INTG-STD-015 R-9 gives HTTP: structured; binary MAY be used
/// when payload size dominates and header inspection is not needed. Producers MUST document
/// the mode they emit (R-9); the catalog does so per event.
///
/// ```
/// use cloudevent_runtime::binding::{ContentMode, http};
/// assert_eq!(http::DEFAULT_MODE, ContentMode::Structured);
/// ```
pub const DEFAULT_MODE: ContentMode = ContentMode::Structured;

/// The header prefix of binary mode (§3.1.3.1).
pub const HEADER_PREFIX: &str = "ce-";

/// Writes binary-mode headers: `ce-<name>` for every attribute, `Content-Type` for
/// `datacontenttype`. Existing `ce-` headers are not removed.
///
/// # Errors
/// An attribute name that is not a valid header name.
///
/// ```
/// use cloudevent_runtime::binding::{BinaryParts, http::write_binary_headers};
///
/// let parts = BinaryParts {
///     attributes: vec![("id".into(), "1".into()), ("subject".into(), "café ☕".into())],
///     datacontenttype: Some("text/plain".into()),
///     data: Some(b"hi".to_vec()),
/// };
/// let mut headers = http::HeaderMap::new();
/// write_binary_headers(&parts, &mut headers).unwrap();
/// assert_eq!(headers["ce-subject"], "caf%C3%A9%20%E2%98%95");
/// assert_eq!(headers["content-type"], "text/plain");
/// ```
pub fn write_binary_headers(
    parts: &BinaryParts,
    headers: &mut HeaderMap,
) -> Result<(), BindingError> {
    for (name, value) in &parts.attributes {
        let header = match known_header(name) {
            Some(header) => header,
            None => HeaderName::try_from(format!("{HEADER_PREFIX}{name}")).map_err(|e| {
                BindingError::AttributeName {
                    attribute: name.clone(),
                    reason: e.to_string(),
                }
            })?,
        };
        // Percent-encoding leaves only visible ASCII, which is always a valid header value.
        let value = HeaderValue::from_str(&percent::encode(value)).map_err(|_| {
            BindingError::HeaderNotText {
                header: header.to_string(),
            }
        })?;
        headers.append(header, value);
    }
    if let Some(content_type) = &parts.datacontenttype {
        let value =
            HeaderValue::from_str(content_type).map_err(|_| BindingError::HeaderNotText {
                header: CONTENT_TYPE.to_string(),
            })?;
        headers.insert(CONTENT_TYPE, value);
    }
    Ok(())
}

/// The `ce-` header of a core attribute or a documented extension, without building and
/// checking its name at run time (most headers of most events are these).
fn known_header(attribute: &str) -> Option<HeaderName> {
    let name = match attribute {
        "specversion" => "ce-specversion",
        "id" => "ce-id",
        "source" => "ce-source",
        "type" => "ce-type",
        "subject" => "ce-subject",
        "time" => "ce-time",
        "dataschema" => "ce-dataschema",
        "correlationid" => "ce-correlationid",
        "causationid" => "ce-causationid",
        "traceparent" => "ce-traceparent",
        "tracestate" => "ce-tracestate",
        "partitionkey" => "ce-partitionkey",
        _ => return None,
    };
    Some(HeaderName::from_static(name))
}

/// Reads binary-mode headers and body into [`BinaryParts`]: `ce-` headers (any case) become
/// attributes, percent-decoded exactly once; `Content-Type` becomes `datacontenttype`; an
/// empty body is an event without data.
///
/// # Errors
/// A `ce-datacontenttype` header (R-8), a value that is not text or does not decode to UTF-8,
/// an attribute given twice.
///
/// ```
/// use cloudevent_runtime::binding::http::read_binary_headers;
///
/// let mut headers = http::HeaderMap::new();
/// headers.insert("CE-Subject", "caf%c3%a9".parse().unwrap());
/// headers.insert("content-type", "text/plain".parse().unwrap());
/// let parts = read_binary_headers(&headers, b"hi".to_vec()).unwrap();
/// assert_eq!(parts.attribute("subject"), Some("café"));
/// assert_eq!(parts.datacontenttype.as_deref(), Some("text/plain"));
///
/// headers.insert("ce-datacontenttype", "text/plain".parse().unwrap());
/// assert!(read_binary_headers(&headers, Vec::new()).is_err());
/// ```
pub fn read_binary_headers(
    headers: &HeaderMap,
    body: Vec<u8>,
) -> Result<BinaryParts, BindingError> {
    let message = HttpMessage::under(headers, &[], &STRICT);
    let mut parts = message::binary_parts(&message)?.0.into_owned();
    parts.data = Some(body).filter(|body| !body.is_empty());
    Ok(parts)
}

/// The binding's own reading, for the readers that read no event type's policy: no form is
/// read literally.
static STRICT: crate::Policy = crate::AnyEvent::DEFAULT_POLICY;

/// Headers and body as the binding layer reads them (§3): `ce-` headers (any case: `http`
/// stores names in lower case, RFC 9110 5.1, so `ce-ExtA` and `ce-exta` are one header
/// naming `exta`), values percent-decoded exactly once (§3.1.3.2), or read literally where
/// the policy tolerates a non-encoding sender's form (the warnings are collected).
struct HttpMessage<'m> {
    headers: &'m HeaderMap,
    body: &'m [u8],
    policy: &'m crate::Policy,
    warnings: percent::Literals,
    /// `Content-Type` as text (`Err` when it is not), looked up once: the mode's detection
    /// and the binary-mode parts both ask for it, and each lookup hashes the name.
    content_type: Result<Option<&'m str>, ()>,
}

impl<'m> HttpMessage<'m> {
    /// Read under `policy` ([`crate::Policy::with_literal_headers`]): the event type's own
    /// ([`BindingEvent::policy`]) or the one a validator reads under.
    fn under(headers: &'m HeaderMap, body: &'m [u8], policy: &'m crate::Policy) -> Self {
        HttpMessage {
            headers,
            body,
            policy,
            warnings: percent::Literals::default(),
            content_type: content_type(headers).map_err(|_| ()),
        }
    }
}

impl<'m> HttpMessage<'m> {
    /// A header value that is not its own text: percent-decoded exactly once, or read
    /// literally where the policy tolerates a non-encoding sender's form (a warning).
    #[inline(never)]
    fn decoded_value(
        &self,
        name: &'m HeaderName,
        value: &'m HeaderValue,
        attribute: &'m str,
    ) -> Result<Cow<'m, str>, BindingError> {
        let strict = match value.to_str() {
            Ok(text) => percent::decode(text).map_err(|source| BindingError::HeaderValue {
                header: name.to_string(),
                source,
            }),
            Err(_) => Err(BindingError::HeaderNotText {
                header: name.to_string(),
            }),
        };
        match strict {
            Ok(value) => Ok(value),
            Err(error) => {
                let (text, warning) =
                    percent::literal(value.as_bytes(), attribute, self.policy).ok_or(error)?;
                self.warnings.push(warning);
                Ok(Cow::Borrowed(text))
            }
        }
    }
}

impl IncomingMessage for HttpMessage<'_> {
    fn modes(&self) -> Modes {
        Modes {
            without_content_type: ContentMode::Binary,
            structured_only: None,
            batch: true,
            content_type_copy: ContentTypeCopy::Refused,
            data_section: "CE HTTP binding 2.2",
        }
    }

    // HeaderMap yields the values of one name one after the other (`HeaderMap::iter`), and
    // names are compared in lower case, so an attribute given twice is given by consecutive
    // headers (`tests::a_repeated_attribute_is_the_previous_header`).
    const GROUPED_NAMES: bool = true;

    fn content_type(&self) -> Result<Option<&str>, BindingError> {
        self.content_type.map_err(|()| BindingError::HeaderNotText {
            header: CONTENT_TYPE.to_string(),
        })
    }

    fn attributes(&self) -> impl Iterator<Item = Result<Header<'_>, BindingError>> {
        Attributes {
            message: self,
            headers: self.headers.iter(),
        }
    }

    fn body(&self) -> Option<&[u8]> {
        Some(self.body)
    }
}

/// The `ce-` headers of a message, read as [`HttpMessage::attributes`] gives them.
struct Attributes<'a, 'm> {
    message: &'a HttpMessage<'m>,
    headers: http::header::Iter<'m, HeaderValue>,
}

impl<'a, 'm> Iterator for Attributes<'a, 'm> {
    type Item = Result<Header<'a>, BindingError>;

    // Inlined into the header walk (`message::binary_parts`), with the usual value, its own
    // text, read in line and the rest out of line: as a call of its own (the closure of a
    // `filter_map` before), each header went through memory as a `Result` and the walk was
    // a sixth of an HTTP binary decode (issue 40).
    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (name, value) = self.headers.next()?;
            let Some(attribute) = name.as_str().strip_prefix(HEADER_PREFIX) else {
                continue;
            };
            let value = match value.to_str() {
                Ok(text) if verbatim(text) => Cow::Borrowed(text),
                _ => match self.message.decoded_value(name, value, attribute) {
                    Ok(value) => value,
                    Err(error) => return Some(Err(error)),
                },
            };
            return Some(Ok(Header {
                attribute,
                header: name.as_str(),
                value,
                typed: None,
            }));
        }
    }
}

/// Whether `percent::decode` hands a header's text back as it is: not quoted, no blank at
/// either end, no `%`. Nearly every CloudEvents header is such a value; the search for `%`
/// looks at eight bytes at a time (the zero-byte test on the bytes xor `%`, exact about
/// whether one is there), where `decode`'s own checks and `memchr` on short values were a
/// fifth of an HTTP binary decode's header walk.
#[allow(
    clippy::manual_contains,
    reason = "at most seven bytes: a loop, where `contains` calls `memchr`"
)]
#[inline]
fn verbatim(text: &str) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = ONES * 0x80;
    let bytes = text.as_bytes();
    if matches!(bytes.first(), Some(b'"' | b' ' | b'\t'))
        || matches!(bytes.last(), Some(b' ' | b'\t'))
    {
        return false;
    }
    if bytes.len() < 8 {
        return !bytes.iter().any(|&byte| byte == b'%');
    }
    let percent = |word: &[u8]| {
        let mut le = [0; 8];
        le.copy_from_slice(word);
        let v = u64::from_le_bytes(le) ^ (ONES * u64::from(b'%'));
        v.wrapping_sub(ONES) & !v & HIGH
    };
    let mut words = bytes.chunks_exact(8);
    let mut found = 0;
    for word in &mut words {
        found |= percent(word);
    }
    // The last eight bytes, overlapping the words before: every byte is in a word looked
    // at, with no byte-by-byte search (`memchr`) for the few left over.
    if !words.remainder().is_empty() {
        found |= percent(&bytes[bytes.len() - 8..]);
    }
    found == 0
}

/// The `Content-Type` header as text, if present.
///
/// # Errors
/// A value that is not visible ASCII.
pub fn content_type(headers: &HeaderMap) -> Result<Option<&str>, BindingError> {
    headers
        .get(CONTENT_TYPE)
        .map(|value| {
            value.to_str().map_err(|_| BindingError::HeaderNotText {
                header: CONTENT_TYPE.to_string(),
            })
        })
        .transpose()
}

/// The content mode a message's headers name (§3).
///
/// # Errors
/// A CloudEvents format other than JSON, or a `Content-Type` that is not text.
///
/// ```
/// use cloudevent_runtime::binding::{ContentMode, http::content_mode};
///
/// let mut headers = http::HeaderMap::new();
/// headers.insert("content-type", "application/cloudevents+json; charset=utf-8".parse().unwrap());
/// assert_eq!(content_mode(&headers).unwrap(), ContentMode::Structured);
/// ```
pub fn content_mode(headers: &HeaderMap) -> Result<ContentMode, BindingError> {
    message::content_mode(&HttpMessage::under(headers, &[], &STRICT))
}

/// Writes one event into `headers` and returns the body, in binary or structured mode.
/// Structured mode sets `Content-Type: application/cloudevents+json; charset=utf-8` (R-7).
///
/// # Errors
/// [`ContentMode::Batch`] (use [`write_batch`]), or a payload that cannot be serialized.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::{ContentMode, http};
///
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// let mut headers = ::http::HeaderMap::new();
/// let body = http::write_event(&event, ContentMode::Binary, &mut headers).unwrap();
/// assert_eq!(headers["ce-id"], "1");
/// assert!(body.is_empty());
/// ```
pub fn write_event<E: BindingEvent>(
    event: &E,
    mode: ContentMode,
    headers: &mut HeaderMap,
) -> Result<Vec<u8>, BindingError> {
    match mode {
        ContentMode::Structured => {
            headers.insert(
                CONTENT_TYPE,
                HeaderValue::from_static(super::STRUCTURED_CONTENT_TYPE),
            );
            event.to_structured()
        }
        ContentMode::Binary => {
            let parts = event.to_binary()?;
            write_binary_headers(&parts, headers)?;
            Ok(parts.data.unwrap_or_default())
        }
        ContentMode::Batch => Err(BindingError::UnexpectedMode {
            expected: "binary or structured mode",
            found: "batched mode",
            content_type: super::BATCH_CONTENT_TYPE.to_owned(),
        }),
    }
}

/// Writes one event in structured mode in `format` (JSON, or Protobuf with feature
/// `protobuf`) into `headers` and returns the body.
///
/// # Errors
/// A payload that cannot be serialized; an event over the size limit.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::{StructuredFormat, http};
///
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// let mut headers = ::http::HeaderMap::new();
/// let body = http::write_structured(&event, StructuredFormat::Json, &mut headers).unwrap();
/// assert_eq!(http::read_event::<AnyEvent>(&headers, &body).unwrap(), event);
/// ```
pub fn write_structured<E: BindingEvent>(
    event: &E,
    format: super::StructuredFormat,
    headers: &mut HeaderMap,
) -> Result<Vec<u8>, BindingError> {
    let body = super::structured_body(event, format)?;
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static(format.content_type()),
    );
    Ok(body)
}

/// Writes a batch (§3.3) in `format`'s batch format (R-10: the JSON batch format,
/// [`StructuredFormat::Json`](super::StructuredFormat::Json)) into `headers` and returns the
/// body.
///
/// # Errors
/// A payload that cannot be serialized; a batch over the size limit (R-10); a format whose
/// specification defines no batch.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::{StructuredFormat, http};
///
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// let mut headers = ::http::HeaderMap::new();
/// let body = http::write_batch(&[event], StructuredFormat::Json, &mut headers).unwrap();
/// assert_eq!(headers["content-type"], "application/cloudevents-batch+json; charset=utf-8");
/// assert!(body.starts_with(b"["));
/// ```
pub fn write_batch<E: BindingEvent>(
    events: &[E],
    format: super::StructuredFormat,
    headers: &mut HeaderMap,
) -> Result<Vec<u8>, BindingError> {
    let events = events
        .iter()
        .map(BindingEvent::to_any_event)
        .collect::<Result<Vec<_>, _>>()?;
    let (Some(bytes), Some(content_type)) = (
        super::format::batch_body(format, &crate::Batch::from(events)),
        format.batch_content_type(),
    ) else {
        return Err(BindingError::UnexpectedMode {
            expected: "a format with a batch format",
            found: "batched mode",
            content_type: format.media_type().to_owned(),
        });
    };
    let bytes = bytes?;
    if bytes.len() > crate::limits::MAX_BATCH_BYTES {
        return Err(BindingError::TooLarge {
            size: bytes.len(),
            limit: crate::limits::MAX_BATCH_BYTES,
        });
    }
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    Ok(bytes)
}

/// The batch in `format`, its content type set in `headers`.
///
/// # Errors
/// See [`write_batch`].
#[deprecated(
    since = "0.1.0",
    note = "use `http::write_batch(&events, format, &mut headers)`"
)]
pub fn write_batch_in<E: BindingEvent>(
    events: &[E],
    format: super::StructuredFormat,
    headers: &mut HeaderMap,
) -> Result<Vec<u8>, BindingError> {
    write_batch(events, format, headers)
}

/// A POST request (R-12) carrying one event.
///
/// # Errors
/// See [`write_event`].
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::binding::{ContentMode, http};
///
/// let event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
/// let request = http::event_request("http://127.0.0.1/events", &event, ContentMode::Structured).unwrap();
/// assert_eq!(request.method(), ::http::Method::POST);
/// let back: AnyEvent = http::from_request(&request).unwrap();
/// assert_eq!(back, event);
/// ```
pub fn event_request<E: BindingEvent>(
    uri: impl TryInto<Uri>,
    event: &E,
    mode: ContentMode,
) -> Result<Request<Vec<u8>>, BindingError> {
    let mut request = Request::new(Vec::new());
    *request.method_mut() = Method::POST;
    *request.uri_mut() = parse_uri(uri)?;
    *request.body_mut() = write_event(event, mode, request.headers_mut())?;
    Ok(request)
}

/// A POST request (R-12) carrying a batch.
///
/// # Errors
/// See [`write_batch`].
pub fn batch_request<E: BindingEvent>(
    uri: impl TryInto<Uri>,
    events: &[E],
) -> Result<Request<Vec<u8>>, BindingError> {
    let mut request = Request::new(Vec::new());
    *request.method_mut() = Method::POST;
    *request.uri_mut() = parse_uri(uri)?;
    *request.body_mut() =
        write_batch(events, super::StructuredFormat::Json, request.headers_mut())?;
    Ok(request)
}

fn parse_uri(uri: impl TryInto<Uri>) -> Result<Uri, BindingError> {
    uri.try_into().map_err(|_| BindingError::AttributeName {
        attribute: "uri".to_owned(),
        reason: "not a valid request target".to_owned(),
    })
}

#[cfg(feature = "axum")]
/// A response carrying one event (the binding is the same for responses, §3).
///
/// # Errors
/// See [`write_event`].
pub(crate) fn event_response<E: BindingEvent>(
    status: http::StatusCode,
    event: &E,
    mode: ContentMode,
) -> Result<http::Response<Vec<u8>>, BindingError> {
    let mut response = http::Response::new(Vec::new());
    *response.status_mut() = status;
    *response.body_mut() = write_event(event, mode, response.headers_mut())?;
    Ok(response)
}

/// Reads one event from headers and body, in whichever mode `Content-Type` names, under
/// `E`'s policy ([`BindingEvent::policy`]): a type declared `#[cloudevent(literal_headers)]`
/// reads the header forms of senders that do not percent-encode literally, and logs each
/// warning (with the `tracing` feature, target `cloudevent::binding`); [`AnyEvent`] reads
/// strictly (read one under another policy with [`structured_document`]).
///
/// # Errors
/// A batch content type, an unsupported format, or an invalid event.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Attributes, CloudEvent, Event};
/// use cloudevent_runtime::binding::http::read_event;
///
/// #[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
/// #[cloudevent(type = "com.example.order.noted", source = "https://orders.example.com",
///     profile = "cloudevents", literal_headers)]
/// struct Noted;
///
/// let mut headers = ::http::HeaderMap::new();
/// for (name, value) in [("ce-specversion", "1.0"), ("ce-id", "1"),
///     ("ce-source", "https://orders.example.com"), ("ce-type", "com.example.order.noted"),
///     ("ce-subject", "100%")] {
///     headers.insert(name, value.parse().unwrap());
/// }
/// let noted = read_event::<Event<Noted>>(&headers, b"").unwrap();
/// assert_eq!(noted.subject(), Some("100%"));
/// assert!(read_event::<AnyEvent>(&headers, b"").is_err()); // CE HTTP binding 3.1.3.2
/// ```
///
/// [`AnyEvent`]: crate::AnyEvent
pub fn read_event<E: BindingEvent>(headers: &HeaderMap, body: &[u8]) -> Result<E, BindingError> {
    let policy = E::policy();
    let message = HttpMessage::under(headers, body, &policy);
    // The mode is checked before the body is parsed, so a batch is refused as such.
    let event = message::receive_event(&message)?;
    message.warnings.log();
    Ok(event)
}

#[cfg(feature = "axum")]
/// Reads a batch; `Content-Type` must name the JSON batch format.
///
/// # Errors
/// Another content type, or an invalid batch (the error names the event's index).
pub(crate) fn read_batch<E: BindingEvent>(
    headers: &HeaderMap,
    body: &[u8],
) -> Result<Vec<E>, BindingError> {
    let policy = E::policy();
    let message = HttpMessage::under(headers, body, &policy);
    let events = message::receive_batch(&message)?;
    message.warnings.log();
    Ok(events)
}

/// Reads whatever the message carries: one event or a batch, under `E`'s policy as
/// [`read_event`] does.
///
/// # Errors
/// An unsupported format, a bad header, or an invalid event.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Attributes};
/// use cloudevent_runtime::binding::http::{Received, read_message};
///
/// let mut headers = ::http::HeaderMap::new();
/// for (name, value) in [
///     ("ce-specversion", "1.0"),
///     ("ce-id", "1"),
///     ("ce-source", "https://orders.example.com"),
///     ("ce-type", "com.example.order.created"),
///     ("ce-subject", "caf%C3%A9"),
///     ("content-type", "application/json"),
/// ] {
///     headers.insert(name, value.parse().unwrap());
/// }
/// let Received::Event(event) = read_message::<AnyEvent>(&headers, b"{\"n\":1}").unwrap()
/// else { panic!("one event") };
/// assert_eq!(event.subject(), Some("café"));
/// ```
pub fn read_message<E: BindingEvent>(
    headers: &HeaderMap,
    body: &[u8],
) -> Result<Received<E>, BindingError> {
    let policy = E::policy();
    let message = HttpMessage::under(headers, body, &policy);
    let received = message::receive(&message)?;
    message.warnings.log();
    Ok(received)
}

/// The message as a JSON document for a validator, read under `policy`: the structured event
/// or the batch as sent, or the document a binary-mode message stands for
/// ([`BinaryParts::to_structured_document`]), and the warnings of that reading. For
/// `cloudevent validate --format http`: feed [`ContentMode::Batch`] documents to
/// `Validate::validate_batch_bytes::<Json>`, the others to `Validate::validate_bytes::<Json>`
/// of a validator under the same policy, and add the warnings to its report.
///
/// A policy [`with_literal_headers`](crate::Policy::with_literal_headers) reads the header
/// forms of senders that do not percent-encode (a bare `%`, a leading `"`, raw non-ASCII
/// UTF-8; [`LiteralHeader`](cloudevent_rules::LiteralHeader)) literally, each with a warning
/// naming the peer's behaviour and CE HTTP binding 3.1.3.2. Off by default and never under
/// INTG-STD-015. This is how an [`AnyEvent`](crate::AnyEvent) is read under a policy of the
/// caller's (the axum `Checked` and `Registered` extractors read through it).
///
/// # Errors
/// An unsupported format, a `ce-datacontenttype` header, or a header that does not decode
/// (in a form the policy does not tolerate).
///
/// ```
/// use cloudevent_runtime::{Json, Policy, Profile, Validate, Validator};
/// use cloudevent_runtime::binding::ContentMode;
/// use cloudevent_runtime::binding::http::structured_document;
///
/// let mut headers = ::http::HeaderMap::new();
/// for (name, value) in [("ce-specversion", "1.0"), ("ce-id", "1"),
///     ("ce-source", "https://orders.example.com"), ("ce-type", "com.example.order.noted"),
///     ("ce-subject", "100%")] {
///     headers.insert(name, value.parse().unwrap());
/// }
/// let lenient = Policy::new(Profile::CloudEvents).with_literal_headers(true);
/// let (mode, document, warnings) = structured_document(&headers, b"", &lenient).unwrap();
/// assert_eq!(mode, ContentMode::Binary);
/// assert_eq!(warnings[0].rule.as_str(), "CE HTTP binding 3.1.3.2");
/// let report = Validator::new(lenient).validate_bytes::<Json>(&document);
/// assert!(report.is_valid());
///
/// // Off by default, and never under the INTG-STD-015 gateway profile.
/// assert!(structured_document(&headers, b"", &Policy::new(Profile::CloudEvents)).is_err());
/// let gateway = Policy::new(Profile::IntgStd015).with_literal_headers(true);
/// assert!(structured_document(&headers, b"", &gateway).is_err());
/// ```
pub fn structured_document(
    headers: &HeaderMap,
    body: &[u8],
    policy: &crate::Policy,
) -> Result<(ContentMode, Vec<u8>, Vec<cloudevent_rules::Violation>), BindingError> {
    let message = HttpMessage::under(headers, body, policy);
    let (mode, document) = message::structured_document(&message)?;
    Ok((mode, document, message.warnings.into_inner()))
}

/// Reads one event from a request, under `E`'s policy ([`read_event`]).
///
/// # Errors
/// See [`read_event`].
pub fn from_request<E: BindingEvent, B: AsRef<[u8]>>(
    request: &Request<B>,
) -> Result<E, BindingError> {
    read_event(request.headers(), request.body().as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 25: [`verbatim`] against its definition (not quoted, no blank at either end,
    /// no `%`), for one odd character (every ASCII byte and a few wider ones) at every place
    /// of every length up to 17: two words, the overlapping last word, and short texts.
    #[test]
    fn verbatim_is_its_definition_for_one_odd_character_anywhere() {
        let odd = (0..=127u8).map(char::from).chain(['é', '☕', '\u{10348}']);
        for c in odd {
            for len in 1..=17 {
                for at in 0..len {
                    let text: String = (0..len).map(|i| if i == at { c } else { 'a' }).collect();
                    let defined = !text.contains('%')
                        && !text.starts_with(['"', ' ', '\t'])
                        && !text.ends_with([' ', '\t']);
                    assert_eq!(verbatim(&text), defined, "{text:?}");
                }
            }
        }
    }

    /// A binary-mode message of plain headers (`names` picks each header's name; one of
    /// them is not an attribute) inserted or appended in the given order.
    fn headers_of(steps: &[(usize, bool, String)]) -> HeaderMap {
        const NAMES: [&str; 5] = ["ce-id", "ce-source", "CE-Id", "ce-region", "x-trace"];
        let mut headers = HeaderMap::new();
        for (name, append, value) in steps {
            let name = HeaderName::from_bytes(NAMES[name % NAMES.len()].as_bytes()).unwrap();
            let value = HeaderValue::from_str(value).unwrap();
            if *append {
                headers.append(name, value);
            } else {
                headers.insert(name, value);
            }
        }
        headers
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Issue 25: [`verbatim`] against its definition on any text, `%` and blanks
        /// anywhere.
        #[test]
        fn verbatim_is_its_definition(text in "[a%\" \t\u{e9}]{0,40}") {
            let defined = !text.contains('%')
                && !text.starts_with(['"', ' ', '\t'])
                && !text.ends_with([' ', '\t']);
            proptest::prop_assert_eq!(verbatim(&text), defined);
        }

        /// Issue 25: HTTP's reading compares an attribute with the previous one only
        /// (`GROUPED_NAMES`); over any headers inserted or appended in any order, it refuses
        /// the same first repeated attribute, naming the same header, as comparing with
        /// every attribute before.
        #[test]
        fn a_repeated_attribute_is_the_previous_header(
            steps in proptest::collection::vec(
                (0usize..5, proptest::bool::ANY, "[a-z0-9]{1,6}"),
                0..12,
            ),
        ) {
            let headers = headers_of(&steps);
            let mut seen: Vec<&str> = Vec::new();
            let mut first_repeat = None;
            for (name, _) in &headers {
                let Some(attribute) = name.as_str().strip_prefix(HEADER_PREFIX) else {
                    continue;
                };
                if seen.contains(&attribute) {
                    first_repeat = Some(attribute.to_owned());
                    break;
                }
                seen.push(attribute);
            }
            match (read_binary_headers(&headers, Vec::new()), first_repeat) {
                (Err(BindingError::DuplicateAttribute { attribute, header }), Some(expected)) => {
                    proptest::prop_assert_eq!(&attribute, &expected);
                    proptest::prop_assert_eq!(header, format!("{HEADER_PREFIX}{expected}"));
                }
                (Ok(_), None) => {}
                (other, expected) => proptest::prop_assert!(false, "{other:?} {expected:?}"),
            }
        }

        /// Issue 25: a header value taken verbatim is what `percent::decode` returns for it.
        #[test]
        fn verbatim_text_is_what_decode_gives(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    0x1Fu8..=0x22, 0x7Cu8..=0x81, proptest::num::u8::ANY,
                    proptest::strategy::Just(b'\t'), proptest::strategy::Just(b'%'), proptest::strategy::Just(b'a')
                ],
                0..40,
            ),
        ) {
            if let Ok(value) = HeaderValue::from_bytes(&bytes)
                && let Ok(text) = value.to_str().map(str::to_owned)
                    && verbatim(&text) {
                        let decoded = percent::decode(&text);
                        proptest::prop_assert!(matches!(decoded, Ok(Cow::Borrowed(t)) if t == text));
                    }
        }
    }
}
