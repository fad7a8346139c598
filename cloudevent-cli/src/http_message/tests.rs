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
