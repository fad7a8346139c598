//! Issue 27 §1: a report is bounded by its input. A batch of just under 1 MiB of `{}`
//! (349,525 events) once made the `Checked<Batch>` gateway allocate about 1 GB and answer a
//! 347 MB 400; one event repeating an extension 25,000 times answered 6.7 MB.
//!
//! The bound these tests hold, at the gateway: the 400 body is at most 64 KiB whatever the
//! batch holds (1,414 bytes here), and the bytes allocated at any one time while the request
//! is read and answered (a counting global allocator) stay within twice the body sent plus
//! 256 KiB (the body's own copy: about 1 MiB). Before: a 347 MB body and 966 MB at once. The
//! library's validator (the CLI's door) lists findings up to `MAX_REPORTED_FINDINGS`, counts
//! the rest, and allocates less than the input at once (60 KB for the 1 MiB batch).
#![cfg(feature = "axum")]
// A counting global allocator is the one way to measure peak bytes in-process.
#![allow(unsafe_code)]

use cloudevent_runtime::Validate;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::extract::{FromRequest, Request};
use axum::response::IntoResponse;
use cloudevent_runtime::binding::axum::Checked;
use cloudevent_runtime::{AnyEvent, Batch, Json, Policy, Profile, Validator, limits};
use http::StatusCode;

/// Counts the bytes allocated now and the most allocated at once since the last reset.
struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; only counters change.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = NOW.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc` is the system allocator's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` was allocated by `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            let now = NOW.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size
                - layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        } else {
            NOW.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        // SAFETY: as for `dealloc`, and `new_size` is the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The measurements share the counters, and so does every allocation of a test beside one:
/// each test holds this from its first line to its last, its inputs built and its drops made
/// inside it (a 1 MiB batch built by one test while another measured counted in the other's
/// peak).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

const BATCH: &str = "application/cloudevents-batch+json; charset=utf-8";
const STRUCTURED: &str = "application/cloudevents+json; charset=utf-8";

/// The largest batch of `{}` within 1 MiB: `[` + `{},` n times without the last comma + `]`.
fn empty_events_batch() -> Vec<u8> {
    let n = (limits::MAX_BATCH_BYTES - 1) / 3;
    let mut body = Vec::with_capacity(limits::MAX_BATCH_BYTES);
    body.push(b'[');
    for i in 0..n {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(b"{}");
    }
    body.push(b']');
    assert!(body.len() <= limits::MAX_BATCH_BYTES);
    body
}

/// Sends `body` through `Checked<E>` under `policy`; the status, the answer's length and
/// the most bytes allocated at once meanwhile (beyond what was allocated before).
async fn measure<E>(
    content_type: &str,
    body: Vec<u8>,
    policy: &Policy,
) -> (StatusCode, usize, usize)
where
    Checked<E>: FromRequest<Policy>,
    <Checked<E> as FromRequest<Policy>>::Rejection: IntoResponse,
{
    let request = Request::builder()
        .method("POST")
        .header("content-type", content_type)
        .body(axum::body::Body::from(body))
        .unwrap();
    let before = NOW.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let response = match Checked::<E>::from_request(request, policy).await {
        Ok(_) => StatusCode::OK.into_response(),
        Err(rejection) => rejection.into_response(),
    };
    let status = response.status();
    let answer = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    (status, answer.len(), peak)
}

/// Runs `future` to its end on a runtime of this thread (the caller holds [`ONE_AT_A_TIME`]).
fn measured<T>(future: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}

#[test]
fn a_1_mib_batch_of_empty_events_gets_a_small_400_in_little_memory() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let body = empty_events_batch();
    let sent = body.len();
    let started = std::time::Instant::now();
    let (status, answer, peak) = measured(measure::<Batch>(
        BATCH,
        body,
        &Policy::new(Profile::IntgStd015),
    ));
    eprintln!(
        "1 MiB batch of {{}}: {sent} bytes sent, {status}, {answer} bytes answered, {peak} bytes peak, {:?}",
        started.elapsed()
    );
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(answer <= 64 * 1024, "the 400 body is {answer} bytes");
    assert!(
        peak <= 2 * sent + 256 * 1024,
        "{peak} bytes allocated at once for {sent} bytes sent"
    );
}

#[test]
fn an_extension_repeated_25000_times_is_one_finding_with_its_count() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut event = String::from(
        r#"{"specversion":"1.0","id":"1","source":"https://orders.example.com","type":"com.example.order.created""#,
    );
    for _ in 0..25_000 {
        event.push_str(r#","a":1"#);
    }
    event.push('}');
    let sent = event.len();
    assert!(sent <= limits::MAX_EVENT_BYTES);
    let (status, answer, peak) = measured(measure::<AnyEvent>(
        STRUCTURED,
        event.clone().into_bytes(),
        &Policy::new(Profile::CloudEvents),
    ));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(answer <= 4 * 1024, "the 400 body is {answer} bytes");
    assert!(
        peak <= 8 * sent,
        "{peak} bytes allocated at once for {sent} bytes sent"
    );

    let report = Validator::new(Profile::CloudEvents).validate_bytes::<Json>(event.as_bytes());
    let repeated: Vec<_> = report
        .findings()
        .iter()
        .filter(|f| f.attribute == "a")
        .collect();
    assert_eq!(repeated.len(), 1, "{report}");
    assert!(
        repeated[0].to_string().contains("appears 25000 times"),
        "{}",
        repeated[0]
    );
}

#[test]
fn the_validator_lists_a_bounded_prefix_of_a_long_batch_and_counts_the_rest() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let body = empty_events_batch();
    let events = (body.len() - 1) / 3;
    let before = NOW.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let started = std::time::Instant::now();
    let report = Validator::new(Profile::IntgStd015).validate_batch_bytes::<Json>(&body);
    let json = serde_json::to_vec(&report).unwrap();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    eprintln!(
        "validator, 1 MiB batch of {{}}: {} bytes of report, {peak} bytes peak, {:?}",
        json.len(),
        started.elapsed()
    );
    assert!(!report.is_valid());
    assert_eq!(report.events().len() + report.omitted(), events);
    assert_eq!(report.omitted_invalid(), Some(report.omitted()));
    let listed: usize = report.events().iter().map(|e| e.findings().len()).sum();
    assert!(
        listed < 2 * limits::MAX_REPORTED_FINDINGS,
        "{listed} findings listed"
    );
    assert!(
        json.len() <= 128 * 1024,
        "the report is {} bytes",
        json.len()
    );
    assert!(peak <= body.len(), "{peak} bytes allocated at once");
}

#[test]
fn one_event_lists_at_most_the_findings_bound_and_counts_the_rest() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // 10,000 extension names in capitals, each a finding of its own.
    let members: Vec<String> = (0..10_000).map(|n| format!(r#""X{n}":1"#)).collect();
    let event = format!("{{{}}}", members.join(","));
    let report = Validator::new(Profile::CloudEvents).validate_bytes::<Json>(event.as_bytes());
    assert_eq!(report.findings().len(), limits::MAX_REPORTED_FINDINGS);
    assert!(
        report.omitted_findings() > 9_000,
        "{}",
        report.omitted_findings()
    );
    assert!(!report.is_valid());
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["omitted_findings"], report.omitted_findings());
}
