//! `cloudevent validate --registry DIR [--type-pointer PTR]`, `--xregistry FILE` and
//! `--registry-snapshot FILE` end to end: real-shaped events pass, the same events with a
//! required member removed fail naming the member's pointer, in every input format.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// This repository's registry.
fn schemas() -> String {
    manifest().join("../schemas").display().to_string()
}

fn data(name: &str) -> String {
    manifest()
        .join("tests/data/registry")
        .join(name)
        .display()
        .to_string()
}

/// The one-type registry whose type is deprecated and declares a Boolean extension.
fn deprecated_registry() -> String {
    manifest()
        .join("../cloudevent-codegen/tests/fixtures/deprecated/schemas")
        .display()
        .to_string()
}

fn cdevents() -> PathBuf {
    manifest().join("../cloudevent-codegen/tests/fixtures/cdevents-shaped")
}

fn xregistry() -> PathBuf {
    manifest().join("../cloudevent-codegen/tests/fixtures/xregistry")
}

const CDEVENTS_TYPE: &str = "/properties/context/properties/type";

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cloudevent"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A command that refuses its arguments exits before reading: a broken pipe is expected.
    let _ = child.stdin.take().expect("stdin is piped").write_all(stdin);
    child.wait_with_output().expect("the binary finishes")
}

fn status(output: &Output) -> i32 {
    output.status.code().expect("exited, not killed")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn examples(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
}

/// The event with the member at `pointer` (inside `data`) removed.
fn without(file: &Path, pointer: &str) -> Vec<u8> {
    let mut event: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    let (parent, name) = pointer.rsplit_once('/').unwrap();
    event["data"]
        .pointer_mut(parent)
        .and_then(Value::as_object_mut)
        .unwrap_or_else(|| panic!("{} has {parent}", file.display()))
        .remove(name)
        .unwrap_or_else(|| panic!("{} has {pointer}", file.display()));
    serde_json::to_vec(&event).unwrap()
}

#[test]
fn our_registry_passes_a_real_event_and_names_a_removed_member() {
    let registry = schemas();
    let event = data("order-created.json");
    let output = run(&["validate", "--registry", &registry, &event], b"");
    assert_eq!(status(&output), 0, "{}{}", stdout(&output), stderr(&output));
    assert!(stdout(&output).starts_with("ok "), "{}", stdout(&output));

    for pointer in [
        "/total",
        "/shipping_address/city",
        "/items/0/unit_price/currency",
    ] {
        let (parent, name) = pointer.rsplit_once('/').unwrap();
        let mut value: Value = serde_json::from_slice(&std::fs::read(&event).unwrap()).unwrap();
        let target = if parent.is_empty() {
            value["data"].as_object_mut()
        } else {
            value["data"].pointer_mut(parent).unwrap().as_object_mut()
        };
        target.unwrap().remove(name).unwrap();
        let output = run(
            &["validate", "--registry", &registry, "-"],
            &serde_json::to_vec(&value).unwrap(),
        );
        assert_eq!(status(&output), 1, "{}", stdout(&output));
        let expected = format!(
            "<stdin>: error registry data: data{pointer}: is required by the schema but missing (keyword `required`"
        );
        assert!(stdout(&output).contains(&expected), "{}", stdout(&output));
    }
}

#[test]
fn cdevents_shaped_events_pass_with_type_pointer_and_fail_without_a_required_member() {
    let dir = cdevents();
    let registry = dir.join("schemas").display().to_string();
    for file in examples(&dir) {
        let name = file.display().to_string();
        let args = [
            "validate",
            "--profile",
            "cloudevents",
            "--registry",
            &registry,
        ];
        let output = run(
            &[&args[..], &["--type-pointer", CDEVENTS_TYPE, &name]].concat(),
            b"",
        );
        assert_eq!(
            status(&output),
            0,
            "{name}: {}{}",
            stdout(&output),
            stderr(&output)
        );

        for pointer in ["/subject/id", "/context/timestamp"] {
            let output = run(
                &[&args[..], &["--type-pointer", CDEVENTS_TYPE, "-"]].concat(),
                &without(&file, pointer),
            );
            assert_eq!(status(&output), 1, "{name} without {pointer}");
            assert!(
                stdout(&output).contains(&format!("error registry data: data{pointer}: ")),
                "{name} without {pointer}: {}",
                stdout(&output)
            );
        }
    }
}

#[test]
fn xregistry_events_pass_and_fail_the_same_way() {
    let dir = xregistry();
    let catalog = dir.join("catalog.json").display().to_string();
    for file in examples(&dir) {
        let name = file.display().to_string();
        let args = [
            "validate",
            "--profile",
            "cloudevents",
            "--xregistry",
            &catalog,
        ];
        let output = run(&[&args[..], &[name.as_str()]].concat(), b"");
        assert_eq!(
            status(&output),
            0,
            "{name}: {}{}",
            stdout(&output),
            stderr(&output)
        );
    }
    // The oven's schema requires `deviceId`.
    let oven = dir.join("examples/oven-turned-on.json");
    let output = run(
        &[
            "validate",
            "--profile",
            "cloudevents",
            "--xregistry",
            &catalog,
            "-",
        ],
        &without(&oven, "/deviceId"),
    );
    assert_eq!(status(&output), 1, "{}", stdout(&output));
    assert!(
        stdout(&output).contains("data/deviceId"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn every_input_format_gets_the_registry() {
    let registry = schemas();
    // An HTTP binary-mode message whose data misses members and has an empty `items`.
    let output = run(
        &[
            "validate",
            "--registry",
            &registry,
            &data("order-created-binary.http"),
        ],
        b"",
    );
    assert_eq!(status(&output), 1, "{}", stdout(&output));
    let out = stdout(&output);
    assert!(out.contains("data/customer_id: is required"), "{out}");
    assert!(
        out.contains("data/items: ") && out.contains("keyword `minItems`"),
        "{out}"
    );

    // A Kafka record of an xRegistry message that declares `express` Boolean, sent as "True".
    let output = run(
        &[
            "validate",
            "--profile",
            "cloudevents",
            "--xregistry",
            &data("xregistry.json"),
            "--format",
            "kafka",
            "--at",
            "2026-03-01T00:00:00Z",
            &data("expedited-express-true.kafka.json"),
        ],
        b"",
    );
    assert_eq!(status(&output), 1, "{}", stdout(&output));
    assert!(
        stdout(&output).contains(
            "error CE 1.0.2 type system: express `True`: is not a Boolean: extension `express` is declared Boolean (by the schema registry or the event type)"
        ),
        "{}",
        stdout(&output)
    );

    // JSON Lines and a batch: each event on its own.
    let good = std::fs::read_to_string(data("order-created.json")).unwrap();
    let good: Value = serde_json::from_str(&good).unwrap();
    let mut bad = good.clone();
    bad["data"].as_object_mut().unwrap().remove("tenant");
    let lines = format!("{good}\n{bad}\n");
    let output = run(
        &["validate", "--registry", &registry, "-"],
        lines.as_bytes(),
    );
    assert_eq!(status(&output), 1);
    assert!(
        stdout(&output).contains("<stdin>#2: error registry data: data/tenant"),
        "{}",
        stdout(&output)
    );
    let batch = serde_json::to_vec(&Value::Array(vec![good, bad])).unwrap();
    let output = run(
        &["validate", "--registry", &registry, "--output", "json", "-"],
        &batch,
    );
    assert_eq!(status(&output), 1);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let events = &report["inputs"][0]["events"];
    assert_eq!(events[0]["valid"], true);
    assert_eq!(events[1]["findings"][0]["attribute"], "data/tenant");
    assert_eq!(events[1]["findings"][0]["rule"], "registry data");
}

#[test]
fn unknown_types_and_sunsets() {
    let unknown = br#"{"specversion":"1.0","id":"1","source":"https://api.example.com/orders","type":"com.example.order.misplaced"}"#;
    let output = run(&["validate", "--registry", &schemas(), "-"], unknown);
    assert_eq!(status(&output), 1);
    assert!(stdout(&output).contains("error registry type: type `com.example.order.misplaced`"));
    let output = run(
        &[
            "validate",
            "--registry",
            &schemas(),
            "--unknown-type",
            "warning",
            "-",
        ],
        unknown,
    );
    assert_eq!(status(&output), 0, "{}", stdout(&output));
    assert!(stdout(&output).contains("warning registry type"));

    let expedited = data("expedited.json");
    let args = [
        "validate",
        "--profile",
        "cloudevents",
        "--registry",
        &deprecated_registry(),
    ];
    let before = run(
        &[&args[..], &["--at", "2026-03-01T00:00:00Z", &expedited]].concat(),
        b"",
    );
    assert_eq!(status(&before), 0, "{}", stdout(&before));
    assert!(
        !stdout(&before).contains("deprecation"),
        "{}",
        stdout(&before)
    );
    let after = run(
        &[&args[..], &["--at", "2026-07-01T00:00:00Z", &expedited]].concat(),
        b"",
    );
    assert_eq!(status(&after), 0, "a SHOULD: {}", stdout(&after));
    assert!(
        stdout(&after).contains("warning CE deprecation: type `com.example.order.expedited`: is deprecated and past its sunset (2026-06-30T00:00:00Z)"),
        "{}",
        stdout(&after)
    );
    assert!(stdout(&after).contains("https://docs.example.com/migrate/order-expedited"));

    // The same deprecation from an xRegistry message's `deprecated` object.
    let args = [
        "validate",
        "--profile",
        "cloudevents",
        "--xregistry",
        &data("xregistry.json"),
    ];
    let after = run(
        &[&args[..], &["--at", "2026-07-01T00:00:00Z", &expedited]].concat(),
        b"",
    );
    assert_eq!(status(&after), 0, "{}", stdout(&after));
    assert!(
        stdout(&after).contains("warning CE deprecation"),
        "{}",
        stdout(&after)
    );
}

#[test]
fn an_unreadable_registry_exits_2() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("com.example.order.broken");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(
        dir.join("v1.json"),
        r#"{"$id": "https://schemas.example.com/events/com.example.order.broken/v1.json",
            "x-cloudevent": {"type": "com.example.order.broken"},
            "properties": {"total": {"$ref": "money.json"}}}"#,
    )
    .unwrap();
    let root = temp.path().display().to_string();
    let output = run(&["validate", "--registry", &root, "-"], b"{}");
    assert_eq!(status(&output), 2);
    assert!(
        stderr(&output).contains("money.json"),
        "{}",
        stderr(&output)
    );

    let output = run(&["validate", "--type-pointer", CDEVENTS_TYPE, "-"], b"{}");
    assert_eq!(status(&output), 2);
    assert!(
        stderr(&output).contains("--registry"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_snapshot_gives_the_same_verdicts() {
    let temp = tempfile::tempdir().unwrap();
    // The library's snapshot and the `snapshot` subcommand's are the same document.
    let registry = cloudevent_codegen::Registry::load(schemas()).unwrap();
    let library = cloudevent_codegen::registry_snapshot(&registry).unwrap();
    let file = temp.path().join("registry.json");
    let out = file.display().to_string();
    let output = run(&["snapshot", "--schemas", &schemas(), "--out", &out], b"");
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    let written: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(written, library.to_json());

    let output = run(
        &[
            "validate",
            "--registry-snapshot",
            &out,
            &data("order-created.json"),
        ],
        b"",
    );
    assert_eq!(status(&output), 0, "{}", stdout(&output));
    let output = run(
        &[
            "validate",
            "--registry-snapshot",
            &out,
            &data("order-created-binary.http"),
        ],
        b"",
    );
    assert_eq!(status(&output), 1, "{}", stdout(&output));

    // A CDEvents-shaped folder: the shared `links` schemas travel inside the snapshot.
    let dir = cdevents();
    let output = run(
        &[
            "snapshot",
            "--schemas",
            &dir.join("schemas").display().to_string(),
            "--type-pointer",
            CDEVENTS_TYPE,
        ],
        b"",
    );
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    std::fs::write(&file, &output.stdout).unwrap();
    for example in examples(&dir) {
        let name = example.display().to_string();
        let args = [
            "validate",
            "--profile",
            "cloudevents",
            "--registry-snapshot",
            &out,
        ];
        let output = run(&[&args[..], &[name.as_str()]].concat(), b"");
        assert_eq!(status(&output), 0, "{name}: {}", stdout(&output));
        let output = run(
            &[&args[..], &["-"]].concat(),
            &without(&example, "/subject/id"),
        );
        assert_eq!(status(&output), 1, "{name}");
        assert!(
            stdout(&output).contains("data/subject/id"),
            "{}",
            stdout(&output)
        );
    }
}

/// GitHub's webhook schemas as published, typed by two templates (issue 26): a webhook
/// payload wrapped as a CloudEvent passes; without its required `sender` it fails naming the
/// member. The same flags as `cloudevent codegen`.
#[test]
fn a_template_typed_registry_checks_github_webhooks() {
    let sets = manifest().join("../cloudevent-codegen/tests/sets/github-webhooks");
    let dir = sets
        .join("payload-schemas/api.github.com")
        .display()
        .to_string();
    let payload: Value = serde_json::from_slice(
        &std::fs::read(sets.join("payload-examples/api.github.com/issues/opened.payload.json"))
            .unwrap(),
    )
    .unwrap();
    let event = |data: &Value| {
        serde_json::to_vec(&serde_json::json!({"specversion": "1.0", "id": "1",
            "source": "https://github.com/octo/repo", "type": "com.github.issues.opened",
            "data": data}))
        .unwrap()
    };
    let args = [
        "validate",
        "--profile",
        "cloudevents",
        "--registry",
        dir.as_str(),
        "--type-template",
        "com.github.{dir}.{/properties/action}",
        "--type-template",
        "com.github.{dir}",
        "-",
    ];
    let passed = run(&args, &event(&payload));
    assert_eq!(
        status(&passed),
        0,
        "{}",
        String::from_utf8_lossy(&passed.stdout)
    );
    let mut broken = payload.clone();
    broken.as_object_mut().unwrap().remove("sender");
    let failed = run(&args, &event(&broken));
    let out = String::from_utf8_lossy(&failed.stdout).into_owned()
        + &String::from_utf8_lossy(&failed.stderr);
    assert_eq!(status(&failed), 1, "{out}");
    assert!(out.contains("sender"), "{out}");
}

/// `validate --openapi` and `--asyncapi` read the documents `codegen` reads, typed the same
/// way, and `snapshot` writes them for `--registry-snapshot`: one verdict from each.
#[test]
fn openapi_and_asyncapi_documents_are_registries() {
    let fixtures = manifest().join("../cloudevent-codegen/tests/fixtures");
    let asyncapi = fixtures
        .join("asyncapi/orders-v3.json")
        .display()
        .to_string();
    let openapi = fixtures
        .join("openapi/orders-openapi-3.0.yaml")
        .display()
        .to_string();
    let event = |ty: &str, data: &str| {
        format!(
            r#"{{"specversion":"1.0","id":"1","source":"/orders","type":"{ty}","datacontenttype":"application/json","data":{data}}}"#
        )
        .into_bytes()
    };
    let cancelled = event(
        "com.example.order.cancelled",
        r#"{"order_id":"o-1","reason":"customer"}"#,
    );
    let wrong_reason = event(
        "com.example.order.cancelled",
        r#"{"order_id":"o-1","reason":"bored"}"#,
    );
    let shipped = event(
        "com.example.order.shipped",
        r#"{"order_id":"o-1","carrier":"dhl"}"#,
    );
    let wrong_carrier = event(
        "com.example.order.shipped",
        r#"{"order_id":"o-1","carrier":"owl"}"#,
    );
    let registries: [(&[&str], &[u8], &[u8]); 2] = [
        (&["--asyncapi", &asyncapi], &cancelled, &wrong_reason),
        (
            &["--openapi", &openapi, "--type-template", "{/x-event-type}"],
            &shipped,
            &wrong_carrier,
        ),
    ];
    for (registry, valid, invalid) in registries {
        let validate = |extra: &[&str], input: &[u8]| {
            let args = [&["validate", "--profile", "cloudevents"], extra, &["-"]].concat();
            run(&args, input)
        };
        let output = validate(registry, valid);
        assert_eq!(
            status(&output),
            0,
            "{registry:?}: {}{}",
            stdout(&output),
            stderr(&output)
        );
        let output = validate(registry, invalid);
        assert_eq!(status(&output), 1, "{registry:?}: {}", stdout(&output));
        assert!(
            stdout(&output).contains("registry data"),
            "{}",
            stdout(&output)
        );

        // The same registry as a snapshot gives the same verdicts.
        let snapshot = run(&[&["snapshot"], registry].concat(), b"");
        assert_eq!(status(&snapshot), 0, "{registry:?}: {}", stderr(&snapshot));
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("snapshot.json");
        std::fs::write(&file, &snapshot.stdout).unwrap();
        let file = file.display().to_string();
        assert_eq!(status(&validate(&["--registry-snapshot", &file], valid)), 0);
        assert_eq!(
            status(&validate(&["--registry-snapshot", &file], invalid)),
            1
        );
    }

    // Two registries, or a type mapping an xRegistry document does not take, are refused
    // by name (exit 2).
    let output = run(
        &[
            "validate",
            "--asyncapi",
            &asyncapi,
            "--openapi",
            &openapi,
            "-",
        ],
        &cancelled,
    );
    assert_eq!(status(&output), 2);
    assert!(
        stderr(&output).contains("give one of"),
        "{}",
        stderr(&output)
    );
    let catalog = xregistry().join("catalog.json").display().to_string();
    let output = run(
        &[
            "validate",
            "--xregistry",
            &catalog,
            "--type-template",
            "{file}",
            "-",
        ],
        &cancelled,
    );
    assert_eq!(status(&output), 2);
    assert!(
        stderr(&output).contains("do not apply"),
        "{}",
        stderr(&output)
    );
}
