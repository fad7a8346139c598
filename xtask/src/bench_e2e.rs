//! `cargo xtask bench-e2e [filters]`: runs the end-to-end bench (`cargo bench -p
//! cloudevent-bench --bench e2e`; further arguments select cases by name) and prints a table
//! read from the JSON it writes to `<target dir>/e2e/<case>.json`.
//!
//! Each row: our median run against the baseline's (the SDK's axum binding for HTTP, plain
//! async-nats for NATS), the ratio of throughputs, the p50/p99 latencies when measured, and
//! the target met (✓) or missed (✗). Timings are evidence, not a gate: a miss does not fail.
//! `--report-only` reprints the table from the last run.

use std::fs;
use std::path::Path;

use serde_json::Value;

/// The cases in the order the table shows them.
const CASES: [&str; 5] = [
    "http_structured",
    "http_binary",
    "gateway_20kb",
    "nats_publish",
    "nats_consume",
];

/// Runs the bench unless `--report-only`, then prints the table.
pub fn run(args: &[String], workspace_root: &Path) -> Result<(), String> {
    let report_only = args.iter().any(|a| a == "--report-only");
    if !report_only {
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

/// The markdown table of every case that has a report under `dir`.
fn table(dir: &Path) -> Result<String, String> {
    let mut out = String::from(
        "| case | ours | SDK / plain | ours / baseline (target) | p50 ours / baseline | p99 ours / baseline |\n\
         |---|---:|---:|---:|---:|---:|\n",
    );
    let mut rows = 0;
    let mut notes = String::new();
    for case in CASES {
        let path = dir.join(format!("{case}.json"));
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let report: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not the e2e bench's JSON: {e}", path.display()))?;
        out.push_str(&row(&report).ok_or_else(|| {
            format!(
                "{} lacks ours/baseline per_s or target.min_ratio",
                path.display()
            )
        })?);
        notes.push_str(&variants(&report));
        rows += 1;
    }
    if rows == 0 {
        return Err(format!(
            "no results under {}; run `cargo xtask bench-e2e` without --report-only",
            dir.display()
        ));
    }
    out.push_str(
        "\nmedian run of each contestant; ratio = ours / baseline throughput; \
         ✗ marks a missed target (HTTP: req/s ≥ 1.1x the SDK's and p99 no worse; NATS \
         publish: ≥ 0.95x of plain async-nats with the same two headers; NATS consume: within \
         1.2x of plain).\n",
    );
    if !notes.is_empty() {
        out.push_str(
            "\nA/B variants and in-process costs (not contestants; where a gap comes from):\n",
        );
        out.push_str(&notes);
    }
    Ok(out)
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
    let ratio = ours_rate / base_rate;
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
        let table = table(&dir).unwrap();
        let _ = fs::remove_dir_all(&dir);
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
    fn no_results_is_an_error_naming_the_directory() {
        let err = table(Path::new("/nonexistent/e2e")).unwrap_err();
        assert!(err.contains("/nonexistent/e2e"), "{err}");
    }
}
