//! This repository's automation, run as `cargo xtask <command>`.
//!
//! - `demo`: the whole promise on the bundled registry (README's first command): the codegen
//!   check, a compile-time refusal, events from a generated type, a gateway's refusal.
//! - `test`: everything CI checks: installs the test servers and the official CloudEvents
//!   SDKs the interop tests talk to (Python and JavaScript) when missing, then
//!   `cargo fmt --check` (the workspace and `fuzz/`), clippy with `-D warnings` on all targets and features, a
//!   `cargo check` of each runtime feature alone, `api --check`, `msrv`, `package`, and every
//!   test (unit, integration, trybuild, doctests; the runtime's doctests also with its default
//!   features alone).
//! - `codegen [--check]`: keeps `schemas/` and the Rust types in step.
//! - `api [--check|--bless]`: the published crates' public API against `api/<crate>.txt`, the
//!   last release's baseline; fails on an item removed without a deprecation there.
//! - `msrv`: every dependency of the published crates declares a `rust-version` no newer than
//!   ours.
//! - `package [--verify]`: `cargo publish --dry-run` (`cargo package`, no upload) for every
//!   published crate, in dependency order.
//! - `bench`, `bench-e2e`, `deps`, `compile-cost`: the performance figures of BENCHMARKS.md.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

mod api;
mod bench;
mod bench_e2e;
mod bench_rows;
mod codegen;
mod compile_cost;
mod demo;
mod deps;
#[cfg(test)]
mod docs_promises;
mod msrv;
mod outputs;
mod publish;

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("api") => api::run(&args[1..], &workspace_root()),
        Some("msrv") => msrv::run(&workspace_root()),
        Some("package") => publish::run(&args[1..], &workspace_root()),
        Some("codegen") => codegen::run(&args[1..], &workspace_root()),
        Some("bench") => bench::run(&args[1..], &workspace_root()),
        Some("bench-e2e") => bench_e2e::run(&args[1..], &workspace_root()),
        Some("compile-cost") => compile_cost::run(&args[1..], &workspace_root()),
        Some("deps") => deps::run(&workspace_root()),
        Some("demo") => demo::run(&args[1..], &workspace_root()),
        Some("help" | "--help" | "-h") | None => {
            print_help();
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`; run `cargo xtask help`")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn print_help() {
    println!(
        "cargo xtask <command>\n\n\
         commands:\n  \
         api       the published crates' public API (rustdoc JSON, offline) against\n            \
                   api/<crate>.txt, the last release's baseline: fails naming each item\n            \
                   removed without a deprecation there, lists additions; --bless rewrites it\n  \
         bench     issue 25's rows (contestants alternating; --rounds N), then criterion\n            \
                   benchmarks against cloudevents-sdk 0.9 and plain serde, then the table of\n            \
                   medians and ratios (further args go to criterion; --report-only);\n            \
                   --instructions: the rows under callgrind only (--calls N, default 500;\n            \
                   --icache adds each call's L1 instruction cache misses)\n  \
         bench-e2e axum on loopback vs the SDK's axum binding, JetStream vs plain async-nats,\n            \
                   the 20 KB and 1 KiB (every check) gateways per core, memory (allocations\n            \
                   per typed parse, peak RSS); table of median runs (--report-only; a name\n            \
                   selects cases: gateway_1kib, memory)\n  \
         compile-cost  100 derived event types vs 100 serde-only ones, cold and warm builds\n  \
         demo      the whole promise on the bundled registry: generated types up to date,\n            \
                   a compile-time refusal explained, events produced from a generated type,\n            \
                   a gateway refusing a bad one (README's first command)\n  \
         deps      count the runtime's dependency crates (no features) against the SDK's 57\n  \
         msrv      every dependency of the published crates (all features, every platform)\n            \
                   declares a rust-version no newer than ours, or none\n  \
         package   cargo publish --dry-run (cargo package, no upload) for every published\n            \
                   crate, in dependency order, without the verify build (--verify builds\n            \
                   each archive too)\n  \
         codegen   regenerate Rust modules from schemas/, schemas from the exported Rust\n            \
                   types, schemas/README.md and schemas/asyncapi.yaml, refusing breaking\n            \
                   changes; --check changes nothing and fails when stale;\n            \
                   --base <rev> | --base-dir <dir> choose the baseline (git HEAD);\n            \
                   --compat <mode> the compatibility mode (forward; docs/compatibility.md)\n  \
         test      install test servers if missing (nats-server, mosquitto, librdkafka-dev),\n            \
                   the official CloudEvents SDKs (pip cloudevents, npm ci in tests/interop/js),\n            \
                   the Protobuf peer (pip protobuf, grpcio-tools),\n            \
                   then fmt check, clippy -D warnings, each runtime feature linted alone,\n            \
                   API docs with -D warnings, the public API against api/ (api --check),\n            \
                   msrv, package,\n            \
                   all tests and doctests, README's and docs/ snippets included\n            \
                   (what CI runs: .ci/run; README's second command)"
    );
}

/// The workspace root, from this crate's manifest directory.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

/// The target directory nested cargo commands write to: `CARGO_TARGET_DIR`, else `target/`.
fn target_dir(root: &Path) -> PathBuf {
    let target = env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    if target.is_relative() {
        root.join(target)
    } else {
        target
    }
}

/// `cargo` as the user invoked it, so a nested build uses the same toolchain.
fn cargo() -> Command {
    let mut command = Command::new(env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.current_dir(workspace_root());
    command
}

fn run(mut command: Command) -> Result<(), String> {
    let shown = format!("{command:?}");
    println!("xtask: running {shown}");
    let status = command
        .status()
        .map_err(|e| format!("could not start {shown}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed with {status}"))
    }
}

/// Debian packages the integration tests start or link against: a real NATS server with
/// JetStream, a real MQTT 5 broker, and librdkafka for the `rdkafka` feature.
/// Each package comes with the files that show it is installed; any one of them will do
/// (Debian puts `nats-server` in `/usr/sbin`, a hand install often in `/usr/bin`).
const TEST_PACKAGES: [(&str, &[&str]); 6] = [
    (
        "nats-server",
        &["/usr/sbin/nats-server", "/usr/bin/nats-server"],
    ),
    // The shared dedupe store of `dedupe::RedisDeduplicator` (feature `redis`).
    (
        "redis-server",
        &["/usr/bin/redis-server", "/usr/sbin/redis-server"],
    ),
    ("mosquitto", &["/usr/sbin/mosquitto", "/usr/bin/mosquitto"]),
    ("librdkafka-dev", &["/usr/include/librdkafka/rdkafka.h"]),
    // An AMQP 1.0 broker for the `fe2o3-amqp` tests: RabbitMQ with its bundled AMQP 1.0
    // plugin (Debian bookworm: 3.10.8), started by the test itself.
    (
        "rabbitmq-server",
        &["/usr/lib/rabbitmq/bin/rabbitmq-server"],
    ),
    // The AMQP 1.0 client of the Python broker peer (`interop_brokers.rs`,
    // `tests/interop/python/broker_peer.py`): PyPI has no python-qpid-proton wheel for this
    // Python and its source build is slow; Debian's 0.37 is built for the system Python 3.11,
    // whose directory the peer appends to its path.
    (
        "python3-qpid-proton",
        &["/usr/lib/python3/dist-packages/proton/__init__.py"],
    ),
];

/// Installs what the tests need when it is missing, so a fresh machine passes with one command.
fn install_test_packages() -> Result<(), String> {
    install_packages(&TEST_PACKAGES)
}

/// Installs with `apt-get` each of `packages` none of whose probe paths exists.
fn install_packages(packages: &[(&str, &[&str])]) -> Result<(), String> {
    let missing: Vec<&str> = packages
        .iter()
        .filter(|(_, probes)| !probes.iter().any(|probe| Path::new(probe).exists()))
        .map(|(package, _)| *package)
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    println!("xtask: installing {}", missing.join(" "));
    let mut update = Command::new("apt-get");
    update.args(["update", "-qq"]);
    run(update)?;
    let mut install = Command::new("apt-get");
    install
        .args(["install", "-y", "-qq", "--no-install-recommends"])
        .args(&missing)
        .env("DEBIAN_FRONTEND", "noninteractive");
    run(install).map_err(|e| {
        format!(
            "{e}; install {} by hand (as root) and run again",
            missing.join(" ")
        )
    })
}

/// The official CloudEvents Python SDK the interop tests run as a peer
/// (`cloudevent-runtime/tests/interop_sdks.rs`, `tests/interop/python/peer.py`).
const PYTHON_SDK: &str = "cloudevents==2.2.0";
/// The independent Avro implementation `cloudevent-runtime/tests/avro_interop.rs` holds our
/// Avro format to (issue 14 §4).
const PYTHON_AVRO: &str = "fastavro==1.12.2";
/// python-jsonschema, whose verdict `cloudevent-codegen/tests/sets.rs` compares with the
/// generated types' on every example of the published schema sets.
const PYTHON_JSONSCHEMA: &str = "jsonschema==4.26.0";
/// What python-jsonschema's `FormatChecker` needs to check `date-time` and `uri` (without
/// them it accepts any value): the sets test compares verdicts with `format` asserted.
const PYTHON_FORMAT_CHECKS: [(&str, &str); 2] = [
    ("rfc3339_validator", "rfc3339-validator==0.1.4"),
    ("rfc3987", "rfc3987==1.3.8"),
];

/// The independent Protobuf implementation the Protobuf interop test runs as a peer
/// (`cloudevent-runtime/tests/interop_protobuf.rs`, `tests/interop/python/protobuf_peer.py`):
/// the Python `protobuf` runtime, and `grpcio-tools` for its `protoc` (which compiles our copy
/// of the schema). grpcio-tools 1.84 requires protobuf 7.x.
const PYTHON_PROTOBUF: [&str; 2] = ["protobuf==7.36.2", "grpcio-tools==1.84.0"];

/// The maintained broker clients the Python SDK uses in `cloudevent-runtime/tests/interop_brokers.rs`
/// (`tests/interop/python/broker_peer.py`).
const PYTHON_BROKER_CLIENTS: [&str; 3] = [
    "paho-mqtt==2.2.0",
    "nats-py==2.16.0",
    "confluent-kafka==2.16.1",
];

/// Installs the official CloudEvents SDKs the interop tests talk to: the Python SDK with pip
/// (skipped when that version is importable) and the JavaScript SDK with `npm ci` from the
/// committed lock file in `tests/interop/js` (skipped when `node_modules` matches the lock).
fn install_interop_sdks() -> Result<(), String> {
    let version = PYTHON_SDK.rsplit("==").next().unwrap_or_default();
    let installed = Command::new("python3")
        .args([
            "-c",
            "import cloudevents, sys; sys.exit(cloudevents.__version__ != sys.argv[1])",
            version,
        ])
        .status()
        .map_err(|e| format!("could not start python3 (the interop tests need it): {e}"))?;
    if !installed.success() {
        let mut pip = Command::new("python3");
        pip.args(["-m", "pip", "install", "--quiet", PYTHON_SDK]);
        run(pip)?;
    }
    pip_install_unless_importable("fastavro", PYTHON_AVRO)?;
    pip_install_unless_importable("jsonschema", PYTHON_JSONSCHEMA)?;
    for (module, requirement) in PYTHON_FORMAT_CHECKS {
        pip_install_unless_importable(module, requirement)?;
    }
    // nats-py has no `__version__`: these are checked by their distribution's version.
    let installed = Command::new("python3")
        .args([
            "-c",
            "import sys, importlib.metadata as m; \
             sys.exit(any(m.version(n) != v for n, v in (r.split('==') for r in sys.argv[1:])))",
        ])
        .args(PYTHON_BROKER_CLIENTS)
        .stderr(std::process::Stdio::null())
        .status()
        .map_err(|e| format!("could not start python3 (the interop tests need it): {e}"))?;
    if !installed.success() {
        let mut pip = Command::new("python3");
        pip.args(["-m", "pip", "install", "--quiet"])
            .args(PYTHON_BROKER_CLIENTS);
        run(pip)?;
    }

    let versions = PYTHON_PROTOBUF.map(|pin| pin.rsplit("==").next().unwrap_or_default());
    let installed = Command::new("python3")
        .args([
            "-c",
            "import sys, google.protobuf, grpc_tools, importlib.metadata as m; \
             sys.exit(google.protobuf.__version__ != sys.argv[1] or m.version('grpcio-tools') != sys.argv[2])",
            versions[0],
            versions[1],
        ])
        .stderr(std::process::Stdio::null())
        .status()
        .map_err(|e| format!("could not start python3 (the interop tests need it): {e}"))?;
    if !installed.success() {
        let mut pip = Command::new("python3");
        pip.args(["-m", "pip", "install", "--quiet"])
            .args(PYTHON_PROTOBUF);
        run(pip)?;
    }

    let js = workspace_root().join("tests/interop/js");
    let lock = js.join("package-lock.json");
    let installed_lock = js.join("node_modules/.package-lock.json");
    let up_to_date = match (std::fs::metadata(&lock), std::fs::metadata(&installed_lock)) {
        (Ok(lock), Ok(installed)) => match (lock.modified(), installed.modified()) {
            (Ok(lock), Ok(installed)) => installed >= lock,
            _ => false,
        },
        _ => false,
    };
    if !up_to_date {
        let mut npm = Command::new("npm");
        npm.args(["ci", "--no-audit", "--no-fund", "--silent"])
            .current_dir(&js);
        run(npm)?;
    }
    Ok(())
}

/// Installs `requirement` (`name==version`) with pip unless `module` imports at that version.
fn pip_install_unless_importable(module: &str, requirement: &str) -> Result<(), String> {
    let version = requirement.rsplit("==").next().unwrap_or_default();
    let check = format!("import {module}, sys; sys.exit({module}.__version__ != sys.argv[1])");
    let installed = Command::new("python3")
        .args(["-c", &check, version])
        .stderr(std::process::Stdio::null())
        .status()
        .map_err(|e| format!("could not start python3 (the interop tests need it): {e}"))?;
    if !installed.success() {
        let mut pip = Command::new("python3");
        pip.args(["-m", "pip", "install", "--quiet", requirement]);
        run(pip)?;
    }
    Ok(())
}

/// The runtime's features, each linted alone by `cargo xtask test` (the empty name is the
/// core without any).
const RUNTIME_FEATURES: &[&str] = &[
    "",
    "derive",
    "http",
    "axum",
    "gateway",
    "reqwest",
    "rustls-tls",
    "stream",
    "kafka",
    "rdkafka",
    "nats",
    "redis",
    "amqp",
    "fe2o3-amqp",
    "mqtt",
    "avro",
    "protobuf",
    "tracing",
    "otel",
    "websocket",
    "registry",
    "verify",
    "avro,http",
];

fn test() -> Result<(), String> {
    install_test_packages()?;
    install_interop_sdks()?;

    // The fuzz targets are their own workspace (`fuzz/`), outside `--all`: checked beside it.
    for manifest in ["Cargo.toml", "fuzz/Cargo.toml"] {
        let mut fmt = cargo();
        fmt.args(["fmt", "--all", "--check", "--manifest-path", manifest]);
        run(fmt)?;
    }

    let mut clippy = cargo();
    clippy.args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--all-features",
        "--",
        "-D",
        "warnings",
    ]);
    run(clippy)?;

    // `--all-features` hides a feature that does not build alone (an `avro` build without
    // `protobuf` once failed) or leaves dead code behind alone: each runtime feature is
    // linted on its own, warnings denied.
    for feature in RUNTIME_FEATURES {
        let mut check = cargo();
        check.args([
            "clippy",
            "-p",
            "cloudevent-runtime",
            "--no-default-features",
            "--features",
            feature,
            "--",
            "-D",
            "warnings",
        ]);
        run(check)?;
    }

    // The cargo-fuzz targets (their own workspace, `fuzz/`, run by `fuzz/run.sh` through cargo-fuzz)
    // still compile against today's API: a check, no sanitizer (48 s in a cold run, 2026-11-30).
    let mut fuzz = cargo();
    fuzz.args([
        "check",
        "--manifest-path",
        "fuzz/Cargo.toml",
        "--bins",
        "--locked",
    ]);
    run(fuzz)?;

    // The API docs build with no broken or ambiguous intra-doc link (docs.rs would show them).
    let mut doc = cargo();
    doc.args(["doc", "--workspace", "--all-features", "--no-deps"])
        .env("RUSTDOCFLAGS", "-D warnings");
    run(doc)?;

    // The public API against the last release's baseline, `api/<crate>.txt`: no item removed
    // without a deprecation there (CONTRIBUTING.md, "Upgrade policy"). About 75 s on 2 cores
    // once clippy has checked the dependencies.
    api::run(&["--check".to_owned()], &workspace_root())?;

    // The MSRV (`rust-version`) against every dependency's, and every published crate through
    // `cargo publish --dry-run` (no verify build: CONTRIBUTING.md, "Publishing", gives the
    // times).
    msrv::run(&workspace_root())?;
    publish::run(&[], &workspace_root())?;

    let mut test = cargo();
    test.args(["test", "--workspace", "--all-features"]);
    run(test)?;

    // A user's `cargo test --doc` runs the runtime's examples with the default features: the
    // guides that need optional ones are gated on them, and the rest must pass without.
    let mut doc_default = cargo();
    doc_default.args(["test", "-p", "cloudevent-runtime", "--doc"]);
    run(doc_default)?;
    Ok(())
}

#[cfg(test)]
mod runtime_features {
    /// The runtime's `[features]` names, without `default`.
    fn declared() -> Vec<String> {
        let manifest = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../cloudevent-runtime/Cargo.toml"
        ))
        .unwrap();
        let section = manifest.split("[features]").nth(1).unwrap();
        let section = section.split("\n[").next().unwrap();
        section
            .lines()
            .filter_map(|line| line.split_once(" = ").map(|(name, _)| name.trim()))
            .filter(|name| !name.starts_with('#') && *name != "default")
            .map(str::to_owned)
            .collect()
    }

    /// docs.rs builds every feature but `rdkafka`, which links the system's librdkafka.
    #[test]
    fn docs_rs_builds_every_feature_but_rdkafka() {
        let manifest = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../cloudevent-runtime/Cargo.toml"
        ))
        .unwrap();
        let section = manifest.split("[package.metadata.docs.rs]").nth(1).unwrap();
        let line = section
            .lines()
            .find(|l| l.starts_with("features = "))
            .expect("docs.rs names its features");
        let mut listed: Vec<&str> = line.split('"').skip(1).step_by(2).collect();
        listed.sort_unstable();
        let mut expected: Vec<String> = declared().into_iter().filter(|f| f != "rdkafka").collect();
        expected.sort_unstable();
        assert_eq!(listed, expected);
        assert!(section.contains(r#"rustdoc-args = ["--cfg", "docsrs"]"#));
    }

    /// Every feature is in the runtime's crate docs and in README's feature table.
    #[test]
    fn every_runtime_feature_is_documented() {
        let lib = include_str!("../../cloudevent-runtime/src/lib.rs");
        let readme = include_str!("../../README.md");
        for feature in declared() {
            let row = format!("| `{feature}`");
            assert!(
                lib.contains(&format!("//! {row}")),
                "add `{feature}` to the runtime's crate docs"
            );
            assert!(
                readme.contains(&row),
                "add `{feature}` to README's feature table"
            );
        }
    }

    /// Every feature `cloudevent-runtime` declares is linted alone by `cargo xtask test`.
    #[test]
    fn every_runtime_feature_is_checked_alone() {
        let manifest = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../cloudevent-runtime/Cargo.toml"
        ))
        .unwrap();
        let section = manifest.split("[features]").nth(1).unwrap();
        let section = section.split("\n[").next().unwrap();
        let declared: Vec<&str> = section
            .lines()
            .filter_map(|line| line.split_once(" = ").map(|(name, _)| name.trim()))
            .filter(|name| !name.starts_with('#') && *name != "default")
            .collect();
        assert!(declared.len() > 10, "{declared:?}");
        for feature in declared {
            assert!(
                super::RUNTIME_FEATURES.contains(&feature),
                "add `{feature}` to RUNTIME_FEATURES"
            );
        }
    }
}
