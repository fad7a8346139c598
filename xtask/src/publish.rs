//! `cargo xtask package [--verify]`: every published crate through `cargo publish --dry-run`
//! (which runs `cargo package`, then stops before the upload), in dependency order (issue
//! 41). The crates not yet on crates.io are packaged against each other through cargo's
//! local overlay (`-p a -p b` packages a crate's unpublished workspace dependencies with it),
//! so this needs the crates.io index but no token and no upload.
//!
//! Without `--verify` the archives are assembled and checked (manifest, version requirements
//! on every dependency, the files listed) but not built: a verify build compiles each crate
//! again in a target directory of its own, sharing nothing with the workspace's, and costs
//! CI minutes for what the workspace's own build already shows (CONTRIBUTING.md,
//! "Publishing", gives the measured times).

use std::path::Path;

/// The crates published to crates.io, in dependency order. Every other workspace member is
/// `publish = false` (a test below holds both lists to the manifests).
pub const PUBLISHED: [&str; 5] = [
    "cloudevent-rules",
    "cloudevent-derive",
    "cloudevent-runtime",
    "cloudevent-codegen",
    "cloudevent-cli",
];

/// Packages every published crate; `--verify` also builds each archive.
pub fn run(args: &[String], root: &Path) -> Result<(), String> {
    let verify = match args.first().map(String::as_str) {
        None => false,
        Some("--verify") => true,
        Some(other) => return Err(format!("package: unknown argument `{other}` (--verify)")),
    };
    let version = env!("CARGO_PKG_VERSION");
    let mut package = super::cargo();
    // `--allow-dirty`: the step checks manifests and file lists, not that the work is committed.
    package
        .current_dir(root)
        .args(["publish", "--dry-run", "--locked", "--allow-dirty"]);
    if verify {
        forget_unpacked_overlay(version)?;
    } else {
        package.arg("--no-verify");
    }
    for name in PUBLISHED {
        package.args(["-p", name]);
    }
    // `cargo publish --dry-run` writes its archives to `package/tmp-crate/`, `cargo package`
    // to `package/`: stale ones from an earlier run must not be measured.
    let archives = |name: &str| {
        let package = super::target_dir(root).join("package");
        let file = format!("{name}-{version}.crate");
        [package.join("tmp-crate").join(&file), package.join(file)]
    };
    for name in PUBLISHED {
        for stale in archives(name) {
            let _ = std::fs::remove_file(stale);
        }
    }
    let started = std::time::Instant::now();
    super::run(package)?;
    println!(
        "xtask: packaged {} crates in {:.0} s",
        PUBLISHED.len(),
        started.elapsed().as_secs_f64()
    );
    // A test fixture or generated file let in by the `include` lists would show here first.
    let mut too_large = Vec::new();
    for name in PUBLISHED {
        let size = archives(name)
            .iter()
            .find_map(|archive| std::fs::metadata(archive).ok())
            .ok_or_else(|| format!("package: no archive of {name} was written"))?
            .len();
        println!("xtask: {name}-{version}.crate: {} KiB", size / 1024);
        if size > MAX_ARCHIVE_BYTES {
            too_large.push(format!("{name} ({} KiB)", size / 1024));
        }
    }
    if too_large.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "package: over {} KiB compressed: {}; keep tests and fixtures out of `include`",
            MAX_ARCHIVE_BYTES / 1024,
            too_large.join(", ")
        ))
    }
}

/// Removes the copies of our crates that an earlier verify build unpacked from cargo's local
/// overlay registry (`$CARGO_HOME/registry/src/-<hash>/<crate>-<version>`). Cargo treats a
/// name and version as immutable and reuses such a copy, so after a source change the verify
/// build of `cloudevent-cli` compiled against the previous run's `cloudevent-codegen` (seen
/// 2026-11-29: "no method named `openapi`"). Only directories of a local registry (named
/// `-<hash>`, not crates.io's `index.crates.io-<hash>`) and only our crates are touched.
fn forget_unpacked_overlay(version: &str) -> Result<(), String> {
    let home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))
        .ok_or("package: neither CARGO_HOME nor HOME is set")?;
    let Ok(registries) = std::fs::read_dir(home.join("registry").join("src")) else {
        return Ok(());
    };
    for registry in registries.flatten() {
        if !registry.file_name().to_string_lossy().starts_with('-') {
            continue;
        }
        for name in PUBLISHED {
            let unpacked = registry.path().join(format!("{name}-{version}"));
            if unpacked.is_dir() {
                std::fs::remove_dir_all(&unpacked)
                    .map_err(|e| format!("{}: {e}", unpacked.display()))?;
            }
        }
    }
    Ok(())
}

/// The largest archive we ship: the runtime's is about 330 KiB compressed; codegen's schema
/// sets alone (tests, not shipped) would be several MB.
const MAX_ARCHIVE_BYTES: u64 = 1024 * 1024;

#[cfg(test)]
mod tests {
    use super::PUBLISHED;
    use std::path::Path;

    fn root() -> &'static Path {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
    }

    fn manifest(dir: &str) -> String {
        std::fs::read_to_string(root().join(dir).join("Cargo.toml")).unwrap()
    }

    /// The workspace members, from the root manifest's `members` list.
    fn members() -> Vec<String> {
        let workspace = manifest(".");
        let list = workspace
            .split("members = [")
            .nth(1)
            .and_then(|rest| rest.split(']').next())
            .expect("the workspace lists its members");
        list.split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect()
    }

    /// Each published crate carries what crates.io and docs.rs show: a description, a README,
    /// keywords, categories, the licence expression and both licence texts (copies of the
    /// root's, no symlinks), docs.rs metadata; every other member is `publish = false`.
    #[test]
    fn published_crates_carry_their_metadata_and_the_rest_are_not_published() {
        let members = members();
        for name in PUBLISHED {
            assert!(members.iter().any(|m| m == name), "{name} is a member");
            let text = manifest(name);
            for key in [
                "description = ",
                "readme = ",
                "keywords = ",
                "categories = ",
                "license.workspace = true",
                "rust-version.workspace = true",
                "[package.metadata.docs.rs]",
                "include = [",
            ] {
                assert!(text.contains(key), "{name}/Cargo.toml: add `{key}`");
            }
            assert!(!text.contains("publish = false"), "{name} is published");
            for licence in ["LICENSE-MIT", "LICENSE-APACHE"] {
                let path = root().join(name).join(licence);
                let meta = std::fs::symlink_metadata(&path)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                assert!(meta.is_file(), "{}: a copy, not a symlink", path.display());
                assert_eq!(
                    std::fs::read(&path).unwrap(),
                    std::fs::read(root().join(licence)).unwrap(),
                    "{} differs from the root's {licence}",
                    path.display()
                );
            }
        }
        for member in members.iter().filter(|m| !PUBLISHED.contains(&m.as_str())) {
            assert!(
                manifest(member).contains("\npublish = false\n"),
                "{member}/Cargo.toml: not published, so `publish = false`"
            );
        }
        let workspace = manifest(".");
        assert!(workspace.contains("license = \"MIT OR Apache-2.0\""));
    }
}
