//! The receipt logging of the extractors (INTG-STD-015 R-15), with feature `tracing`.

use super::*;
use crate::patterns::receipt::capture::{captured, field};

const EVENT: &str = r#"{"specversion":"1.0","id":"r-1","source":"https://orders.example.com","type":"com.example.order.created","time":"2026-03-28T14:22:31Z"}"#;

fn post(content_type: &str, body: String) -> Request {
    http::Request::builder()
        .method("POST")
        .header(CONTENT_TYPE, content_type)
        .body(Body::from(body))
        .unwrap()
}

fn block_on<F: Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}

#[test]
fn the_extractors_log_the_receipt_of_every_event_r15() {
    let request = post("application/cloudevents+json", EVENT.to_owned());
    let logged = captured(|| {
        block_on(extract_event::<AnyEvent>(
            request,
            &AnyEvent::DEFAULT_POLICY,
        ))
        .unwrap();
    });
    assert_eq!(logged.len(), 1, "{logged:?}");
    assert_eq!(logged[0].target, crate::patterns::receipt::TARGET);
    assert_eq!(field(&logged[0], "id"), Some("r-1"));
    assert_eq!(field(&logged[0], "time"), Some("2026-03-28T14:22:31Z"));

    let batch = format!("[{EVENT},{}]", EVENT.replace("r-1", "r-2"));
    let request = post("application/cloudevents-batch+json", batch);
    let logged = captured(|| {
        block_on(extract_batch::<AnyEvent>(
            request,
            &AnyEvent::DEFAULT_POLICY,
        ))
        .unwrap();
    });
    let ids: Vec<_> = logged.iter().map(|l| field(l, "id")).collect();
    assert_eq!(ids, [Some("r-1"), Some("r-2")]);
}

/// A gateway's refusal is no receipt: `Checked` logs an event only once its policy has
/// accepted it (INTG-STD-015 R-15), and then exactly once.
#[test]
fn checked_logs_the_receipt_only_after_the_policy_accepts() {
    use crate::Profile;
    let strict = Policy::new(Profile::IntgStd015);
    // Valid under the CloudEvents MUSTs, refused by INTG-STD-015 (R-5: no localhost).
    let refused = EVENT.replace(
        "https://orders.example.com",
        "https://localhost:8080/orders",
    );
    let logged = captured(|| {
        let rejection = block_on(Checked::<AnyEvent>::from_request(
            post("application/cloudevents+json", refused.clone()),
            &strict,
        ))
        .unwrap_err();
        assert_eq!(rejection.status(), StatusCode::BAD_REQUEST);
    });
    assert!(logged.is_empty(), "a refused event was logged: {logged:?}");

    let batch = format!("[{EVENT},{refused}]");
    let logged = captured(|| {
        block_on(Checked::<Batch>::from_request(
            post("application/cloudevents-batch+json", batch),
            &strict,
        ))
        .unwrap_err();
    });
    assert!(logged.is_empty(), "a refused batch was logged: {logged:?}");

    let lenient = AnyEvent::DEFAULT_POLICY;
    let logged = captured(|| {
        block_on(Checked::<AnyEvent>::from_request(
            post("application/cloudevents+json", refused),
            &lenient,
        ))
        .unwrap();
    });
    assert_eq!(logged.len(), 1, "{logged:?}");
    assert_eq!(field(&logged[0], "id"), Some("r-1"));
}

#[test]
fn a_rejected_event_logs_no_receipt() {
    let request = post("application/cloudevents+json", "{}".to_owned());
    let logged = captured(|| {
        block_on(extract_event::<AnyEvent>(
            request,
            &AnyEvent::DEFAULT_POLICY,
        ))
        .unwrap_err();
    });
    assert!(logged.is_empty(), "{logged:?}");
}
