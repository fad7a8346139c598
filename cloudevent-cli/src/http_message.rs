//! A raw HTTP/1.1 message (an optional request or status line, header lines, a blank line,
//! the body) read into an [`http::Request`], for `cloudevent validate --format http`.
//!
//! The CloudEvents HTTP Protocol Binding 1.0.2 itself (content modes §3, `ce-` headers
//! §3.1.3) is the runtime's `cloudevent_runtime::binding::http`; this module only turns the
//! bytes of a message saved to a file into the `http` crate's types that binding reads. A
//! gateway never needs it: its server already parsed the request.
//!
//! ```
//! use cloudevent_cli::http_message::parse_http_message;
//! use cloudevent_runtime::AnyEvent;
//! use cloudevent_runtime::binding::http::{Received, read_message};
//!
//! let message = b"POST /events HTTP/1.1\r\n\
//!     ce-specversion: 1.0\r\nce-id: 1\r\nce-source: https://orders.example.com\r\n\
//!     ce-type: com.example.order.created\r\nce-subject: caf%C3%A9\r\n\
//!     content-type: application/json\r\n\r\n{\"n\":1}";
//! let request = parse_http_message(message).unwrap();
//! let Received::Event(event) = read_message::<AnyEvent>(request.headers(), request.body()).unwrap()
//! else { panic!("one event") };
//! assert_eq!(event.subject(), Some("café"));
//! ```

use http::header::CONTENT_LENGTH;
use http::{HeaderName, HeaderValue, Method, Request, Uri};

/// Why a raw HTTP/1.1 message could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HttpMessageError {
    /// No blank line ends the header section within the limit.
    #[error("no blank line ends the header section within {limit} bytes")]
    HeaderSectionTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// More header lines than the limit.
    #[error("more than {limit} header lines")]
    TooManyHeaders {
        /// The limit.
        limit: usize,
    },
    /// A header line that is not `name: value`.
    #[error("line {line}: not a header line `name: value` (RFC 7230 3.2)")]
    BadHeaderLine {
        /// The line number, from 1.
        line: usize,
    },
    /// A request line with a method or target `http` refuses.
    #[error("line 1: bad request line (RFC 7230 3.1.1)")]
    BadRequestLine,
    /// `Content-Length` larger than the body present.
    #[error("Content-Length {announced} but only {found} body bytes follow")]
    TruncatedBody {
        /// Announced length.
        announced: usize,
        /// Bytes present.
        found: usize,
    },
}

/// The most bytes [`parse_http_message`] reads as header section.
pub const MAX_HEADER_SECTION_BYTES: usize = 64 * 1024;
/// The most header lines [`parse_http_message`] accepts.
pub const MAX_HEADER_LINES: usize = 256;

/// Whether the bytes look like an HTTP/1.1 message: a request or status line, or a first line
/// `name: value`. For the CLI's `--format auto`.
///
/// ```
/// use cloudevent_cli::http_message::looks_like_http_message;
///
/// assert!(looks_like_http_message(b"POST /events HTTP/1.1\r\nce-id: 1\r\n\r\n"));
/// assert!(looks_like_http_message(b"Content-Type: application/json\n\n{}"));
/// assert!(!looks_like_http_message(b"{\"specversion\": \"1.0\"}"));
/// ```
pub fn looks_like_http_message(bytes: &[u8]) -> bool {
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let first = first.strip_suffix(b"\r").unwrap_or(first);
    is_start_line(first) || split_header_line(first).is_some()
}

fn is_start_line(line: &[u8]) -> bool {
    let Ok(line) = std::str::from_utf8(line) else {
        return false;
    };
    let mut words = line.split(' ');
    match (words.next(), words.next(), words.next()) {
        // Request line: method SP request-target SP HTTP-version.
        (Some(method), Some(_), Some(version)) if version.starts_with("HTTP/") => {
            !method.is_empty() && method.bytes().all(is_token_byte)
        }
        // Status line: HTTP-version SP status-code SP reason-phrase (the binding is the same
        // for responses, §3).
        (Some(version), Some(status), _) if version.starts_with("HTTP/") => {
            status.len() == 3 && status.bytes().all(|b| b.is_ascii_digit())
        }
        _ => false,
    }
}

fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn split_header_line(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let colon = line.iter().position(|&b| b == b':')?;
    let (name, rest) = line.split_at(colon);
    (!name.is_empty() && name.iter().copied().all(is_token_byte)).then(|| (name, &rest[1..]))
}

/// Reads a raw HTTP/1.1 message (an optional request or status line, header lines, a blank
/// line, the body) into a request, for `cloudevent validate --format http`. Lines may end in
/// CRLF or LF; folded header lines (obs-fold) are joined with a space. The header section is
/// bounded ([`MAX_HEADER_SECTION_BYTES`], [`MAX_HEADER_LINES`]); the body is the rest of the
/// input, cut to `Content-Length` when that is shorter. Never panics.
///
/// # Errors
/// See [`HttpMessageError`].
///
/// ```
/// use cloudevent_cli::http_message::parse_http_message;
///
/// let message = b"POST /events HTTP/1.1\r\nHost: example.com\r\nce-id: 1\r\n\r\n{\"a\":1}";
/// let request = parse_http_message(message).unwrap();
/// assert_eq!(request.method(), http::Method::POST);
/// assert_eq!(request.headers()["ce-id"], "1");
/// assert_eq!(request.body(), b"{\"a\":1}");
///
/// // No request line at all: just headers and a body.
/// let request = parse_http_message(b"content-type: text/plain\n\nhello").unwrap();
/// assert_eq!(request.body(), b"hello");
/// ```
pub fn parse_http_message(bytes: &[u8]) -> Result<Request<Vec<u8>>, HttpMessageError> {
    let mut request = Request::new(Vec::new());
    *request.method_mut() = Method::POST;
    let mut rest = bytes;
    let mut line_number = 0;
    let mut header_lines = 0;
    let mut last_header: Option<HeaderName> = None;
    loop {
        let consumed = bytes.len() - rest.len();
        let Some(newline) = rest.iter().position(|&b| b == b'\n') else {
            // No blank line: the whole input is header section (an event without data).
            if consumed + rest.len() > MAX_HEADER_SECTION_BYTES {
                return Err(HttpMessageError::HeaderSectionTooLong {
                    limit: MAX_HEADER_SECTION_BYTES,
                });
            }
            let line = rest;
            rest = &[];
            if line.iter().all(u8::is_ascii_whitespace) {
                break;
            }
            line_number += 1;
            read_line(
                line,
                line_number,
                &mut request,
                &mut last_header,
                &mut header_lines,
            )?;
            break;
        };
        if consumed + newline > MAX_HEADER_SECTION_BYTES {
            return Err(HttpMessageError::HeaderSectionTooLong {
                limit: MAX_HEADER_SECTION_BYTES,
            });
        }
        let line = &rest[..newline];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        rest = &rest[newline + 1..];
        line_number += 1;
        if line.is_empty() {
            if line_number == 1 {
                // Leading blank line: no headers at all, the rest is the body.
                continue;
            }
            break;
        }
        read_line(
            line,
            line_number,
            &mut request,
            &mut last_header,
            &mut header_lines,
        )?;
    }
    let mut body = rest;
    if let Some(announced) = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok())
    {
        if announced > body.len() {
            return Err(HttpMessageError::TruncatedBody {
                announced,
                found: body.len(),
            });
        }
        body = &body[..announced];
    }
    *request.body_mut() = body.to_vec();
    Ok(request)
}

fn read_line(
    line: &[u8],
    line_number: usize,
    request: &mut Request<Vec<u8>>,
    last_header: &mut Option<HeaderName>,
    header_lines: &mut usize,
) -> Result<(), HttpMessageError> {
    if line_number == 1 && is_start_line(line) {
        let text = std::str::from_utf8(line).map_err(|_| HttpMessageError::BadRequestLine)?;
        let mut words = text.split(' ');
        if let (Some(method), Some(target)) = (words.next(), words.next())
            && !method.starts_with("HTTP/")
        {
            *request.method_mut() = Method::from_bytes(method.as_bytes())
                .map_err(|_| HttpMessageError::BadRequestLine)?;
            *request.uri_mut() =
                Uri::try_from(target).map_err(|_| HttpMessageError::BadRequestLine)?;
        }
        return Ok(());
    }
    if line.first().is_some_and(|&b| b == b' ' || b == b'\t') {
        // obs-fold (RFC 7230 3.2.4): a continuation of the previous header's value.
        let Some(name) = last_header.as_ref() else {
            return Err(HttpMessageError::BadHeaderLine { line: line_number });
        };
        let headers = request.headers_mut();
        let mut values: Vec<HeaderValue> = headers.get_all(name).iter().cloned().collect();
        let mut joined = values
            .pop()
            .map(|v| v.as_bytes().to_vec())
            .unwrap_or_default();
        joined.push(b' ');
        joined.extend_from_slice(trim_ows(line));
        let value = HeaderValue::from_bytes(&joined)
            .map_err(|_| HttpMessageError::BadHeaderLine { line: line_number })?;
        // Replace the last value of this name with the joined one.
        values.push(value);
        headers.remove(name);
        for v in values {
            headers.append(name.clone(), v);
        }
        return Ok(());
    }
    *header_lines += 1;
    if *header_lines > MAX_HEADER_LINES {
        return Err(HttpMessageError::TooManyHeaders {
            limit: MAX_HEADER_LINES,
        });
    }
    let (name, value) =
        split_header_line(line).ok_or(HttpMessageError::BadHeaderLine { line: line_number })?;
    let name = HeaderName::from_bytes(name)
        .map_err(|_| HttpMessageError::BadHeaderLine { line: line_number })?;
    let value = HeaderValue::from_bytes(trim_ows(value))
        .map_err(|_| HttpMessageError::BadHeaderLine { line: line_number })?;
    request.headers_mut().append(name.clone(), value);
    *last_header = Some(name);
    Ok(())
}

fn trim_ows(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')
        .map_or(start, |i| i + 1);
    &bytes[start..end.max(start)]
}

#[cfg(test)]
mod tests;
