use super::*;

#[test]
fn raw_message_edge_cases_never_panic() {
    for input in [
        &b""[..],
        b"\n",
        b"\r\n\r\n",
        b"POST",
        b"POST / HTTP/1.1",
        b"HTTP/1.1 200 OK\r\nce-id: 1\r\n\r\n",
        b" folded-without-header\r\n\r\n",
        b"\xff\xfe: x\r\n\r\n",
        b"a: \xff\r\n\r\n",
        b"content-length: 99\r\n\r\nshort",
        b"content-length: nope\r\n\r\nbody",
    ] {
        let _ = parse_http_message(input);
    }
}

#[test]
fn header_section_is_bounded() {
    let mut input = b"x-a: ".to_vec();
    input.extend(std::iter::repeat_n(b'a', MAX_HEADER_SECTION_BYTES + 1));
    assert!(matches!(
        parse_http_message(&input),
        Err(HttpMessageError::HeaderSectionTooLong { .. })
    ));
    let many: Vec<u8> = (0..=MAX_HEADER_LINES)
        .flat_map(|i| format!("x-{i}: v\n").into_bytes())
        .collect();
    assert!(matches!(
        parse_http_message(&many),
        Err(HttpMessageError::TooManyHeaders { .. })
    ));
}

#[test]
fn folded_lines_are_refused_with_their_line_and_content_length_frames_the_body() {
    assert_eq!(
        parse_http_message(b"ce-id: 1\r\nce-subject: a\r\n  b\r\n\r\nxyz").err(),
        Some(HttpMessageError::ObsoleteLineFolding { line: 3 })
    );
    let request = parse_http_message(b"content-length: 2\r\n\r\nxy\r\n").unwrap();
    assert_eq!(request.body(), b"xy");
    assert!(matches!(
        parse_http_message(b"content-length: 9\r\n\r\nxy"),
        Err(HttpMessageError::TruncatedBody {
            announced: 9,
            found: 2
        })
    ));
    // A body longer than Content-Length holds a second message: a server reads it as one.
    assert_eq!(
        parse_http_message(b"content-length: 2\r\n\r\nxyz").err(),
        Some(HttpMessageError::BytesAfterBody {
            count: 1,
            framing: "Content-Length"
        })
    );
}

#[test]
fn content_length_must_be_one_decimal_length() {
    for bad in [
        &b"content-length: nope\r\n\r\nbody"[..],
        b"content-length: -1\r\n\r\nbody",
        b"content-length: +4\r\n\r\nbody",
        b"content-length: 0x4\r\n\r\nbody",
        b"content-length: 4 4\r\n\r\nbody",
        b"content-length:\r\n\r\nbody",
        b"content-length: 99999999999999999999999999\r\n\r\nbody",
        b"content-length: 4\r\ncontent-length: 3\r\n\r\nbody",
        b"content-length: 4, 3\r\n\r\nbody",
    ] {
        let error = parse_http_message(bad).unwrap_err();
        assert!(
            matches!(error, HttpMessageError::BadContentLength { .. }),
            "{}: {error}",
            String::from_utf8_lossy(bad)
        );
    }
    // Equal copies are one length (RFC 9110 8.6 lets a recipient take it).
    for same in [
        &b"content-length: 4\r\ncontent-length: 4\r\n\r\nbody"[..],
        b"content-length: 4, 4\r\n\r\nbody",
    ] {
        assert_eq!(parse_http_message(same).unwrap().body(), b"body");
    }
}

#[test]
fn transfer_encoding_is_chunked_alone_and_never_beside_content_length() {
    assert_eq!(
        parse_http_message(b"transfer-encoding: chunked\r\ncontent-length: 5\r\n\r\n0\r\n\r\n")
            .err(),
        Some(HttpMessageError::TransferEncodingWithContentLength)
    );
    for coding in ["gzip", "gzip, chunked", "chunked, chunked", "identity"] {
        let message = format!("transfer-encoding: {coding}\r\n\r\n0\r\n\r\n");
        assert!(
            matches!(
                parse_http_message(message.as_bytes()),
                Err(HttpMessageError::UnsupportedTransferCoding { .. })
            ),
            "{coding}"
        );
    }
}

#[test]
fn a_chunked_body_is_decoded_with_extensions_and_trailers() {
    let request = parse_http_message(
        b"POST /e HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n\
          4;name=value\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n\
          0\r\nx-checksum: 1\r\n\r\n",
    )
    .unwrap();
    assert_eq!(request.body(), b"Wikipedia in\r\n\r\nchunks.");
    // The header section may end its lines in LF alone; chunk lines end in CRLF (httparse's
    // reading, as hyper's).
    let request =
        parse_http_message(b"transfer-encoding: chunked\n\n2\r\n{}\r\n0\r\n\r\n\n").unwrap();
    assert_eq!(request.body(), b"{}");
    assert!(matches!(
        parse_http_message(b"transfer-encoding: chunked\n\n2\n{}\n0\n\n"),
        Err(HttpMessageError::BadChunkedBody { at: 0, .. })
    ));
}

#[test]
fn a_broken_chunked_body_is_refused_with_where() {
    let chunked = |body: &[u8]| {
        let mut message = b"transfer-encoding: chunked\r\n\r\n".to_vec();
        message.extend_from_slice(body);
        parse_http_message(&message)
    };
    for (body, at) in [
        (&b"zz\r\n"[..], 0),
        (b"-1\r\nx\r\n0\r\n\r\n", 0),
        (b"ffffffffffffffffff\r\n", 0),
        (b"5\r\nabc", 3),
        (b"3\r\nabcX0\r\n\r\n", 6),
        (b"3\r\nabc\r\n", 8),
        (b"3\r\nabc\r\n0\r\n", 11),
        (b"7fffffffffffffff\r\nab\r\n0\r\n\r\n", 18),
    ] {
        let error = chunked(body).unwrap_err();
        assert!(
            matches!(error, HttpMessageError::BadChunkedBody { at: found, .. } if found == at),
            "{}: {error}",
            String::from_utf8_lossy(body)
        );
    }
    assert_eq!(
        chunked(b"0\r\n\r\nPOST / HTTP/1.1\r\n").err(),
        Some(HttpMessageError::BytesAfterBody {
            count: 15,
            framing: "the last chunk"
        })
    );
}

#[test]
fn status_line_is_accepted_and_bad_header_rejected() {
    let request = parse_http_message(b"HTTP/1.1 200 OK\nce-id: 1\n\n").unwrap();
    assert_eq!(request.headers()["ce-id"], "1");
    assert_eq!(
        parse_http_message(b"ce-id 1\n\n").err(),
        Some(HttpMessageError::BadHeaderLine { line: 1 })
    );
}

#[test]
fn a_broken_line_is_named_by_its_number_from_the_start_of_the_input() {
    assert_eq!(
        parse_http_message(b"POST /e HTTP/1.1\r\nce-id: 1\r\nce-type com.x\r\n\r\n").err(),
        Some(HttpMessageError::BadHeaderLine { line: 3 })
    );
    assert_eq!(
        parse_http_message(b"\nce-id: 1\nce-source: /s\nbad\x01name: x\n\n").err(),
        Some(HttpMessageError::BadHeaderLine { line: 4 })
    );
    assert_eq!(
        parse_http_message(b"POST /e HTTP/9.9\r\n\r\n").err(),
        Some(HttpMessageError::BadRequestLine)
    );
}

#[test]
fn a_request_line_sets_method_and_target_and_folded_lines_are_refused_there_too() {
    let request = parse_http_message(b"PUT /events?x=1 HTTP/1.1\r\nce-subject: a\r\n\r\n").unwrap();
    assert_eq!(request.method(), http::Method::PUT);
    assert_eq!(request.uri(), "/events?x=1");
    assert_eq!(request.headers()["ce-subject"], "a");
    assert_eq!(
        parse_http_message(b"PUT /events HTTP/1.1\r\nce-subject: a\r\n\tb\r\n\r\n").err(),
        Some(HttpMessageError::ObsoleteLineFolding { line: 3 })
    );
    // No blank line: everything is the header section, the body is empty.
    let request = parse_http_message(b"POST / HTTP/1.1\nce-id: 1").unwrap();
    assert_eq!(request.headers()["ce-id"], "1");
    assert!(request.body().is_empty());
}
