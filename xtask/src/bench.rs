//! `cargo xtask bench [--instructions [--icache]] [--rounds N] [--calls N] [criterion args]`: first
//! issue 25's rows (`bench_rows.rs`), then the side-by-side benchmarks of the
//! `cloudevent-bench` crate and prints a table of medians and ratios against plain serde and
//! `cloudevents-sdk` 0.9, read from criterion's `target/criterion/<case>/<contestant>/new/estimates.json`.
//!
//! Two tables: the README path of issue 13 first (the event `Event::new` writes, its typed
//! parse, a batch of 100, an HTTP binary request), with the targets of docs/performance.md; then the
//! micro-cases of issue 6 with the bounds of that issue. A ratio that misses its target is
//! marked, the command still succeeds: timings are evidence, not a gate.
//!
//! Rows measured outside criterion (the end-to-end load tests) are [`Row`]s with their cells
//! already written; [`report`] prints them in the README-path table, after its own rows.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// One benchmark case as the table shows it.
struct Case {
    /// The criterion group.
    group: &'static str,
    /// What the row measures.
    title: &'static str,
    /// Our contestant's function name in the group.
    ours: &'static str,
    /// Upper bound of ours / plain serde, when plain serde runs the case.
    max_vs_plain: Option<f64>,
    /// Lower bound of SDK / ours.
    min_sdk_over_ours: Option<f64>,
    /// The single-event group this case must be at least as far ahead of the SDK as
    /// (batch and HTTP: "at least as far ahead of the SDK as the single event"): its measured
    /// SDK / ours ratio raises the bound.
    as_far_as: Option<&'static str>,
}

/// The README path (issue 13), in the order the issue lists its targets.
const README_CASES: &[Case] = &[
    Case {
        group: "new_serialize",
        title: "`Event::new(payload)` + `serde_json::to_vec` (fresh ids, time, ADR-0003)",
        ours: "ours",
        max_vs_plain: Some(1.2),
        min_sdk_over_ours: Some(1.5),
        as_far_as: None,
    },
    Case {
        group: "root_parse",
        title: "typed parse of that event (SDK: Event + payload)",
        ours: "ours",
        max_vs_plain: Some(1.25),
        min_sdk_over_ours: Some(2.5),
        as_far_as: None,
    },
    Case {
        group: "root_http_decode",
        title: "HTTP binary request -> `Event<T>` (SDK: its http binding + payload)",
        ours: "ours",
        max_vs_plain: None,
        min_sdk_over_ours: Some(1.5),
        as_far_as: None,
    },
    Case {
        group: "root_batch_parse",
        title: "`AnyEvent` batch of 100 parse (SDK: + payload of each)",
        ours: "ours_any",
        max_vs_plain: None,
        min_sdk_over_ours: Some(2.5),
        as_far_as: None,
    },
    Case {
        group: "root_batch_parse",
        title: "typed batch of 100 parse (`Vec<Event<T>>`; SDK: + payload of each)",
        ours: "ours",
        max_vs_plain: Some(1.5),
        min_sdk_over_ours: Some(2.5),
        as_far_as: None,
    },
    Case {
        group: "root_passthrough",
        title: "pass-through: `AnyEvent` read, `subject` changed, written",
        ours: "ours",
        max_vs_plain: None,
        min_sdk_over_ours: Some(1.5),
        as_far_as: None,
    },
];

/// The micro-cases of issue 6, on the reference event without traceability.
const MICRO_CASES: &[Case] = &[
    Case {
        group: "serialize",
        title: "serialize one event (pre-built, into a reused Vec)",
        ours: "ours",
        max_vs_plain: Some(1.15),
        min_sdk_over_ours: Some(1.5),
        as_far_as: None,
    },
    Case {
        group: "build_serialize",
        title: "build + serialize one event",
        ours: "ours",
        max_vs_plain: Some(1.15),
        min_sdk_over_ours: Some(1.5),
        as_far_as: None,
    },
    Case {
        group: "parse",
        title: "parse one event (typed; SDK: Event + payload)",
        ours: "ours",
        max_vs_plain: Some(1.15),
        min_sdk_over_ours: Some(2.5),
        as_far_as: None,
    },
    Case {
        group: "any_validate",
        title: "AnyEvent parse + INTG-STD-015 validation (SDK: parse only)",
        ours: "ours",
        max_vs_plain: None,
        min_sdk_over_ours: Some(1.0),
        as_far_as: None,
    },
    Case {
        group: "any_validate",
        title: "Validator::validate_slice (SDK: parse only)",
        ours: "ours_slice",
        max_vs_plain: None,
        min_sdk_over_ours: Some(1.0),
        as_far_as: None,
    },
    Case {
        group: "batch_serialize",
        title: "serialize a batch of 100 (typed Vec<Event<T>>)",
        ours: "ours",
        max_vs_plain: Some(1.15),
        min_sdk_over_ours: Some(1.5),
        as_far_as: Some("serialize"),
    },
    Case {
        group: "batch_serialize",
        title: "serialize a batch of 100 (AnyEvent Batch)",
        ours: "ours_any",
        max_vs_plain: None,
        min_sdk_over_ours: Some(1.5),
        as_far_as: Some("serialize"),
    },
    Case {
        group: "batch_parse",
        title: "parse a batch of 100 (typed Vec<Event<T>>)",
        ours: "ours",
        max_vs_plain: Some(1.15),
        min_sdk_over_ours: Some(2.5),
        as_far_as: Some("parse"),
    },
    Case {
        group: "batch_parse",
        title: "parse a batch of 100 (AnyEvent Batch)",
        ours: "ours_any",
        max_vs_plain: None,
        min_sdk_over_ours: Some(2.5),
        as_far_as: Some("parse"),
    },
    Case {
        group: "http_encode",
        title: "HTTP binary mode: event -> request",
        ours: "ours",
        max_vs_plain: None,
        min_sdk_over_ours: Some(1.5),
        as_far_as: Some("serialize"),
    },
    Case {
        group: "http_decode",
        title: "HTTP binary mode: request -> typed event",
        ours: "ours",
        max_vs_plain: None,
        min_sdk_over_ours: Some(2.5),
        as_far_as: Some("parse"),
    },
];

/// The event-format cases of issue 14 (`benches/benches/protobuf.rs`): ours against a plain
/// `prost` message of the same shape, the limit docs/performance.md bounds at 1.3x, and against our own
/// JSON path for scale. `(group, what the row measures)`.
const FORMAT_CASES: &[(&str, &str)] = &[
    ("protobuf_encode", "Protobuf: reference event -> bytes"),
    ("protobuf_decode", "Protobuf: bytes -> AnyEvent (checked)"),
    ("protobuf_batch_encode", "Protobuf: batch of 100 -> bytes"),
    (
        "protobuf_batch_decode",
        "Protobuf: bytes -> batch of 100 (checked)",
    ),
];

/// The bound of ours / plain `prost` (docs/performance.md).
const MAX_VS_PROST: f64 = 1.3;

/// The event-format table, or nothing when its bench has not run.
fn format_table(criterion: &Path) -> Result<String, String> {
    let mut out = String::new();
    for (group, title) in FORMAT_CASES {
        let Some(ours) = median_ns(criterion, group, "ours")? else {
            continue;
        };
        let prost = median_ns(criterion, group, "prost")?;
        let json = median_ns(criterion, group, "json")?;
        let vs_prost = prost.map_or_else(
            || "–".to_owned(),
            |prost| {
                verdict(
                    ours / prost,
                    "≤",
                    MAX_VS_PROST,
                    ours / prost <= MAX_VS_PROST,
                )
            },
        );
        let vs_json = json.map_or_else(|| "–".to_owned(), |json| format!("{:.2}x", json / ours));
        let _ = writeln!(
            out,
            "| {title} | {} | {} | {} | {vs_prost} | {vs_json} |",
            duration(Some(ours)),
            duration(prost),
            duration(json),
        );
    }
    if out.is_empty() {
        return Ok(out);
    }
    Ok(format!(
        "event formats (issue 14; plain prost is the limit)\n\n\
         | case | ours | plain prost | ours, JSON | ours / prost (target) | JSON / ours |\n\
         |---|---:|---:|---:|---:|---:|\n{out}\n"
    ))
}

/// Runs issue 25's rows (the `rows` driver: wall clock, or instructions with
/// `--instructions`), then, unless `--instructions`, the criterion benchmarks (further
/// arguments go to criterion), then prints the tables. `--report-only` reprints them.
pub fn run(args: &[String], workspace_root: &Path) -> Result<(), String> {
    let report_only = args.iter().any(|a| a == "--report-only");
    let instructions = args.iter().any(|a| a == "--instructions");
    let icache = args.iter().any(|a| a == "--icache");
    let (rounds, args) = take_value(args, "--rounds")?;
    let (calls, args) = take_value(&args, "--calls")?;
    let args: Vec<String> = args
        .into_iter()
        .filter(|a| a != "--instructions" && a != "--icache")
        .collect();
    let rows_file = target_dir(workspace_root)
        .join("bench-rows")
        .join(if instructions {
            "instructions.md"
        } else {
            "time.md"
        });
    if !report_only {
        let driver = crate::bench_rows::build_driver(workspace_root)?;
        let (figures, misses, unit) = if instructions {
            let (figures, misses) = crate::bench_rows::measure_instructions(
                &driver,
                calls.unwrap_or(500) as u64,
                icache,
            )?;
            (figures, misses, crate::bench_rows::Unit::Instructions)
        } else {
            let figures = crate::bench_rows::measure_time(&driver, rounds.unwrap_or(30))?;
            (figures, None, crate::bench_rows::Unit::Nanos)
        };
        let mut table = format!(
            "issue 40 rows ({})\n\n{}",
            machine(),
            crate::bench_rows::table(&figures, unit)
        );
        if let Some(misses) = misses {
            table.push('\n');
            table.push_str(&crate::bench_rows::icache_table(&figures, &misses));
        }
        if let Some(dir) = rows_file.parent() {
            fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        fs::write(&rows_file, &table).map_err(|e| format!("{}: {e}", rows_file.display()))?;
    }
    if let Ok(table) = fs::read_to_string(&rows_file) {
        println!("\n{table}");
    }
    if instructions {
        return Ok(());
    }
    if !report_only {
        for bench in ["events", "protobuf", "registry"] {
            let mut command = crate::cargo();
            command.args(["bench", "-p", "cloudevent-bench", "--bench", bench, "--"]);
            command.args(&args);
            crate::run(command)?;
        }
    }
    let criterion = target_dir(workspace_root).join("criterion");
    // The end-to-end rows (axum load test, NATS JetStream) are measured by their own bench
    // target and module; they join the README-path table through this argument.
    let end_to_end: Vec<Row> = Vec::new();
    println!("\n{}\n\n{}", machine(), report(&criterion, &end_to_end)?);
    Ok(())
}

/// `--name N` taken out of `args`: its number, and the rest.
fn take_value(args: &[String], name: &str) -> Result<(Option<usize>, Vec<String>), String> {
    let mut rest = Vec::new();
    let mut value = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == name {
            let text = iter
                .next()
                .ok_or_else(|| format!("{name} needs a number"))?;
            value = Some(text.parse().map_err(|e| format!("{name} {text}: {e}"))?);
        } else {
            rest.push(arg.clone());
        }
    }
    Ok((value, rest))
}

/// One table row with its cells written out, so a row measured outside criterion (in
/// requests/s or events/s) prints beside the criterion rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// What the row measures.
    pub case: String,
    /// Our figure.
    pub ours: String,
    /// Plain serde's (or the row's limit's) figure, or `–`.
    pub plain: String,
    /// `cloudevents-sdk` 0.9's figure, or `–`.
    pub sdk: String,
    /// Ours against the limit, with the target and a mark, or `–`.
    pub vs_plain: String,
    /// The SDK against ours, with the target and a mark, or `–`.
    pub vs_sdk: String,
}

/// Both tables: the README path (criterion's rows, then `extra`), then the micro-cases.
///
/// # Errors
/// When no benchmark has run, or criterion's output cannot be read.
pub fn report(criterion: &Path, extra: &[Row]) -> Result<String, String> {
    let mut readme = rows(criterion, README_CASES)?;
    readme.extend_from_slice(extra);
    let micro = rows(criterion, MICRO_CASES)?;
    let formats = format_table(criterion)?;
    if readme.is_empty() && micro.is_empty() && formats.is_empty() {
        return Err(format!(
            "no results under {}; run `cargo xtask bench` without --report-only",
            criterion.display()
        ));
    }
    let mut out = String::new();
    if !readme.is_empty() {
        out.push_str("README path (issue 13; targets: docs/performance.md)\n\n");
        out.push_str(&render(&readme));
        out.push('\n');
    }
    if !micro.is_empty() {
        out.push_str("micro-cases (issue 6; reference event without traceability)\n\n");
        out.push_str(&render(&micro));
        out.push('\n');
    }
    out.push_str(&formats);
    out.push_str("medians of criterion samples; ✗ marks a missed target.\n");
    Ok(out)
}

/// What the numbers were measured on: cores, CPU model, rustc, load.
fn machine() -> String {
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|line| line.strip_prefix("model name"))
        .and_then(|rest| rest.split_once(':'))
        .map_or("unknown CPU", |(_, model)| model.trim());
    let rustc =
        std::process::Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
            .arg("-V")
            .output()
            .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
            .unwrap_or_default();
    let load = fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default();
    format!("machine: {cores} cores, {model}; {rustc}; load average now {load}")
}

/// Where cargo puts build output: `CARGO_TARGET_DIR` or the workspace's `target/`.
pub fn target_dir(workspace_root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root.join("target"))
}

/// The median of one benchmark in nanoseconds, or `None` when it has not run.
fn median_ns(criterion: &Path, group: &str, function: &str) -> Result<Option<f64>, String> {
    let path = criterion
        .join(group)
        .join(function)
        .join("new")
        .join("estimates.json");
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let estimates: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not criterion's JSON: {e}", path.display()))?;
    estimates["median"]["point_estimate"]
        .as_f64()
        .map(Some)
        .ok_or_else(|| format!("{} has no median.point_estimate", path.display()))
}

/// The rows of the cases that have run.
fn rows(criterion: &Path, cases: &[Case]) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for case in cases {
        let Some(ours) = median_ns(criterion, case.group, case.ours)? else {
            continue;
        };
        let plain =
            median_ns(criterion, case.group, "plain")?.filter(|_| case.max_vs_plain.is_some());
        let sdk = median_ns(criterion, case.group, "sdk")?;
        let vs_plain = match (plain, case.max_vs_plain) {
            (Some(plain), Some(max)) => verdict(ours / plain, "≤", max, ours / plain <= max),
            _ => "–".to_owned(),
        };
        let single = match case.as_far_as {
            Some(group) => match (
                median_ns(criterion, group, "sdk")?,
                median_ns(criterion, group, "ours")?,
            ) {
                (Some(sdk), Some(ours)) => Some(sdk / ours),
                _ => None,
            },
            None => None,
        };
        let vs_sdk = match (sdk, case.min_sdk_over_ours) {
            (Some(sdk), Some(min)) => {
                let bound = single.map_or(min, |single| single.max(min));
                let ratio = sdk / ours;
                verdict(ratio, "≥", bound, ratio >= bound)
            }
            _ => "–".to_owned(),
        };
        rows.push(Row {
            case: case.title.to_owned(),
            ours: duration(Some(ours)),
            plain: duration(plain),
            sdk: duration(sdk),
            vs_plain,
            vs_sdk,
        });
    }
    Ok(rows)
}

/// A markdown table of `rows`.
fn render(rows: &[Row]) -> String {
    let mut out = String::from(
        "| case | ours | plain serde | cloudevents-sdk 0.9 | ours / plain (target) | sdk / ours (target) |\n\
         |---|---:|---:|---:|---:|---:|\n",
    );
    for row in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            row.case, row.ours, row.plain, row.sdk, row.vs_plain, row.vs_sdk
        );
    }
    out
}

fn verdict(ratio: f64, relation: &str, bound: f64, met: bool) -> String {
    let mark = if met { "✓" } else { "✗" };
    format!("{ratio:.2}x ({relation} {:.2}) {mark}", bound)
}

fn duration(ns: Option<f64>) -> String {
    match ns {
        None => "–".to_owned(),
        Some(ns) if ns >= 1_000_000.0 => format!("{:.2} ms", ns / 1_000_000.0),
        Some(ns) if ns >= 1_000.0 => format!("{:.2} µs", ns / 1_000.0),
        Some(ns) => format!("{ns:.0} ns"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_estimate(root: &Path, group: &str, function: &str, median: f64) {
        let dir = root.join(group).join(function).join("new");
        fs::create_dir_all(&dir).unwrap();
        let json = format!(
            r#"{{"mean":{{"point_estimate":1.0}},"median":{{"point_estimate":{median}}}}}"#
        );
        fs::write(dir.join("estimates.json"), json).unwrap();
    }

    #[test]
    fn table_reads_medians_and_marks_missed_targets() {
        let root = std::env::temp_dir().join(format!("xtask-bench-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        write_estimate(&root, "serialize", "ours", 1100.0);
        write_estimate(&root, "serialize", "plain", 1000.0);
        write_estimate(&root, "serialize", "sdk", 2000.0);
        write_estimate(&root, "parse", "ours", 1300.0);
        write_estimate(&root, "parse", "plain", 1000.0);
        write_estimate(&root, "parse", "sdk", 2600.0);
        // 1.6x ahead of the SDK clears the fixed 1.5 but not the single event's 1.82.
        write_estimate(&root, "http_encode", "ours", 1000.0);
        write_estimate(&root, "http_encode", "sdk", 1600.0);
        let table = report(&root, &[]).unwrap();
        let _ = fs::remove_dir_all(&root);

        let serialize = table
            .lines()
            .find(|l| l.starts_with("| serialize"))
            .unwrap();
        assert!(serialize.contains("1.10 µs"), "{serialize}");
        assert!(serialize.contains("1.10x (≤ 1.15) ✓"), "{serialize}");
        assert!(serialize.contains("1.82x (≥ 1.50) ✓"), "{serialize}");
        let parse = table
            .lines()
            .find(|l| l.starts_with("| parse one"))
            .unwrap();
        assert!(parse.contains("1.30x (≤ 1.15) ✗"), "{parse}");
        assert!(parse.contains("2.00x (≥ 2.50) ✗"), "{parse}");
        let http = table.lines().find(|l| l.starts_with("| HTTP")).unwrap();
        assert!(http.contains("1.60x (≥ 1.82) ✗"), "{http}");
        assert!(
            !table.contains("batch"),
            "cases that did not run are left out"
        );
    }

    #[test]
    fn readme_path_rows_come_first_with_the_issue_targets_then_extra_rows() {
        let root = std::env::temp_dir().join(format!("xtask-bench-readme-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        write_estimate(&root, "new_serialize", "ours", 1200.0);
        write_estimate(&root, "new_serialize", "plain", 1000.0);
        write_estimate(&root, "new_serialize", "sdk", 1500.0);
        write_estimate(&root, "root_parse", "ours", 1300.0);
        write_estimate(&root, "root_parse", "plain", 1000.0);
        write_estimate(&root, "root_parse", "sdk", 3900.0);
        write_estimate(&root, "root_http_decode", "ours", 1000.0);
        write_estimate(&root, "root_http_decode", "sdk", 1400.0);
        write_estimate(&root, "root_batch_parse", "ours_any", 100_000.0);
        write_estimate(&root, "root_batch_parse", "sdk", 300_000.0);
        write_estimate(&root, "parse", "ours", 1000.0);
        let extra = Row {
            case: "axum service, structured".to_owned(),
            ours: "10000 req/s".to_owned(),
            plain: "–".to_owned(),
            sdk: "9000 req/s".to_owned(),
            vs_plain: "–".to_owned(),
            vs_sdk: "1.11x (≥ 1.00) ✓".to_owned(),
        };
        let table = report(&root, std::slice::from_ref(&extra)).unwrap();
        let _ = fs::remove_dir_all(&root);

        let lines: Vec<&str> = table.lines().filter(|l| l.starts_with("| ")).collect();
        // lines[0] is the header.
        let readme = &lines[1..];
        assert!(readme[0].contains("`Event::new(payload)`"), "{table}");
        assert!(readme[0].contains("1.20x (≤ 1.20) ✓"), "{table}");
        assert!(readme[0].contains("1.25x (≥ 1.50) ✗"), "{table}");
        assert!(readme[1].contains("1.30x (≤ 1.25) ✗"), "{table}");
        assert!(readme[1].contains("3.00x (≥ 2.50) ✓"), "{table}");
        assert!(readme[2].contains("HTTP binary request"), "{table}");
        assert!(readme[2].contains("1.40x (≥ 1.50) ✗"), "{table}");
        assert!(readme[3].contains("batch of 100"), "{table}");
        assert!(readme[3].contains("3.00x (≥ 2.50) ✓"), "{table}");
        assert!(
            readme[4].starts_with("| axum service, structured |"),
            "{table}"
        );
        assert!(
            table.find("micro-cases") > table.find("axum"),
            "the micro-cases follow the README path: {table}"
        );
    }

    #[test]
    fn format_rows_hold_ours_to_plain_prost() {
        let root = std::env::temp_dir().join(format!("xtask-bench-format-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        write_estimate(&root, "protobuf_decode", "ours", 1400.0);
        write_estimate(&root, "protobuf_decode", "prost", 1000.0);
        write_estimate(&root, "protobuf_decode", "json", 2800.0);
        let table = report(&root, &[]).unwrap();
        let _ = fs::remove_dir_all(&root);
        let row = table
            .lines()
            .find(|l| l.contains("bytes -> AnyEvent"))
            .unwrap();
        assert!(row.contains("1.40x (≤ 1.30) ✗"), "{row}");
        assert!(row.contains("| 2.00x |"), "{row}");
        assert!(!table.contains("batch of 100 ->"), "{table}");
    }

    #[test]
    fn no_results_is_an_error_naming_the_directory() {
        let err = report(Path::new("/nonexistent/criterion"), &[]).unwrap_err();
        assert!(err.contains("/nonexistent/criterion"), "{err}");
    }
}
