//! The schema sets others publish, as published (`tests/sets/`, each with its licence and
//! `SOURCE`): GitHub's webhooks (octokit/webhooks `payload-schemas/api.github.com`, typed by
//! two templates) and Google's CloudEvents (googleapis/google-cloudevents `jsonschema/`, each
//! schema serving the types it lists). Every type is generated, the output of each set
//! compiles in a crate with no policy of its own, and every example payload of the set,
//! wrapped as a CloudEvent, parses as its type and writes its data back identical. On every
//! example the typed reading, the registry validator and python-jsonschema asserting `format`
//! give one verdict; the examples python-jsonschema's default (no `format` asserted) decides
//! otherwise are listed with why (`ON_FORMAT_ALONE`).
//!
//! The compiling test builds one crate per set, once, in `<target>/codegen-sets/`
//! (its own target dir there, shared by the two sets).

mod oracle;
mod scratch;

use std::collections::BTreeMap;
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use cloudevent_codegen::{Builder, Profile, Registry, TypeMapping};
use cloudevent_runtime::registry::{Registry as RuntimeRegistry, RegistryValidator};
use cloudevent_runtime::{Json, Validate, Validator};

fn set(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/sets")
        .join(path)
}

const GITHUB_BASE: &str = "https://octokit.github.io/webhooks/payload-schemas/api.github.com/";

fn github() -> (PathBuf, TypeMapping) {
    (
        set("github-webhooks/payload-schemas/api.github.com"),
        TypeMapping {
            type_templates: vec![
                "com.github.{dir}.{/properties/action}".into(),
                "com.github.{dir}".into(),
            ],
            dataschema_base: Some(GITHUB_BASE.into()),
            ..TypeMapping::default()
        },
    )
}

fn google() -> (PathBuf, TypeMapping) {
    (
        set("google-cloudevents/jsonschema"),
        TypeMapping {
            types_pointer: Some("/cloudeventTypes".into()),
            ..TypeMapping::default()
        },
    )
}

fn builder(dir: &Path, mapping: &TypeMapping) -> Builder {
    let mut builder = Builder::new()
        .schemas(dir)
        .profile(Profile::CloudEvents)
        .lock_file(env::temp_dir().join("cloudevent-sets-unused.lock.json"));
    for template in &mapping.type_templates {
        builder = builder.type_template(template.clone());
    }
    if let Some(pointer) = &mapping.types_pointer {
        builder = builder.types_pointer(pointer.clone());
    }
    if let Some(base) = &mapping.dataschema_base {
        builder = builder.dataschema_base(base.clone());
    }
    builder
}

#[test]
fn github_gives_all_224_types_with_their_dataschema() {
    let (dir, mapping) = github();
    let registry = Registry::load_mapped(&dir, &mapping).unwrap();
    assert_eq!(registry.files.len(), 224);
    // 67 shared definitions under `common/`, reached by refs relative to relative `$id`s.
    assert_eq!(registry.documents.len(), 67);
    let push = registry
        .files
        .iter()
        .find(|f| f.meta.event_type == "com.github.push")
        .unwrap();
    assert_eq!(push.meta.dataschema, format!("{GITHUB_BASE}push$event"));
    // `repository_dispatch` does not fix its `action`: the second template types it.
    assert!(
        registry
            .files
            .iter()
            .any(|f| f.meta.event_type == "com.github.repository_dispatch")
    );
    // Without a base, a relative `$id` is no dataschema, and codegen says so.
    let bare = TypeMapping {
        dataschema_base: None,
        ..mapping
    };
    let registry = Registry::load_mapped(&dir, &bare).unwrap();
    assert!(registry.files.iter().all(|f| f.meta.dataschema.is_empty()));
}

#[test]
fn google_gives_all_376_types() {
    let (dir, mapping) = google();
    let registry = Registry::load_mapped(&dir, &mapping).unwrap();
    assert_eq!(registry.files.len(), 376);
    let created = registry
        .files
        .iter()
        .find(|f| f.meta.event_type == "google.cloud.storage.object.v1.finalized")
        .unwrap();
    assert_eq!(
        created.meta.dataschema,
        "https://googleapis.github.io/google-cloudevents/jsonschema/google/events/cloud/storage/v1/StorageObjectData.json"
    );
}

/// `(event type, example payload)` pairs of a set.
fn examples(name: &str, registry: &Registry) -> Vec<(String, PathBuf)> {
    let types: BTreeMap<&str, Vec<&str>> =
        registry.files.iter().fold(BTreeMap::new(), |mut map, f| {
            map.entry(f.relative.as_str())
                .or_default()
                .push(f.meta.event_type.as_str());
            map
        });
    let known: Vec<&str> = registry
        .files
        .iter()
        .map(|f| f.meta.event_type.as_str())
        .collect();
    let mut out = Vec::new();
    if name == "github" {
        let root = set("github-webhooks/payload-examples/api.github.com");
        for dir in sorted(&root) {
            let event = dir.file_name().unwrap().to_string_lossy().into_owned();
            for file in sorted(&dir) {
                let payload: serde_json::Value =
                    serde_json::from_slice(&fs::read(&file).unwrap()).unwrap();
                let with_action = payload["action"]
                    .as_str()
                    .map(|a| format!("com.github.{event}.{a}"));
                let event_type = match with_action {
                    Some(t) if known.contains(&t.as_str()) => t,
                    _ => format!("com.github.{event}"),
                };
                out.push((event_type, file));
            }
        }
    } else {
        let root = set("google-cloudevents/testdata");
        let mut stack = vec![root.clone()];
        while let Some(dir) = stack.pop() {
            for path in sorted(&dir) {
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                if path.extension().is_none_or(|e| e != "json") {
                    continue;
                }
                let relative = path.strip_prefix(&root).unwrap().to_string_lossy();
                let (folder, file) = relative.rsplit_once('/').unwrap();
                let message = file.trim_end_matches(".json").split('-').next().unwrap();
                let schema = format!("{folder}/{message}.json");
                for event_type in types.get(schema.as_str()).into_iter().flatten() {
                    out.push(((*event_type).to_owned(), path.clone()));
                }
            }
        }
    }
    out
}

fn sorted(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    entries
}

const EXAMPLES_TEST: &str = r#"
//! Every example payload of the set, wrapped as a CloudEvent, read as its type and its data
//! written back: one line a problem (`typed-refused`, `not-typed`, `differs`), then the counts;
//! `cloudevent-codegen/tests/sets.rs` compares them with python-jsonschema's verdicts.
#[test]
fn every_example_reads_as_its_type_and_round_trips() {
    let list = include_str!("../examples.txt");
    let (mut typed, mut identical) = (0, 0);
    for line in list.lines() {
        let (event_type, path) = line.split_once('\t').unwrap();
        let payload: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let event = serde_json::json!({"specversion": "1.0", "id": "1", "source": "/examples",
            "type": event_type, "data": payload});
        let bytes = serde_json::to_vec(&event).unwrap();
        match generated_set::RegistryEvent::from_slice(&bytes) {
            Ok(event) => match generated_set::data_of(&event) {
                Some(data) => {
                    typed += 1;
                    if data == payload {
                        identical += 1
                    } else {
                        println!("differs\t{path}\t{event_type}: {}", difference(&payload, &data, String::new()));
                    }
                }
                None => println!("not-typed\t{path}\t{event_type}"),
            },
            Err(error) => println!("typed-refused\t{path}\t{event_type}: {error}"),
        }
    }
    println!("examples: {}, typed: {typed}, identical: {identical}", list.lines().count());
}

/// The JSON pointer of the first difference, with both values.
fn difference(read: &serde_json::Value, written: &serde_json::Value, at: String) -> String {
    use serde_json::Value;
    match (read, written) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, value) in a {
                match b.get(key) {
                    Some(other) if other == value => {}
                    Some(other) => return difference(value, other, format!("{at}/{key}")),
                    None => return format!("{at}/{key}: dropped ({value})"),
                }
            }
            match b.keys().find(|k| !a.contains_key(*k)) {
                Some(key) => format!("{at}/{key}: added ({})", b[key]),
                None => format!("{at}: ?"),
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            let i = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(0);
            difference(&a[i], &b[i], format!("{at}/{i}"))
        }
        _ => format!("{at}: {read} -> {written}"),
    }
}
"#;

const MUTANTS_TEST: &str = r#"
//! Every mutant of an example payload (`mutants.txt`: type, then the data), wrapped as a
//! CloudEvent and read as its type: `mutant <n> refused`, or `mutant <n> accepted <whether the
//! data is written back identical>`; `cloudevent-codegen/tests/sets.rs` holds each verdict to
//! the `jsonschema` crate's on the original schema.
#[test]
fn every_mutant_gets_a_typed_verdict() {
    for (n, line) in include_str!("../mutants.txt").lines().enumerate() {
        let (event_type, payload) = line.split_once('\t').unwrap();
        let payload: serde_json::Value = serde_json::from_str(payload).unwrap();
        let event = serde_json::json!({"specversion": "1.0", "id": "1", "source": "/examples",
            "type": event_type, "data": payload});
        let bytes = serde_json::to_vec(&event).unwrap();
        match generated_set::RegistryEvent::from_slice(&bytes) {
            Ok(event) => {
                let data = generated_set::data_of(&event);
                println!("mutant\t{n}\taccepted\t{}", data.as_ref() == Some(&payload));
            }
            Err(_) => println!("mutant\t{n}\trefused"),
        }
    }
}
"#;

/// The examples whose python-jsonschema verdict hangs on `format` alone, each with why; on
/// each the typed reading and the registry give python-jsonschema's verdict with `format`
/// asserted.
///
/// `deployment_status/gh-pages` has `""` for `environment_url`, whose `oneOf` is
/// `{"enum": [""]}` or `{"type": "string", "format": "uri"}`: asserting `uri`, `""` is valid
/// under the `enum` branch alone, so accepted; asserting no format, valid under both, so
/// refused for `oneOf`.
///
/// `check_run/rerequested` (and `.with-organization`) give `app.created_at` as
/// `"2018-04-25 20:42:10"`, no RFC 3339 `date-time` (no `T`, no offset): refused asserting
/// `date-time` (the typed reading's `Timestamp` and the registry both read it with the rules'
/// `check_time`, and name `data/check_run/app/created_at`), accepted asserting no format.
const ON_FORMAT_ALONE: [&str; 3] = [
    "deployment_status/gh-pages.payload.json",
    "check_run/rerequested.payload.json",
    "check_run/rerequested.with-organization.payload.json",
];

/// Prints python-jsonschema's verdicts (a JSON object of two lists of refused examples):
/// argv[1] the schema folder (every schema in it registered by its `$id`, relative ones
/// against the folder), argv[2] a JSON list of `[schema path, example path]`.
///
/// `asserting`: with the draft's `FORMAT_CHECKER`, so `format` is an assertion, as the
/// registry and the generated types make it (`docs/compatibility.md`: `format` is treated as
/// an assertion). `default`: python-jsonschema's default, which asserts no `format`; draft 7
/// leaves the choice to the implementation (draft-handrews-json-schema-validation-01 7.2), and
/// the examples the two verdicts differ on are printed. python-jsonschema checks `date-time`
/// and `uri` only with the optional `rfc3339-validator` and `rfc3987` installed (`cargo xtask`
/// installs them): without them it would silently accept every value, so this script refuses
/// to run.
const PYTHON_VERDICTS: &str = r#"
import json, pathlib, sys
import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7
missing = [f for f in ("date-time", "uri") if f not in jsonschema.Draft7Validator.FORMAT_CHECKER.checkers]
if missing:
    sys.exit("python-jsonschema cannot check " + ", ".join(missing) + ": pip install rfc3339-validator rfc3987")
root = pathlib.Path(sys.argv[1])
resources = []
for path in root.rglob("*.json"):
    schema = json.loads(path.read_text())
    if isinstance(schema, dict) and "$id" in schema:
        resources.append((schema["$id"], Resource.from_contents(schema, default_specification=DRAFT7)))
registry = Registry().with_resources(resources)
verdicts = {"asserting": [], "default": []}
for schema_path, example_path in json.loads(sys.argv[2]):
    schema = json.loads(pathlib.Path(schema_path).read_text())
    instance = json.loads(pathlib.Path(example_path).read_text())
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft7Validator)
    for mode, checker in (("asserting", cls.FORMAT_CHECKER), ("default", None)):
        errors = list(cls(schema, registry=registry, format_checker=checker).iter_errors(instance))
        if errors:
            verdicts[mode].append(example_path + ": " + errors[0].message[:200])
print(json.dumps(verdicts))
"#;

fn compile_and_read_examples(name: &str, dir: &Path, mapping: &TypeMapping) {
    let registry = Registry::load_mapped(dir, mapping).unwrap();
    let rust = builder(dir, mapping)
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(rust.refused.is_empty());
    let text = rust.single_file().unwrap();
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let base = env::current_exe()
        .unwrap()
        .ancestors()
        .nth(3)
        .expect("test executables live in <target>/<profile>/deps/")
        .join("codegen-sets");
    let project = base.join(name);
    fs::create_dir_all(project.join("src")).unwrap();
    fs::create_dir_all(project.join("tests")).unwrap();
    // The dependency block the codegen README gives, and no policy of the crate's own.
    // Written only when changed: cargo counts the manifest's time in the library's
    // fingerprint, so rewriting it rebuilt Google's 24.6 MB crate (about seven minutes) on
    // every run of this test.
    write_if_changed(&project.join("Cargo.toml"), &manifest(workspace, name));
    copy_lock(workspace, &project);
    let arms: String = scratch::variants(&text)
        .iter()
        .filter(|v| *v != "Other")
        .map(|v| {
            format!(
                "        RegistryEvent::{v}(e) => Some(serde_json::to_value(e.data()).unwrap()),\n"
            )
        })
        .collect();
    write_if_changed(&project.join("src/generated.rs"), &text);
    write_if_changed(
        &project.join("src/lib.rs"),
        &format!(
            "#![allow(clippy::all, missing_docs)]\ninclude!(\"generated.rs\");\n\n\
             /// The data of a typed event, written back as JSON.\n\
             pub fn data_of(event: &RegistryEvent) -> Option<serde_json::Value> {{\n    match event {{\n{arms}        RegistryEvent::Other(_) => None,\n    }}\n}}\n"
        ),
    );
    let list: String = examples(name, &registry)
        .iter()
        .map(|(t, p)| format!("{t}\t{}\n", p.display()))
        .collect();
    assert!(!list.is_empty());
    write_if_changed(&project.join("examples.txt"), &list);
    // python-jsonschema's verdict on each example against its original schema: the typed
    // reading below must refuse exactly those it refuses.
    let schemas: BTreeMap<&str, &Path> = registry
        .files
        .iter()
        .map(|f| (f.meta.event_type.as_str(), f.path.as_path()))
        .collect();
    let pairs: Vec<(String, String)> = examples(name, &registry)
        .iter()
        .map(|(t, p)| {
            (
                schemas[t.as_str()].display().to_string(),
                p.display().to_string(),
            )
        })
        .collect();
    let python = Command::new("python3")
        .args(["-c", PYTHON_VERDICTS, &dir.display().to_string()])
        .arg(serde_json::to_string(&pairs).unwrap())
        .output()
        .expect("python3 with jsonschema (cargo xtask installs it with the interop SDKs)");
    assert!(
        python.status.success(),
        "{}",
        String::from_utf8_lossy(&python.stderr)
    );
    let verdicts: BTreeMap<String, Vec<String>> = serde_json::from_slice(&python.stdout).unwrap();
    let refused_by_python = &verdicts["asserting"];
    write_if_changed(&project.join("tests/examples.rs"), EXAMPLES_TEST);
    // The mutants of every example, and the `jsonschema` crate's verdict on each against the
    // example's original schema.
    let mut oracle = oracle::Oracle::new(dir);
    let mut mutated = Vec::new();
    for (event_type, path) in examples(name, &registry) {
        let payload: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        for (what, mutant) in oracle::mutants(&payload) {
            let verdict = oracle.verdict(schemas[event_type.as_str()], &mutant);
            mutated.push((event_type.clone(), path.clone(), what, mutant, verdict));
        }
    }
    let list: String = mutated
        .iter()
        .map(|(t, _, _, mutant, _)| format!("{t}\t{mutant}\n"))
        .collect();
    write_if_changed(&project.join("mutants.txt"), &list);
    write_if_changed(&project.join("tests/mutants.rs"), MUTANTS_TEST);
    let output = Command::new(env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .current_dir(&project)
        .args(["test", "--offline", "--color=never", "--", "--nocapture"])
        .env("CARGO_TARGET_DIR", base.join("target"))
        // A debug build of GitHub's `pull_request` types refusing a mutant (an owner's `login`
        // a number) recurses through typify's untagged enums deeper than a test thread's 2 MiB
        // (4 MiB is enough): the test threads get the main thread's 8 MiB.
        .env("RUST_MIN_STACK", "8388608")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("run cargo");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{name}:\n{stdout}\n{stderr}");
    let counts = stdout.lines().find(|l| l.starts_with("examples:")).unwrap();
    let problems = |kind: &str| -> Vec<&str> {
        stdout
            .lines()
            .filter_map(|l| l.strip_prefix(kind)?.strip_prefix('\t'))
            .collect()
    };
    let path_of = |line: &str| {
        line.split(['\t', ':'])
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    let python: std::collections::BTreeSet<String> =
        refused_by_python.iter().map(|l| path_of(l)).collect();
    let python_default: std::collections::BTreeSet<String> =
        verdicts["default"].iter().map(|l| path_of(l)).collect();
    let typed_refused: std::collections::BTreeSet<String> = problems("typed-refused")
        .iter()
        .map(|l| path_of(l))
        .collect();
    // The registry's verdict (`cloudevent validate --registry`: the runtime's
    // `RegistryValidator` over the snapshot codegen makes of the same folder) on each example.
    let snapshot = cloudevent_codegen::registry_snapshot(&registry).unwrap();
    let checker = RegistryValidator::new(
        Validator::new(cloudevent_runtime::Profile::CloudEvents),
        RuntimeRegistry::new(snapshot.entries).unwrap(),
    );
    let mut registry_refused = std::collections::BTreeSet::new();
    let all = examples(name, &registry);
    for (event_type, path) in &all {
        let payload: serde_json::Value = serde_json::from_slice(&fs::read(path).unwrap()).unwrap();
        let event = serde_json::json!({"specversion": "1.0", "id": "1", "source": "/examples",
            "type": event_type, "data": payload});
        let report = checker.validate_bytes::<Json>(&serde_json::to_vec(&event).unwrap());
        if report.has_rule("registry data") {
            // Typed errors name the member's JSON pointer and the keyword.
            let first = report.errors().next().unwrap();
            assert!(first.attribute.starts_with("data"), "{first}");
            registry_refused.insert(path.display().to_string());
        }
    }
    let agreeing = all
        .iter()
        .filter(|(_, p)| {
            let p = p.display().to_string();
            let refused = python.contains(&p);
            typed_refused.contains(&p) == refused && registry_refused.contains(&p) == refused
        })
        .count();
    let (typed, identical) = {
        let number = |key: &str| -> usize {
            counts
                .split(key)
                .nth(1)
                .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
                .and_then(|n| n.parse().ok())
                .unwrap()
        };
        (number("typed: "), number("identical: "))
    };
    // python-jsonschema's default (no `format` asserted): the examples whose verdict hangs
    // on `format` alone, each with python-jsonschema's message under either setting.
    let on_format: Vec<String> = python
        .symmetric_difference(&python_default)
        .map(|p| {
            let message = |list: &[String]| {
                list.iter()
                    .find(|l| l.starts_with(&format!("{p}:")))
                    .map(|l| l[p.len() + 1..].trim().to_owned())
                    .unwrap_or_else(|| "valid".to_owned())
            };
            format!(
                "{p}\n    format asserted: {}\n    default: {}",
                message(refused_by_python),
                message(&verdicts["default"])
            )
        })
        .collect();
    println!(
        "{name}: {} types generated; {} examples: {typed} read typed, {agreeing} agreeing with python-jsonschema \
         asserting `format` (typed reading and registry), {identical} identical after write-back; \
         python-jsonschema refuses {}, the typed reading {}, the registry {}; with python-jsonschema's \
         default (no `format` asserted) {} agree, {} differ on `format` alone:\n  {}",
        registry.files.len(),
        all.len(),
        python.len(),
        typed_refused.len(),
        registry_refused.len(),
        all.len() - on_format.len(),
        on_format.len(),
        on_format.join("\n  "),
    );
    // The registry gives the typed reading's verdict on every example.
    let differ: Vec<&String> = registry_refused
        .symmetric_difference(&typed_refused)
        .collect();
    assert!(
        differ.is_empty(),
        "registry and typed reading differ: {differ:#?}\n{stdout}"
    );
    assert_eq!(agreeing, all.len(), "{stdout}\n{refused_by_python:#?}");
    // Those hanging on `format` alone are the ones listed, with why.
    let listed = all
        .iter()
        .filter(|(_, p)| {
            ON_FORMAT_ALONE
                .iter()
                .any(|k| p.display().to_string().ends_with(k))
        })
        .count();
    assert_eq!(on_format.len(), listed, "{}", on_format.join("\n"));
    assert!(
        python
            .symmetric_difference(&python_default)
            .all(|p| ON_FORMAT_ALONE.iter().any(|k| p.ends_with(k))),
        "{}",
        on_format.join("\n")
    );
    // Every mutant: the typed verdict is the `jsonschema` crate's on the original schema, and
    // what is accepted is written back identical.
    let mut disagree = Vec::new();
    let mut refused_mutants = 0;
    for line in stdout.lines().filter_map(|l| l.strip_prefix("mutant\t")) {
        let mut fields = line.split('\t');
        let n: usize = fields.next().unwrap().parse().unwrap();
        let (_, path, what, _, verdict) = &mutated[n];
        let typed = fields.next().unwrap();
        refused_mutants += usize::from(verdict.is_some());
        match (typed, verdict, fields.next()) {
            ("refused", Some(_), _) | ("accepted", None, Some("true")) => {}
            ("accepted", None, _) => {
                disagree.push(format!("{} {what}: written back changed", path.display()))
            }
            ("accepted", Some(why), _) => disagree.push(format!(
                "{} {what}: read, jsonschema refuses it: {why}",
                path.display()
            )),
            _ => disagree.push(format!(
                "{} {what}: refused, jsonschema accepts it",
                path.display()
            )),
        }
    }
    println!(
        "{name}: {} mutants of {} examples, {refused_mutants} refused by jsonschema; {} agree with it",
        mutated.len(),
        all.len(),
        mutated.len() - disagree.len()
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("mutant\t")).count(),
        mutated.len(),
        "{stdout}"
    );
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
    // Typed errors name the member's JSON pointer (`data/check_run/app/created_at: ...`).
    for line in problems("typed-refused") {
        assert!(line.contains(": data/"), "{line}");
    }
    assert!(problems("not-typed").is_empty(), "{stdout}");
    assert!(problems("differs").is_empty(), "{stdout}");
    // The typed reading refuses only what python-jsonschema refuses...
    let wrongly = typed_refused.difference(&python).collect::<Vec<_>>();
    assert!(
        wrongly.is_empty(),
        "refused, valid for python-jsonschema: {wrongly:#?}\n{stdout}"
    );
    // ...and all of it.
    let missed: Vec<&String> = python.difference(&typed_refused).collect();
    assert!(
        missed.is_empty(),
        "accepted, refused by python-jsonschema: {missed:#?}\n{refused_by_python:#?}"
    );
}

/// A crate's manifest whose `[dependencies]` are exactly those of the codegen README's first
/// `toml` block (the runtime from this workspace), and no policy of its own.
/// Each project gets its own package name: the projects share one target folder, where cargo
/// names a root package's artifacts by its name and its path relative to its own workspace
/// (the same for every project), so two projects named alike overwrote each other's test
/// binary when the sets ran in parallel. The library keeps the one crate name the tests use.
/// Its `lib` target has `test = false` and `doctest = false`: the tests are in `tests/`, and
/// `cargo test` would otherwise compile the generated code a second time as the library's own
/// (empty) test harness, beside the library itself, and run rustdoc over it for doctests it
/// has none of (Google's set is 24.6 MB of Rust: its library's compile alone took 11.7 GB of
/// memory and five minutes of a core, with the harness's beside it). Its profile is [`scratch::PROFILE`], as for every crate built
/// beside it.
fn manifest(workspace: &Path, project: &str) -> String {
    let readme = fs::read_to_string(workspace.join("cloudevent-codegen/README.md")).unwrap();
    let block = readme
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the README gives a toml block");
    let dependencies: Vec<String> = block
        .lines()
        .skip_while(|l| l.trim() != "[dependencies]")
        .skip(1)
        .take_while(|l| !l.trim_start().starts_with('['))
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            if l.starts_with("cloudevent-runtime ") {
                // The README's features, the runtime from this workspace.
                let features = l
                    .split_once("features = ")
                    .map(|(_, rest)| rest.split(']').next().unwrap_or_default().to_owned() + "]")
                    .unwrap_or_else(|| "[]".to_owned());
                format!(
                    "cloudevent-runtime = {{ path = {:?}, features = {features} }}",
                    workspace.join("cloudevent-runtime")
                )
            } else {
                l.to_owned()
            }
        })
        .collect();
    assert!(
        dependencies
            .iter()
            .any(|d| d.starts_with("cloudevent-runtime")),
        "{block}"
    );
    format!(
        "[package]\nname = \"generated-set-{project}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [lib]\nname = \"generated_set\"\ntest = false\ndoctest = false\n\n[dependencies]\n{}\n\n{}\n[workspace]\n",
        dependencies.join("\n"),
        scratch::PROFILE
    )
}

/// Generated code compiles with the README's dependency block alone: the CDEvents-shaped
/// fixture (a `pattern`, which typify checks with `regress`, reached through the runtime),
/// this repository's own registry (the default layout) and the `name-collision` fixture, in
/// one crate.
#[test]
fn the_readme_dependency_block_builds_generated_code() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let cdevents = Builder::new()
        .schemas(fixtures.join("cdevents-shaped/schemas"))
        .type_pointer("/properties/context/properties/type")
        .profile(Profile::CloudEvents)
        .lock_file(env::temp_dir().join("cloudevent-readme-unused.lock.json"))
        .generate()
        .unwrap_or_else(|e| panic!("{e}"))
        .single_file()
        .unwrap();
    assert!(
        cdevents.contains("::cloudevent_runtime::__private_v1::regress::Regex"),
        "the pattern is checked through the runtime's regress"
    );
    assert!(!cdevents.contains(" ::regress::"));
    let own = Builder::new()
        .schemas(workspace.join("schemas"))
        .lock_file(workspace.join("cloudevent.lock.json"))
        .generate()
        .unwrap_or_else(|e| panic!("{e}"))
        .single_file()
        .unwrap();
    // Names typify would give twice, renamed (`tests/names.rs`), and shared definitions beside
    // the event schemas in the default layout (`_defs/`, files without `x-cloudevent`).
    let names = Builder::new()
        .schemas(fixtures.join("name-collision"))
        .lock_file(env::temp_dir().join("cloudevent-readme-unused.lock.json"))
        .generate()
        .unwrap_or_else(|e| panic!("{e}"))
        .single_file()
        .unwrap();
    let base = env::current_exe()
        .unwrap()
        .ancestors()
        .nth(3)
        .expect("test executables live in <target>/<profile>/deps/")
        .join("codegen-sets");
    let project = base.join("readme");
    fs::create_dir_all(project.join("src")).unwrap();
    write_if_changed(&project.join("Cargo.toml"), &manifest(workspace, "readme"));
    copy_lock(workspace, &project);
    write_if_changed(&project.join("src/cdevents.rs"), &cdevents);
    write_if_changed(&project.join("src/own.rs"), &own);
    write_if_changed(&project.join("src/names.rs"), &names);
    write_if_changed(
        &project.join("src/lib.rs"),
        "#![allow(clippy::all, missing_docs)]\npub mod cdevents {\n    include!(\"cdevents.rs\");\n}\npub mod own {\n    include!(\"own.rs\");\n}\npub mod names {\n    include!(\"names.rs\");\n}\n",
    );
    let output = Command::new(env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .current_dir(&project)
        .args(["build", "--offline", "--color=never"])
        .env("CARGO_TARGET_DIR", base.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("run cargo");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Gives the crate the workspace's `Cargo.lock` when it has none or the workspace's changed
/// since (its dependencies then resolve to the versions the workspace tests), and leaves it
/// alone otherwise: cargo adds the crate itself to its copy, which a copy on every run would
/// undo.
fn copy_lock(workspace: &Path, project: &Path) {
    let (from, to) = (workspace.join("Cargo.lock"), project.join("Cargo.lock"));
    let modified = |path: &Path| fs::metadata(path).and_then(|m| m.modified()).ok();
    if modified(&to).is_none_or(|copied| modified(&from).is_some_and(|changed| changed > copied)) {
        fs::copy(&from, &to).unwrap();
    }
}

/// Keeps the file's time when its text is unchanged, so cargo does not rebuild it.
fn write_if_changed(path: &Path, text: &str) {
    if fs::read_to_string(path).ok().as_deref() != Some(text) {
        fs::write(path, text).unwrap();
    }
}

#[test]
fn github_output_compiles_and_reads_every_example() {
    let (dir, mapping) = github();
    compile_and_read_examples("github", &dir, &mapping);
}

#[test]
fn google_output_compiles_and_reads_every_example() {
    let (dir, mapping) = google();
    compile_and_read_examples("google", &dir, &mapping);
}
