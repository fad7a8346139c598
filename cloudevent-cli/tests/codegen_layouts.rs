//! `cloudevent codegen` on schema sets laid out as others publish them (issue 11): the
//! CDEvents-shaped fixture of `cloudevent-codegen` read with `--type-pointer`, and what the
//! user sees when such a folder is empty, or holds refs and shapes codegen cannot handle.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{TempDir, cloudevent, edit_json, text};

const POINTER: &str = "/properties/context/properties/type";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cloudevent-codegen/tests/fixtures/cdevents-shaped/schemas")
}

#[test]
fn a_cdevents_shaped_folder_generates_every_type_with_shared_links_once() {
    let schemas = fixture();
    let output = cloudevent(&[
        "codegen",
        "--schemas",
        schemas.to_str().unwrap(),
        "--type-pointer",
        POINTER,
        "--profile",
        "cloudevents",
        "--out",
        "-",
    ]);
    let rust = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(
        rust.lines().nth(1).unwrap().contains(&format!(
            "Regenerate with: cloudevent codegen --schemas {} --type-pointer {POINTER} --profile cloudevents --out -",
            schemas.display()
        )),
        "{}",
        &rust[..300]
    );
    for (module, root) in [
        ("artifact_packaged_v0_3_0", "ArtifactPackaged"),
        ("incident_detected_v0_2_0", "IncidentDetected"),
        ("pipelinerun_finished_v0_2_0", "PipelinerunFinished"),
        ("service_deployed_v0_3_0", "ServiceDeployed"),
        ("ticket_created_v0_2_0", "TicketCreated"),
    ] {
        assert!(rust.contains(&format!("pub mod {module} {{")), "{module}");
        assert!(rust.contains(&format!("pub struct {root} {{")), "{root}");
        assert!(
            rust.contains(&format!("{root}({module}::{root})")),
            "RegistryEvent variant {root}"
        );
    }
    // The links every event reaches are generated once, in the shared module.
    assert_eq!(rust.matches("pub struct Embeddedlinksarray(").count(), 1);
    // Each of the 5 events names it three times: its field, its builder's field and setter.
    assert_eq!(
        rust.matches("super::shared::Embeddedlinksarray").count(),
        15
    );
    assert_eq!(rust.matches("pub struct Domainid(").count(), 1);
    // Each type carries its profile, and its dataschema is the `$id` as published.
    assert_eq!(rust.matches("profile = \"cloudevents\"").count(), 5);
    assert!(rust.contains(
        "dataschema = \"https://cdevents.dev/0.4.1/schema/pipeline-run-finished-event\""
    ));
    // An unversioned `$id` is the dataschema as well, unchanged.
    assert!(rust.contains("dataschema = \"https://cdevents.dev/schema/service-deployed-event\""));
}

#[test]
fn a_folder_without_event_schemas_says_what_was_looked_for() {
    let empty = TempDir::new("empty");
    fs::write(
        empty.path().join("notes.json"),
        "{\"title\": \"not an event\"}",
    )
    .unwrap();
    let output = cloudevent(&[
        "codegen",
        "--schemas",
        empty.as_str(),
        "--type-pointer",
        POINTER,
        "--out",
        "-",
    ]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(output.stdout.is_empty());
    assert!(stderr.contains("no event schema found"), "{stderr}");
    assert!(
        stderr.contains(POINTER) && stderr.contains("1 `*.json` file"),
        "{stderr}"
    );

    // Today's layout on a flat folder: no longer an empty file written with exit 0.
    let flat = TempDir::new("flat");
    for name in ["ticketcreated.json", "artifactpackaged.json"] {
        fs::copy(fixture().join(name), flat.path().join(name)).unwrap();
    }
    let output = cloudevent(&["codegen", "--schemas", flat.as_str(), "--out", "-"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--type-pointer"), "{stderr}");
}

#[test]
fn every_problem_of_the_registry_is_reported_in_one_run_without_panic_text() {
    let dir = TempDir::copy_of(&fixture(), "broken");
    // typify panicked on an enum whose values have several JSON types, one an object:
    // codegen now reads it as the union of those types, so it is no problem any more.
    edit_json(&dir.path().join("ticketcreated.json"), |s| {
        s["properties"]["mixed"] = serde_json::json!({"enum": [1, "a", {"x": 1}]});
    });
    edit_json(&dir.path().join("servicedeployed.json"), |s| {
        s["properties"]["subject"]["properties"]["content"]["properties"]["artifactDomainId"]["$ref"] =
            "links/domain-id".into();
    });
    edit_json(&dir.path().join("links/embeddedlinkend.json"), |s| {
        s["properties"]["from"]["properties"]["domainId"]["$ref"] =
            "https://elsewhere.example.com/domainid".into();
    });
    let output = cloudevent(&[
        "codegen",
        "--schemas",
        dir.as_str(),
        "--type-pointer",
        POINTER,
        "--profile",
        "cloudevents",
        "--out",
        "-",
    ]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(output.stdout.is_empty());
    assert!(
        !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
        "{stderr}"
    );
    assert!(stderr.contains("2 problem(s)"), "{stderr}");
    assert!(!stderr.contains("ticketcreated.json"), "{stderr}");
    assert!(
        stderr.contains("servicedeployed.json#/properties/subject/properties/content/properties/artifactDomainId/$ref: `$ref` `links/domain-id`: no file `links/domain-id`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("embeddedlinkend.json#/properties/from/properties/domainId/$ref: `$ref` `https://elsewhere.example.com/domainid`")
            && stderr.contains("never fetches"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("; fix: ").count(), 2, "{stderr}");
}

#[test]
fn skip_refused_generates_the_rest_and_lists_every_refusal_on_stderr() {
    let dir = TempDir::copy_of(&fixture(), "partial");
    edit_json(&dir.path().join("ticketcreated.json"), |s| {
        s["properties"]["subject"]["$ref"] = "links/nothing-here".into();
    });
    let args = |skip: bool| {
        let mut args = vec![
            "codegen",
            "--schemas",
            dir.as_str(),
            "--type-pointer",
            POINTER,
            "--profile",
            "cloudevents",
            "--out",
            "-",
        ];
        if skip {
            args.push("--skip-refused");
        }
        args.into_iter().map(str::to_owned).collect::<Vec<_>>()
    };
    let refused = cloudevent(&args(false).iter().map(String::as_str).collect::<Vec<_>>());
    let stderr = text(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert!(refused.stdout.is_empty());
    // The message says how to generate the rest.
    assert!(stderr.contains("--skip-refused"), "{stderr}");
    assert!(stderr.contains("1 of "), "{stderr}");

    let skipped = cloudevent(&args(true).iter().map(String::as_str).collect::<Vec<_>>());
    let stderr = text(&skipped.stderr);
    assert_eq!(skipped.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("left out (--skip-refused)")
            && stderr.contains("ticketcreated.json#/properties/subject/$ref"),
        "{stderr}"
    );
    let rust = text(&skipped.stdout);
    assert!(
        !rust.contains("pub struct TicketCreated "),
        "the refused type is left out"
    );
    assert!(
        rust.contains("pub struct ArtifactPackaged"),
        "the others are generated"
    );
    assert!(
        rust.contains("--skip-refused"),
        "the header's command keeps the flag"
    );
}

fn xregistry_catalog() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cloudevent-codegen/tests/fixtures/xregistry/catalog.json")
}

#[test]
fn an_xregistry_catalog_generates_its_cloudevents_messages() {
    let catalog = xregistry_catalog();
    let output = cloudevent(&[
        "codegen",
        "--xregistry",
        catalog.to_str().unwrap(),
        "--profile",
        "cloudevents",
        "--out",
        "-",
    ]);
    let rust = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    // Names that collide once the prefix is dropped are lengthened, not refused.
    for module in [
        "smart_oven_turned_on",
        "lumen_turned_on",
        "temperature_changed",
        "events_employee_added",
    ] {
        assert!(rust.contains(&format!("pub mod {module} {{")), "{module}");
    }
    // The MQTT message is no CloudEvent; the shared address schema is generated once.
    assert!(!rust.contains("Reading"));
    // The type and its builder (`builder::Address`).
    assert_eq!(rust.matches("pub struct Address {").count(), 2);
    // Two events, each naming it in its field, its builder's field and setter.
    assert_eq!(rust.matches("super::shared::Address").count(), 6);
    // A URI-template source whose variables are not payload members is no default source,
    // and the warning says how to set one (not how to fix a URI that was never one).
    assert!(!rust.contains("{tenantid}"));
    assert!(
        stderr.contains("source `{tenantid}/{deviceid}` is a URI template whose variable(s) `tenantid`, `deviceid` are not members of the payload"),
        "{stderr}"
    );
    assert!(
        stderr.contains("Event::builder(payload).source(..)"),
        "{stderr}"
    );
    // SHOULDs (5) and the templates that cannot be filled (3) are printed, pointing into the
    // catalog, and generation goes on.
    assert_eq!(
        stderr.matches("cloudevent codegen: warning: ").count(),
        8,
        "{stderr}"
    );
    assert!(
        stderr.contains("catalog.json#/messagegroups/Fabrikam.Lumen/messages/Fabrikam.Lumen.TurnedOn/metadata/type: type `Fabrikam.Lumen.TurnedOn`: should be prefixed with a reverse-DNS name"),
        "{stderr}"
    );
}

#[test]
fn a_subject_pointer_that_names_nothing_is_a_finding() {
    let schemas = fixture();
    let output = cloudevent(&[
        "codegen",
        "--schemas",
        schemas.to_str().unwrap(),
        "--type-pointer",
        POINTER,
        "--subject-pointer",
        "/subject/name",
        "--profile",
        "cloudevents",
        "--out",
        "-",
    ]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("5 problem(s)"), "{stderr}");
    assert!(
        stderr.contains(
            "subject pointer `/subject/name`: `TicketCreatedSubject` has no member `name`"
        ),
        "{stderr}"
    );
}

#[test]
fn the_cdevents_binding_attributes_come_from_the_context() {
    let schemas = format!(
        "{}/../cloudevent-codegen/tests/fixtures/cdevents-shaped/schemas",
        env!("CARGO_MANIFEST_DIR")
    );
    // The CDEvents binding: id, time and source from `context`, and one extension.
    let codegen = |extension: &str| {
        cloudevent(&[
            "codegen",
            "--schemas",
            &schemas,
            "--type-pointer",
            "/properties/context/properties/type",
            "--id-pointer",
            "/context/id",
            "--time-pointer",
            "/context/timestamp",
            "--source-pointer",
            "/context/source",
            "--extension",
            extension,
            "--profile",
            "cloudevents",
            "--out",
            "-",
        ])
    };
    let output = codegen("chain=/context/chainid");
    let stderr = text(&output.stderr);
    // Members are named as the schema spells them (`chainId`); a wrong one is a finding per file.
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr
            .matches("extension `chain` pointer `/context/chainid`: ")
            .count(),
        5,
        "{stderr}"
    );
    assert!(stderr.contains("has no member `chainid`"), "{stderr}");
    let output = codegen("chainid=/context/chainId");
    let rust = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(rust.matches("#[cloudevent(id = \"id\")]").count(), 5);
    // A nested extension: named on `context` by the Rust name of `chainId`.
    assert_eq!(
        rust.matches("#[cloudevent(extension(name = \"chainid\", member = \"chain_id\"))]")
            .count(),
        5,
        "{rust}"
    );
    assert!(
        rust.contains("--extension chainid=/context/chainId"),
        "the header names the command"
    );
    assert_eq!(
        rust.matches("#[cloudevent(time = \"timestamp\")]").count(),
        5
    );
    assert!(
        rust.contains("--id-pointer /context/id --time-pointer /context/timestamp"),
        "the header names the command"
    );
}

/// The done-when of issue 11 for the CLI: its output for the CDEvents-shaped folder is the
/// code `tests/codegen-build`'s build script generates with `Builder` (the header comment
/// aside), which that crate, with no `[package.metadata.cloudevent]`, compiles and reads every
/// example event with.
#[test]
fn the_cli_writes_what_the_builder_writes() {
    let schemas = format!(
        "{}/../cloudevent-codegen/tests/fixtures/cdevents-shaped/schemas",
        env!("CARGO_MANIFEST_DIR")
    );
    let output = cloudevent(&[
        "codegen",
        "--schemas",
        &schemas,
        "--type-pointer",
        "/properties/context/properties/type",
        "--subject-pointer",
        "/subject/id",
        "--id-pointer",
        "/context/id",
        "--time-pointer",
        "/context/timestamp",
        "--source-pointer",
        "/context/source",
        "--profile",
        "cloudevents",
        "--out",
        "-",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let built = cloudevent_codegen::Builder::new()
        .schemas(&schemas)
        .type_pointer("/properties/context/properties/type")
        .subject_pointer("/subject/id")
        .id_pointer("/context/id")
        .time_pointer("/context/timestamp")
        .source_pointer("/context/source")
        .profile(cloudevent_codegen::Profile::CloudEvents)
        .generate_string()
        .unwrap();
    let code = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("//"))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(code(&text(&output.stdout)), code(&built));
}

fn codegen_fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cloudevent-codegen/tests/fixtures")
        .join(name)
}

#[test]
fn a_users_own_layout_with_x_cloudevent_type_needs_no_flag() {
    let lock = TempDir::new("own-layout-lock");
    let lock = lock.path().join("cloudevent.lock.json");
    let output = cloudevent(&[
        "codegen",
        "--schemas",
        codegen_fixture("user-layout").to_str().unwrap(),
        "--lock",
        lock.to_str().unwrap(),
        "--out",
        "-",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let rust = text(&output.stdout);
    assert!(rust.contains("type = \"com.example.billing.invoice.issued\""));
    assert!(rust.contains("type = \"com.example.shipping.parcel.shipped\""));
    assert!(rust.contains("super::shared::Money"));
}

#[test]
fn a_vendor_annotation_types_the_events_and_every_refusal_is_said() {
    let lock = TempDir::new("vendor-lock");
    let lock = lock.path().join("cloudevent.lock.json");
    let schemas = codegen_fixture("vendor-annotated");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "codegen",
            "--schemas",
            schemas.to_str().unwrap(),
            "--type-template",
            "{/x-amazon-events-source}.{file}",
            "--lock",
            lock.to_str().unwrap(),
            "--out",
            "-",
        ];
        args.extend_from_slice(extra);
        cloudevent(&args)
    };
    // The default profile refuses the publisher's names and points to the profile that fits.
    let refused = run(&["--profile", "intg-std-015"]);
    let stderr = text(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr
            .matches("fix: this type is named by its publisher")
            .count(),
        2,
        "{stderr}"
    );
    assert!(stderr.contains("--profile cloudevents"), "{stderr}");
    // `--skip-refused` with nothing left says so, exit 1, nothing written.
    let nothing = run(&["--profile", "intg-std-015", "--skip-refused"]);
    let stderr = text(&nothing.stderr);
    assert_eq!(nothing.status.code(), Some(1), "{stderr}");
    assert!(nothing.stdout.is_empty());
    assert!(
        stderr.contains("--skip-refused left nothing to generate: all 2 type(s) were refused"),
        "{stderr}"
    );
    // Under the profile it names: generated; the example payload skipped with one warning,
    // silenced by `--exclude`.
    let generated = run(&["--profile", "cloudevents"]);
    let stderr = text(&generated.stderr);
    assert_eq!(generated.status.code(), Some(0), "{stderr}");
    assert_eq!(
        stderr.matches("no JSON Schema keyword").count(),
        1,
        "{stderr}"
    );
    assert!(
        stderr.contains("examples/instance-state-change.json"),
        "{stderr}"
    );
    let excluded = run(&["--profile", "cloudevents", "--exclude", "examples"]);
    let stderr = text(&excluded.stderr);
    assert_eq!(excluded.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("no JSON Schema keyword"), "{stderr}");
    let rust = text(&excluded.stdout);
    assert!(rust.contains("type = \"aws.ec2.instance-state-change\""));
    assert!(
        rust.contains("--exclude 'examples'"),
        "the header's command keeps the flag"
    );
}

/// Issue 39 item 5: an AsyncAPI document in YAML and an OpenAPI 2 document, read by their flags.
#[test]
fn asyncapi_and_openapi_documents_generate_from_their_flags() {
    let streetlights = codegen_fixture("asyncapi/streetlights-v2.yaml");
    let output = cloudevent(&[
        "codegen",
        "--asyncapi",
        streetlights.to_str().unwrap(),
        "--type-template",
        "org.example.streetlights.{file}",
        "--profile",
        "cloudevents",
        "--out",
        "-",
    ]);
    let rust = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        rust.lines().nth(1).unwrap().contains(&format!(
            "cloudevent codegen --asyncapi {} --type-template 'org.example.streetlights.{{file}}'",
            streetlights.display()
        )),
        "{}",
        rust.lines().nth(1).unwrap()
    );
    for ty in ["audited", "lightMeasured", "turnedOn"] {
        assert!(
            rust.contains(&format!("type = \"org.example.streetlights.{ty}\"")),
            "{ty}"
        );
    }
    // The Avro message is left out by name, as a warning.
    assert!(
        stderr.contains("message `dimmed`") && stderr.contains("left out"),
        "{stderr}"
    );

    let eventgrid = codegen_fixture("openapi/eventgrid-shaped.json");
    let output = cloudevent(&[
        "codegen",
        "--openapi",
        eventgrid.to_str().unwrap(),
        "--type-template",
        r"{/description|for an? (\S+) event}",
        "--profile",
        "cloudevents",
        "--out",
        "-",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("type = \"Microsoft.Storage.BlobCreated\""));
}
