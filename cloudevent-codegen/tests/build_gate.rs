//! The gate in a real build script: a crate whose `build.rs` runs `Builder` on a registry is
//! built with `cargo build` (in `<target>/build-gate/`, offline, with the workspace's lock
//! file). The first build writes `cloudevent.lock.json`; a breaking edit then fails
//! `cargo build` with the change and the fix; publishing the change as `v2.json` builds.

use std::env;
use std::fs;
use std::path::Path;
use std::process::{Command, Output};

const BUILD_RS: &str = r#"fn main() {
    if let Err(error) = cloudevent_codegen::Builder::new().schemas("schemas").generate_to_out_dir() {
        eprintln!("{error}");
        std::process::exit(1);
    }
}
"#;

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            fs::copy(&path, target).unwrap();
        }
    }
}

#[test]
fn a_breaking_edit_fails_cargo_build_with_the_fix() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let target = env::current_exe()
        .unwrap()
        .ancestors()
        .nth(3)
        .expect("test executables live in <target>/<profile>/deps/")
        .join("build-gate");
    let project = target.join("crate");
    let _ = fs::remove_dir_all(&project);
    fs::create_dir_all(project.join("src")).unwrap();
    fs::write(
        project.join("Cargo.toml"),
        format!(
            "[package]\nname = \"build-gate\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [build-dependencies]\ncloudevent-codegen = {{ path = {:?} }}\n\n[workspace]\n",
            workspace.join("cloudevent-codegen")
        ),
    )
    .unwrap();
    fs::copy(workspace.join("Cargo.lock"), project.join("Cargo.lock")).unwrap();
    fs::write(project.join("build.rs"), BUILD_RS).unwrap();
    fs::write(
        project.join("src/lib.rs"),
        "//! Nothing but the build script.\n",
    )
    .unwrap();
    let cancelled = "com.example.order.cancelled";
    copy_dir(
        &workspace.join("schemas").join(cancelled),
        &project.join("schemas").join(cancelled),
    );

    let build = || -> Output {
        Command::new(env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .current_dir(&project)
            .args(["build", "--offline", "--color=never"])
            .env("CARGO_TARGET_DIR", target.join("target"))
            .env_remove("RUSTFLAGS")
            .output()
            .expect("run cargo")
    };
    let first = build();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(
        project.join("cloudevent.lock.json").exists(),
        "the first build writes the lock"
    );

    let v1 = project.join("schemas").join(cancelled).join("v1.json");
    let original = fs::read_to_string(&v1).unwrap();
    let mut schema: serde_json::Value = serde_json::from_str(&original).unwrap();
    schema["properties"]
        .as_object_mut()
        .unwrap()
        .remove("comment");
    let changed = serde_json::to_string_pretty(&schema).unwrap();
    fs::write(&v1, &changed).unwrap();
    let refused = build();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success(),
        "a breaking edit must fail the build"
    );
    for needle in [
        "property `comment` removed (or renamed) from an open object",
        "under `forward` compatibility",
        "add `com.example.order.cancelled/v2.json` with type `com.example.order.cancelled.v2`",
        "keep `v1.json` as it was",
    ] {
        assert!(stderr.contains(needle), "`{needle}` not in {stderr}");
    }

    // The fix: v1 as it was, the change as v2.
    fs::write(&v1, &original).unwrap();
    schema["x-cloudevent"]["type"] = serde_json::json!("com.example.order.cancelled.v2");
    schema["$id"] =
        serde_json::json!("https://schemas.example.com/events/com.example.order.cancelled/v2.json");
    fs::write(
        v1.with_file_name("v2.json"),
        serde_json::to_string_pretty(&schema).unwrap(),
    )
    .unwrap();
    let fixed = build();
    assert!(
        fixed.status.success(),
        "{}",
        String::from_utf8_lossy(&fixed.stderr)
    );
}
