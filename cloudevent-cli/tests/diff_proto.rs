//! `cloudevent diff` on two registries holding a `.proto` entry (beside a JSON schema): exit
//! codes 0/1, the Protobuf rules' lines, and the same finding from `cloudevent codegen`'s lock
//! gate (the `Builder` gate), word for word.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{TempDir, cloudevent, codegen_to, copy_dir, text};

const PACKED: &str = "com.example.order.packed/v1.proto";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cloudevent-codegen/tests/fixtures/protobuf/schemas")
}

/// `old/` and `new/` copies of the Protobuf fixture registry.
fn two_registries(name: &str) -> (TempDir, PathBuf, PathBuf) {
    let dir = TempDir::new(name);
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    copy_dir(&fixture(), &old, |_| true);
    copy_dir(&fixture(), &new, |_| true);
    (dir, old, new)
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "`{from}` not in {}", path.display());
    fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn proto_registries_are_compared_by_field_number() {
    let (_dir, old, new) = two_registries("diff");
    let same = cloudevent::<&Path>(&["diff".as_ref(), &old, &new]);
    let out = text(&same.stdout);
    assert_eq!(same.status.code(), Some(0), "{out}{}", text(&same.stderr));
    assert!(
        out.contains("com.example.order.packed/v1: unchanged"),
        "{out}"
    );
    assert!(
        out.contains("com.example.order.created/v1: unchanged"),
        "{out}"
    );

    // A removed field without `reserved`: breaking, exit 1, the fix names `v2.proto`.
    edit(&new.join(PACKED), "  bytes checksum = 6;\n", "");
    let broken = cloudevent::<&Path>(&["diff".as_ref(), &old, &new]);
    let (out, err) = (text(&broken.stdout), text(&broken.stderr));
    assert_eq!(broken.status.code(), Some(1), "{out}{err}");
    assert!(
        out.contains("com.example.order.packed/v1: BREAKING"),
        "{out}"
    );
    assert!(
        out.contains("breaking   field 6 `checksum` removed without `reserved 6;`"),
        "{out}"
    );
    assert!(
        err.contains("breaking change to `v1.proto` under `forward` compatibility"),
        "{err}"
    );
    assert!(err.contains("com.example.order.packed/v2.proto"), "{err}");
    assert!(err.contains("INTG-STD-015 R-4"), "{err}");

    // Reserved, and a field renamed and one added: compatible, exit 0.
    edit(
        &new.join(PACKED),
        "  reserved 8;",
        "  reserved 6, 8;\n  uint32 attempts = 9;",
    );
    edit(&new.join(PACKED), "string note = 5;", "string remark = 5;");
    let fixed = cloudevent::<&Path>(&["diff".as_ref(), &old, &new]);
    let out = text(&fixed.stdout);
    assert_eq!(fixed.status.code(), Some(0), "{out}{}", text(&fixed.stderr));
    assert!(
        out.contains("com.example.order.packed/v1: compatible"),
        "{out}"
    );
    assert!(
        out.contains("field 5 renamed from `note` to `remark` (compatible on the wire"),
        "{out}"
    );
    assert!(out.contains("compatible field 9 `attempts` added"), "{out}");

    // Two `.proto` files: the same verdicts.
    let files = cloudevent::<&Path>(&["diff".as_ref(), &old.join(PACKED), &new.join(PACKED)]);
    assert_eq!(files.status.code(), Some(0), "{}", text(&files.stderr));
}

#[test]
fn codegen_against_the_lock_says_what_diff_says_for_proto_entries() {
    let (dir, old, new) = two_registries("codegen");
    let out = dir.path().join("out.rs");
    let codegen = |extra: &[&str]| codegen_to(&new, &out, extra);
    let first = codegen(&["--update-lock"]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let lock = fs::read_to_string(dir.path().join("cloudevent.lock.json")).unwrap();
    assert!(lock.contains("\"protobuf\""), "{lock}");

    // `uint32 weight_grams` of the nested `Parcel` becomes `float`: not wire-compatible.
    edit(
        &new.join(PACKED),
        "uint32 weight_grams = 2;",
        "float weight_grams = 2;",
    );
    let refused = codegen(&[]);
    let codegen_err = text(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{codegen_err}");
    let diff = cloudevent::<&Path>(&["diff".as_ref(), &old, &new]);
    let diff_err = text(&diff.stderr);
    let findings: Vec<&str> = diff_err
        .lines()
        .filter_map(|l| l.strip_prefix("cloudevent diff: "))
        .collect();
    assert_eq!(findings.len(), 1, "{diff_err}");
    assert!(
        findings[0].contains("OrderPacked.parcels.weight_grams"),
        "{diff_err}"
    );
    assert!(
        codegen_err.contains(&format!("  - {}", findings[0])),
        "`{}` not in {codegen_err}",
        findings[0]
    );
    // Under `none` it passes.
    let accepted = codegen(&["--compat", "none"]);
    assert_eq!(
        accepted.status.code(),
        Some(0),
        "{}",
        text(&accepted.stderr)
    );
}
