//! A registry's settings file (`cloudevent-registry.toml`) stands in for the flags: the
//! CDEvents-shaped folder with one generates as `--type-pointer ... --profile cloudevents
//! --subject-pointer ... --id-pointer ...` would, and an option given to the `Builder` wins.

use std::path::Path;

use cloudevent_codegen::{Builder, CodegenError};

/// The registry's settings file, read from the schemas folder.
const REGISTRY_CONFIG: &str = "cloudevent-registry.toml";

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

fn cdevents_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cdevents-shaped/schemas"),
        dir.path(),
    );
    dir
}

const SETTINGS: &str = r#"
type-pointer = "/properties/context/properties/type"
profile = "cloudevents"

[attributes]
subject = "/subject/id"
id = "/context/id"
time = "/context/timestamp"
source = "/context/source"
"#;

#[test]
fn the_settings_file_replaces_the_flags() {
    let dir = cdevents_copy();
    // Without it the folder is read in the bundled layout, which it is not.
    assert!(
        Builder::new()
            .schemas(dir.path())
            .generate_string()
            .is_err()
    );
    std::fs::write(dir.path().join(REGISTRY_CONFIG), SETTINGS).unwrap();
    let code = Builder::new()
        .schemas(dir.path())
        .generate_string()
        .unwrap();
    assert_eq!(
        code.matches("profile = \"cloudevents\"").count(),
        5,
        "every type"
    );
    for attribute in [
        "#[cloudevent(id = \"id\")]",
        "#[cloudevent(time = \"timestamp\")]",
        "#[cloudevent(source = \"source\")]",
    ] {
        let fields = fields_marked(&code, attribute);
        assert_eq!(fields.len(), 5, "{attribute}: {fields:?}");
        assert!(
            fields.iter().all(|f| f.starts_with("pub context:")),
            "{fields:?}"
        );
    }
    assert!(code.contains("#[cloudevent(subject)]"));
}

#[test]
fn an_option_given_to_the_builder_wins_over_the_file() {
    let dir = cdevents_copy();
    std::fs::write(dir.path().join(REGISTRY_CONFIG), SETTINGS).unwrap();
    let code = Builder::new()
        .schemas(dir.path())
        .id_pointer("/subject/id")
        .generate_string()
        .unwrap();
    let fields = fields_marked(&code, "#[cloudevent(id = \"id\")]");
    assert_eq!(fields.len(), 5, "{fields:?}");
    assert!(
        fields.iter().all(|f| f.starts_with("pub subject:")),
        "{fields:?}"
    );
    // The file's other settings still apply.
    assert_eq!(
        fields_marked(&code, "#[cloudevent(time = \"timestamp\")]").len(),
        5
    );
}

/// The file's `[extensions]` reach members at any depth, as `--extension` does.
#[test]
fn the_settings_file_maps_a_nested_extension() {
    let dir = cdevents_copy();
    let settings = format!("{SETTINGS}\n[extensions]\nchainid = \"/context/chainId\"\n");
    std::fs::write(dir.path().join(REGISTRY_CONFIG), settings).unwrap();
    let code = Builder::new()
        .schemas(dir.path())
        .generate_string()
        .unwrap();
    let fields = fields_marked(
        &code,
        "#[cloudevent(extension(name = \"chainid\", member = \"chain_id\"))]",
    );
    assert_eq!(fields.len(), 5, "{fields:?}");
    assert!(
        fields.iter().all(|f| f.starts_with("pub context:")),
        "{fields:?}"
    );
}

/// The field declarations an attribute line is on.
fn fields_marked(code: &str, attribute: &str) -> Vec<String> {
    let lines: Vec<&str> = code.lines().map(str::trim).collect();
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| **l == attribute)
        .filter_map(|(at, _)| lines[at..].iter().find(|l| l.starts_with("pub ")))
        .map(|l| (*l).to_owned())
        .collect()
}

#[test]
fn a_wrong_key_in_the_file_is_a_finding_naming_it() {
    let dir = cdevents_copy();
    std::fs::write(dir.path().join(REGISTRY_CONFIG), "type-pointr = \"/x\"\n").unwrap();
    let Err(CodegenError::Findings(findings)) =
        Builder::new().schemas(dir.path()).generate_string()
    else {
        panic!("a wrong key was accepted");
    };
    assert_eq!(findings[0].pointer, "/type-pointr");
    assert!(findings[0].file.ends_with(REGISTRY_CONFIG));
}
