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
use http::{HeaderMap, HeaderName, HeaderValue, Method, Request, Uri};

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
/// The request line and the header section are parsed by `httparse` (hyper's parser); what
/// is ours is only what a message saved to a file needs beyond it: no start line at all,
/// no blank line after the last header, and the line number of a broken header line.
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
    // One blank line before the start line is ignored (RFC 7230 3.5).
    let (mut rest, mut lines_before) = match newline_ending(bytes) {
        Some((b"", after)) => (after, 1),
        _ => (bytes, 0),
    };
    if let Some((first, after)) = newline_ending(rest).or(Some((rest, &[])))
        && is_start_line(first)
    {
        if !first.starts_with(b"HTTP/") {
            read_request_line(first, &mut request)?;
        }
        rest = after;
        lines_before += 1;
    }
    let mut body = read_header_section(rest, lines_before, request.headers_mut())?;
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

/// The first line (without its CR LF or LF) and what follows it; `None` without a newline.
fn newline_ending(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let newline = bytes.iter().position(|&b| b == b'\n')?;
    let line = &bytes[..newline];
    Some((
        line.strip_suffix(b"\r").unwrap_or(line),
        &bytes[newline + 1..],
    ))
}

/// The method and target of a request line, as `httparse` reads them.
fn read_request_line(line: &[u8], request: &mut Request<Vec<u8>>) -> Result<(), HttpMessageError> {
    let mut alone = line.to_vec();
    alone.extend_from_slice(b"\r\n\r\n");
    let mut parsed = httparse::Request::new(&mut []);
    match parsed.parse(&alone) {
        Ok(httparse::Status::Complete(_)) => {}
        _ => return Err(HttpMessageError::BadRequestLine),
    }
    let (Some(method), Some(target)) = (parsed.method, parsed.path) else {
        return Err(HttpMessageError::BadRequestLine);
    };
    *request.method_mut() =
        Method::from_bytes(method.as_bytes()).map_err(|_| HttpMessageError::BadRequestLine)?;
    *request.uri_mut() = Uri::try_from(target).map_err(|_| HttpMessageError::BadRequestLine)?;
    Ok(())
}

/// A status line `httparse` reads in front of a header section, so that it joins folded lines
/// (it does so in responses only) whatever the message's own start line was.
const STATUS_LINE: &[u8] = b"HTTP/1.1 200 OK\r\n";

/// The header fields after the start line and the body after the blank line. Without a blank
/// line the whole input is the header section (an event without data).
fn read_header_section<'a>(
    section: &'a [u8],
    lines_before: usize,
    headers: &mut HeaderMap,
) -> Result<&'a [u8], HttpMessageError> {
    let mut buffer = Vec::with_capacity(STATUS_LINE.len() + section.len() + 2);
    buffer.extend_from_slice(STATUS_LINE);
    buffer.extend_from_slice(section);
    let mut parsed = parse_headers(&buffer, headers);
    let complete = matches!(parsed, Ok(Some(_)));
    if let Ok(None) = parsed {
        buffer.extend_from_slice(b"\n\n");
        parsed = parse_headers(&buffer, headers);
    }
    let end = match parsed {
        Ok(Some(end)) => end,
        Ok(None) | Err(HttpMessageError::BadHeaderLine { .. }) => {
            return Err(HttpMessageError::BadHeaderLine {
                line: lines_before + broken_line(section),
            });
        }
        Err(other) => return Err(other),
    };
    if end - STATUS_LINE.len() > MAX_HEADER_SECTION_BYTES + 2 {
        return Err(HttpMessageError::HeaderSectionTooLong {
            limit: MAX_HEADER_SECTION_BYTES,
        });
    }
    Ok(if complete {
        &section[end - STATUS_LINE.len()..]
    } else {
        &[]
    })
}

/// Runs `httparse` over a status line and a header section and adds the fields to `headers`
/// (a folded value joined): the end of the section, or `None` when no blank line ends it. A
/// field the `http` crate refuses counts as a broken line.
fn parse_headers(
    buffer: &[u8],
    headers: &mut HeaderMap,
) -> Result<Option<usize>, HttpMessageError> {
    let mut slots = [httparse::EMPTY_HEADER; MAX_HEADER_LINES];
    let mut response = httparse::Response::new(&mut slots);
    let parsed = httparse::ParserConfig::default()
        .allow_obsolete_multiline_headers_in_responses(true)
        .parse_response(&mut response, buffer);
    match parsed {
        Ok(httparse::Status::Complete(end)) => {
            for header in response.headers.iter() {
                let broken = || HttpMessageError::BadHeaderLine { line: 0 };
                let name = HeaderName::from_bytes(header.name.as_bytes()).map_err(|_| broken())?;
                let value = HeaderValue::from_bytes(&unfold(header.value)).map_err(|_| broken())?;
                headers.append(name, value);
            }
            Ok(Some(end))
        }
        Ok(httparse::Status::Partial) => {
            if buffer.len() > STATUS_LINE.len() + MAX_HEADER_SECTION_BYTES {
                return Err(HttpMessageError::HeaderSectionTooLong {
                    limit: MAX_HEADER_SECTION_BYTES,
                });
            }
            Ok(None)
        }
        Err(httparse::Error::TooManyHeaders) => Err(HttpMessageError::TooManyHeaders {
            limit: MAX_HEADER_LINES,
        }),
        Err(_) => Err(HttpMessageError::BadHeaderLine { line: 0 }),
    }
}

/// A folded value (obs-fold, RFC 7230 3.2.4) on one line: its lines trimmed and joined with a
/// space.
fn unfold(value: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(value.len());
    for (i, line) in value.split(|&b| b == b'\n').enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        out.extend_from_slice(trim_ows(line.strip_suffix(b"\r").unwrap_or(line)));
    }
    out
}

/// The number (from 1) of the first line of a header section that `httparse` refuses: the
/// fewest lines that, ended by a blank line, do not parse. Only an error pays for this.
fn broken_line(section: &[u8]) -> usize {
    let mut ends: Vec<usize> = section
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .map(|(at, _)| at + 1)
        .collect();
    ends.push(section.len());
    let parses = |&end: &usize| {
        let mut buffer = STATUS_LINE.to_vec();
        buffer.extend_from_slice(&section[..end]);
        buffer.extend_from_slice(b"\n\n");
        matches!(parse_headers(&buffer, &mut HeaderMap::new()), Ok(Some(_)))
    };
    ends.partition_point(parses) + 1
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
