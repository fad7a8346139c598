//! `cargo xtask msrv`: the declared minimum supported Rust version (`rust-version` in the
//! workspace's Cargo.toml) against the dependencies of the published crates (issue 41).
//!
//! This machine and CI have one toolchain (the current stable) and no way to download an
//! older one, so the MSRV is held two ways, neither of which builds with the old compiler:
//!
//! - clippy's `incompatible_msrv` lint (in `clippy::all`, denied by `-D warnings` in
//!   `cargo xtask test`) reads `rust-version` and refuses a call to a standard-library API
//!   stabilised after it;
//! - this check: every crate the published crates reach over normal and build dependency
//!   edges, with every feature on and on every target platform, at the version `Cargo.lock`
//!   resolves, declares a `rust-version` no newer than ours, or none. A dependency that needs
//!   a newer compiler would make our `rust-version` a promise we cannot keep.
//!
//! What neither catches: a language feature newer than the MSRV (a syntax the old parser
//! refuses), and a dependency that needs a newer compiler without declaring it.
//! CONTRIBUTING.md ("Minimum supported Rust version") says so.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

/// Runs `cargo metadata` and fails naming every dependency that needs a newer compiler.
pub fn run(root: &Path) -> Result<(), String> {
    let mut metadata = super::cargo();
    metadata.current_dir(root).args([
        "metadata",
        "--format-version",
        "1",
        "--all-features",
        "--locked",
    ]);
    let shown = format!("{metadata:?}");
    println!("xtask: running {shown}");
    let output = metadata
        .output()
        .map_err(|e| format!("could not start {shown}: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "{shown} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let json: Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("cargo metadata's output: {e}"))?;
    let verdict = check(&json, &super::publish::PUBLISHED)?;
    println!("{}", verdict.describe());
    if verdict.too_new.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "msrv: {} dependencies declare a rust-version newer than ours ({}); raise \
             `rust-version` in Cargo.toml to the newest of them, or pick versions that \
             support ours (CONTRIBUTING.md, \"Minimum supported Rust version\")",
            verdict.too_new.len(),
            verdict.ours
        ))
    }
}

/// A Rust version as `rust-version` writes it (`1.85`, `1.85.1`), comparable.
fn version(text: &str) -> Option<[u64; 3]> {
    let mut parts = text.trim().split('.').map(|p| p.parse::<u64>().ok());
    let major = parts.next()??;
    let minor = parts.next().flatten().unwrap_or(0);
    let patch = parts.next().flatten().unwrap_or(0);
    Some([major, minor, patch])
}

#[derive(Debug, Default)]
pub struct Verdict {
    /// Our `rust-version`.
    pub ours: String,
    /// Dependencies checked (the published crates themselves excluded).
    pub checked: usize,
    /// Of those, how many declare no `rust-version`.
    pub undeclared: usize,
    /// The newest `rust-version` a dependency declares, and which.
    pub newest: Option<(String, String)>,
    /// `name version (rust-version X)` of each dependency newer than ours.
    pub too_new: Vec<String>,
}

impl Verdict {
    pub fn describe(&self) -> String {
        let mut out = format!(
            "msrv: rust-version {}; {} dependencies of the published crates (all features, \
             every platform, normal and build edges): {} declare none",
            self.ours, self.checked, self.undeclared
        );
        if let Some((rust_version, name)) = &self.newest {
            out.push_str(&format!(", the newest declared is {rust_version} ({name})"));
        }
        for item in &self.too_new {
            out.push_str(&format!("\n  NEWER THAN OURS: {item}"));
        }
        out
    }
}

/// The check over `cargo metadata`'s JSON, from the workspace packages named in `published`.
pub fn check(metadata: &Value, published: &[&str]) -> Result<Verdict, String> {
    let packages: BTreeMap<&str, &Value> = metadata["packages"]
        .as_array()
        .ok_or("cargo metadata without packages")?
        .iter()
        .filter_map(|p| Some((p["id"].as_str()?, p)))
        .collect();
    let nodes: BTreeMap<&str, &Value> = metadata["resolve"]["nodes"]
        .as_array()
        .ok_or("cargo metadata without a resolve graph")?
        .iter()
        .filter_map(|n| Some((n["id"].as_str()?, n)))
        .collect();
    let members: BTreeSet<&str> = metadata["workspace_members"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let roots: Vec<&str> = packages
        .iter()
        .filter(|(id, p)| {
            members.contains(*id) && published.contains(&p["name"].as_str().unwrap_or_default())
        })
        .map(|(id, _)| *id)
        .collect();
    if roots.len() != published.len() {
        return Err(format!(
            "msrv: expected the workspace packages {published:?}, found {} of them",
            roots.len()
        ));
    }
    let ours = roots
        .iter()
        .filter_map(|id| packages[id]["rust_version"].as_str())
        .collect::<BTreeSet<_>>();
    let ours = match ours.into_iter().collect::<Vec<_>>()[..] {
        [one] => one.to_owned(),
        ref many => {
            return Err(format!(
                "msrv: the published crates declare {} rust-versions ({many:?}); one is expected",
                many.len()
            ));
        }
    };
    let limit = version(&ours).ok_or_else(|| format!("msrv: `{ours}` is not a version"))?;

    let mut reached = BTreeSet::new();
    let mut stack = roots.clone();
    while let Some(id) = stack.pop() {
        if !reached.insert(id) {
            continue;
        }
        let Some(node) = nodes.get(id) else { continue };
        for dep in node["deps"].as_array().into_iter().flatten() {
            // `kind` is null for a normal dependency; "dev" edges are the tests' only.
            let used = dep["dep_kinds"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|k| k["kind"].is_null() || k["kind"] == "build");
            if used && let Some(pkg) = dep["pkg"].as_str() {
                stack.push(pkg);
            }
        }
    }

    let mut verdict = Verdict {
        ours,
        ..Verdict::default()
    };
    let mut newest: Option<([u64; 3], String, String)> = None;
    for id in reached.iter().filter(|id| !roots.contains(id)) {
        let package = packages[id];
        let name = package["name"].as_str().unwrap_or_default();
        let package_version = package["version"].as_str().unwrap_or_default();
        verdict.checked += 1;
        let Some(declared) = package["rust_version"].as_str() else {
            verdict.undeclared += 1;
            continue;
        };
        let Some(parsed) = version(declared) else {
            return Err(format!(
                "msrv: {name} {package_version} declares rust-version `{declared}`"
            ));
        };
        if newest.as_ref().is_none_or(|(v, _, _)| parsed > *v) {
            newest = Some((
                parsed,
                declared.to_owned(),
                format!("{name} {package_version}"),
            ));
        }
        if parsed > limit {
            verdict.too_new.push(format!(
                "{name} {package_version} (rust-version {declared})"
            ));
        }
    }
    verdict.newest = newest.map(|(_, declared, name)| (declared, name));
    Ok(verdict)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A workspace crate `a` (ours: 1.85) reaching `b` (1.80) normally, `c` (none) as a build
    /// dependency, `d` (1.89) through `b`, and `e` (1.95) only as a dev-dependency.
    fn metadata(d_rust_version: &str) -> Value {
        let package = |id: &str, rust_version: Option<&str>| serde_json::json!({"id": id, "name": id, "version": "1.0.0", "rust_version": rust_version});
        let edge = |pkg: &str, kind: Option<&str>| serde_json::json!({"pkg": pkg, "dep_kinds": [{"kind": kind, "target": null}]});
        serde_json::json!({
            "workspace_members": ["a"],
            "packages": [
                package("a", Some("1.85")),
                package("b", Some("1.80")),
                package("c", None),
                package("d", Some(d_rust_version)),
                package("e", Some("1.95")),
            ],
            "resolve": {"nodes": [
                {"id": "a", "deps": [edge("b", None), edge("c", Some("build")), edge("e", Some("dev"))]},
                {"id": "b", "deps": [edge("d", None)]},
                {"id": "c", "deps": []},
                {"id": "d", "deps": []},
                {"id": "e", "deps": []},
            ]}
        })
    }

    #[test]
    fn a_dependency_newer_than_ours_fails_a_dev_dependency_does_not() {
        let verdict = check(&metadata("1.89"), &["a"]).unwrap();
        assert_eq!(verdict.ours, "1.85");
        assert_eq!(verdict.checked, 3, "b, c, d; not the dev-dependency e");
        assert_eq!(verdict.undeclared, 1);
        assert_eq!(verdict.too_new, ["d 1.0.0 (rust-version 1.89)"]);
        assert!(verdict.describe().contains("NEWER THAN OURS: d 1.0.0"));

        let verdict = check(&metadata("1.85.1"), &["a"]).unwrap();
        assert_eq!(verdict.too_new, ["d 1.0.0 (rust-version 1.85.1)"]);

        let verdict = check(&metadata("1.85"), &["a"]).unwrap();
        assert!(verdict.too_new.is_empty(), "{verdict:?}");
        assert_eq!(
            verdict.newest,
            Some(("1.85".to_owned(), "d 1.0.0".to_owned()))
        );
    }

    /// README.md and CONTRIBUTING.md state the `rust-version` the workspace declares.
    #[test]
    fn the_docs_state_the_declared_msrv() {
        let root = crate::workspace_root();
        let read = |file: &str| std::fs::read_to_string(root.join(file)).unwrap();
        let manifest = read("Cargo.toml");
        let declared = manifest
            .lines()
            .find_map(|l| l.strip_prefix("rust-version = \""))
            .and_then(|rest| rest.strip_suffix('"'))
            .expect("the workspace declares a rust-version");
        assert!(
            read("README.md").contains(&format!("Rust {declared} or newer")),
            "README.md: say `Rust {declared} or newer`"
        );
        assert!(
            read("CONTRIBUTING.md").contains(&format!("`rust-version = \"{declared}\"`")),
            "CONTRIBUTING.md: state `rust-version = \"{declared}\"`"
        );
    }

    #[test]
    fn versions_compare_as_numbers() {
        assert!(version("1.9").unwrap() < version("1.85").unwrap());
        assert_eq!(version("1.85"), Some([1, 85, 0]));
        assert_eq!(version("1.85.1"), Some([1, 85, 1]));
        assert_eq!(version("x"), None);
    }
}
