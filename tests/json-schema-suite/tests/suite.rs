//! The official JSON-Schema-Test-Suite (draft 7 and 2020-12 keyword files, vendored in
//! `cloudevent-codegen/tests/data/json-schema-test-suite` with its licence) through generated
//! types: every group one event type, every test's instance that event's `data`, read with
//! the generated type, compared with the suite's `valid`, and written back.
//!
//! The figures per keyword file are `docs/schema-fidelity.md`'s table; the test fails when the
//! page differs (`GOLDEN=overwrite cargo test -p json-schema-suite-test` writes it), and
//! when a bound of issue 37 is broken: a silent accept, a change on write-back.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use json_schema_suite_test::{CASES, REFUSED, Reader};
use serde_json::Value;

const DRAFTS: [(&str, &str); 2] = [("draft7", "d7"), ("draft2020-12", "d2020")];

/// What one keyword file gave.
#[derive(Default)]
struct Row {
    groups: usize,
    generated: usize,
    tests: usize,
    agree: usize,
    /// Invalid instances the generated type read.
    silent_accepts: Vec<String>,
    /// Valid instances the generated type refused.
    too_strict: Vec<String>,
    /// Valid instances read but written back different.
    changed: Vec<String>,
    /// Groups codegen neither generated nor refused.
    missing: Vec<String>,
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn event(group: &str, data: &Value) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({
        "specversion": "1.0",
        "id": "suite-1",
        "source": "https://suite.example.com/json-schema",
        "type": group,
        "datacontenttype": "application/json",
        "data": data,
    }))
    .unwrap()
}

#[test]
fn generated_types_give_the_suites_verdict() {
    let readers: BTreeMap<&str, Reader> = CASES.iter().copied().collect();
    let refused: Vec<Value> = serde_json::from_str(REFUSED).unwrap();
    let refused_groups: BTreeSet<&str> =
        refused.iter().filter_map(|r| r["group"].as_str()).collect();
    let suite = repo().join("cloudevent-codegen/tests/data/json-schema-test-suite");
    let mut rows: BTreeMap<(String, String), Row> = BTreeMap::new();
    for (draft, short) in DRAFTS {
        let mut files: Vec<PathBuf> = std::fs::read_dir(suite.join(draft))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for file in files {
            let keyword = file.file_stem().unwrap().to_str().unwrap().to_owned();
            let groups: Vec<Value> =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let row = rows.entry((draft.to_owned(), keyword.clone())).or_default();
            for (index, group) in groups.iter().enumerate() {
                let name = format!("{short}-{keyword}-{index}");
                row.groups += 1;
                let Some(reader) = readers.get(name.as_str()) else {
                    if !refused_groups.contains(name.as_str()) {
                        // Neither a type nor a refusal: codegen left the file out silently.
                        row.missing.push(name);
                    }
                    continue;
                };
                row.generated += 1;
                for test in group["tests"].as_array().unwrap() {
                    row.tests += 1;
                    let data = &test["data"];
                    let valid = test["valid"].as_bool().unwrap();
                    let what = format!(
                        "{name} \"{}\": {}",
                        test["description"].as_str().unwrap_or_default(),
                        data
                    );
                    match (reader(&event(&name, data)), valid) {
                        (Ok(back), true) if &back == data => row.agree += 1,
                        (Ok(back), true) => row.changed.push(format!("{what} -> {back}")),
                        (Ok(_), false) => row.silent_accepts.push(what),
                        (Err(_), false) => row.agree += 1,
                        (Err(error), true) => row.too_strict.push(format!("{what}: {error}")),
                    }
                }
            }
        }
    }
    let page = page(&rows, &refused);
    let path = repo().join("docs/schema-fidelity.md");
    if std::env::var("GOLDEN").is_ok_and(|v| v == "overwrite") {
        std::fs::write(&path, &page).unwrap();
    }
    let silent: Vec<&String> = rows.values().flat_map(|r| &r.silent_accepts).collect();
    let changed: Vec<&String> = rows.values().flat_map(|r| &r.changed).collect();
    let strict: Vec<&String> = rows.values().flat_map(|r| &r.too_strict).collect();
    let missing: Vec<&String> = rows.values().flat_map(|r| &r.missing).collect();
    eprintln!(
        "neither generated nor refused ({}): {missing:?}",
        missing.len()
    );
    eprintln!("silent accepts ({}):", silent.len());
    for line in &silent {
        eprintln!("  {line}");
    }
    eprintln!("changed on write-back ({}):", changed.len());
    for line in &changed {
        eprintln!("  {line}");
    }
    eprintln!("too strict ({}):", strict.len());
    for line in &strict {
        eprintln!("  {line}");
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == page,
        "docs/schema-fidelity.md is stale: run `GOLDEN=overwrite cargo test -p json-schema-suite-test` and read the diff"
    );
    assert!(
        missing.is_empty(),
        "groups neither generated nor refused: {missing:?}"
    );
    assert!(
        silent.is_empty(),
        "{} invalid instances read as valid",
        silent.len()
    );
    assert!(
        changed.is_empty(),
        "{} instances written back changed",
        changed.len()
    );
}

/// The measured table of `docs/schema-fidelity.md`.
fn page(rows: &BTreeMap<(String, String), Row>, refused: &[Value]) -> String {
    let mut out = String::new();
    let total = |f: &dyn Fn(&Row) -> usize| rows.values().map(f).sum::<usize>();
    let groups = total(&|r| r.groups);
    let generated = total(&|r| r.generated);
    let tests = total(&|r| r.tests);
    let strict = total(&|r| r.too_strict.len());
    writeln!(
        out,
        "<!-- generated by `GOLDEN=overwrite cargo test -p json-schema-suite-test`, do not edit -->"
    )
    .unwrap();
    writeln!(
        out,
        "# The JSON-Schema-Test-Suite through generated types\n"
    )
    .unwrap();
    writeln!(
        out,
        "Every group of the suite's draft 7 and 2020-12 keyword files (vendored in \
`cloudevent-codegen/tests/data/json-schema-test-suite`; out of scope: remote refs, `$id`, \
`$anchor`, `$dynamicRef`, vocabularies, `format`, `content`) is made one event type \
(`--type-template '{{dir}}' --profile cloudevents --skip-refused`); each test's instance is \
that event's `data`, read with the generated type and written back.\n"
    )
    .unwrap();
    writeln!(
        out,
        "**{generated} of {groups} groups generated ({:.1} %); of their {tests} tests: {} agree, {} invalid instances read as valid, {} valid instances refused ({:.1} %), {} written back changed.**\n",
        percent(generated, groups),
        total(&|r| r.agree),
        total(&|r| r.silent_accepts.len()),
        strict,
        percent(strict, tests),
        total(&|r| r.changed.len()),
    )
    .unwrap();
    writeln!(out, "## Where each keyword is enforced\n").unwrap();
    writeln!(
        out,
        "*In the type*: the Rust type refuses what the schema refuses. *Checked*: the type reads a \
wider set and the schema, embedded in the generated module (`DATA_SCHEMA`) and compiled once per \
type, checks the payload at every typed door (`Event::from_slice`, the binding readers, the axum \
extractors, `Event::try_from(AnyEvent)`); such a type needs the runtime's `registry` feature. \
*Refused*: codegen names the keyword and its JSON pointer, with a fix.\n"
    )
    .unwrap();
    out.push_str(&cloudevent_codegen::keyword_states_markdown());
    writeln!(out, "\n## The suite, keyword file by keyword file\n").unwrap();
    writeln!(out, "| draft | keyword file | groups | generated | tests | agree | silent accepts | too strict | changed on write-back |").unwrap();
    writeln!(out, "|---|---|---|---|---|---|---|---|---|").unwrap();
    for ((draft, keyword), row) in rows {
        writeln!(
            out,
            "| {draft} | `{keyword}` | {} | {} | {} | {} | {} | {} | {} |",
            row.groups,
            row.generated,
            row.tests,
            row.agree,
            row.silent_accepts.len(),
            row.too_strict.len(),
            row.changed.len()
        )
        .unwrap();
    }
    writeln!(out, "\n## Refused groups\n").unwrap();
    writeln!(out, "| group | pointer | why |").unwrap();
    writeln!(out, "|---|---|---|").unwrap();
    for r in refused {
        writeln!(
            out,
            "| {} | `{}` | {} |",
            r["group"].as_str().unwrap_or_default(),
            r["pointer"].as_str().unwrap_or_default(),
            r["message"]
                .as_str()
                .unwrap_or_default()
                .replace('|', "\\|")
                .replace('\n', " ")
        )
        .unwrap();
    }
    out
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}
