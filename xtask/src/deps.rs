//! `cargo xtask deps`: how many crates a user's build of `cloudevent-runtime` with no
//! features pulls in, against `cloudevents-sdk` 0.9 with its default features (57 in the
//! issue; counted here the same way when the registry is reachable).
//!
//! Method: a scratch crate under the target directory (its own workspace, so feature
//! unification with this workspace's members cannot inflate the count) depends on the crate
//! under test; `cargo metadata --filter-platform <host>` resolves it, and the crates
//! reachable from the scratch crate over normal (not dev, not build) dependency edges are
//! counted, the crate under test included, the scratch crate not.

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `cloudevents-sdk` 0.9 with default features, as the issue states it.
pub const SDK_DEFAULT_CRATES: usize = 57;

/// Prints both counts and fails when the runtime does not stay below the SDK.
pub fn run(workspace_root: &Path) -> Result<(), String> {
    let runtime_path = workspace_root.join("cloudevent-runtime");
    let runtime = count(
        workspace_root,
        "runtime",
        &format!(
            "cloudevent-runtime = {{ path = {:?}, default-features = false }}",
            runtime_path.display().to_string()
        ),
    )?;
    println!(
        "cloudevent-runtime (no features): {} crates: {}",
        runtime.len(),
        runtime.iter().cloned().collect::<Vec<_>>().join(" ")
    );
    match count(workspace_root, "sdk", r#"cloudevents-sdk = "=0.9.0""#) {
        Ok(sdk) => println!(
            "cloudevents-sdk 0.9 (default features): {} crates, same method (issue: {SDK_DEFAULT_CRATES})",
            sdk.len()
        ),
        Err(e) => println!(
            "cloudevents-sdk not counted ({e}); the issue's figure is {SDK_DEFAULT_CRATES}"
        ),
    }
    if runtime.len() < SDK_DEFAULT_CRATES {
        println!("ok: {} < {SDK_DEFAULT_CRATES}", runtime.len());
        Ok(())
    } else {
        Err(format!(
            "cloudevent-runtime with no features pulls in {} crates, not fewer than cloudevents-sdk's {SDK_DEFAULT_CRATES}",
            runtime.len()
        ))
    }
}

/// The `name version` of every crate a scratch crate with `dependency` builds on the host.
pub fn count(
    workspace_root: &Path,
    name: &str,
    dependency: &str,
) -> Result<BTreeSet<String>, String> {
    let dir = scratch_crate(workspace_root, name, dependency)?;
    let host = host_triple()?;
    let output = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--filter-platform",
            &host,
        ])
        .current_dir(&dir)
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo metadata failed in {}: {}",
            dir.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("cargo metadata printed something else than JSON: {e}"))?;
    normal_closure(&metadata)
}

/// The crates reachable from the resolve root over normal dependency edges.
fn normal_closure(metadata: &serde_json::Value) -> Result<BTreeSet<String>, String> {
    let resolve = &metadata["resolve"];
    let root = resolve["root"]
        .as_str()
        .ok_or("cargo metadata has no resolve root")?;
    let nodes: HashMap<&str, &serde_json::Value> = resolve["nodes"]
        .as_array()
        .ok_or("cargo metadata has no resolve nodes")?
        .iter()
        .filter_map(|node| Some((node["id"].as_str()?, node)))
        .collect();
    let names: HashMap<&str, String> = metadata["packages"]
        .as_array()
        .ok_or("cargo metadata has no packages")?
        .iter()
        .filter_map(|p| {
            let id = p["id"].as_str()?;
            Some((
                id,
                format!("{} {}", p["name"].as_str()?, p["version"].as_str()?),
            ))
        })
        .collect();

    let mut seen = BTreeSet::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        let node = nodes
            .get(id)
            .ok_or_else(|| format!("{id} is not in the resolve graph"))?;
        for dep in node["deps"].as_array().into_iter().flatten() {
            let normal = dep["dep_kinds"]
                .as_array()
                .is_some_and(|kinds| kinds.iter().any(|k| k["kind"].is_null()));
            if let (true, Some(pkg)) = (normal, dep["pkg"].as_str())
                && seen.insert(pkg)
            {
                stack.push(pkg);
            }
        }
    }
    Ok(seen
        .into_iter()
        .map(|id| names.get(id).cloned().unwrap_or_else(|| id.to_owned()))
        .collect())
}

/// Writes `<target>/xtask-deps/<name>/` depending on `dependency`, with this workspace's
/// lock file so the versions match what the workspace builds.
fn scratch_crate(workspace_root: &Path, name: &str, dependency: &str) -> Result<PathBuf, String> {
    let dir = crate::bench::target_dir(workspace_root)
        .join("xtask-deps")
        .join(name);
    fs::create_dir_all(dir.join("src"))
        .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let manifest = format!(
        "[package]\nname = \"deps-{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\n{dependency}\n\n[workspace]\n"
    );
    let write = |path: PathBuf, text: &[u8]| {
        fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    write(dir.join("Cargo.toml"), manifest.as_bytes())?;
    write(dir.join("src/lib.rs"), b"")?;
    if let Ok(lock) = fs::read(workspace_root.join("Cargo.lock")) {
        write(dir.join("Cargo.lock"), &lock)?;
    }
    Ok(dir)
}

/// The host's target triple, from `rustc -vV`.
fn host_triple() -> Result<String, String> {
    let output = Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
        .arg("-vV")
        .output()
        .map_err(|e| format!("cannot run rustc -vV: {e}"))?;
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::to_owned)
        .ok_or_else(|| "rustc -vV names no host".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_without_features_has_fewer_crates_than_the_sdk() {
        let root = crate::workspace_root();
        let runtime = root.join("cloudevent-runtime").display().to_string();
        let crates = count(
            &root,
            "runtime-test",
            &format!("cloudevent-runtime = {{ path = {runtime:?}, default-features = false }}"),
        )
        .unwrap();
        assert!(
            crates.iter().any(|c| c.starts_with("cloudevent-runtime ")),
            "the crate under test is counted: {crates:?}"
        );
        assert!(
            !crates.iter().any(|c| c.starts_with("cloudevent-derive ")),
            "no features means no derive: {crates:?}"
        );
        assert!(
            crates.len() < SDK_DEFAULT_CRATES,
            "{} crates: {crates:?}",
            crates.len()
        );
    }

    #[test]
    fn closure_follows_normal_edges_only() {
        let metadata = serde_json::json!({
            "packages": [
                {"id": "root", "name": "root", "version": "0.0.0"},
                {"id": "a", "name": "a", "version": "1.0.0"},
                {"id": "b", "name": "b", "version": "1.0.0"},
                {"id": "build", "name": "build", "version": "1.0.0"},
                {"id": "dev", "name": "dev", "version": "1.0.0"}
            ],
            "resolve": {
                "root": "root",
                "nodes": [
                    {"id": "root", "deps": [
                        {"pkg": "a", "dep_kinds": [{"kind": null}]},
                        {"pkg": "dev", "dep_kinds": [{"kind": "dev"}]}
                    ]},
                    {"id": "a", "deps": [
                        {"pkg": "b", "dep_kinds": [{"kind": null}]},
                        {"pkg": "build", "dep_kinds": [{"kind": "build"}]}
                    ]},
                    {"id": "b", "deps": [{"pkg": "a", "dep_kinds": [{"kind": null}]}]},
                    {"id": "build", "deps": []},
                    {"id": "dev", "deps": []}
                ]
            }
        });
        let crates = normal_closure(&metadata).unwrap();
        assert_eq!(
            crates.into_iter().collect::<Vec<_>>(),
            ["a 1.0.0", "b 1.0.0"]
        );
    }
}
