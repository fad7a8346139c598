//! Memory (issue 40): allocations per typed parse (a counting global allocator), the peak
//! resident set of the 20 KB gateway's server process, and of reading a batch of 100,000
//! events, ours beside `cloudevents-sdk` 0.9 and plain serde.
//!
//! - [`Counting`] is a global allocator that forwards every call to the system allocator and
//!   counts, on the thread that asked ([`count`]), the allocations (`alloc`, `alloc_zeroed`,
//!   `realloc`) and the bytes they ask for (a `realloc` counts its new size). Off, it costs a
//!   thread-local read per allocation, the same for every contestant.
//! - Peaks are the kernel's `VmHWM` (`/proc/self/status`, the resident set's high-water
//!   mark), read by the process that did the work: the bench runs each measurement in a
//!   child process of its own (`e2e --memory-child ...`), so one measurement's peak is not
//!   another's. The protocol with that child is here ([`gateway_child`], [`GatewayChild`]),
//!   so the smoke test runs it over pipes.

// A `GlobalAlloc` can only be implemented with `unsafe`; this one forwards every call to the
// system allocator unchanged and only counts (as `tests/tests/alloc_budget.rs` does).
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::{BufRead, BufReader, Read, Write};

use axum::http::StatusCode;
use cloudevent_bench::{OrderPlaced, PlainPlaced, PlainRootEvent};
use cloudevent_runtime::{AnyEvent, Batch, Event, Profile, Validate, Validator};

use super::gateway::{Gateway, GatewayServer};
use super::http::{Client, LoadGenerator, Prepared};

/// The counting allocator; a binary installs it with `#[global_allocator]`.
pub struct Counting;

thread_local! {
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    static BYTES: Cell<u64> = const { Cell::new(0) };
}

fn record(size: usize) {
    // `try_with`: the allocator may run while the thread's locals are being torn down.
    if ACTIVE.try_with(Cell::get).unwrap_or(false) {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        let _ = BYTES.try_with(|n| n.set(n.get() + size as u64));
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: forwarded unchanged; the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(new_size);
        // SAFETY: as above; `ptr` came from this allocator, which is `System`'s.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Allocations counted on one thread.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Allocs {
    /// `alloc`, `alloc_zeroed` and `realloc` calls.
    pub allocations: u64,
    /// Bytes those calls asked for.
    pub bytes: u64,
}

/// Runs `f` and returns what this thread allocated meanwhile (nothing is counted unless the
/// binary's global allocator is [`Counting`]).
pub fn count<R>(f: impl FnOnce() -> R) -> (R, Allocs) {
    ALLOCATIONS.with(|n| n.set(0));
    BYTES.with(|n| n.set(0));
    ACTIVE.with(|a| a.set(true));
    let result = f();
    ACTIVE.with(|a| a.set(false));
    let allocs = Allocs {
        allocations: ALLOCATIONS.with(Cell::get),
        bytes: BYTES.with(Cell::get),
    };
    (result, allocs)
}

/// The typed parse's contestants, as `rows typed_parse` runs them: ours
/// (`Event::<OrderPlaced>::from_slice`), plain serde (`PlainRootEvent`) and the SDK (its
/// `Event`, then `data` taken and converted to the payload struct).
pub const TYPED_PARSE: [&str; 3] = ["ours", "plain", "sdk"];

/// Allocations of one typed parse of the README-path event by `contestant` (one of
/// [`TYPED_PARSE`]), averaged over `calls` after one uncounted call (a thread's lazy
/// start-up is not a parse's).
///
/// # Panics
/// On an unknown contestant, or when the event does not parse.
pub fn typed_parse_allocs(contestant: &str, calls: u64) -> (f64, f64) {
    let json = cloudevent_bench::root_json();
    let parse = || match contestant {
        "ours" => drop(std::hint::black_box(
            Event::<OrderPlaced>::from_slice(std::hint::black_box(&json)).expect("parses"),
        )),
        "plain" => drop(std::hint::black_box(
            serde_json::from_slice::<PlainRootEvent>(std::hint::black_box(&json)).expect("parses"),
        )),
        "sdk" => drop(std::hint::black_box(
            crate::sdk::sdk_parse_as::<PlainPlaced>(std::hint::black_box(&json)),
        )),
        other => panic!("no typed-parse contestant `{other}`"),
    };
    parse();
    let ((), allocs) = count(|| (0..calls).for_each(|_| parse()));
    let calls = calls.max(1) as f64;
    (
        allocs.allocations as f64 / calls,
        allocs.bytes as f64 / calls,
    )
}

/// A field of `/proc/self/status` in KiB (`VmHWM`, the peak resident set; `VmRSS`, now).
pub fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
}

/// The readers of a large batch: ours validates it (`ours`) or only reads it (`ours_read`),
/// the peers only read it.
pub const BATCH_READERS: [&str; 4] = ["ours", "ours_read", "sdk", "plain"];

/// Reads a JSON batch as `reader` (one of [`BATCH_READERS`]) and returns (events, events
/// with an error). Ours: every event read into an `AnyEvent`, then the `Batch` through
/// `Validator::validate_batch` under INTG-STD-015 (each event on its own, and the batch's
/// size and count, R-10: a batch this large carries that finding, counted apart). Ours read
/// alone: the `Vec<AnyEvent>`, as the SDK's reader is measured. The SDK:
/// `Vec<cloudevents::Event>`, no checks. Plain: `Vec<PlainRootEvent>`, no checks.
///
/// # Panics
/// On an unknown reader, or a batch that does not parse.
pub fn read_batch(reader: &str, bytes: &[u8]) -> (usize, usize) {
    match reader {
        "ours" => {
            let events: Vec<AnyEvent> = serde_json::from_slice(bytes).expect("ours reads");
            let batch = Batch::from(events);
            let report = Validator::new(Profile::IntgStd015).validate_batch(&batch);
            let invalid = report.events().iter().filter(|e| !e.is_valid()).count()
                + report.omitted_invalid().unwrap_or(report.omitted());
            std::hint::black_box(&report);
            (batch.len(), invalid)
        }
        "ours_read" => {
            let events: Vec<AnyEvent> = serde_json::from_slice(bytes).expect("ours reads");
            (std::hint::black_box(events).len(), 0)
        }
        "sdk" => {
            let events: Vec<cloudevents::Event> =
                serde_json::from_slice(bytes).expect("the SDK reads");
            (std::hint::black_box(events).len(), 0)
        }
        "plain" => {
            let events: Vec<PlainRootEvent> = serde_json::from_slice(bytes).expect("serde reads");
            (std::hint::black_box(events).len(), 0)
        }
        other => panic!("no batch reader `{other}`"),
    }
}

/// The child side of the gateway's memory run: starts `gateway` on 127.0.0.1, writes
/// `ready <address> <VmRSS KiB>`, serves until `input` ends (the parent closes it), stops,
/// and writes `peak <VmHWM KiB>`.
///
/// # Panics
/// When the output cannot be written.
pub fn gateway_child(gateway: Gateway, mut input: impl Read, mut output: impl Write) {
    let server = GatewayServer::start(gateway);
    let rss = status_kib("VmRSS").unwrap_or(0);
    writeln!(output, "ready {} {rss}", server.address).expect("write to the parent");
    output.flush().expect("write to the parent");
    let _ = std::io::copy(&mut input, &mut std::io::sink());
    server.stop();
    let peak = status_kib("VmHWM").unwrap_or(0);
    writeln!(output, "peak {peak}").expect("write to the parent");
    output.flush().expect("write to the parent");
}

/// What the parent learns from a gateway child.
#[derive(Debug, Clone, Copy)]
pub struct GatewayPeak {
    /// Resident set once the server listens, before any request (KiB).
    pub idle_kib: u64,
    /// Peak resident set of the whole run (KiB).
    pub peak_kib: u64,
    /// Requests answered 202 after the warm-up.
    pub requests: usize,
}

/// The parent side: reads the child's `ready` line, sends `warmup` then `requests` copies of
/// `request` over `concurrency` connections that `generator` speaks on, closes the child's
/// input and reads its peak.
///
/// # Panics
/// When the child does not follow the protocol, or an answer is not 202.
pub async fn drive_gateway_child(
    child_input: impl Write,
    child_output: impl Read,
    request: &Prepared,
    (warmup, requests, concurrency): (usize, usize, usize),
    generator: LoadGenerator,
) -> GatewayPeak {
    let mut lines = BufReader::new(child_output).lines();
    let mut next_line = || {
        lines
            .next()
            .expect("the child writes a line")
            .expect("read the child's line")
    };
    let ready = next_line();
    let mut fields = ready.split_whitespace();
    let (Some("ready"), Some(address), Some(idle)) = (fields.next(), fields.next(), fields.next())
    else {
        panic!("expected `ready <address> <rss>` from the child, got `{ready}`");
    };
    let address = address.parse().expect("the child's address");
    let idle_kib = idle.parse().expect("the child's resident set");
    let mut client = Client::connect(address, concurrency, generator).await;
    if warmup > 0 {
        client.run(request, warmup, StatusCode::ACCEPTED).await;
    }
    let run = client.run(request, requests, StatusCode::ACCEPTED).await;
    client.close().await;
    drop(child_input);
    let peak = next_line();
    let peak_kib = peak
        .strip_prefix("peak ")
        .and_then(|kib| kib.trim().parse().ok())
        .unwrap_or_else(|| panic!("expected `peak <kib>` from the child, got `{peak}`"));
    GatewayPeak {
        idle_kib,
        peak_kib,
        requests: run.count,
    }
}
