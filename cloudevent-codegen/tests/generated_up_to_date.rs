//! CI fails when a committed generated file is stale or a schema changed in a breaking way:
//! this runs `cargo xtask codegen --check` exactly as a person would.

use std::path::Path;
use std::process::Command;

#[test]
fn cargo_xtask_codegen_check_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let output = Command::new(env!("CARGO"))
        .args([
            "run",
            "--quiet",
            "--package",
            "xtask",
            "--",
            "codegen",
            "--check",
        ])
        .current_dir(root)
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "`cargo xtask codegen --check` failed; run `cargo xtask codegen` and commit the result.\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("up to date"), "{stdout}");
}
