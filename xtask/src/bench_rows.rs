//! Issue 40's table (issue 25's targets where issue 40 sets none): every row with ours, each
//! peer, the ratio and the target, from the `rows` driver (`benches/examples/rows.rs`).
//!
//! Two measures of the same contestants:
//! - wall clock (`cargo xtask bench`): one process, the contestants taking turns round by
//!   round, median of the rounds, so load that comes and goes hits every contestant alike;
//! - instructions (`cargo xtask bench --instructions`): each contestant alone under
//!   callgrind, `N` calls minus a run of none (set-up and start-up subtracted), divided by
//!   `N`. Other processes do not change an instruction count, so this holds on a loaded
//!   machine; it weighs a cache miss like an add, so wall clock stays the published figure.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How a row's ours compares with one peer.
#[derive(Debug, Clone, Copy)]
enum Bound {
    /// ours / peer at most this.
    AtMost(f64),
    /// peer / ours at least this (the peer is this much slower).
    SlowerBy(f64),
    /// ours minus peer (what ours adds to the peer's work) at most this many nanoseconds.
    AddsAtMost(f64),
    /// The ratio shown, no target in this unit (the row's target is measured elsewhere).
    Shown(&'static str),
}

/// One row of the issue's table: the driver's row name, its title, and its peers.
struct RowSpec {
    row: &'static str,
    title: &'static str,
    ours: &'static str,
    peers: &'static [(&'static str, Bound)],
}

/// The issue's rows, in its order, with its targets.
const ROWS: &[RowSpec] = &[
    RowSpec {
        row: "new_to_vec",
        title: "`Event::new` + `to_vec`",
        ours: "ours",
        peers: &[("plain", Bound::AtMost(1.0)), ("sdk", Bound::SlowerBy(1.5))],
    },
    RowSpec {
        row: "typed_parse",
        title: "typed parse (`from_slice::<Event<T>>`)",
        ours: "ours",
        peers: &[("plain", Bound::AtMost(1.0)), ("sdk", Bound::SlowerBy(3.0))],
    },
    RowSpec {
        row: "typed_parse_escaped",
        title: "typed parse, every `/` escaped (PHP's `json_encode`)",
        ours: "ours",
        peers: &[("plain", Bound::AtMost(1.0))],
    },
    RowSpec {
        row: "http_binary",
        title: "HTTP binary -> `Event<T>`",
        ours: "ours",
        peers: &[("sdk", Bound::SlowerBy(2.0))],
    },
    RowSpec {
        row: "protobuf_decode",
        title: "Protobuf single-event decode",
        ours: "ours",
        peers: &[("prost", Bound::AtMost(1.2))],
    },
    RowSpec {
        row: "registry_data",
        title: "registry data check, 1 KiB event (registry minus profile)",
        ours: "registry",
        peers: &[("profile", Bound::AddsAtMost(200.0))],
    },
    RowSpec {
        row: "batch_100",
        title: "JSON batch of 100 typed events",
        ours: "ours",
        peers: &[("plain", Bound::AtMost(1.2)), ("sdk", Bound::SlowerBy(2.5))],
    },
    RowSpec {
        row: "passthrough",
        title: "pass-through (read, change `subject`, write)",
        ours: "ours",
        peers: &[("sdk", Bound::SlowerBy(1.5))],
    },
    RowSpec {
        row: "gateway_20kb",
        title: "20 KB event, gateway extractor in process (INTG-STD-015)",
        ours: "ours",
        peers: &[(
            "sdk",
            Bound::Shown("target: ≥ 20,000 events/s per core, `cargo xtask bench-e2e`"),
        )],
    },
    RowSpec {
        row: "gateway_1kib",
        title: "1 KiB event, all-checks gateway in process (profile + registry + `cesql!`)",
        ours: "ours",
        peers: &[(
            "sdk",
            Bound::Shown(
                "target: ≥ 50,000 events/s per core, `cargo xtask bench-e2e gateway_1kib`",
            ),
        )],
    },
    RowSpec {
        row: "nats_read",
        title: "JetStream consume's read in process (`from_parts` + dedupe; plain: serde)",
        ours: "ours",
        peers: &[(
            "plain",
            Bound::Shown(
                "target: ≥ 0.90x of plain end to end, `cargo xtask bench-e2e nats_consume`",
            ),
        )],
    },
];

/// What a figure counts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Unit {
    /// Nanoseconds per call (wall clock).
    Nanos,
    /// Instructions per call (callgrind).
    Instructions,
}

/// `(row, contestant) -> figure per call`.
pub type Figures = BTreeMap<(String, String), f64>;

/// Builds the driver in release mode and returns its path.
pub fn build_driver(workspace_root: &Path) -> Result<PathBuf, String> {
    let mut build = crate::cargo();
    build.args([
        "build",
        "--release",
        "-p",
        "cloudevent-bench",
        "--example",
        "rows",
    ]);
    crate::run(build)?;
    Ok(crate::bench::target_dir(workspace_root).join("release/examples/rows"))
}

/// Wall clock: the driver's alternating rounds, medians per call.
pub fn measure_time(driver: &Path, rounds: usize) -> Result<Figures, String> {
    let out = output(Command::new(driver).args(["time", &rounds.to_string()]))?;
    let mut figures = Figures::new();
    for line in out.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if let [row, contestant, median, _fastest] = fields[..] {
            let median = median
                .parse()
                .map_err(|e| format!("`{line}` from the driver: {e}"))?;
            figures.insert((row.to_owned(), contestant.to_owned()), median);
        }
    }
    Ok(figures)
}

/// Instructions: each contestant under callgrind, `calls` calls minus none, per call. With
/// `icache`, callgrind also simulates the caches and the second map holds the level-1
/// instruction cache misses per call (callgrind's model of this machine's L1i, 32 KiB 8-way
/// here): the code a call runs that does not stay in that cache, which the instruction count
/// does not see and the wall clock does.
pub fn measure_instructions(
    driver: &Path,
    calls: u64,
    icache: bool,
) -> Result<(Figures, Option<Figures>), String> {
    let list = output(Command::new(driver).arg("list"))?;
    let mut figures = Figures::new();
    let mut misses = Figures::new();
    for line in list.lines() {
        let Some((row, contestant)) = line.split_once(' ') else {
            continue;
        };
        // A batch call is a hundred events: fewer calls keep the run short.
        let calls = if row.starts_with("batch") {
            (calls / 20).max(1)
        } else {
            calls
        };
        let with = counts(driver, row, contestant, calls, icache)?;
        let without = counts(driver, row, contestant, 0, icache)?;
        let per_call = |with: u64, without: u64| with.saturating_sub(without) as f64 / calls as f64;
        let instructions = per_call(with.instructions, without.instructions);
        eprintln!("{row} {contestant}: {instructions:.0} instructions a call");
        let key = (row.to_owned(), contestant.to_owned());
        if let (Some(with), Some(without)) = (with.i1_misses, without.i1_misses) {
            misses.insert(key.clone(), per_call(with, without));
        }
        figures.insert(key, instructions);
    }
    Ok((figures, icache.then_some(misses)))
}

/// What callgrind counted for one driver run.
#[derive(Debug, PartialEq)]
struct Counts {
    instructions: u64,
    /// Level-1 instruction cache misses, when the caches were simulated.
    i1_misses: Option<u64>,
}

fn counts(
    driver: &Path,
    row: &str,
    contestant: &str,
    calls: u64,
    icache: bool,
) -> Result<Counts, String> {
    let mut command = Command::new("valgrind");
    command.args(["--tool=callgrind", "--callgrind-out-file=/dev/null"]);
    if icache {
        command.arg("--cache-sim=yes");
    }
    command.arg(driver);
    command.args(["run", row, contestant, &calls.to_string()]);
    let out = command
        .output()
        .map_err(|e| format!("could not start valgrind (apt-get install valgrind): {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{command:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    collected(&String::from_utf8_lossy(&out.stderr))
        .ok_or_else(|| format!("{command:?}: no `Events :` and `Collected :` lines from callgrind"))
}

/// Callgrind's summary: `==pid== Events : Ir ...` names the columns of `==pid== Collected :`.
fn collected(stderr: &str) -> Option<Counts> {
    let values = |key: &str| {
        stderr.lines().find_map(|line| {
            let (_, rest) = line.split_once(key)?;
            Some(rest.split_whitespace().collect::<Vec<_>>())
        })
    };
    let (events, totals) = (values("Events    :")?, values("Collected :")?);
    let total = |event: &str| {
        let at = events.iter().position(|e| *e == event)?;
        totals.get(at)?.parse().ok()
    };
    Some(Counts {
        instructions: total("Ir")?,
        i1_misses: total("I1mr"),
    })
}

/// The level-1 instruction cache misses per call beside the instructions, every contestant.
pub fn icache_table(instructions: &Figures, misses: &Figures) -> String {
    let mut out =
        String::from("| row | contestant | instructions | L1i misses |\n|---|---|---:|---:|\n");
    for ((row, contestant), missed) in misses {
        let key = (row.clone(), contestant.clone());
        let count = instructions.get(&key).copied().unwrap_or_default();
        let _ = writeln!(
            out,
            "| {row} | {contestant} | {} | {missed:.0} |",
            figure(count, Unit::Instructions)
        );
    }
    out.push_str(
        "\nlevel-1 instruction cache misses per call (callgrind --cache-sim=yes, its model of this machine's L1i); code a call runs that does not stay in that cache costs time the instruction count does not show.\n",
    );
    out
}

fn output(command: &mut Command) -> Result<String, String> {
    let out = command
        .output()
        .map_err(|e| format!("could not start {command:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{command:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The table: one line per row and peer, with the target met (✓) or missed (✗).
pub fn table(figures: &Figures, unit: Unit) -> String {
    let mut out =
        String::from("| row | ours | peer | peer's | ratio (target) |\n|---|---:|---|---:|---:|\n");
    let get = |row: &str, contestant: &str| figures.get(&(row.to_owned(), contestant.to_owned()));
    for spec in ROWS {
        let Some(&ours) = get(spec.row, spec.ours) else {
            continue;
        };
        for &(peer, bound) in spec.peers {
            let Some(&theirs) = get(spec.row, peer) else {
                continue;
            };
            let verdict = match bound {
                Bound::AtMost(max) => mark(
                    format!("{:.2}x (≤ {max:.2})", ours / theirs),
                    ours / theirs <= max,
                ),
                Bound::SlowerBy(min) => mark(
                    format!("{:.2}x slower (≥ {min:.2})", theirs / ours),
                    theirs / ours >= min,
                ),
                Bound::AddsAtMost(max) if unit == Unit::Nanos => mark(
                    format!("+{} (≤ {})", figure(ours - theirs, unit), figure(max, unit)),
                    ours - theirs <= max,
                ),
                Bound::AddsAtMost(max) => format!(
                    "+{} (target ≤ {} ns: wall clock only)",
                    figure(ours - theirs, unit),
                    max
                ),
                Bound::Shown(target) => format!("{:.2}x ({target})", ours / theirs),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {peer} | {} | {verdict} |",
                spec.title,
                figure(ours, unit),
                figure(theirs, unit),
            );
        }
    }
    out.push_str(match unit {
        Unit::Nanos => {
            "\nwall clock: median of the driver's rounds, contestants alternating; ✗ marks a missed target.\n"
        }
        Unit::Instructions => {
            "\ninstructions per call (callgrind, start-up subtracted); ✗ marks a missed target.\n"
        }
    });
    out
}

fn mark(text: String, met: bool) -> String {
    format!("{text} {}", if met { "✓" } else { "✗" })
}

fn figure(value: f64, unit: Unit) -> String {
    match unit {
        Unit::Nanos if value >= 1_000_000.0 => format!("{:.2} ms", value / 1_000_000.0),
        Unit::Nanos if value >= 1_000.0 => format!("{:.2} µs", value / 1_000.0),
        Unit::Nanos => format!("{value:.0} ns"),
        Unit::Instructions if value >= 1_000_000.0 => format!("{:.2} M Ir", value / 1_000_000.0),
        Unit::Instructions if value >= 10_000.0 => format!("{:.1} k Ir", value / 1_000.0),
        Unit::Instructions => format!("{value:.0} Ir"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(rows: &[(&str, &str, f64)]) -> Figures {
        rows.iter()
            .map(|&(row, contestant, value)| ((row.to_owned(), contestant.to_owned()), value))
            .collect()
    }

    #[test]
    fn rows_hold_ours_to_each_peer_with_the_issue_targets() {
        let table = table(
            &figures(&[
                ("typed_parse", "ours", 1300.0),
                ("typed_parse", "plain", 1000.0),
                ("typed_parse", "sdk", 3900.0),
                ("registry_data", "registry", 2150.0),
                ("registry_data", "profile", 2000.0),
            ]),
            Unit::Nanos,
        );
        let lines: Vec<&str> = table.lines().filter(|l| l.starts_with("| typed")).collect();
        assert_eq!(lines.len(), 2, "{table}");
        assert!(
            lines[0].contains("| plain | 1.00 µs | 1.30x (≤ 1.00) ✗"),
            "{table}"
        );
        assert!(
            lines[1].contains("| sdk | 3.90 µs | 3.00x slower (≥ 3.00) ✓"),
            "{table}"
        );
        let registry = table.lines().find(|l| l.starts_with("| registry")).unwrap();
        assert!(registry.contains("+150 ns (≤ 200 ns) ✓"), "{registry}");
        assert!(
            !table.contains("Protobuf"),
            "rows not measured are left out"
        );
    }

    #[test]
    fn instruction_rows_have_ratios_but_no_time_verdict() {
        let table = table(
            &figures(&[
                ("registry_data", "registry", 30_000.0),
                ("registry_data", "profile", 10_000.0),
                ("protobuf_decode", "ours", 12_000.0),
                ("protobuf_decode", "prost", 10_000.0),
            ]),
            Unit::Instructions,
        );
        assert!(
            table.contains("+20.0 k Ir (target ≤ 200 ns: wall clock only)"),
            "{table}"
        );
        assert!(table.contains("| 10.0 k Ir | 1.20x (≤ 1.20) ✓"), "{table}");
    }

    #[test]
    fn the_cache_simulation_adds_the_l1i_misses() {
        let stderr = "==7== Events    : Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n\
                      ==7== Collected : 126651 27901 11770 1082 990 579 1064 780 547\n";
        assert_eq!(
            collected(stderr),
            Some(Counts {
                instructions: 126_651,
                i1_misses: Some(1082),
            })
        );
        let misses = figures(&[("typed_parse", "ours", 334.0)]);
        let counts = figures(&[("typed_parse", "ours", 16_054.0)]);
        let table = icache_table(&counts, &misses);
        assert!(
            table.contains("| typed_parse | ours | 16.1 k Ir | 334 |"),
            "{table}"
        );
    }

    #[test]
    fn callgrind_total_is_read_from_its_summary() {
        let stderr = "==12== Events    : Ir\n==12== Collected : 1234567\n==12==\n==12== I   refs:      1,234,567\n";
        assert_eq!(
            collected(stderr),
            Some(Counts {
                instructions: 1_234_567,
                i1_misses: None,
            })
        );
        assert_eq!(collected("nothing"), None);
    }
}
