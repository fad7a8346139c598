//! Issue 39: OpenLineage's specification (`tests/sets/openlineage/`, vendored unedited from
//! `OpenLineage/OpenLineage` `spec/`, see its `SOURCE`) generates as published with
//! `--type-template 'io.openlineage.{file}' --exclude tests --profile cloudevents`:
//! `OpenLineage.json` is an event (its three kinds, `RunEvent`, `DatasetEvent` and `JobEvent`,
//! the variants of its `oneOf`) though every facet `$ref`s its `$defs`, and so is each facet
//! file; the `registry.json` indexes are no schemas (skipped with one warning) and the example
//! payloads under `tests/` are left out. The Rust compiles in a scratch crate that depends on
//! the runtime, serde and serde_json only, and reads events with the `jsonschema` crate's
//! verdict on the original files: every shipped example (`tests/<Facet>/*.json`), one event of
//! each kind, and the mutants `tests/oracle` makes of all of them; accepted data is written
//! back unchanged.

mod oracle;
mod scratch;

use std::path::{Path, PathBuf};

use cloudevent_codegen::{Builder, Profile, Registry, TypeMapping};
use serde_json::{Value, json};

const TEMPLATE: &str = "io.openlineage.{file}";

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sets/openlineage")
}

fn mapping() -> TypeMapping {
    TypeMapping {
        type_templates: vec![TEMPLATE.to_owned()],
        exclude: vec!["tests".to_owned()],
        ..TypeMapping::default()
    }
}

/// One event of each kind the event schema's `oneOf` names, as the specification describes
/// them (written here; the set ships none).
fn events() -> Vec<Value> {
    let job = json!({"namespace": "my-scheduler-namespace", "name": "myjob.mytask"});
    let run = json!({"runId": "d46e465b-d358-4d32-83d4-df660ff614dd"});
    let dataset = json!({"namespace": "postgres://db.foo.com", "name": "metrics.sales"});
    vec![
        json!({
            "eventType": "START",
            "eventTime": "2020-12-28T19:52:00.001+10:00",
            "run": run,
            "job": job,
            "inputs": [dataset],
            "producer": "https://github.com/OpenLineage/OpenLineage/blob/v1-0-0/client",
            "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent"
        }),
        json!({
            "eventTime": "2020-12-28T19:52:00.001+10:00",
            "dataset": dataset,
            "producer": "https://github.com/OpenLineage/OpenLineage/blob/v1-0-0/client",
            "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent"
        }),
        json!({
            "eventTime": "2020-12-28T19:52:00.001+10:00",
            "job": job,
            "outputs": [dataset],
            "producer": "https://github.com/OpenLineage/OpenLineage/blob/v1-0-0/client",
            "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent"
        }),
    ]
}

#[test]
fn the_specification_generates_as_published_and_agrees_with_jsonschema() {
    let dir = dir();
    let registry = Registry::load_mapped(&dir, &mapping()).unwrap();
    let facets: Vec<&str> = registry
        .files
        .iter()
        .map(|f| f.relative.as_str())
        .filter(|r| r.starts_with("facets/"))
        .collect();
    assert!(
        registry
            .files
            .iter()
            .any(|f| f.relative == "OpenLineage.json"),
        "the event schema is an event, not a shared definition"
    );
    assert!(facets.len() >= 36, "{facets:?}");
    let lock = tempfile::tempdir().unwrap();
    let rust = Builder::new()
        .schemas(&dir)
        .type_template(TEMPLATE)
        .exclude("tests")
        .profile(Profile::CloudEvents)
        .lock_file(lock.path().join("lock.json"))
        .generate()
        .unwrap();
    assert!(rust.refused.is_empty(), "{:?}", rust.refused);
    let code = rust.single_file().unwrap();
    let types = scratch::variants(&code).len();
    assert_eq!(types, registry.files.len());
    // The three kinds are the variants of the event's payload.
    for kind in ["RunEvent", "DatasetEvent", "JobEvent"] {
        assert!(code.contains(&format!("({kind})")), "{kind}");
    }

    let scratch = scratch::Scratch::new("openlineage");
    let mut reader = scratch::Reader::default();
    reader.module(&scratch, "openlineage", &code);
    let mut oracle = oracle::Oracle::new(&dir);
    let mut verdicts = Vec::new();
    let mut judge = |schema: &str, event_type: &str, instances: Vec<Value>| {
        for data in instances {
            let verdict = oracle.verdict(&dir.join(schema), &data);
            reader.event("openlineage", event_type, &data);
            verdicts.push((format!("{event_type} {data}"), verdict));
        }
    };
    let with_mutants = |examples: Vec<Value>| {
        let mutants: Vec<Value> = examples
            .iter()
            .flat_map(|e| oracle::mutants(e).into_iter().map(|(_, m)| m))
            .collect();
        examples.into_iter().chain(mutants).collect::<Vec<_>>()
    };
    judge(
        "OpenLineage.json",
        "io.openlineage.OpenLineage",
        with_mutants(events()),
    );
    let mut shipped = 0;
    for facet in &facets {
        let name = facet
            .strip_prefix("facets/")
            .and_then(|f| f.strip_suffix(".json"))
            .unwrap();
        let Ok(entries) = std::fs::read_dir(dir.join("tests").join(name)) else {
            continue;
        };
        let mut examples: Vec<(PathBuf, Value)> = entries
            .map(|e| e.unwrap().path())
            .map(|p| {
                let value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
                (p, value)
            })
            .collect();
        examples.sort_by(|a, b| a.0.cmp(&b.0));
        shipped += examples.len();
        let examples = examples.into_iter().map(|(_, v)| v).collect();
        judge(
            facet,
            &format!("io.openlineage.{name}"),
            with_mutants(examples),
        );
    }
    let lines = reader.run(&scratch);
    let (accepted, disagreements) = oracle::tally(&lines, &verdicts);
    // Known and counted: the specification is draft 2020-12, where `format` is an annotation,
    // so `jsonschema` accepts any text as a `date-time`; the generated `Timestamp` refuses
    // what is not RFC 3339 (too strict, never too lenient; docs/schema-fidelity.md `format`).
    let (date_times, others): (Vec<_>, Vec<_>) =
        disagreements
            .into_iter()
            .partition(|(what, typed, verdict)| {
                verdict.is_none()
                    && (typed.contains("expected a 4-digit year (CE 1.0.2 time)")
                        || (typed.contains("untagged enum OpenLineage")
                            && what.contains(r#""eventTime":"\u0001mutant""#)))
            });
    oracle::assert_agree(&others, verdicts.len());
    let date_times_refused = date_times.len();
    assert!(shipped >= 40, "{shipped} shipped examples");
    assert_eq!(
        date_times_refused, 5,
        "mutated date-times refused where 2020-12 asserts no format"
    );
    eprintln!(
        "openlineage: {types} types (the event, {} facets), {shipped} shipped examples; {} of {} events agree with jsonschema ({accepted} accepted and written back unchanged); {date_times_refused} non-RFC 3339 date-times refused that draft 2020-12 leaves unasserted",
        facets.len(),
        verdicts.len() - date_times_refused,
        verdicts.len(),
    );
}
