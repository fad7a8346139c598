//! `cargo xtask bench-e2e [filters]`: runs the end-to-end bench (`cargo bench -p
//! cloudevent-bench --bench e2e`; further arguments select cases by name) and prints a table
//! read from the JSON it writes to `<target dir>/e2e/<case>.json`.
//!
//! Each row: our median run against the baseline's (the SDK's axum binding for HTTP, plain
//! async-nats for NATS), the ratio of throughputs, the p50/p99 latencies when measured, and
//! the target met (✓) or missed (✗). Timings are evidence, not a gate: a miss does not fail.
//! Then issue 40's memory table (`memory_*` cases): allocations per typed parse and peak
//! resident sets, ours beside the SDK and plain serde. `--report-only` reprints the tables
//! from the last run.

use std::fs;
use std::path::Path;

use serde_json::Value;

/// The cases in the order the table shows them.
const CASES: [&str; 6] = [
    "http_structured",
    "http_binary",
    "gateway_20kb",
    "gateway_1kib",
    "nats_publish",
    "nats_consume",
];

/// Runs the bench unless `--report-only`, then prints the table.
pub fn run(args: &[String], workspace_root: &Path) -> Result<(), String> {
    let report_only = args.iter().any(|a| a == "--report-only");
    if !report_only {
        install_nats_server();
        let mut bench = crate::cargo();
        bench.args(["bench", "-p", "cloudevent-bench", "--bench", "e2e", "--"]);
        bench.args(args);
        crate::run(bench)?;
    }
    let dir = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| workspace_root.join("target"), std::path::PathBuf::from)
        .join("e2e");
    println!("\n{}", table(&dir)?);
    Ok(())
}

/// The NATS cases need `nats-server`: installed as `cargo xtask test` installs it when
/// neither `NATS_SERVER_BIN` nor `PATH` finds one. When that fails (not root, no apt-get),
/// the bench skips the NATS cases and says so, as before.
fn install_nats_server() {
    let on_path = std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| dir.join("nats-server").is_file())
    });
    if std::env::var_os("NATS_SERVER_BIN").is_some() || on_path {
        return;
    }
    let nats: Vec<(&str, &[&str])> = crate::TEST_PACKAGES
        .iter()
        .filter(|(package, _)| *package == "nats-server")
        .copied()
        .collect();
    if let Err(error) = crate::install_packages(&nats) {
        eprintln!("xtask: {error}; the NATS cases will be skipped");
    }
}

/// The markdown table of every case that has a report under `dir`.
fn table(dir: &Path) -> Result<String, String> {
    let mut out = String::from(
        "| case | ours | SDK / plain | ours / baseline (target) | p50 ours / baseline | p99 ours / baseline |\n\
         |---|---:|---:|---:|---:|---:|\n",
    );
    let mut rows = 0;
    let mut notes = String::new();
    for case in CASES {
        let Some(report) = read_report(dir, case)? else {
            continue;
        };
        out.push_str(&row(&report).ok_or_else(|| {
            format!(
                "{} lacks ours/baseline per_s or target.min_ratio",
                dir.join(format!("{case}.json")).display()
            )
        })?);
        notes.push_str(&variants(&report));
        rows += 1;
    }
    let memory = memory_table(dir)?;
    if rows == 0 && memory.is_empty() {
        return Err(format!(
            "no results under {}; run `cargo xtask bench-e2e` without --report-only",
            dir.display()
        ));
    }
    if rows == 0 {
        return Ok(memory);
    }
    out.push_str(
        "\nrates: the median run of each contestant; ratio: ours / baseline throughput, the \
         median of the rounds' ratios (each round runs the contestants back to back, so a \
         ratio compares runs in the same phase of the machine), the ratio of the median runs \
         beside it; \
         ✗ marks a missed target (HTTP: req/s ≥ 1.1x the SDK's in structured mode and \
         ≥ 1.15x in binary mode, p99 no worse; NATS publish: ≥ 0.95x of plain async-nats with \
         the same two headers; NATS consume: ≥ 0.90x of plain; gateways: events a second per \
         core, ≥ 20,000 at 20 KB, ≥ 50,000 at 1 KiB with every check on).\n",
    );
    if !notes.is_empty() {
        out.push_str(
            "\nA/B variants and in-process costs (not contestants; where a gap comes from):\n",
        );
        out.push_str(&notes);
    }
    if !memory.is_empty() {
        out.push('\n');
        out.push_str(&memory);
    }
    Ok(out)
}

/// The report `<dir>/<case>.json`, or `None` when that case was not run.
fn read_report(dir: &Path, case: &str) -> Result<Option<Value>, String> {
    let path = dir.join(format!("{case}.json"));
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| format!("{} is not the e2e bench's JSON: {e}", path.display()))
}

/// Issue 40's memory rows, ours beside the SDK and plain serde; empty when none was run.
fn memory_table(dir: &Path) -> Result<String, String> {
    let mut rows = String::new();
    if let Some(report) = read_report(dir, "memory_allocs_typed_parse")? {
        let cell = |key: &str| match (
            report[key]["allocations"].as_f64(),
            report[key]["bytes"].as_f64(),
        ) {
            (Some(n), Some(bytes)) => format!("{n:.1} ({bytes:.0} bytes)"),
            _ => "–".to_owned(),
        };
        rows.push_str(&format!(
            "| allocations per typed parse, README event ({} bytes) | {} | {} | {} |\n",
            report["settings"]["event_bytes"],
            cell("ours"),
            cell("baseline"),
            cell("plain"),
        ));
    }
    let mib = |value: &Value| {
        value["peak_kib"]
            .as_f64()
            .map_or_else(|| "–".to_owned(), |kib| format!("{:.1} MiB", kib / 1024.0))
    };
    if let Some(report) = read_report(dir, "memory_gateway_20kb")? {
        rows.push_str(&format!(
            "| peak RSS, 20 KB gateway's server process ({} events) | {} | {} | – |\n",
            report["settings"]["requests"],
            mib(&report["ours"]),
            mib(&report["baseline"]),
        ));
    }
    if let Some(report) = read_report(dir, "memory_batch_100k")? {
        rows.push_str(&format!(
            "| peak RSS, JSON batch of {} events ({:.1} MiB; ours read + validated) | {} | {} | {} |\n",
            report["settings"]["events"],
            report["settings"]["input_bytes"].as_f64().unwrap_or(0.0) / 1_048_576.0,
            match report["ours_read"]["peak_kib"].as_f64() {
                Some(kib) => format!("{} (read alone: {:.1} MiB)", mib(&report["ours"]), kib / 1024.0),
                None => mib(&report["ours"]),
            },
            mib(&report["baseline"]),
            mib(&report["plain"]),
        ));
    }
    if rows.is_empty() {
        return Ok(rows);
    }
    Ok(format!(
        "| memory (issue 40) | ours | SDK | plain serde |\n|---|---:|---:|---:|\n{rows}\n\
         allocations: a counting global allocator, per parse (a realloc counts its new size); \
         peak RSS: the process's VmHWM, each measurement in a process of its own.\n"
    ))
}

/// The A/B variant and the in-process costs a report carries, one line each.
fn variants(report: &Value) -> String {
    let case = report["case"].as_str().unwrap_or("?");
    let unit = report["unit"].as_str().unwrap_or("/s");
    let mut lines = String::new();
    for key in ["floor", "plain_with_headers", "plain_without_headers"] {
        if let (Some(name), Some(rate)) =
            (report[key]["name"].as_str(), report[key]["per_s"].as_f64())
        {
            lines.push_str(&format!("- {case}: {name}: {rate:.0} {unit}\n"));
        }
    }
    if let Some(ratio) = report["rounds_with_headers"]["median"].as_f64() {
        lines.push_str(&format!(
            "- {case}: plain with the headers / plain, the median of the rounds: {ratio:.2}x\n"
        ));
    }
    for key in ["extract_ns", "read_ns", "write_ns"] {
        let costs = if key == "extract_ns" {
            &report[key]
        } else {
            &report["in_process"][key]
        };
        if let (Some(ours), Some(base)) = (costs["ours"].as_f64(), costs["baseline"].as_f64()) {
            lines.push_str(&format!(
                "- {case}: {key} in process: ours {ours:.0} ns, baseline {base:.0} ns\n"
            ));
        }
    }
    lines
}

fn row(report: &Value) -> Option<String> {
    let unit = report["unit"].as_str().unwrap_or("/s");
    let ours = &report["ours"];
    let baseline = &report["baseline"];
    let (ours_rate, base_rate) = (ours["per_s"].as_f64()?, baseline["per_s"].as_f64()?);
    let min_ratio = report["target"]["min_ratio"].as_f64()?;
    // The median of the rounds' ratios (each round runs the contestants back to back) when the
    // report has it; reports written before 2026-11-30 have only the median runs.
    let of_medians = ours_rate / base_rate;
    let ratio = report["rounds"]["median"].as_f64().unwrap_or(of_medians);
    let p99_gate = report["target"]["p99_no_worse"].as_bool().unwrap_or(false);
    let latency = |q: &str| match (ours[q].as_f64(), baseline[q].as_f64()) {
        (Some(a), Some(b)) => Some((a, b)),
        _ => None,
    };
    let p99 = latency("p99_us");
    let mark = |met: bool| if met { "✓" } else { "✗" };
    let latency_cell = |pair: Option<(f64, f64)>, gated: bool| match pair {
        Some((a, b)) if gated => format!("{a:.0} / {b:.0} µs {}", mark(a <= b)),
        Some((a, b)) => format!("{a:.0} / {b:.0} µs"),
        None => "–".to_owned(),
    };
    // A row held to a published figure (the 20 KB gateway: events a second per core) rather
    // than to a ratio.
    let verdict = match report["target"]["min_per_s"].as_f64() {
        Some(floor) => format!(
            "{ratio:.2}x; ≥ {floor:.0} {unit} {}",
            mark(ours_rate >= floor)
        ),
        None => format!(
            "{ratio:.2}x (≥ {min_ratio:.2}) {}",
            mark(ratio >= min_ratio)
        ),
    };
    let verdict = if report["rounds"]["median"].is_f64() {
        format!("{verdict}; medians {of_medians:.2}x")
    } else {
        verdict
    };
    Some(format!(
        "| {} | {:.0} {unit} | {:.0} {unit} | {verdict} | {} | {} |\n",
        report["case"].as_str().unwrap_or("?"),
        ours_rate,
        base_rate,
        latency_cell(latency("p50_us"), false),
        latency_cell(p99, p99_gate),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_marks_throughput_and_p99_targets() {
        let dir = std::env::temp_dir().join(format!("xtask-e2e-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        fs::write(
            dir.join("http_binary.json"),
            r#"{"case":"http_binary","unit":"req/s",
                "ours":{"per_s":9000.0,"p50_us":700.0,"p99_us":2000.0},
                "baseline":{"per_s":10000.0,"p50_us":800.0,"p99_us":1500.0},
                "target":{"min_ratio":1.1,"p99_no_worse":true}}"#,
        )
        .unwrap();
        fs::write(
            dir.join("nats_publish.json"),
            r#"{"case":"nats_publish","unit":"events/s",
                "ours":{"per_s":9600.0,"p50_us":null,"p99_us":null},
                "baseline":{"per_s":10000.0},
                "target":{"min_ratio":0.95,"p99_no_worse":false}}"#,
        )
        .unwrap();
        fs::write(
            dir.join("gateway_20kb.json"),
            r#"{"case":"gateway_20kb","unit":"events/s/core",
                "ours":{"per_s":2500.0,"p50_us":900.0,"p99_us":3000.0},
                "baseline":{"per_s":2000.0,"p50_us":1000.0,"p99_us":3500.0},
                "target":{"min_ratio":0.0,"min_per_s":2000.0,"p99_no_worse":false}}"#,
        )
        .unwrap();
        fs::write(
            dir.join("memory_allocs_typed_parse.json"),
            r#"{"case":"memory_allocs_typed_parse","settings":{"event_bytes":556},
                "ours":{"allocations":11.0,"bytes":400.0},
                "baseline":{"allocations":40.0,"bytes":3000.0},
                "plain":{"allocations":14.0,"bytes":500.0}}"#,
        )
        .unwrap();
        fs::write(
            dir.join("memory_batch_100k.json"),
            r#"{"case":"memory_batch_100k","settings":{"events":100000,"input_bytes":55574528},
                "ours":{"peak_kib":204800},"ours_read":{"peak_kib":153600},
                "baseline":{"peak_kib":512000},
                "plain":{"peak_kib":102400}}"#,
        )
        .unwrap();
        let table = table(&dir).unwrap();
        let _ = fs::remove_dir_all(&dir);
        assert!(
            table.contains(
                "| allocations per typed parse, README event (556 bytes) | 11.0 (400 bytes) | \
                 40.0 (3000 bytes) | 14.0 (500 bytes) |"
            ),
            "{table}"
        );
        assert!(
            table.contains(
                "| peak RSS, JSON batch of 100000 events (53.0 MiB; ours read + validated) | \
                 200.0 MiB (read alone: 150.0 MiB) | 500.0 MiB | 100.0 MiB |"
            ),
            "{table}"
        );
        assert!(
            !table.contains("20 KB gateway's server"),
            "memory cases not run are left out"
        );
        let gateway = table
            .lines()
            .find(|l| l.starts_with("| gateway_20kb"))
            .unwrap();
        assert!(
            gateway.contains(
                "| 2500 events/s/core | 2000 events/s/core | 1.25x; ≥ 2000 events/s/core ✓ |"
            ),
            "{gateway}"
        );
        let http = table
            .lines()
            .find(|l| l.starts_with("| http_binary"))
            .unwrap();
        assert!(http.contains("0.90x (≥ 1.10) ✗"), "{http}");
        assert!(http.contains("2000 / 1500 µs ✗"), "{http}");
        assert!(http.contains("700 / 800 µs |"), "{http}");
        let nats = table
            .lines()
            .find(|l| l.starts_with("| nats_publish"))
            .unwrap();
        assert!(nats.contains("0.96x (≥ 0.95) ✓"), "{nats}");
        assert!(
            !table.contains("http_structured"),
            "cases not run are left out"
        );
    }

    #[test]
    fn the_verdict_is_the_median_of_the_rounds_ratios() {
        let dir = std::env::temp_dir().join(format!("xtask-e2e-rounds-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        // The median runs fall in different phases (1.00x); round by round ours is 1.20x.
        fs::write(
            dir.join("http_binary.json"),
            r#"{"case":"http_binary","unit":"req/s",
                "ours":{"per_s":10000.0},"baseline":{"per_s":10000.0},
                "rounds":{"ratios":[1.3,1.2,1.0],"median":1.2},
                "target":{"min_ratio":1.15,"p99_no_worse":false}}"#,
        )
        .unwrap();
        fs::write(
            dir.join("nats_consume.json"),
            r#"{"case":"nats_consume","unit":"events/s",
                "ours":{"per_s":9000.0},"baseline":{"per_s":8000.0},
                "rounds":{"ratios":[0.8,0.85,0.9],"median":0.85},
                "rounds_with_headers":{"ratios":[0.9],"median":0.9},
                "target":{"min_ratio":0.9,"p99_no_worse":false}}"#,
        )
        .unwrap();
        let table = table(&dir).unwrap();
        let _ = fs::remove_dir_all(&dir);
        assert!(
            table.contains("| 1.20x (≥ 1.15) ✓; medians 1.00x |"),
            "{table}"
        );
        assert!(
            table.contains("| 0.85x (≥ 0.90) ✗; medians 1.12x |"),
            "{table}"
        );
        assert!(
            table.contains(
                "- nats_consume: plain with the headers / plain, the median of the rounds: 0.90x"
            ),
            "{table}"
        );
    }

    #[test]
    fn memory_alone_prints_the_memory_table() {
        let dir = std::env::temp_dir().join(format!("xtask-e2e-mem-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        fs::write(
            dir.join("memory_gateway_20kb.json"),
            r#"{"case":"memory_gateway_20kb","settings":{"requests":4000},
                "ours":{"peak_kib":10240},"baseline":{"peak_kib":20480}}"#,
        )
        .unwrap();
        let table = table(&dir).unwrap();
        let _ = fs::remove_dir_all(&dir);
        assert!(
            table.contains(
                "| peak RSS, 20 KB gateway's server process (4000 events) | 10.0 MiB | 20.0 MiB | – |"
            ),
            "{table}"
        );
    }

    #[test]
    fn no_results_is_an_error_naming_the_directory() {
        let err = table(Path::new("/nonexistent/e2e")).unwrap_err();
        assert!(err.contains("/nonexistent/e2e"), "{err}");
    }
}
