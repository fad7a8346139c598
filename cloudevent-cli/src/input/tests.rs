use super::*;

#[test]
fn detect_tells_json_from_http() {
    assert_eq!(detect(b"  {\"id\":1}"), Format::Json);
    assert_eq!(detect(b"\n[ ]"), Format::Json);
    assert_eq!(
        detect(b"POST /events HTTP/1.1\r\nce-id: 1\r\n\r\n"),
        Format::Http
    );
    assert_eq!(detect(b"ce-id: 1\n\n"), Format::Http);
    assert_eq!(detect(b"garbage"), Format::Json);
    assert_eq!(detect(b""), Format::Json);
}

#[test]
fn detect_takes_json_lines_only_when_the_first_line_is_a_whole_object() {
    assert_eq!(detect(b"{\"id\":1}\n{\"id\":2}\n"), Format::JsonLines);
    assert_eq!(detect(b"\n  {\"id\":1}\r\n\r\nnot json"), Format::JsonLines);
    // One line, with or without blank lines after it: one event.
    assert_eq!(detect(b"{\"id\":1}\n\n  \n"), Format::Json);
    // Pretty-printed: the first line is `{` or holds only the first members.
    assert_eq!(detect(b"{\n  \"id\": 1\n}\n"), Format::Json);
    assert_eq!(detect(b"{\"id\": 1,\n \"type\": \"a\"}"), Format::Json);
    // A batch on several lines is a batch.
    assert_eq!(detect(b"[{\"id\":1}]\n[{\"id\":2}]"), Format::Json);
}

#[test]
fn json_lines_numbers_lines_from_1_and_skips_blank_ones() {
    let lines: Vec<_> = json_lines(b"a\r\n\n \t\nb\nc").collect();
    assert_eq!(lines, [(1, &b"a"[..]), (4, &b"b"[..]), (5, &b"c"[..])]);
    assert_eq!(json_lines(b"").count(), 0);
}
