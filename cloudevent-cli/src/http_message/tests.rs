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
fn folded_lines_join_and_content_length_cuts() {
    let request =
        parse_http_message(b"ce-subject: a\r\n  b\r\ncontent-length: 2\r\n\r\nxyz").unwrap();
    assert_eq!(request.headers()["ce-subject"], "a b");
    assert_eq!(request.body(), b"xy");
    assert!(matches!(
        parse_http_message(b"content-length: 9\r\n\r\nxy"),
        Err(HttpMessageError::TruncatedBody {
            announced: 9,
            found: 2
        })
    ));
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
fn a_request_line_sets_method_and_target_and_folded_lines_join_there_too() {
    let request =
        parse_http_message(b"PUT /events?x=1 HTTP/1.1\r\nce-subject: a\r\n\tb\r\n\r\n").unwrap();
    assert_eq!(request.method(), http::Method::PUT);
    assert_eq!(request.uri(), "/events?x=1");
    assert_eq!(request.headers()["ce-subject"], "a b");
    // No blank line: everything is the header section, the body is empty.
    let request = parse_http_message(b"POST / HTTP/1.1\nce-id: 1").unwrap();
    assert_eq!(request.headers()["ce-id"], "1");
    assert!(request.body().is_empty());
}
