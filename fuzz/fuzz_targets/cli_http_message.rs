//! The CLI's raw HTTP/1.1 message reader (`cloudevent validate --format http`, in
//! `cloudevent-cli/src/http_message.rs`, RFC 9112 framing with chunked bodies): never
//! panics, never gives a body longer than its input, and whatever it reads goes through the
//! binding's reader in any mode without panicking.
#![no_main]

use cloudevent_cli::http_message::{looks_like_http_message, parse_http_message};
use cloudevent_runtime::AnyEvent;
use cloudevent_runtime::binding::http::read_message;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = looks_like_http_message(data);
    let Ok(request) = parse_http_message(data) else {
        return;
    };
    assert!(request.body().len() <= data.len());
    let _ = read_message::<AnyEvent>(request.headers(), request.body());
});
