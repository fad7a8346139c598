//! A small crate built from generated code, as a user's crate would hold it: the codegen
//! README's dependencies (the runtime from this workspace) and no policy of its own. Every
//! scratch crate lives in `<target>/codegen-sets/<name>` and builds into the one target folder
//! there, which `tests/sets.rs` shares, so the runtime and its dependencies compile once.

#![allow(dead_code, reason = "each test file uses the part it needs")]

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The profile of every crate built in `<target>/codegen-sets/` (they share its target
/// folder, so they must agree for the dependencies to compile once): the workspace's own
/// debug settings (line tables for the crate, no debug info for its dependencies) and no
/// incremental cache, which a build done once in a fresh folder never reads. Cargo's
/// defaults there made the library of Google's set (24.6 MB of generated Rust) 1.75 GB, with
/// 2.5 GB of incremental cache beside it.
pub const PROFILE: &str = "[profile.dev]\ndebug = \"line-tables-only\"\nincremental = false\n\n\
                           [profile.dev.package.\"*\"]\ndebug = false\n";

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
             serde = {{ version = \"1\", features = [\"derive\"] }}\nserde_json = \"1\"\n\n{PROFILE}\n[workspace]\n",
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

/// A scratch crate's `main.rs` that reads events through the generated modules it includes:
/// add each module's Rust with [`Reader::module`], each event with [`Reader::event`], then
/// [`Reader::run`] prints one line an event: `ok` (read as the variant of its type, data
/// written back unchanged), `refused\t<error>`, `other`, or `differs\t<type>\t<data>`.
#[derive(Default)]
pub struct Reader {
    main: String,
    read: String,
    events: String,
    count: usize,
}

impl Reader {
    /// Includes the generated Rust `code` as module `module` of the crate.
    pub fn module(&mut self, scratch: &Scratch, module: &str, code: &str) {
        scratch.write(&format!("src/{module}.rs"), code);
        self.main.push_str(&format!(
            "pub mod {module} {{\n    include!(\"{module}.rs\");\n}}\n"
        ));
        self.read.push_str(&format!(
            "        \"{module}\" => match {module}::RegistryEvent::from_slice(bytes).map_err(|e| e.to_string())? {{\n"
        ));
        for variant in variants(code) {
            self.read.push_str(&format!(
                "            {module}::RegistryEvent::{variant}(e) => Ok(of(&e)),\n"
            ));
        }
        self.read
            .push_str("            _ => Ok(None),\n        },\n");
    }

    /// An event of type `event_type` carrying `data`, read through `module`.
    pub fn event(&mut self, module: &str, event_type: &str, data: &serde_json::Value) {
        let event = serde_json::json!({
            "specversion": "1.0",
            "id": format!("e{}", self.count),
            "source": "https://example.com/scratch",
            "type": event_type,
            "datacontenttype": "application/json",
            "data": data,
        });
        self.count += 1;
        self.events
            .push_str(&format!("{module}\t{event_type}\t{event}\n"));
    }

    /// Builds and runs the crate; one line an event, in order.
    pub fn run(&self, scratch: &Scratch) -> Vec<String> {
        let mut main = String::from("#![deny(warnings)]\n#![allow(clippy::all, missing_docs)]\n");
        main.push_str(&self.main);
        main.push_str(
            "fn read(module: &str, bytes: &[u8]) -> Result<Option<(&'static str, serde_json::Value)>, String> {\n    match module {\n",
        );
        main.push_str(&self.read);
        main.push_str("        _ => unreachable!(),\n    }\n}\n");
        main.push_str(READER_MAIN);
        scratch.write("src/main.rs", &main);
        scratch.write("events.txt", &self.events);
        let events = scratch.dir.join("events.txt");
        let output = scratch.cargo(&["run", "--", events.to_str().unwrap()]);
        assert!(output.status.success(), "{}", text(&output));
        let lines: Vec<String> = String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(str::to_owned)
            .collect();
        assert_eq!(lines.len(), self.count, "{lines:?}");
        lines
    }
}

const READER_MAIN: &str = r#"
fn main() {
    let path = std::env::args().nth(1).unwrap();
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let mut parts = line.splitn(3, '\t');
        let (module, expected, text) = (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
        let sent: serde_json::Value = serde_json::from_str(text).unwrap();
        match read(module, text.as_bytes()) {
            Err(e) => println!("refused\t{}", e.replace('\n', " ")),
            Ok(None) => println!("other"),
            Ok(Some((ty, data))) if ty == expected && data == sent["data"] => println!("ok"),
            Ok(Some((ty, data))) => println!("differs\t{ty}\t{data}"),
        }
    }
}

fn of<T: cloudevent_runtime::CloudEventData + serde::Serialize>(
    event: &cloudevent_runtime::Event<T>,
) -> Option<(&'static str, serde_json::Value)> {
    Some((T::TYPE, serde_json::to_value(event.data()).unwrap()))
}
"#;
