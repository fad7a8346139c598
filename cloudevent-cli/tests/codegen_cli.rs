//! `cloudevent codegen` and `cloudevent diff` end to end: the built binary on the bundled
//! registry and on schema files written to a temporary directory.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{TempDir, cloudevent, text};

fn registry() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas")
}

#[test]
fn codegen_prints_a_module_with_the_root_type_of_every_schema() {
    let schemas = registry();
    let output = cloudevent(&[
        "codegen",
        "--schemas",
        schemas.to_str().unwrap(),
        "--out",
        "-",
    ]);
    let rust = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(
        rust.starts_with("// @generated"),
        "{}",
        &rust[..200.min(rust.len())]
    );
    for (module, root, ty) in [
        (
            "order_cancelled_v1",
            "OrderCancelled",
            "com.example.order.cancelled",
        ),
        (
            "order_created_v1",
            "OrderCreated",
            "com.example.order.created",
        ),
        (
            "order_created_v2",
            "OrderCreated",
            "com.example.order.created.v2",
        ),
        (
            "order_returned_v1",
            "OrderReturned",
            "com.example.order.returned",
        ),
        (
            "order_shipped_v1",
            "OrderShipped",
            "com.example.order.shipped",
        ),
        (
            "payment_authorized_v1",
            "PaymentAuthorized",
            "com.example.payment.authorized",
        ),
        (
            "payment_captured_v1",
            "PaymentCaptured",
            "com.example.payment.captured",
        ),
        (
            "payment_failed_v1",
            "PaymentFailed",
            "com.example.payment.failed",
        ),
        (
            "payment_refunded_v1",
            "PaymentRefunded",
            "com.example.payment.refunded",
        ),
    ] {
        let start = rust
            .find(&format!("pub mod {module} {{"))
            .unwrap_or_else(|| panic!("module {module} missing"));
        let body = &rust[start..];
        let end = body[1..].find("\npub mod ").map_or(body.len(), |e| e + 1);
        let body = &body[..end];
        assert!(
            body.contains(&format!("pub struct {root} {{")),
            "{module}: no {root}"
        );
        assert!(
            body.contains(&format!("type = \"{ty}\"")),
            "{module}: no type {ty}"
        );
    }
}

#[test]
fn codegen_refuses_a_schema_that_breaks_a_naming_rule() {
    let dir = TempDir::new("codegen-bad");
    fs::create_dir_all(dir.path().join("com.example.order.created")).unwrap();
    dir.write(
        "com.example.order.created/v1.json",
        r#"{"$id": "https://schemas.example.com/events/com.example.order.created/v1.json",
            "x-cloudevent": {"type": "com.example.order.created", "extensions": {"Tenant_ID": "tenant"}},
            "type": "object", "properties": {"tenant": {"type": "string"}}}"#,
    );
    let output = cloudevent(&["codegen", "--schemas", dir.as_str(), "--out", "-"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(output.stdout.is_empty());
    assert!(
        stderr.contains("com.example.order.created/v1.json"),
        "{stderr}"
    );
    assert!(
        stderr.contains("/x-cloudevent/extensions/Tenant_ID"),
        "{stderr}"
    );
}

/// Issue 27: `{"$ref": "#"}` at a schema's root overflowed the stack (SIGABRT, exit 134).
#[test]
fn codegen_refuses_a_schema_that_refs_itself_naming_the_pointer() {
    let dir = TempDir::new("codegen-cycle");
    fs::create_dir_all(dir.path().join("com.example.order.created")).unwrap();
    dir.write(
        "com.example.order.created/v1.json",
        r##"{"$id": "https://schemas.example.com/events/com.example.order.created/v1.json",
            "x-cloudevent": {"type": "com.example.order.created"},
            "type": "object", "$ref": "#"}"##,
    );
    let output = cloudevent(&["codegen", "--schemas", dir.as_str(), "--out", "-"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("com.example.order.created/v1.json#/$ref"),
        "{stderr}"
    );
}

const OLD: &str = r#"{
  "$id": "https://schemas.example.com/events/com.example.order.cancelled/v1.json",
  "type": "object",
  "required": ["order_id"],
  "properties": {
    "order_id": {"type": "string"},
    "comment": {"type": "string", "maxLength": 500},
    "reason": {"enum": ["customer_request", "out_of_stock"]}
  }
}"#;

#[test]
fn diff_exits_1_naming_the_pointer_of_a_change_that_breaks_the_mode() {
    let dir = TempDir::new("diff-breaking");
    let old = dir.write("old.json", OLD);
    let new = dir.write(
        "new.json",
        &OLD.replace(r#", "out_of_stock"]"#, "]").replace(
            r#""required": ["order_id"]"#,
            r#""required": ["order_id", "comment"]"#,
        ),
    );
    // Both changes narrow what validates: old consumers still read every new event.
    let output = cloudevent(&["diff", &old, &new]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert_eq!(
        stdout,
        "compatible enum value \"out_of_stock\" removed at `/properties/reason/enum` [breaks backward]\n\
         compatible property `comment` is now required at `/required` [breaks backward]\n"
    );
    for mode in ["backward", "full", "backward-transitive"] {
        let output = cloudevent(&["diff", "--compat", mode, &old, &new]);
        let stdout = text(&output.stdout);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{mode}: {stdout}\n{stderr}");
        assert_eq!(
            stdout,
            "breaking   enum value \"out_of_stock\" removed at `/properties/reason/enum` [breaks backward]\n\
             breaking   property `comment` is now required at `/required` [breaks backward]\n"
        );
        assert!(stderr.contains("new major version"), "{stderr}");
        assert!(
            stderr.contains(&format!("under `{mode}` compatibility")),
            "{stderr}"
        );
    }
    let output = cloudevent(&["diff", "--compat", "sideways", &old, &new]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("no compatibility mode"));
}

#[test]
fn diff_inside_a_registry_names_the_next_version_exactly() {
    let dir = TempDir::new("diff-registry");
    let registry = format!(
        "{}/../schemas/com.example.order.cancelled/v1.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let old_text = fs::read_to_string(registry).unwrap();
    let old = dir.write("old.json", &old_text);
    fs::create_dir_all(dir.path().join("com.example.order.cancelled")).unwrap();
    let changed: serde_json::Value = {
        let mut schema: serde_json::Value = serde_json::from_str(&old_text).unwrap();
        let properties = schema["properties"].as_object_mut().unwrap();
        let first = properties.keys().next().unwrap().clone();
        properties.remove(&first);
        schema
    };
    let new = dir.write(
        "com.example.order.cancelled/v1.json",
        &serde_json::to_string_pretty(&changed).unwrap(),
    );
    let output = cloudevent(&["diff", &old, &new]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "add `com.example.order.cancelled/v2.json` with type `com.example.order.cancelled.v2`"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("/v2.json`; keep `v1.json` as it was"),
        "{stderr}"
    );
    assert!(stderr.contains("(INTG-STD-015 R-4)"), "{stderr}");
}

#[test]
fn diff_exits_0_on_compatible_changes() {
    let dir = TempDir::new("diff-compatible");
    let old = dir.write("old.json", OLD);
    let new = dir.write(
        "new.json",
        &OLD.replace(r#""maxLength": 500"#, r#""maxLength": 300"#)
            .replace(
                r#""order_id": {"type": "string"},"#,
                r#""order_id": {"type": "string"}, "note": {"type": "string"},"#,
            ),
    );
    let output = cloudevent(&["diff", &old, &new]);
    let stdout = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&output.stderr)
    );
    assert_eq!(
        stdout,
        "compatible `maxLength` tightened from 500 to 300 at `/properties/comment/maxLength` [breaks backward]\n\
         compatible optional property `note` added to an open object at `/properties/note` [breaks backward]\n"
    );

    let same = cloudevent(&["diff", &old, &old]);
    assert_eq!(same.status.code(), Some(0));
    assert_eq!(text(&same.stdout), "no changes\n");
}

#[test]
fn diff_exits_2_on_an_unreadable_file() {
    let dir = TempDir::new("diff-missing");
    let old = dir.write("old.json", OLD);
    let missing = dir.path().join("missing.json").display().to_string();
    let output = cloudevent(&["diff", &old, &missing]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("missing.json"));
}
