//! A raw HTTP/1.1 message (an optional request or status line, header lines, a blank line,
//! the body) read into an [`http::Request`], for `cloudevent validate --format http` (and
//! `sign`, `verify`), and written again ([`write_http_message`]) for `cloudevent sign`.
//!
//! The CloudEvents HTTP Protocol Binding 1.0.2 itself (content modes §3, `ce-` headers
//! §3.1.3) is the runtime's `cloudevent_runtime::binding::http`; this module only turns the
//! bytes of a message saved to a file into the `http` crate's types that binding reads. A
//! gateway never needs it: its server already parsed the request.
//!
//! ```
//! use cloudevent_cli::http_message::parse_http_message;
//! use cloudevent_runtime::{AnyEvent, Attributes};
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

use http::header::{CONTENT_LENGTH, TRANSFER_ENCODING};
use http::{HeaderMap, HeaderName, HeaderValue, Method, Request, Uri};

/// Why a raw HTTP/1.1 message could not be read. Each is a message a server refuses
/// (`400 Bad Request`) under RFC 9112.
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
    #[error("line {line}: not a header line `name: value` (RFC 9112 5)")]
    BadHeaderLine {
        /// The line number, from 1.
        line: usize,
    },
    /// A header line that continues the one before it (obs-fold): a server rejects the
    /// message or joins the lines, so two servers may read it differently.
    #[error(
        "line {line}: a header line folded onto the one before it (obs-fold, RFC 9112 5.2); write the value on one line"
    )]
    ObsoleteLineFolding {
        /// The line number of the continuation, from 1.
        line: usize,
    },
    /// A request line with a method or target `http` refuses.
    #[error("line 1: bad request line (RFC 9112 3)")]
    BadRequestLine,
    /// `Content-Length` larger than the body present.
    #[error("Content-Length {announced} but only {found} body bytes follow (RFC 9112 6.3)")]
    TruncatedBody {
        /// Announced length.
        announced: usize,
        /// Bytes present.
        found: usize,
    },
    /// A `Content-Length` that is not one decimal length: not digits, negative, too large,
    /// or several fields (or a list) with different values.
    #[error(
        "Content-Length `{found}`: not one decimal length (RFC 9112 6.3, RFC 9110 8.6); the message has no reliable end"
    )]
    BadContentLength {
        /// The values found, joined with `, ` (cut to 64 characters).
        found: String,
    },
    /// Both `Transfer-Encoding` and `Content-Length`: the framing request smuggling plays on.
    #[error(
        "Transfer-Encoding and Content-Length both present (RFC 9112 6.1): the message has two possible ends; send one of them"
    )]
    TransferEncodingWithContentLength,
    /// A `Transfer-Encoding` other than `chunked` alone: a request whose last coding is not
    /// `chunked` has no reliable end, and no other coding is decoded here.
    #[error(
        "Transfer-Encoding `{found}`: only `chunked` is read (RFC 9112 6.1, 6.3); compressed bodies are not decoded"
    )]
    UnsupportedTransferCoding {
        /// The codings found, joined with `, ` (cut to 64 characters).
        found: String,
    },
    /// A chunked body that does not follow RFC 9112 7.1.
    #[error("chunked body, byte {at} after the header section: {problem} (RFC 9112 7.1)")]
    BadChunkedBody {
        /// The offset of the problem, counted from the first byte after the header section.
        at: usize,
        /// What was wrong.
        problem: &'static str,
    },
    /// Bytes after the end the message's framing gives: a second message, or a length that
    /// lies.
    #[error(
        "{count} bytes follow the end of the body that {framing} gives (RFC 9112 6.3): a second message, or a length that does not match the body"
    )]
    BytesAfterBody {
        /// How many bytes (line ends excepted) follow.
        count: usize,
        /// `Content-Length` or `the last chunk`.
        framing: &'static str,
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
/// line, the body) into a request, for `cloudevent validate --format http`, as RFC 9112 has
/// a server read it. Lines may end in CRLF or LF. The header section is bounded
/// ([`MAX_HEADER_SECTION_BYTES`], [`MAX_HEADER_LINES`]). Refused as a server refuses them: a
/// folded header line (obs-fold, 5.2), a `Content-Length` that is not one decimal length
/// (a sign, a list or several fields that disagree; 6.3), `Transfer-Encoding` beside
/// `Content-Length` (6.1), a transfer coding other than `chunked` alone, a malformed chunked
/// body (7.1), a body shorter than `Content-Length`, and bytes after the body's end other
/// than line ends. A chunked body is decoded (trailer fields are read and dropped). Without
/// either header the body is the rest of the input: a file ends as a closed connection does.
/// Never panics.
///
/// The request line, the header section and the chunk sizes are parsed by `httparse`
/// (hyper's parser); what is ours is only what a message saved to a file needs beyond it:
/// no start line at all, no blank line after the last header, and the line number of a
/// broken header line.
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
///
/// // A chunked body is decoded; a second framing beside it is refused.
/// let chunked = b"POST / HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n\
///     3\r\n{\"a\r\n3\r\n\":1\r\n1\r\n}\r\n0\r\n\r\n";
/// assert_eq!(parse_http_message(chunked).unwrap().body(), b"{\"a\":1}");
/// let smuggled = b"POST / HTTP/1.1\r\ntransfer-encoding: chunked\r\n\
///     content-length: 3\r\n\r\n0\r\n\r\n";
/// assert!(parse_http_message(smuggled).is_err());
/// ```
pub fn parse_http_message(bytes: &[u8]) -> Result<Request<Vec<u8>>, HttpMessageError> {
    let mut request = Request::new(Vec::new());
    *request.method_mut() = Method::POST;
    // One blank line before the start line is ignored (RFC 9112 2.2).
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
    let rest = read_header_section(rest, lines_before, request.headers_mut())?;
    *request.body_mut() = read_body(request.headers(), rest)?;
    Ok(request)
}

/// The start line (a request or status line) of a raw message as written, without its line
/// end, as [`parse_http_message`] finds it (one blank line before it is ignored); `None` for
/// a message that opens with its header fields. `cloudevent sign` writes it back unchanged.
///
/// ```
/// use cloudevent_cli::http_message::start_line;
///
/// assert_eq!(start_line(b"POST /events HTTP/1.1\r\nce-id: 1\r\n\r\n"), Some(&b"POST /events HTTP/1.1"[..]));
/// assert_eq!(start_line(b"\nHTTP/1.1 200 OK\n\n"), Some(&b"HTTP/1.1 200 OK"[..]));
/// assert_eq!(start_line(b"ce-id: 1\n\n"), None);
/// ```
pub fn start_line(bytes: &[u8]) -> Option<&[u8]> {
    let rest = match newline_ending(bytes) {
        Some((b"", after)) => after,
        _ => bytes,
    };
    let (first, _) = newline_ending(rest).unwrap_or((rest, &[]));
    is_start_line(first).then_some(first)
}

/// Writes an HTTP/1.1 message: the start line when there is one, the header fields (but
/// `Content-Length` and `Transfer-Encoding`), `Content-Length` of `body`, a blank line and
/// the body, lines ending in CR LF. What [`parse_http_message`] reads from it is `headers`
/// and `body` again.
///
/// ```
/// use cloudevent_cli::http_message::{parse_http_message, write_http_message};
///
/// let read = parse_http_message(b"POST /e HTTP/1.1\ntransfer-encoding: chunked\nce-id: 1\n\n2\r\n{}\r\n0\r\n\r\n").unwrap();
/// let written = write_http_message(Some(b"POST /e HTTP/1.1"), read.headers(), read.body());
/// assert_eq!(written, b"POST /e HTTP/1.1\r\nce-id: 1\r\ncontent-length: 2\r\n\r\n{}");
/// let again = parse_http_message(&written).unwrap();
/// assert_eq!((again.headers()["ce-id"].as_bytes(), again.body().as_slice()), (&b"1"[..], &b"{}"[..]));
/// ```
pub fn write_http_message(start_line: Option<&[u8]>, headers: &HeaderMap, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 512);
    if let Some(line) = start_line {
        out.extend_from_slice(line);
        out.extend_from_slice(b"\r\n");
    }
    for (name, value) in headers {
        if name == CONTENT_LENGTH || name == TRANSFER_ENCODING {
            continue;
        }
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(format!("content-length: {}\r\n\r\n", body.len()).as_bytes());
    out.extend_from_slice(body);
    out
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

/// The header fields after the start line and what follows the blank line. Without a blank
/// line the whole input is the header section (an event without data).
fn read_header_section<'a>(
    section: &'a [u8],
    lines_before: usize,
    headers: &mut HeaderMap,
) -> Result<&'a [u8], HttpMessageError> {
    let mut parsed = parse_headers(section, headers);
    let complete = matches!(parsed, Ok(Some(_)));
    if let Ok(None) = parsed {
        let mut ended = section.to_vec();
        ended.extend_from_slice(b"\n\n");
        parsed = parse_headers(&ended, headers);
    }
    let end = match parsed {
        Ok(Some(end)) => end,
        Ok(None) | Err(HttpMessageError::BadHeaderLine { .. }) => {
            let line = broken_line(section);
            let folded = line > 1
                && section
                    .split(|&b| b == b'\n')
                    .nth(line - 1)
                    .is_some_and(|l| matches!(l.first(), Some(b' ' | b'\t')));
            let line = lines_before + line;
            return Err(if folded {
                HttpMessageError::ObsoleteLineFolding { line }
            } else {
                HttpMessageError::BadHeaderLine { line }
            });
        }
        Err(other) => return Err(other),
    };
    if end > MAX_HEADER_SECTION_BYTES + 2 {
        return Err(HttpMessageError::HeaderSectionTooLong {
            limit: MAX_HEADER_SECTION_BYTES,
        });
    }
    Ok(if complete { &section[end..] } else { &[] })
}

/// Runs `httparse` over a header section and adds the fields to `headers`: the end of the
/// section, or `None` when no blank line ends it. A folded line is an error (`httparse`
/// refuses obs-fold in requests), as is a field the `http` crate refuses; both count as a
/// broken line.
fn parse_headers(
    buffer: &[u8],
    headers: &mut HeaderMap,
) -> Result<Option<usize>, HttpMessageError> {
    let mut slots = [httparse::EMPTY_HEADER; MAX_HEADER_LINES];
    match httparse::parse_headers(buffer, &mut slots) {
        Ok(httparse::Status::Complete((end, fields))) => {
            for header in fields {
                let broken = || HttpMessageError::BadHeaderLine { line: 0 };
                let name = HeaderName::from_bytes(header.name.as_bytes()).map_err(|_| broken())?;
                let value =
                    HeaderValue::from_bytes(trim_ows(header.value)).map_err(|_| broken())?;
                headers.append(name, value);
            }
            Ok(Some(end))
        }
        Ok(httparse::Status::Partial) => {
            if buffer.len() > MAX_HEADER_SECTION_BYTES {
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

/// The values of every field named `name`, each list split at its commas (RFC 9110 5.3).
fn listed(headers: &HeaderMap, name: HeaderName) -> Vec<String> {
    headers
        .get_all(name)
        .iter()
        .flat_map(|v| {
            String::from_utf8_lossy(v.as_bytes())
                .split(',')
                .map(|s| s.trim().to_owned())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Values for an error message: joined, and cut so that a hostile header cannot fill a report.
fn shown(values: &[String]) -> String {
    values.join(", ").chars().take(64).collect()
}

/// The body after the header section, framed as RFC 9112 6.3 says.
fn read_body(headers: &HeaderMap, rest: &[u8]) -> Result<Vec<u8>, HttpMessageError> {
    let has_length = headers.contains_key(CONTENT_LENGTH);
    if headers.contains_key(TRANSFER_ENCODING) {
        if has_length {
            return Err(HttpMessageError::TransferEncodingWithContentLength);
        }
        let codings = listed(headers, TRANSFER_ENCODING);
        if codings.len() != 1 || !codings[0].eq_ignore_ascii_case("chunked") {
            return Err(HttpMessageError::UnsupportedTransferCoding {
                found: shown(&codings),
            });
        }
        let (body, end) = read_chunked(rest)?;
        after_body(&rest[end..], "the last chunk")?;
        return Ok(body);
    }
    if !has_length {
        return Ok(rest.to_vec());
    }
    let lengths = listed(headers, CONTENT_LENGTH);
    let bad = || HttpMessageError::BadContentLength {
        found: shown(&lengths),
    };
    let mut announced = None;
    for value in &lengths {
        // 1*DIGIT: no sign, no space, no hexadecimal; equal copies are one length.
        if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let n: usize = value.parse().map_err(|_| bad())?;
        if announced.is_some_and(|a| a != n) {
            return Err(bad());
        }
        announced = Some(n);
    }
    let announced = announced.ok_or_else(bad)?;
    if announced > rest.len() {
        return Err(HttpMessageError::TruncatedBody {
            announced,
            found: rest.len(),
        });
    }
    after_body(&rest[announced..], "Content-Length")?;
    Ok(rest[..announced].to_vec())
}

/// What follows a framed body may only be line ends (a file's last newline).
fn after_body(tail: &[u8], framing: &'static str) -> Result<(), HttpMessageError> {
    let count = tail.iter().filter(|b| !matches!(b, b'\r' | b'\n')).count();
    if count == 0 {
        Ok(())
    } else {
        Err(HttpMessageError::BytesAfterBody { count, framing })
    }
}

/// A chunked body (RFC 9112 7.1): the data of its chunks, and where the message ends (after
/// the last chunk and the trailer section). The sizes are `httparse`'s reading; a size is
/// checked against the bytes present before anything is copied, so the body is never larger
/// than the input.
fn read_chunked(bytes: &[u8]) -> Result<(Vec<u8>, usize), HttpMessageError> {
    let bad = |at: usize, problem: &'static str| HttpMessageError::BadChunkedBody { at, problem };
    let mut body = Vec::new();
    let mut at = 0;
    loop {
        let (used, size) = match httparse::parse_chunk_size(&bytes[at..]) {
            Ok(httparse::Status::Complete(found)) => found,
            Ok(httparse::Status::Partial) => {
                return Err(bad(at, "the input ends inside a chunk size line"));
            }
            Err(httparse::InvalidChunkSize) => {
                return Err(bad(at, "not a chunk size (hexadecimal digits, then CRLF)"));
            }
        };
        at += used;
        if size == 0 {
            break;
        }
        let Some(size) = usize::try_from(size)
            .ok()
            .filter(|&size| size <= bytes.len() - at)
        else {
            return Err(bad(at, "a chunk larger than the bytes that follow"));
        };
        body.extend_from_slice(&bytes[at..at + size]);
        at += size;
        at += match &bytes[at..] {
            [b'\r', b'\n', ..] => 2,
            [b'\n', ..] => 1,
            _ => return Err(bad(at, "no CRLF after a chunk's data")),
        };
    }
    // The trailer section: fields (dropped: none of them may frame or describe the event)
    // and the blank line that ends the message.
    let mut slots = [httparse::EMPTY_HEADER; MAX_HEADER_LINES];
    match httparse::parse_headers(&bytes[at..], &mut slots) {
        Ok(httparse::Status::Complete((used, _))) => Ok((body, at + used)),
        Ok(httparse::Status::Partial) => Err(bad(at, "no blank line after the last chunk")),
        Err(_) => Err(bad(at, "a trailer field that is not `name: value`")),
    }
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
        let mut buffer = section[..end].to_vec();
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
