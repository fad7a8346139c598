//! Hostile raw HTTP/1.1 messages (issue 6 §5), read the way `cloudevent validate --format
//! http` reads them: the CLI's message reader, then the runtime's HTTP binding. Every answer
//! is an error naming what was wrong, never a panic or a stack overflow. The other hostile
//! inputs are in `tests/tests/hostile_input.rs`; the reader's own limits are unit tests in
//! `src/http_message/tests.rs`.

use cloudevent_cli::http_message::parse_http_message;
use cloudevent_runtime::binding::http as binding;
use cloudevent_runtime::binding::{BindingError, percent};
use cloudevent_runtime::{AnyEvent, CloudEvent, Event};
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com/checkout"
)]
struct OrderCreated {
    order_id: String,
    /// Anything: the nesting test puts deep JSON here.
    #[serde(default)]
    note: serde_json::Value,
}

/// Runs `f` on a thread with a small stack (256 KiB): a parser that recursed once per nesting
/// level would overflow it long before 10,000 levels.
fn on_small_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .expect("no stack overflow, no panic")
}

fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

#[test]
fn deep_nesting_in_an_http_binary_body_is_refused_for_a_typed_event() {
    let message = format!(
        "POST /events HTTP/1.1\r\nce-specversion: 1.0\r\nce-id: 1\r\n\
         ce-source: https://orders.example.com/checkout\r\nce-type: com.example.order.created\r\n\
         content-type: application/json\r\n\r\n{}",
        nested(10_000)
    );
    let (any, typed) = on_small_stack(move || {
        let request = parse_http_message(message.as_bytes()).unwrap();
        let any = binding::from_request::<AnyEvent, _>(&request).map(drop);
        let typed = binding::from_request::<Event<OrderCreated>, _>(&request)
            .map(drop)
            .map_err(|e| e.to_string());
        (any.is_ok(), typed)
    });
    assert!(any, "AnyEvent keeps binary-mode JSON data raw");
    assert!(typed.is_err());
}

#[test]
fn invalid_utf8_in_http_headers_is_an_error_naming_the_header() {
    let message = |header: &[u8]| {
        let mut bytes = b"POST /events HTTP/1.1\r\nce-specversion: 1.0\r\nce-id: 1\r\n\
            ce-source: https://orders.example.com/checkout\r\n\
            ce-type: com.example.order.created\r\n"
            .to_vec();
        bytes.extend_from_slice(header);
        bytes.extend_from_slice(b"\r\ncontent-type: application/json\r\n\r\n{}");
        bytes
    };
    // A raw byte outside visible ASCII: the binding percent-encodes, so this is refused.
    let request = parse_http_message(&message(b"ce-subject: caf\xC3")).unwrap();
    let error = binding::from_request::<AnyEvent, _>(&request).unwrap_err();
    assert!(
        matches!(&error, BindingError::HeaderNotText { header } if header == "ce-subject"),
        "{error}"
    );

    // Percent-escapes that decode to invalid UTF-8.
    let request = parse_http_message(&message(b"ce-subject: caf%C3")).unwrap();
    let error = binding::from_request::<AnyEvent, _>(&request).unwrap_err();
    assert!(error.to_string().contains("ce-subject"), "{error}");
    assert!(error.to_string().contains("not valid UTF-8"), "{error}");
    assert!(matches!(
        percent::decode("%C0%A0"),
        Err(percent::PercentDecodeError::InvalidUtf8 { .. })
    ));
}
