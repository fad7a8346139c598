//! `#[derive(CloudEvent)]` under the non-default policies of `[package.metadata.cloudevent]`:
//! the `cloudevents` and `nl-gov` profiles, a `type-prefix`, a misspelt profile, and a misspelt
//! key beside a bad `type-prefix`.
//!
//! trybuild cannot test these: it builds each case in a project it generates under
//! `target/tests/trybuild/`, whose Cargo.toml carries no `[package.metadata]` (see
//! `make_manifest` in trybuild's `run.rs`), and the derive reads the policy from the
//! Cargo.toml in `CARGO_MANIFEST_DIR`. So this test does what trybuild does, minus that loss.
//! For each fixture crate `tests/profiles/<name>/` it writes a project whose Cargo.toml holds
//! the fixture's `[package.metadata.cloudevent]` section verbatim, with the fixture's
//! `src/lib.rs` as library and one `[[bin]]` per `ui/*.rs` case. Then:
//! - the library must build and its unit tests pass (what the policy accepts);
//! - every case must fail, with the compiler output in `<case>.stderr` (what it refuses).
//!   `TRYBUILD=overwrite` rewrites the `.stderr` files, as with trybuild; read the diff.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::{env, fs};

#[test]
fn profile_cloudevents() {
    check_fixture("cloudevents");
}

#[test]
fn profile_nl_gov() {
    check_fixture("nl-gov");
}

#[test]
fn policy_type_prefix() {
    check_fixture("type-prefix");
}

#[test]
fn policy_unknown_profile() {
    check_fixture("bad-policy");
}

#[test]
fn policy_misspelt_key_and_bad_type_prefix() {
    check_fixture("bad-keys");
}

fn check_fixture(name: &str) {
    let (tests_dir, workspace, target) = places();
    let workspace = workspace.as_path();
    let fixture = tests_dir.join("profiles").join(name);
    let project = target.join(name);
    fs::create_dir_all(&project).expect("create the project directory");

    let mut cases: Vec<PathBuf> = fs::read_dir(fixture.join("ui"))
        .expect("read ui/")
        .map(|entry| entry.expect("ui/ entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no cases in {}/ui", fixture.display());

    let manifest = fs::read_to_string(fixture.join("Cargo.toml")).expect("read Cargo.toml");
    let policy = policy_section(&manifest);
    assert!(
        !policy.is_empty(),
        "{}: no [package.metadata.cloudevent]",
        fixture.display()
    );
    let mut toml = format!(
        "[package]\nname = \"profile-ui-{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [lib]\npath = {:?}\n\n\
         [dependencies]\ncloudevent-runtime = {{ path = {:?} }}\n\n[workspace]\n\n",
        fixture.join("src/lib.rs"),
        workspace.join("cloudevent-runtime"),
    );
    for case in &cases {
        let _ = write!(
            toml,
            "[[bin]]\nname = {:?}\npath = {:?}\n\n",
            stem(case),
            case
        );
    }
    toml.push_str(&policy);
    fs::write(project.join("Cargo.toml"), toml).expect("write Cargo.toml");
    fs::copy(workspace.join("Cargo.lock"), project.join("Cargo.lock")).expect("copy Cargo.lock");

    let cargo = |args: &[&str]| -> Output {
        Command::new(env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .current_dir(&project)
            .args(args)
            .args(["--offline", "--quiet", "--color=never"])
            .env("CARGO_TARGET_DIR", target.join("target"))
            .env_remove("RUSTFLAGS")
            .output()
            .expect("run cargo")
    };

    let mut failures = Vec::new();
    // The bad-policy fixture's library derives nothing; for the others it holds the names
    // that only this policy accepts, with unit tests reading them back.
    let library = cargo(&["test", "--lib"]);
    if !library.status.success() {
        failures.push(format!(
            "{}: the library must build and pass its tests under this policy:\n{}{}",
            fixture.display(),
            String::from_utf8_lossy(&library.stdout),
            String::from_utf8_lossy(&library.stderr)
        ));
    }

    let overwrite = env::var_os("TRYBUILD").is_some_and(|v| v == "overwrite");
    for case in &cases {
        let output = cargo(&["check", "--bin", &stem(case)]);
        if output.status.success() {
            failures.push(format!("{}: compiled, but must fail", case.display()));
            continue;
        }
        let found = normalize(
            &String::from_utf8_lossy(&output.stderr),
            &fixture,
            workspace,
        );
        let expected_path = case.with_extension("stderr");
        match fs::read_to_string(&expected_path) {
            Ok(expected) if !overwrite => {
                if expected != found {
                    failures.push(format!(
                        "{}: expected\n{expected}\nfound\n{found}",
                        case.display()
                    ));
                }
            }
            _ => fs::write(&expected_path, found).expect("write .stderr"),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The tests crate's directory, the workspace root, and `<target>/profile-ui`, where the
/// generated projects are built.
fn places() -> (&'static Path, PathBuf, PathBuf) {
    let tests_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = tests_dir
        .parent()
        .expect("tests/ lives in the workspace root")
        .to_owned();
    let target = env::current_exe()
        .expect("test executable path")
        .ancestors()
        .nth(3)
        .expect("test executables live in <target>/<profile>/deps/")
        .join("profile-ui");
    (tests_dir, workspace, target)
}

fn stem(case: &Path) -> String {
    case.file_stem()
        .and_then(|s| s.to_str())
        .expect("case file name")
        .to_owned()
}

/// The `[package.metadata.cloudevent]` table, copied as written (up to the next table).
fn policy_section(manifest: &str) -> String {
    let mut section = String::new();
    let mut inside = false;
    for line in manifest.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            inside = trimmed == "[package.metadata.cloudevent]";
        }
        if inside {
            section.push_str(line);
            section.push('\n');
        }
    }
    section
}

/// The compiler's output without Cargo's summary lines, with paths relative to the fixture.
fn normalize(stderr: &str, fixture: &Path, workspace: &Path) -> String {
    let fixture = format!("{}/", fixture.display());
    let workspace = format!("{}/", workspace.display());
    let kept: Vec<String> = stderr
        .lines()
        .filter(|l| {
            !l.starts_with("error: could not compile") && !l.starts_with("warning: build failed")
        })
        .map(|l| l.replace(&fixture, "").replace(&workspace, "$WORKSPACE/"))
        .collect();
    let mut out = kept.join("\n").trim_end().to_owned();
    out.push('\n');
    out
}

/// The derive makes the compiler track the `Cargo.toml` whose policy it applied, once per
/// crate (the crate's first derive includes it): editing `[package.metadata.cloudevent]`
/// alone, which Cargo's own fingerprint ignores, must rebuild the crate and apply the new
/// policy to every derived type, not only the first.
#[test]
fn editing_the_policy_rebuilds_every_derived_type() {
    let (_, workspace, target) = places();
    let project = target.join("policy-edit");
    fs::create_dir_all(project.join("src")).expect("create the project directory");
    fs::write(
        project.join("src/lib.rs"),
        "use cloudevent_runtime::CloudEvent;\n\n\
         #[derive(CloudEvent)]\n#[cloudevent(type = \"com.example.order.created\")]\npub struct First;\n\n\
         #[derive(CloudEvent)]\n#[cloudevent(type = \"com.example.order.shipped\")]\npub struct Second;\n",
    )
    .expect("write lib.rs");
    fs::copy(workspace.join("Cargo.lock"), project.join("Cargo.lock")).expect("copy Cargo.lock");
    let manifest = |policy: &str| {
        let toml = format!(
            "[package]\nname = \"profile-ui-policy-edit\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\ncloudevent-runtime = {{ path = {:?} }}\n\n[workspace]\n\n\
             [package.metadata.cloudevent]\nprofile = \"intg-std-015\"\n{policy}",
            workspace.join("cloudevent-runtime"),
        );
        fs::write(project.join("Cargo.toml"), toml).expect("write Cargo.toml");
    };
    let check = || -> Output {
        Command::new(env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .current_dir(&project)
            .args(["check", "--lib", "--offline", "--quiet", "--color=never"])
            .env("CARGO_TARGET_DIR", target.join("target"))
            .env_remove("RUSTFLAGS")
            .output()
            .expect("run cargo")
    };

    manifest("type-prefix = \"com.example\"\n");
    let accepted = check();
    assert!(
        accepted.status.success(),
        "under `com.example` both types are rooted:\n{}",
        String::from_utf8_lossy(&accepted.stderr)
    );

    manifest("type-prefix = \"nl.example\"\n");
    let refused = check();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success(),
        "the edited policy was not applied:\n{stderr}"
    );
    for ty in ["com.example.order.created", "com.example.order.shipped"] {
        assert!(
            stderr.contains(&format!(
                "type `{ty}`: must be rooted at the organisation prefix `nl.example.`"
            )),
            "{ty} is refused under the edited policy:\n{stderr}"
        );
    }

    manifest("type-prefix = \"com.example\"\n");
    assert!(
        check().status.success(),
        "the policy edited back is applied too"
    );
}

#[test]
fn policy_section_is_copied_verbatim() {
    let manifest = "[package]\nname = \"x\"\n\n[package.metadata.cloudevent]\nprofile = \"nl-gov\"\n\n[dependencies]\nserde = \"1\"\n";
    assert_eq!(
        policy_section(manifest),
        "[package.metadata.cloudevent]\nprofile = \"nl-gov\"\n\n"
    );
    assert_eq!(policy_section("[package]\nname = \"x\"\n"), "");
}
