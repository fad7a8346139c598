//! End-to-end throughput on loopback (issue 13): an axum service on our extractors against the
//! same service on `cloudevents-sdk` 0.9's axum binding, and JetStream publish / consume
//! through our NATS binding against plain async-nats; the 20 KB gateway row (issue 25):
//! events a second per core of the documented INTG-STD-015 gateway, beside the SDK's binding;
//! and issue 40's rows: the 1 KiB gateway with every check on (`gateway_1kib`: the profile,
//! the registry's data check, a `cesql!` filter) beside the SDK's binding, and memory
//! (`memory_*`: allocations per typed parse, the peak resident set of the 20 KB gateway's
//! server and of reading a batch of 100,000 events, each peak in a child process of its own).
//!
//! ```sh
//! cargo bench -p cloudevent-bench --bench e2e              # every case
//! cargo bench -p cloudevent-bench --bench e2e -- http      # cases whose name holds `http`
//! cargo xtask bench-e2e                                    # the same, then the table
//! ```
//!
//! A plain `main`, not criterion: these are throughput runs of a fixed size. Each case runs
//! [`RUNS`] times, the contestants interleaved (and their order rotated) so a change in the
//! machine's load hits all of them alike; the run with the median throughput is reported and
//! written as JSON to `<target dir>/e2e/<case>.json`, with each round's ratio of ours to the
//! baseline and their median, the row's figure (a round's runs are made back to back, in the
//! same phase of the machine).
//!
//! Server and load generator share one tokio runtime of two worker threads (the machine has
//! two cores), so neither gets a core to itself and both contestants get the same scheduler.
//! The load generator writes each request's bytes as built once and reads the answers with
//! `httparse` (`E2E_CLIENT=hyper`: hyper's client connection, the generator before
//! 2026-11-30, which took more of the cores the server needs).
//! Sizes can be changed for a quick look with `E2E_REQUESTS`, `E2E_WARMUP`, `E2E_CONCURRENCY`,
//! `E2E_EVENTS`, `E2E_RUNS` and `E2E_BATCH_EVENTS` (the memory batch's events).
//!
//! The binary's global allocator is `loopback::memory::Counting`: it counts only inside the
//! typed-parse allocation case and otherwise costs every contestant the same thread-local
//! read per allocation.

use std::path::PathBuf;
use std::time::Duration;

use axum::http::StatusCode;

use cloudevent_runtime::binding::ContentMode;
use serde_json::{Value, json};

#[path = "loopback/mod.rs"]
mod loopback;
#[path = "sdk/mod.rs"]
#[allow(
    dead_code,
    reason = "the bench's SDK helpers; the memory case uses one"
)]
mod sdk;

#[global_allocator]
static ALLOCATOR: loopback::memory::Counting = loopback::memory::Counting;

use loopback::gateway::{Gateway, GatewayServer};
use loopback::http::{self, Client, LoadGenerator, Prepared, Service};
use loopback::memory;
use loopback::nats::{self, Contestant};
use loopback::{Run, median};

/// Timed runs of each case (the median is reported).
const RUNS: usize = 5;
/// Requests timed per HTTP run (about a second at this machine's rates: 20,000 took 0.2 s,
/// shorter than the machine's slow phases, and one run's rate moved by 30 %).
const REQUESTS: usize = 100_000;
/// Requests sent before the clock starts, on the same connections.
const WARMUP: usize = 2_000;
/// Keep-alive connections, each with one request in flight.
const CONCURRENCY: usize = 32;
/// Events published and consumed per NATS run (20,000 were consumed in 0.15 s).
const EVENTS: usize = 100_000;
/// Worker threads of the one runtime serving and loading.
const WORKER_THREADS: usize = 2;
/// Events in the memory case's batch (issue 40: a 100k-event batch).
const BATCH_EVENTS: usize = 100_000;
/// Typed parses counted per contestant by the allocation case.
const ALLOC_CALLS: u64 = 1_000;

fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&v| v > 0)
        .unwrap_or(default)
}

struct Settings {
    runs: usize,
    requests: usize,
    warmup: usize,
    concurrency: usize,
    events: usize,
    batch_events: usize,
    generator: LoadGenerator,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(at) = args.iter().position(|a| a == "--memory-child") {
        memory_child(&args[at + 1..]);
        return;
    }
    let filters: Vec<String> = args.into_iter().filter(|a| !a.starts_with("--")).collect();
    let selected = |case: &str| filters.is_empty() || filters.iter().any(|f| case.contains(f));
    let settings = Settings {
        runs: setting("E2E_RUNS", RUNS),
        requests: setting("E2E_REQUESTS", REQUESTS),
        warmup: setting("E2E_WARMUP", WARMUP),
        concurrency: setting("E2E_CONCURRENCY", CONCURRENCY),
        events: setting("E2E_EVENTS", EVENTS),
        batch_events: setting("E2E_BATCH_EVENTS", BATCH_EVENTS),
        generator: LoadGenerator::from_env(),
    };
    let out = target_dir().join("e2e");
    std::fs::create_dir_all(&out).expect("create the e2e output directory");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(WORKER_THREADS)
        .enable_all()
        .build()
        .expect("a tokio runtime");

    for mode in [ContentMode::Structured, ContentMode::Binary] {
        let case = format!("http_{}", http::mode_name(mode));
        if selected(&case) {
            let report = runtime.block_on(http_case(&case, mode, &settings));
            write(&out, &case, &report);
        }
    }
    for case in [GatewayCase::twenty_kb(), GatewayCase::one_kib()] {
        if selected(case.name) {
            let report = runtime.block_on(gateway_case(&case, &settings));
            write(&out, case.name, &report);
        }
    }
    if selected("memory_allocs_typed_parse") {
        write(&out, "memory_allocs_typed_parse", &allocs_case());
    }
    if selected("memory_gateway_20kb") {
        let report = runtime.block_on(memory_gateway_case(&settings));
        write(&out, "memory_gateway_20kb", &report);
    }
    if selected("memory_batch_100k") {
        write(
            &out,
            "memory_batch_100k",
            &memory_batch_case(&out, &settings),
        );
    }
    if selected("nats_publish") || selected("nats_consume") {
        match nats::server_binary() {
            Some(binary) => {
                let (publish, consume) = runtime.block_on(nats_cases(&binary, &settings));
                write(&out, "nats_publish", &publish);
                write(&out, "nats_consume", &consume);
            }
            None => {
                eprintln!(
                    "e2e: nats-server not found (PATH, /usr/sbin, /usr/bin, /usr/local/bin or \
                     NATS_SERVER_BIN): the NATS cases are skipped. Install it with \
                     `apt-get install -y nats-server` (`cargo xtask test` does this)."
                );
                for case in ["nats_publish", "nats_consume"] {
                    let _ = std::fs::remove_file(out.join(format!("{case}.json")));
                }
            }
        }
    }
}

/// Where cargo puts build output: `CARGO_TARGET_DIR`, else three levels above this binary
/// (`<target>/release/deps/e2e-<hash>`).
fn target_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(dir);
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.parent()?.to_path_buf()))
        .unwrap_or_else(|| PathBuf::from("target"))
}

fn write(out: &std::path::Path, case: &str, report: &Value) {
    let path = out.join(format!("{case}.json"));
    let text = serde_json::to_string_pretty(report).expect("the report serializes");
    std::fs::write(&path, text + "\n").expect("write the report");
    println!("e2e: wrote {}", path.display());
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// Ours against the baseline round by round: each round runs every contestant back to back
/// (the order rotated), so the ratio of one round's rates compares runs made in the same
/// phase of the machine, where the ratio of two medians can pair a fast phase with a slow
/// one. `rounds` lists each round's ratio; `median` is the row's figure.
fn rounds(ours: &[f64], baseline: &[f64]) -> Value {
    let mut ratios: Vec<f64> = ours.iter().zip(baseline).map(|(a, b)| a / b).collect();
    let listed = ratios.clone();
    ratios.sort_by(f64::total_cmp);
    json!({"ratios": listed, "median": ratios.get(ratios.len() / 2)})
}

/// The median run of a contestant, and every run's throughput.
fn summary(name: &str, runs: &[Run]) -> Value {
    let chosen = median(runs);
    json!({
        "name": name,
        "per_s": chosen.per_second(),
        "p50_us": chosen.quantile_us(0.50),
        "p99_us": chosen.quantile_us(0.99),
        "count": chosen.count,
        "elapsed_s": chosen.elapsed.as_secs_f64(),
        "runs_per_s": runs.iter().map(Run::per_second).collect::<Vec<_>>(),
    })
}

/// Every run's rate, in the order run.
fn rates(runs: &[Run]) -> Vec<f64> {
    runs.iter().map(Run::per_second).collect()
}

fn show(case: &str, name: &str, run: &Run) {
    match (run.quantile_us(0.5), run.quantile_us(0.99)) {
        (Some(p50), Some(p99)) => println!(
            "  {case:<16} {name:<8} {:>10.0}/s  p50 {p50:>8.1} µs  p99 {p99:>8.1} µs",
            run.per_second()
        ),
        _ => println!("  {case:<16} {name:<8} {:>10.0}/s", run.per_second()),
    }
}

async fn http_case(case: &str, mode: ContentMode, settings: &Settings) -> Value {
    let request = Prepared::reference(mode);
    let load_before = load_average();
    println!(
        "e2e: {case}: {} runs x {} requests ({} warm-up), {} connections, load generator: {}",
        settings.runs,
        settings.requests,
        settings.warmup,
        settings.concurrency,
        settings.generator.name()
    );
    let mut services = [Service::Ours, Service::Sdk, Service::Floor];
    let mut runs: [Vec<Run>; 3] = Default::default();
    for _ in 0..settings.runs {
        for &service in &services {
            let run = http::measure(
                service,
                &request,
                settings.warmup,
                settings.requests,
                settings.concurrency,
                settings.generator,
            )
            .await;
            show(case, short(service), &run);
            runs[index(service)].push(run);
        }
        services.rotate_left(1);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // In process, no network: what the extractor and handler alone cost a request (median of
    // five rounds of 20,000), to tell a gap in our code from one in the transport.
    let mut extract = [0.0_f64; 3];
    for service in [Service::Ours, Service::Sdk, Service::Floor] {
        let mut rounds = Vec::new();
        for _ in 0..5 {
            rounds.push(http::extract_ns(service, &request, 20_000).await);
        }
        rounds.sort_by(f64::total_cmp);
        extract[index(service)] = rounds[rounds.len() / 2];
        println!(
            "  {case:<16} {:<8} extractor + handler in process: {:.0} ns",
            short(service),
            extract[index(service)]
        );
    }
    json!({
        "case": case,
        "title": format!("axum service on loopback, {} mode", http::mode_name(mode)),
        "extract_ns": {"ours": extract[0], "baseline": extract[1], "floor": extract[2]},
        "unit": "req/s",
        "ours": summary(Service::Ours.name(), &runs[0]),
        "baseline": summary(Service::Sdk.name(), &runs[1]),
        "floor": summary(Service::Floor.name(), &runs[2]),
        "rounds": rounds(&rates(&runs[0]), &rates(&runs[1])),
        // Issue 25: at least 1.1x the SDK binding's requests a second, p99 no worse; issue
        // 40 raised binary mode's to 1.15x.
        "target": {"min_ratio": min_ratio(mode), "p99_no_worse": true,
                   "text": format!("req/s >= {}x the SDK's, p99 no worse", min_ratio(mode))},
        "settings": {
            "runs": settings.runs, "requests": settings.requests, "warmup": settings.warmup,
            "concurrency": settings.concurrency, "worker_threads": WORKER_THREADS,
            "body_bytes": request_len(mode), "load_generator": settings.generator.name(),
        },
        "load_average": {"before": load_before, "after": load_average()},
    })
}

/// The HTTP rows' target: the SDK's requests a second times this (issue 25: 1.1x; issue 40:
/// 1.15x in binary mode).
fn min_ratio(mode: ContentMode) -> f64 {
    match mode {
        ContentMode::Binary => 1.15,
        ContentMode::Structured | ContentMode::Batch => 1.1,
    }
}

fn short(service: Service) -> &'static str {
    match service {
        Service::Ours => "ours",
        Service::Sdk => "sdk",
        Service::Floor => "floor",
    }
}

fn index(service: Service) -> usize {
    match service {
        Service::Ours => 0,
        Service::Sdk => 1,
        Service::Floor => 2,
    }
}

fn request_len(mode: ContentMode) -> usize {
    let event = cloudevent_bench::ours();
    cloudevent_runtime::binding::http::event_request("http://127.0.0.1/events", &event, mode)
        .map(|r| r.body().len())
        .unwrap_or_default()
}

async fn nats_cases(binary: &std::path::Path, settings: &Settings) -> (Value, Value) {
    let load_before = load_average();
    let server = nats::NatsServer::start(binary);
    let client = server.client().await;
    println!(
        "e2e: nats: {} runs x {} events, {} publishes in flight, server {}",
        settings.runs,
        settings.events,
        nats::WINDOW,
        binary.display()
    );
    // One unmeasured round each, so the store and the connection are warm.
    let mut order = [
        Contestant::Ours,
        Contestant::Plain,
        Contestant::PlainHeaders,
    ];
    for contestant in order {
        nats::measure(&client, contestant, 0, settings.events.min(2_000)).await;
    }
    let (mut publish, mut consume): ([Vec<Run>; 3], [Vec<Run>; 3]) = Default::default();
    for run in 1..=settings.runs {
        for &contestant in &order {
            let (published, consumed) =
                nats::measure(&client, contestant, run, settings.events).await;
            let (tag, i) = match contestant {
                Contestant::Ours => ("ours", 0),
                Contestant::Plain => ("plain", 1),
                Contestant::PlainHeaders => ("headers", 2),
            };
            show("nats_publish", tag, &published);
            show("nats_consume", tag, &consumed);
            publish[i].push(published);
            consume[i].push(consumed);
        }
        order.rotate_left(1);
    }
    drop(client);
    drop(server);
    let median_of_5 = |f: &dyn Fn() -> f64| {
        let mut rounds: Vec<f64> = (0..5).map(|_| f()).collect();
        rounds.sort_by(f64::total_cmp);
        rounds[2]
    };
    let read_ours = median_of_5(&|| nats::read_ns(Contestant::Ours, 20_000));
    let read_plain = median_of_5(&|| nats::read_ns(Contestant::Plain, 20_000));
    let write_ours = median_of_5(&|| nats::write_ns(Contestant::Ours, 20_000));
    let write_plain = median_of_5(&|| nats::write_ns(Contestant::PlainHeaders, 20_000));
    println!(
        "  nats in process, no server: ours read + dedupe {read_ours:.0} ns, plain serde \
         {read_plain:.0} ns; ours Event::new + to_message {write_ours:.0} ns, plain struct + \
         to_vec + headers {write_plain:.0} ns"
    );
    let read = json!({"read_ns": {"ours": read_ours, "baseline": read_plain}});
    let written = json!({"write_ns": {"ours": write_ours, "baseline": write_plain}});
    let settings = json!({
        "runs": settings.runs, "events": settings.events, "window": nats::WINDOW,
        "worker_threads": WORKER_THREADS, "storage": "file",
    });
    let load = json!({"before": load_before, "after": load_average()});
    // Publish (issue 25): at least 0.95x of plain async-nats sending the same two headers
    // (`Content-Type`, `Nats-Msg-Id`), plain without them shown beside. Consume (issue 40):
    // at least 0.90x of plain async-nats.
    let publish_report = json!({
        "case": "nats_publish", "title": "NATS JetStream publish, waiting for acks",
        "unit": "events/s",
        "ours": summary(Contestant::Ours.name(), &publish[0]),
        "baseline": summary(Contestant::PlainHeaders.name(), &publish[2]),
        "plain_without_headers": summary(Contestant::Plain.name(), &publish[1]),
        "rounds": rounds(&rates(&publish[0]), &rates(&publish[2])),
        "target": {"min_ratio": 0.95, "p99_no_worse": false,
                   "text": ">= 0.95x of plain async-nats with the same two headers"},
        "settings": settings, "load_average": load, "in_process": written,
    });
    let consume_report = json!({
        "case": "nats_consume", "title": "NATS JetStream consume (pull, explicit ack)",
        "unit": "events/s",
        "ours": summary(Contestant::Ours.name(), &consume[0]),
        "baseline": summary(Contestant::Plain.name(), &consume[1]),
        "plain_with_headers": summary(Contestant::PlainHeaders.name(), &consume[2]),
        "rounds": rounds(&rates(&consume[0]), &rates(&consume[1])),
        "rounds_with_headers": rounds(&rates(&consume[2]), &rates(&consume[1])),
        "target": {"min_ratio": 0.9, "p99_no_worse": false,
                   "text": ">= 0.90x of plain async-nats"},
        "settings": settings, "load_average": load, "in_process": read,
    });
    (publish_report, consume_report)
}

/// A gateway row: our gateway and the SDK's binding on one event.
struct GatewayCase {
    name: &'static str,
    title: &'static str,
    ours: Gateway,
    json: Vec<u8>,
    /// The share of the HTTP cases' request counts this row sends (a 20 KB event: a fifth).
    divisor: usize,
    min_per_s: f64,
    target: &'static str,
}

impl GatewayCase {
    /// Issue 25: the documented INTG-STD-015 gateway on a 20 KB event; issue 40 raised its
    /// target tenfold.
    fn twenty_kb() -> Self {
        GatewayCase {
            name: "gateway_20kb",
            title: "20 KB events through the axum gateway (INTG-STD-015), events a second per core",
            ours: Gateway::Ours,
            json: cloudevent_bench::gateway_json(),
            divisor: 5,
            min_per_s: 20_000.0,
            target: "issue 40: >= 20,000 events/s per core (Knative eventing publishes about \
                     2,000 at 20 KB)",
        }
    }

    /// Issue 40: every check on (INTG-STD-015, the registry's data check, a `cesql!` filter)
    /// on a 1 KiB event.
    fn one_kib() -> Self {
        GatewayCase {
            name: "gateway_1kib",
            title: "1 KiB events through the axum gateway, every check on (INTG-STD-015, \
                    registry data check, cesql! filter), events a second per core",
            ours: Gateway::AllChecks,
            json: cloudevent_bench::registry_event_json(),
            divisor: 1,
            min_per_s: 50_000.0,
            target: "issue 40: >= 50,000 events/s per core with every check on",
        }
    }
}

/// A gateway row: `case.ours` and [`Gateway::Sdk`], each alone on one server thread, runs
/// interleaved; events a second per core = events / the server thread's CPU time
/// (`loopback/gateway.rs`), and the wall-clock rate beside it.
async fn gateway_case(case: &GatewayCase, settings: &Settings) -> Value {
    let name = case.name;
    let json = &case.json;
    let request = structured_request(json);
    let (requests, warmup) = (
        (settings.requests / case.divisor).max(1),
        (settings.warmup / case.divisor).max(1),
    );
    let load_before = load_average();
    println!(
        "e2e: {name}: {} runs x {requests} events of {} bytes ({warmup} warm-up), {} connections, one server thread",
        settings.runs,
        json.len(),
        settings.concurrency
    );
    let mut order = [case.ours, Gateway::Sdk];
    let mut runs: [Vec<(Run, f64)>; 2] = Default::default();
    for _ in 0..settings.runs {
        for &gateway in &order {
            let server = GatewayServer::start(gateway);
            let mut client =
                Client::connect(server.address, settings.concurrency, settings.generator).await;
            client.run(&request, warmup, StatusCode::ACCEPTED).await;
            let before = server.cpu_ns();
            let run = client.run(&request, requests, StatusCode::ACCEPTED).await;
            let cpu_s = (server.cpu_ns() - before) as f64 / 1e9;
            client.close().await;
            server.stop();
            let per_core = run.count as f64 / cpu_s;
            let tag = gateway.tag();
            show(name, tag, &run);
            println!(
                "  {name:<16} {tag:<8} {per_core:>10.0}/s per core (server thread {cpu_s:.3} s on a CPU)"
            );
            runs[usize::from(gateway == Gateway::Sdk)].push((run, per_core));
        }
        order.rotate_left(1);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // In process, no network: the extractor and handler alone (median of five rounds, CPU
    // time of this thread), to tell our code's share of a server thread's time from the
    // HTTP stack's.
    let body = axum::body::Bytes::from(json.clone());
    let mut extract = [0.0_f64; 2];
    for (i, gateway) in [case.ours, Gateway::Sdk].into_iter().enumerate() {
        let mut rounds = Vec::new();
        for _ in 0..5 {
            rounds.push(loopback::gateway::extract_ns(gateway, &body, requests).await);
        }
        rounds.sort_by(f64::total_cmp);
        extract[i] = rounds[rounds.len() / 2];
        println!(
            "  {name:<16} {:<8} extractor + handler in process: {:.0} ns of CPU time",
            gateway.tag(),
            extract[i]
        );
    }
    let summary = |gateway: Gateway, runs: &[(Run, f64)]| {
        let mut per_core: Vec<f64> = runs.iter().map(|(_, rate)| *rate).collect();
        per_core.sort_by(f64::total_cmp);
        let wall: Vec<Run> = runs.iter().map(|(run, _)| run.clone()).collect();
        let chosen = median(&wall);
        json!({
            "name": gateway.name(),
            "per_s": per_core[per_core.len() / 2],
            "runs_per_core": per_core,
            "wall_per_s": chosen.per_second(),
            "p50_us": chosen.quantile_us(0.50),
            "p99_us": chosen.quantile_us(0.99),
            "count": chosen.count,
        })
    };
    json!({
        "case": name,
        "title": case.title,
        "unit": "events/s/core",
        "extract_ns": {"ours": extract[0], "baseline": extract[1]},
        "ours": summary(case.ours, &runs[0]),
        "baseline": summary(Gateway::Sdk, &runs[1]),
        "rounds": rounds(
            &runs[0].iter().map(|(_, rate)| *rate).collect::<Vec<_>>(),
            &runs[1].iter().map(|(_, rate)| *rate).collect::<Vec<_>>(),
        ),
        "target": {"min_ratio": 0.0, "min_per_s": case.min_per_s, "p99_no_worse": false,
                   "text": case.target},
        "settings": {
            "runs": settings.runs, "requests": requests, "warmup": warmup,
            "concurrency": settings.concurrency, "server_threads": 1,
            "load_generator": settings.generator.name(),
            "body_bytes": json.len(),
        },
        "load_average": {"before": load_before, "after": load_average()},
    })
}

/// A structured-mode request of `json`.
fn structured_request(json: &[u8]) -> Prepared {
    Prepared::new(
        [(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/cloudevents+json"),
        )]
        .into_iter()
        .collect(),
        json.to_vec(),
    )
}

/// Allocations per typed parse of the README-path event, ours, plain serde and the SDK, on
/// this thread (outside the runtime), [`ALLOC_CALLS`] parses each.
fn allocs_case() -> Value {
    let mut report = json!({
        "case": "memory_allocs_typed_parse",
        "title": "allocations per typed parse of the README-path event (counting allocator)",
        "unit": "allocations",
        "settings": {"calls": ALLOC_CALLS, "event_bytes": cloudevent_bench::root_json().len()},
    });
    let load_before = load_average();
    for contestant in memory::TYPED_PARSE {
        let (allocations, bytes) = memory::typed_parse_allocs(contestant, ALLOC_CALLS);
        println!(
            "  memory_allocs    {contestant:<8} {allocations:>6.1} allocations, {bytes:>7.0} bytes per typed parse"
        );
        let key = if contestant == "sdk" {
            "baseline"
        } else {
            contestant
        };
        report[key] = json!({"allocations": allocations, "bytes": bytes});
    }
    report["load_average"] = json!({"before": load_before, "after": load_average()});
    report
}

/// The bench binary itself, for a child measurement.
fn child(args: &[&str]) -> std::process::Command {
    let exe = std::env::current_exe().expect("the bench's own path");
    let mut command = std::process::Command::new(exe);
    command.arg("--memory-child").args(args);
    command
}

/// What a child process does (`e2e --memory-child ...`): one measurement, its peak resident
/// set written to stdout.
fn memory_child(args: &[String]) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args[..] {
        ["gateway", tag] => {
            let gateway = [Gateway::Ours, Gateway::Sdk, Gateway::AllChecks]
                .into_iter()
                .find(|g| format!("{g:?}") == tag)
                .unwrap_or_else(|| panic!("no gateway `{tag}`"));
            memory::gateway_child(gateway, std::io::stdin(), std::io::stdout());
        }
        ["batch", reader, path] => {
            let bytes = std::fs::read(path).expect("the batch file");
            let after_read_kib = memory::status_kib("VmRSS");
            let (events, invalid) = memory::read_batch(reader, &bytes);
            let peak_kib = memory::status_kib("VmHWM");
            drop(bytes);
            println!(
                "{}",
                json!({"events": events, "invalid": invalid, "after_read_kib": after_read_kib,
                       "peak_kib": peak_kib})
            );
        }
        _ => panic!("usage: e2e --memory-child gateway Ours|Sdk|AllChecks | batch READER PATH"),
    }
}

/// The peak resident set of the 20 KB gateway's server process, ours and the SDK's, each in
/// a child process serving the `gateway_20kb` row's requests.
async fn memory_gateway_case(settings: &Settings) -> Value {
    let case = GatewayCase::twenty_kb();
    let request = structured_request(&case.json);
    let (requests, warmup) = (
        (settings.requests / case.divisor).max(1),
        (settings.warmup / case.divisor).max(1),
    );
    let load_before = load_average();
    println!(
        "e2e: memory_gateway_20kb: {requests} events of {} bytes ({warmup} warm-up), {} connections, each server in a child process",
        case.json.len(),
        settings.concurrency
    );
    let mut report = json!({
        "case": "memory_gateway_20kb",
        "title": "peak resident set of the 20 KB gateway's server process (VmHWM)",
        "unit": "KiB",
        "settings": {"requests": requests, "warmup": warmup, "concurrency": settings.concurrency,
                     "body_bytes": case.json.len()},
    });
    for gateway in [case.ours, Gateway::Sdk] {
        let mut process = child(&["gateway", &format!("{gateway:?}")])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("start the gateway's process");
        let input = process.stdin.take().expect("piped");
        let output = process.stdout.take().expect("piped");
        let peak = memory::drive_gateway_child(
            input,
            output,
            &request,
            (warmup, requests, settings.concurrency),
            settings.generator,
        )
        .await;
        let status = process.wait().expect("the gateway's process ends");
        assert!(status.success(), "the gateway's process failed: {status}");
        println!(
            "  memory_gateway   {:<8} peak {:>8} KiB (idle {} KiB), {} events",
            gateway.tag(),
            peak.peak_kib,
            peak.idle_kib,
            peak.requests
        );
        let key = if gateway == Gateway::Sdk {
            "baseline"
        } else {
            "ours"
        };
        report[key] = json!({"name": gateway.name(), "peak_kib": peak.peak_kib,
                             "idle_kib": peak.idle_kib, "requests": peak.requests});
    }
    report["load_average"] = json!({"before": load_before, "after": load_average()});
    report
}

/// The peak resident set of reading a batch of `E2E_BATCH_EVENTS` README-path events from a
/// file (ours: read and validated; the SDK and plain serde: read), each in a child process.
fn memory_batch_case(out: &std::path::Path, settings: &Settings) -> Value {
    let path = out.join(format!("batch-{}.json", settings.batch_events));
    let bytes = cloudevent_bench::root_batch_json(settings.batch_events);
    std::fs::write(&path, &bytes).expect("write the batch file");
    let load_before = load_average();
    println!(
        "e2e: memory_batch_100k: a JSON batch of {} events, {} bytes, each reader in a child process",
        settings.batch_events,
        bytes.len()
    );
    let mut report = json!({
        "case": "memory_batch_100k",
        "title": "peak resident set of reading a JSON batch (ours: and validating it, INTG-STD-015)",
        "unit": "KiB",
        "settings": {"events": settings.batch_events, "input_bytes": bytes.len()},
    });
    drop(bytes);
    for reader in memory::BATCH_READERS {
        let output = child(&["batch", reader, &path.to_string_lossy()])
            .output()
            .expect("run the batch's process");
        assert!(
            output.status.success(),
            "the batch's process failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let mut measured: Value =
            serde_json::from_slice(&output.stdout).expect("the child's JSON line");
        println!(
            "  memory_batch     {reader:<8} peak {:>8} KiB (after reading the file {} KiB), {} events, {} with an error",
            measured["peak_kib"],
            measured["after_read_kib"],
            measured["events"],
            measured["invalid"]
        );
        let (key, name) = match reader {
            "ours" => (
                "ours",
                "ours: Vec<AnyEvent> -> Batch -> Validator::validate_batch (INTG-STD-015)",
            ),
            "ours_read" => (
                "ours_read",
                "ours, read alone: Vec<AnyEvent> (the AnyEvent reader's own checks)",
            ),
            "sdk" => (
                "baseline",
                "cloudevents-sdk 0.9: Vec<cloudevents::Event> (no checks)",
            ),
            _ => ("plain", "plain serde: Vec<PlainRootEvent> (no checks)"),
        };
        measured["name"] = name.into();
        report[key] = measured;
    }
    let _ = std::fs::remove_file(&path);
    report["load_average"] = json!({"before": load_before, "after": load_average()});
    report
}
