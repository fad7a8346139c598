//! HTTP binary mode: header decoding and percent-decoding. The input is a list of
//! `(header name, header value)` pairs and a body; headers that `http` refuses are skipped.
//! Never panics; percent-encoding round-trips any string; an event read in binary mode writes
//! back in binary mode and reads to the same event.
#![no_main]

use cloudevent_runtime::AnyEvent;
use cloudevent_runtime::binding::http::{read_binary_headers, read_event, write_event};
use cloudevent_runtime::binding::{ContentMode, percent};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (Vec<(String, Vec<u8>)>, Vec<u8>)| {
    let (pairs, body) = input;
    let mut headers = http::HeaderMap::new();
    for (name, value) in &pairs {
        // Percent-encoding is an identity after decoding, for any string.
        let encoded = percent::encode(name);
        assert_eq!(
            percent::decode(&encoded).expect("own encoding decodes"),
            name.as_str()
        );
        if let Ok(text) = std::str::from_utf8(value) {
            let _ = percent::decode(text);
        }
        let (Ok(name), Ok(value)) = (
            http::HeaderName::from_bytes(name.as_bytes()),
            http::HeaderValue::from_bytes(value),
        ) else {
            continue;
        };
        headers.append(name, value);
    }
    let _ = read_binary_headers(&headers, body.clone());
    let Ok(event) = read_event::<AnyEvent>(&headers, &body) else {
        return;
    };
    let mut written = http::HeaderMap::new();
    let body = write_event(&event, ContentMode::Binary, &mut written).expect("a read event writes");
    let again = read_event::<AnyEvent>(&written, &body)
        .unwrap_or_else(|e| panic!("own binary message does not read: {e}\n{written:?}"));
    assert_eq!(again, event, "binary round trip changed the event");
});
