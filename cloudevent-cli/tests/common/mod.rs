//! What the CLI's integration tests share: the binary, its output as text, paths in the
//! repository and temporary folders that remove themselves.

// Each test file is its own crate and uses a part of this module.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs the `cloudevent` binary built for these tests.
pub fn cloudevent<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cloudevent"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// `cloudevent codegen --schemas SCHEMAS --out OUT` and `extra` arguments.
pub fn codegen_to(schemas: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<&OsStr> = vec![
        "codegen".as_ref(),
        "--schemas".as_ref(),
        schemas.as_ref(),
        "--out".as_ref(),
        out.as_ref(),
    ];
    args.extend(extra.iter().map(OsStr::new));
    cloudevent(&args)
}

/// Output as text (the CLI writes UTF-8 only).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// A path relative to the repository's root.
pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// A temporary directory, removed when dropped. Unique per process, name and call, so tests
/// running in parallel never share one.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "cloudevent-cli-{}-{name}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }

    /// A temporary copy of the folder `from`, every file in it.
    pub fn copy_of(from: &Path, name: &str) -> TempDir {
        let dir = TempDir::new(name);
        copy_dir(from, &dir.0, |_| true);
        dir
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The path as text, for argument lists of `&str`.
    pub fn as_str(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temp dir")
    }

    /// Writes `contents` to `name` inside; returns the file's path.
    pub fn write(&self, name: &str, contents: &str) -> String {
        let path = self.0.join(name);
        fs::write(&path, contents).expect("temp file");
        path.display().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Copies the files of `from` that `keep` accepts into `to`, folders included.
pub fn copy_dir(from: &Path, to: &Path, keep: fn(&Path) -> bool) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target, keep);
        } else if keep(&path) {
            fs::copy(&path, target).unwrap();
        }
    }
}

/// Rewrites the JSON document at `path` with `change`.
pub fn edit_json(path: &Path, change: impl FnOnce(&mut serde_json::Value)) {
    let mut schema: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    change(&mut schema);
    fs::write(path, serde_json::to_string_pretty(&schema).unwrap()).unwrap();
}
