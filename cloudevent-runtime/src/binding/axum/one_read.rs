//! One read a request: the gate's report and its event come from one call of the
//! validator's read, on the accepting and on the refusing path alike.

use super::*;
use crate::validate::KEPT_READS;

const EVENT: &str = r#"{"specversion":"1.0","id":"r-1","source":"https://orders.example.com","type":"com.example.order.created","time":"2026-03-28T14:22:31Z"}"#;

fn post(content_type: &str, body: String) -> Request {
    http::Request::builder()
        .method("POST")
        .header(CONTENT_TYPE, content_type)
        .body(Body::from(body))
        .unwrap()
}

/// The reads the validator made on this thread while `f` ran.
fn reads<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = KEPT_READS.with(std::cell::Cell::get);
    let out = f();
    (KEPT_READS.with(std::cell::Cell::get) - before, out)
}

fn block_on<F: Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}

#[test]
fn every_request_is_read_once_accepted_or_refused() {
    let strict = Policy::new(crate::Profile::IntgStd015);
    let localhost = EVENT.replace("https://orders.example.com", "https://localhost/orders");
    let binary = || {
        http::Request::builder()
            .method("POST")
            .header("ce-specversion", "1.0")
            .header("ce-id", "b-1")
            .header("ce-source", "https://orders.example.com")
            .header("ce-type", "com.example.order.created")
            .header(CONTENT_TYPE, "application/json")
            .body(Body::from(r#"{"n":1}"#))
            .unwrap()
    };
    for (request, policy, accepted) in [
        (
            post("application/cloudevents+json", EVENT.to_owned()),
            &strict,
            true,
        ),
        (
            post("application/cloudevents+json", localhost.clone()),
            &strict,
            false,
        ),
        (
            post("application/cloudevents+json", "{}".to_owned()),
            &strict,
            false,
        ),
        (
            post("application/cloudevents+json", "[".to_owned()),
            &strict,
            false,
        ),
        (binary(), &strict, true),
    ] {
        let (count, verdict) =
            reads(|| block_on(Checked::<AnyEvent>::from_request(request, policy)));
        assert_eq!(count, 1, "one read, accepted: {accepted}");
        assert_eq!(verdict.is_ok(), accepted, "{verdict:?}");
        if let Err(rejection) = verdict {
            assert_eq!(rejection.status(), StatusCode::BAD_REQUEST);
            assert!(rejection.findings().iter().any(Violation::is_error));
        }
    }
    // A batch: each event read once, nothing read again to report.
    let batch = format!("[{EVENT},{localhost}]");
    let (count, verdict) = reads(|| {
        block_on(Checked::<Batch>::from_request(
            post("application/cloudevents-batch+json", batch),
            &strict,
        ))
    });
    assert_eq!(count, 2);
    let rejection = verdict.unwrap_err();
    assert_eq!(rejection.findings()[0].attribute, "source");
    // A refusal of the binding (415) reads no event at all.
    let (count, verdict) = reads(|| {
        block_on(Checked::<AnyEvent>::from_request(
            post("text/plain", "hi".to_owned()),
            &strict,
        ))
    });
    assert_eq!(count, 0);
    assert_eq!(
        verdict.unwrap_err().status(),
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
}

/// The event accepted is the one the format's reader reads: a Protobuf `proto_data`
/// keeps its type URL through the validator's read.
#[cfg(feature = "protobuf")]
#[test]
fn a_protobuf_event_is_accepted_as_the_reader_reads_it() {
    let mut event = AnyEvent::new(
        "p-1",
        "https://orders.example.com",
        "com.example.order.created",
    );
    event.set_protobuf_data("type.googleapis.com/example.Order", vec![8, 1]);
    let body = event.encode::<crate::Protobuf>().unwrap();
    let request = http::Request::builder()
        .method("POST")
        .header(CONTENT_TYPE, "application/cloudevents+protobuf")
        .body(Body::from(body.clone()))
        .unwrap();
    let Checked(read) = block_on(Checked::<AnyEvent>::from_request(
        request,
        &AnyEvent::DEFAULT_POLICY,
    ))
    .unwrap();
    assert_eq!(read, AnyEvent::decode::<crate::Protobuf>(&body).unwrap());
    assert_eq!(
        read.protobuf_type_url(),
        Some("type.googleapis.com/example.Order")
    );
}
