//! Issue 38: what hostile CESQL expressions cost, in bytes allocated at the peak and in time,
//! under a counting allocator. Each bound is stated by `cesql::Limits`; these hold the parser
//! and the evaluator to it. Prints the figures (`--nocapture`).

// A `GlobalAlloc` can only be implemented with `unsafe`; this wrapper forwards every call to
// the system allocator unchanged and only counts.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use cloudevent_rules::Envelope;
use cloudevent_rules::cesql::{ErrorKind, Expression, Functions, Limits, Value};

/// The system allocator, counting the bytes live and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            let live = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed)
                + (new_size - layout.size());
            PEAK.fetch_max(live, Ordering::Relaxed);
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// One measurement at a time: the counters are the process's.
static SERIAL: Mutex<()> = Mutex::new(());

/// What `f` allocates at its peak above what was live before it, and how long it takes.
fn measure<T>(f: impl FnOnce() -> T) -> (T, usize, Duration) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let started = Instant::now();
    let out = f();
    let took = started.elapsed();
    (out, PEAK.load(Ordering::Relaxed) - before, took)
}

const MIB: usize = 1024 * 1024;

#[test]
fn ten_megabytes_of_parentheses_fail_fast_at_the_depth_limit() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let parens = "(".repeat(10_000_000);
    let wide = Limits {
        max_expression_bytes: 16 * MIB,
        ..Limits::DEFAULT
    };
    let (error, peak, took) =
        measure(|| Expression::parse_with_limits(&parens, &Functions::new(), wide).unwrap_err());
    println!("10 MB of `(`, limit raised: {peak} bytes at the peak, {took:?}: {error}");
    assert!(error.message.contains("nests deeper than 64"), "{error}");
    // A token list took 403 MB here.
    assert!(peak < MIB, "{peak} bytes");
    let (error, peak, took) = measure(|| Expression::parse(&parens).unwrap_err());
    println!("10 MB of `(`, default limits: {peak} bytes at the peak, {took:?}: {error}");
    assert!(error.message.contains("longer than the limit"), "{error}");
    assert!(peak < MIB, "{peak} bytes");
}

#[test]
fn concat_of_a_large_subject_is_refused_before_it_is_made() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let subject = "s".repeat(255 * 1024);
    let event = Envelope {
        subject: Some(&subject),
        ..Envelope::default()
    };
    let source = format!("CONCAT({})", vec!["subject"; 4000].join(","));
    let expression = Expression::parse(&source).unwrap();
    let (result, peak, took) = measure(|| {
        let r = expression.evaluate(&event);
        (r.value.into_owned(), r.errors)
    });
    println!("CONCAT(subject x 4,000) over 255 KB: {peak} bytes at the peak, {took:?}");
    assert_eq!(result.0, Value::from(""));
    assert_eq!(result.1[0].kind, ErrorKind::FunctionEvaluation);
    // It asked for 980 MB.
    assert!(peak < MIB, "{peak} bytes");

    // Strings within the limit each, too many together: the budget bounds what is held.
    let source = format!("CONCAT({})", vec!["LOWER(subject)"; 1000].join(","));
    let expression = Expression::parse(&source).unwrap();
    let (result, peak, took) = measure(|| {
        let r = expression.evaluate(&event);
        (r.value.into_owned(), r.errors)
    });
    println!("CONCAT(LOWER(subject) x 1,000) over 255 KB: {peak} bytes at the peak, {took:?}");
    assert_eq!(result.1.last().map(|e| e.kind), Some(ErrorKind::Generic));
    assert!(
        peak <= Limits::DEFAULT.max_evaluation_cost + MIB,
        "{peak} bytes"
    );
}

#[test]
fn the_costliest_expressions_within_the_limits_finish_quickly() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let subject = "a".repeat(255 * 1024);
    let event = Envelope {
        subject: Some(&subject),
        ..Envelope::default()
    };
    // Patterns as long as the limit allows, of the shapes that cost a matcher most, as
    // many as the expression's limit holds.
    let run = "a_".repeat(509);
    let pattern = format!("subject LIKE '%{run}b%'");
    let ors = vec![pattern.as_str(); 60].join(" OR ");
    for (name, source) in [
        ("one 1 KiB LIKE pattern", pattern.clone()),
        ("60 of them (62 KB)", ors),
        (
            "2,800 LOWER(subject) = ''",
            vec!["LOWER(subject) = ''"; 2800].join(" OR "),
        ),
    ] {
        let expression = Expression::parse(&source).unwrap();
        let (matched, peak, took) = measure(|| expression.matches(&event));
        println!("{name} over 255 KB: {peak} bytes at the peak, {took:?}");
        assert!(!matched);
        // A debug build; a gateway's request timeout is 30 s. The LIKE took 78 s there.
        assert!(took < Duration::from_secs(5), "{name}: {took:?}");
        assert!(
            peak <= Limits::DEFAULT.max_evaluation_cost + MIB,
            "{name}: {peak} bytes"
        );
    }
}
