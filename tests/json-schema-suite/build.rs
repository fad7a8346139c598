//! Lays out the vendored JSON-Schema-Test-Suite (`cloudevent-codegen/tests/data/
//! json-schema-test-suite`) as a schema folder, one event type a test group (folder
//! `<draft>-<keyword>-<group>`, type `{dir}`), and generates its types as a user's build
//! script would, leaving out the refused groups. `suite.rs` (this crate's generated cases)
//! lists, for every generated group, a reader of its type; `refused.json` the refusals.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cloudevent_codegen::Profile;
use serde_json::Value;

/// The suite's draft folders and the `$schema` a draft-7 schema gets (the suite's draft-7
/// files leave it out; the validator needs it to read the draft).
const DRAFTS: [(&str, &str, &str); 2] = [
    ("draft7", "d7", "http://json-schema.org/draft-07/schema#"),
    (
        "draft2020-12",
        "d2020",
        "https://json-schema.org/draft/2020-12/schema",
    ),
];

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let suite = manifest.join("../../cloudevent-codegen/tests/data/json-schema-test-suite");
    println!("cargo:rerun-if-changed={}", suite.display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap());
    let mut refused: Vec<Value> = Vec::new();
    let mut cases = String::from(
        "/// Every generated group: its name and a reader of its type.\npub static CASES: &[(&str, Reader)] = &[\n",
    );
    // One registry a draft: the groups of one draft never share an `$id`, those of two do.
    for (draft, short, meta) in DRAFTS {
        let schemas = out.join(format!("suite-schemas-{short}"));
        let _ = std::fs::remove_dir_all(&schemas);
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
            for (index, group) in groups.iter().enumerate() {
                lay_out(
                    &schemas,
                    &format!("{short}-{keyword}-{index}"),
                    &group["schema"],
                    meta,
                );
            }
        }
        let generated = cloudevent_codegen::Builder::new()
            .schemas(&schemas)
            .type_template("{dir}")
            .profile(Profile::CloudEvents)
            .skip_refused(true)
            .lock_file(out.join(format!("{short}.lock.json")))
            .generate();
        let generated = match generated {
            Ok(generated) => generated,
            Err(error) => {
                eprintln!("{error}");
                std::process::exit(1);
            }
        };
        let code = generated.single_file().unwrap();
        std::fs::write(out.join(format!("suite_types_{short}.rs")), &code).unwrap();
        refused.extend(generated.refused.iter().map(|f| {
            serde_json::json!({
                "group": group_of(&f.file),
                "pointer": f.pointer,
                "message": f.message,
            })
        }));
        add_cases(&mut cases, short, &code);
    }
    cases.push_str("];\n");
    std::fs::write(
        out.join("refused.json"),
        serde_json::to_string_pretty(&refused).unwrap(),
    )
    .unwrap();
    std::fs::write(out.join("suite_cases.rs"), cases).unwrap();
}

/// One group's schema as a file of the folder. A boolean schema (`true`, `false`) is the
/// one subschema of an `allOf`: a schema file is an object.
fn lay_out(schemas: &Path, group: &str, schema: &Value, meta: &str) {
    let mut schema = match schema {
        Value::Object(object) => Value::Object(object.clone()),
        other => serde_json::json!({ "allOf": [other] }),
    };
    let object = schema.as_object_mut().unwrap();
    object
        .entry("$schema")
        .or_insert_with(|| Value::String(meta.to_owned()));
    let dir = schemas.join(group);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("v1.json"),
        serde_json::to_string_pretty(&schema).unwrap(),
    )
    .unwrap();
}

fn group_of(path: &Path) -> String {
    path.parent()
        .and_then(Path::file_name)
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// For every variant of a generated `RegistryEvent` (`/// \`<type>\`.` then
/// `Variant(module::Root),`), the group's name and a reader of its type, in module `short`.
fn add_cases(out: &mut String, short: &str, code: &str) {
    let mut lines = code.lines().peekable();
    while let Some(line) = lines.next() {
        let line = line.trim();
        let Some(ty) = line
            .strip_prefix("/// `")
            .and_then(|rest| rest.strip_suffix("`."))
        else {
            continue;
        };
        let Some(next) = lines.peek() else { break };
        let next = next.trim();
        let Some((_, path)) = next.strip_suffix("),").and_then(|v| v.split_once('(')) else {
            continue;
        };
        writeln!(out, "    ({ty:?}, read::<{short}::{path}>),").unwrap();
    }
}
