//! A small crate built from generated code, as a user's crate would hold it: the codegen
//! README's dependencies (the runtime from this workspace) and no policy of its own. Every
//! scratch crate lives in `<target>/codegen-sets/<name>` and builds into the one target folder
//! there, which `tests/sets.rs` shares, so the runtime and its dependencies compile once.

#![allow(dead_code, reason = "each test file uses the part it needs")]

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A crate `generated-<name>` whose `src/generated.rs` is included by `src/lib.rs`.
pub struct Scratch {
    pub dir: PathBuf,
    target: PathBuf,
}

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let base = env::current_exe()
            .unwrap()
            .ancestors()
            .nth(3)
            .expect("test executables live in <target>/<profile>/deps/")
            .join("codegen-sets");
        let dir = base.join(name);
        fs::create_dir_all(dir.join("src")).unwrap();
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let manifest = format!(
            "[package]\nname = \"generated-{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\ncloudevent-runtime = {{ path = {:?}, features = [\"registry\"] }}\n\
             serde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\n\n[workspace]\n",
            workspace.join("cloudevent-runtime")
        );
        write_if_changed(&dir.join("Cargo.toml"), &manifest);
        if !dir.join("Cargo.lock").exists() {
            fs::copy(workspace.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
        }
        Scratch {
            dir,
            target: base.join("target"),
        }
    }

    /// Writes a file of the crate (`src/generated.rs`, `src/main.rs`), keeping its time when
    /// the text is unchanged so cargo does not rebuild it.
    pub fn write(&self, relative: &str, text: &str) {
        write_if_changed(&self.dir.join(relative), text);
    }

    /// `cargo <args> --offline` in the crate.
    pub fn cargo(&self, args: &[&str]) -> Output {
        Command::new(env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .current_dir(&self.dir)
            .args(args)
            .args(["--offline", "--color=never", "--quiet"])
            .env("CARGO_TARGET_DIR", &self.target)
            .env_remove("RUSTFLAGS")
            .output()
            .expect("run cargo")
    }
}

/// The variants of a generated file's `RegistryEvent`, `Other` left out.
pub fn variants(rust: &str) -> Vec<String> {
    let start = rust.find("pub enum RegistryEvent {").unwrap();
    rust[start..]
        .lines()
        .skip(1)
        .map(str::trim)
        .take_while(|l| *l != "}")
        .filter(|l| !l.starts_with("//") && !l.starts_with('#'))
        .filter_map(|l| l.split_once('(').map(|(v, _)| v.to_owned()))
        .filter(|v| v != "Other")
        .collect()
}

/// The output of a cargo run, for an assertion message.
pub fn text(output: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn write_if_changed(path: &Path, text: &str) {
    if fs::read_to_string(path).ok().as_deref() != Some(text) {
        fs::write(path, text).unwrap();
    }
}
