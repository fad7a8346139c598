//! The derive and the validator give one verdict on a declaration (issue 10 §1): what
//! `#[derive(CloudEvent)]` says about its literals at compile time is what `Validator` says
//! about an event carrying the same values, with the same rule ids and severities.
//!
//! Two views:
//! - every compile-fail case of the derive's UI suites (`tests/ui/`, `tests/profiles/*/ui/`)
//!   is read back: its literals become an event, the validator checks it under the case's
//!   profile, and the errors it reports about the declared attributes must be exactly the
//!   errors in the case's `.stderr`;
//! - a table of declarations, errors and warnings alike, checked with
//!   `Policy::check_declaration` (the call the derive and codegen make) and with the validator.

use cloudevent_runtime::Validate;
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use cloudevent_runtime::Json;
use cloudevent_runtime::rules::{
    CORE_ATTRIBUTES, Declaration, JSON_FORMAT_MEMBERS, Policy, Profile, Violation,
};
use cloudevent_runtime::{ValidationReport, Validator};
use serde_json::{Map, Value, json};

const DECLARED: [&str; 4] = ["type", "source", "dataschema", "datacontenttype"];

/// What one derive input declares: container literals and extension names.
#[derive(Debug, Default)]
struct Declared {
    attributes: Vec<(&'static str, String)>,
    extensions: Vec<String>,
}

/// The value of `key = "..."` in `line`, for the simple literals the UI cases use.
fn literal(line: &str, key: &str) -> Option<String> {
    let at = line.find(&format!("{key} = \""))?;
    // A longer key ending in this one (`datacontenttype` vs `type`) is not this key.
    if at > 0 && line.as_bytes()[at - 1].is_ascii_alphanumeric() {
        return None;
    }
    let rest = &line[at + key.len() + 4..];
    Some(rest[..rest.find('"')?].to_owned())
}

fn read_case(text: &str) -> Declared {
    let mut declared = Declared::default();
    let mut pending_field_extension = false;
    for line in text.lines().map(str::trim) {
        if pending_field_extension {
            if let Some((name, _)) = line.split_once(':') {
                declared.extensions.push(name.trim().to_owned());
            }
            pending_field_extension = false;
            continue;
        }
        if !line.starts_with("#[cloudevent(") {
            continue;
        }
        if let Some(name) = literal(line, "extension") {
            declared.extensions.push(name);
        } else if line == "#[cloudevent(extension)]" {
            pending_field_extension = true;
        }
        // `extension(name = "tenantid", member = "..")`, possibly several on one line.
        for (at, _) in line.match_indices("extension(") {
            if let Some(name) = literal(&line[at..], "name") {
                declared.extensions.push(name);
            }
        }
        for key in DECLARED {
            if let Some(value) = literal(line, key) {
                declared.attributes.push((key, value));
            }
        }
    }
    declared
}

/// The derive's policy findings in a case's `.stderr`, about the case file itself: errors
/// and the warnings it emits as `#[deprecated]` notes.
fn derive_findings(stderr: &str, case: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut errors, mut warnings) = (BTreeSet::new(), BTreeSet::new());
    let lines: Vec<&str> = stderr.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let in_case = lines
            .get(i + 1)
            .is_some_and(|next| next.trim_start().starts_with("-->") && next.contains(case));
        if !in_case {
            continue;
        }
        if let Some(message) = line.strip_prefix("error: ") {
            errors.insert(message.to_owned());
        } else if let Some(rest) = line.strip_prefix("warning: use of deprecated constant `") {
            let message = rest.split_once("`: ").map_or(rest, |(_, m)| m);
            let message = message
                .strip_suffix(" (a SHOULD under this crate's profile: a warning, not an error)")
                .unwrap_or(message);
            warnings.insert(message.to_owned());
        }
    }
    // Only findings of the policy: they name one of the declared attributes or an extension;
    // the derive's structural errors (a key misspelt, a subject twice) have no event to
    // compare with.
    let is_policy = |m: &String| {
        DECLARED
            .iter()
            .chain(["extension"].iter())
            .any(|a| m.starts_with(&format!("{a} `")) || m.starts_with(&format!("{a}: ")))
    };
    (
        errors.into_iter().filter(is_policy).collect(),
        warnings.into_iter().filter(is_policy).collect(),
    )
}

/// Fillers for what a case does not declare; findings about them are not compared.
fn event_for(declared: &Declared, profile: Profile) -> Vec<u8> {
    let mut event = Map::new();
    event.insert("specversion".into(), json!("1.0"));
    event.insert("id".into(), json!("01HZX3KQVB8E72GQJHF5RM6YWN"));
    event.insert("time".into(), json!("2026-03-28T14:22:31Z"));
    let (ty, source) = match profile {
        Profile::NlGov => (
            "nl.brp.persoon-gehuwd",
            "urn:nld:oin:00000001823288444000:brp",
        ),
        _ => (
            "com.example.order.created",
            "https://orders.example.com/checkout",
        ),
    };
    event.insert("type".into(), json!(ty));
    event.insert("source".into(), json!(source));
    for (key, value) in &declared.attributes {
        event.insert((*key).to_owned(), json!(value));
    }
    for name in &declared.extensions {
        event.insert(name.clone(), json!("x"));
    }
    serde_json::to_vec(&Value::Object(event)).expect("a JSON object")
}

fn validator_findings(
    report: &ValidationReport,
    declared: &Declared,
) -> (BTreeSet<String>, BTreeSet<String>) {
    let about_declaration = |v: &&Violation| {
        declared
            .attributes
            .iter()
            .any(|(key, _)| v.attribute == *key)
            || (v.attribute == "extension" && declared.extensions.contains(&v.value))
    };
    let shown = |v: &Violation| v.to_string();
    (
        report
            .errors()
            .filter(about_declaration)
            .map(shown)
            .collect(),
        report
            .warnings()
            .filter(about_declaration)
            .map(shown)
            .collect(),
    )
}

/// `(profile, type prefix)` of a fixture's `[package.metadata.cloudevent]`.
fn fixture_policy(dir: &Path) -> Policy {
    let manifest = fs::read_to_string(dir.join("Cargo.toml")).expect("fixture Cargo.toml");
    let section = manifest
        .split("[package.metadata.cloudevent]")
        .nth(1)
        .unwrap_or_default();
    let profile = literal(section, "profile")
        .map_or(Profile::IntgStd015, |p| p.parse().expect("a known profile"));
    let policy = Policy::new(profile);
    match literal(section, "type-prefix") {
        Some(prefix) => policy.with_type_prefix(prefix),
        None => policy,
    }
}

fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = fs::read_dir(dir)
        .expect("a UI directory")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .collect();
    cases.sort();
    cases
}

#[test]
fn the_derive_s_compile_errors_are_the_validator_s_errors() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut suites: Vec<(PathBuf, Policy)> = [
        "type",
        "dataschema",
        "source",
        "datacontenttype",
        "extension",
        "report",
    ]
    .iter()
    // The tests crate's Cargo.toml sets no policy: the default, INTG-STD-015.
    .map(|rule| (tests.join("ui").join(rule), Policy::default()))
    .collect();
    for fixture in ["cloudevents", "nl-gov", "type-prefix"] {
        let dir = tests.join("profiles").join(fixture);
        suites.push((dir.join("ui"), fixture_policy(&dir)));
    }

    let (mut compared, mut disagreements) = (0, Vec::new());
    for (dir, policy) in &suites {
        let validator = Validator::new(policy.clone());
        for case in cases(dir) {
            let declared = read_case(&fs::read_to_string(&case).expect("the case"));
            // An extension named like a core attribute or `data` cannot be written into a
            // JSON event as an extension at all: the derive refuses the name, the reader the
            // document (duplicate member) or reads it as the core attribute.
            let collides = declared.extensions.iter().any(|n| {
                CORE_ATTRIBUTES.contains(&n.as_str()) || JSON_FORMAT_MEMBERS.contains(&n.as_str())
            });
            let unique: BTreeSet<_> = declared.extensions.iter().collect();
            if collides || unique.len() != declared.extensions.len() {
                continue;
            }
            let stderr =
                fs::read_to_string(case.with_extension("stderr")).expect("the case's .stderr");
            let name = case
                .strip_prefix(dir.parent().unwrap_or(dir))
                .unwrap_or(&case);
            let (derive_errors, derive_warnings) =
                derive_findings(&stderr, &name.display().to_string());
            let report = validator.validate_bytes::<Json>(&event_for(&declared, policy.profile()));
            let (errors, warnings) = validator_findings(&report, &declared);
            compared += 1;
            // A compile-fail case stops at its first error, so its warnings may be cut short;
            // each warning the derive gave must still be one the validator gives.
            if derive_errors != errors || !derive_warnings.is_subset(&warnings) {
                disagreements.push(format!(
                    "{}:\n  derive:    {derive_errors:?} {derive_warnings:?}\n  validator: {errors:?} {warnings:?}",
                    case.display()
                ));
            }
        }
    }
    assert!(
        disagreements.is_empty(),
        "the derive and the validator disagree:\n{}",
        disagreements.join("\n")
    );
    assert!(compared >= 40, "only {compared} cases compared");
}

/// One row: a declaration and the event the validator sees for it.
struct Row {
    name: &'static str,
    profile: Profile,
    declaration: Declaration<'static>,
}

const fn row(name: &'static str, profile: Profile, declaration: Declaration<'static>) -> Row {
    Row {
        name,
        profile,
        declaration,
    }
}

const fn declared(
    ty: &'static str,
    source: Option<&'static str>,
    dataschema: Option<&'static str>,
    extensions: &'static [(
        &'static str,
        Option<cloudevent_runtime::rules::AttributeKind>,
    )],
) -> Declaration<'static> {
    Declaration {
        ty: Some(ty),
        source,
        datacontenttype: None,
        dataschema,
        subject: None,
        extensions,
    }
}

const V1: Option<&str> = Some("https://schemas.example.com/orders/created/v1.json");
const V2: Option<&str> = Some("https://schemas.example.com/orders/created/v2.json");

#[test]
fn declaration_findings_are_the_validator_s_findings_under_every_profile() {
    let mut rows = Vec::new();
    for profile in Profile::ALL {
        rows.extend([
            // Issue 10: a `.v2` type with a v1 schema was an R-4 error in the derive under
            // every profile; the validator makes it a warning outside INTG-STD-015.
            row(
                "type suffix disagrees",
                profile,
                declared("com.example.order.created.v2", None, V1, &[]),
            ),
            row(
                "v2 schema without suffix",
                profile,
                declared("com.example.order.created", None, V2, &[]),
            ),
            row(
                "no reverse-DNS prefix",
                profile,
                declared("OrderCreated", None, None, &[]),
            ),
            row(
                "gateway rules",
                profile,
                declared(
                    "com.example.order.created",
                    Some("http://localhost:8080/orders"),
                    Some("https://schemas.example.com/orders/latest.json"),
                    &[("userEmail", None), ("authtoken", None)],
                ),
            ),
            row(
                "long and odd extension names",
                profile,
                declared(
                    "com.example.order.created",
                    Some("https://orders.example.com/checkout"),
                    None,
                    &[
                        ("fulfilmentcentreregion", None),
                        ("ext_a", None),
                        ("", None),
                    ],
                ),
            ),
            row(
                "empty type and source",
                profile,
                declared("", Some(""), None, &[]),
            ),
            row(
                "control character",
                profile,
                declared(
                    "com.example.order.created",
                    Some("https://orders.example.com/a\u{7}b"),
                    None,
                    &[],
                ),
            ),
        ]);
    }
    let mut disagreements = Vec::new();
    for row in &rows {
        let policy = Policy::new(row.profile);
        let shown = |found: &mut dyn Iterator<Item = &Violation>| -> BTreeSet<(String, String)> {
            found
                .map(|v| (v.severity.to_string(), v.to_string()))
                .collect()
        };
        let declaration = policy.check_declaration(&row.declaration);
        let from_declaration = shown(&mut declaration.iter());

        let extensions: Vec<String> = row
            .declaration
            .extensions
            .iter()
            .map(|(name, _)| (*name).to_owned())
            .collect();
        let mut attributes = vec![("type", row.declaration.ty.unwrap_or_default().to_owned())];
        attributes.extend(row.declaration.source.map(|s| ("source", s.to_owned())));
        attributes.extend(
            row.declaration
                .dataschema
                .map(|s| ("dataschema", s.to_owned())),
        );
        let case = Declared {
            attributes,
            extensions,
        };
        let report =
            Validator::new(policy.clone()).validate_bytes::<Json>(&event_for(&case, row.profile));
        let about_declaration = |v: &&Violation| {
            case.attributes.iter().any(|(key, _)| v.attribute == *key)
                || (v.attribute == "extension" && case.extensions.contains(&v.value))
        };
        let from_validator = shown(&mut report.findings().iter().filter(about_declaration));
        if from_declaration != from_validator {
            disagreements.push(format!(
                "{} under {}:\n  declaration: {from_declaration:?}\n  validator:   {from_validator:?}",
                row.name, row.profile
            ));
        }
    }
    assert!(
        disagreements.is_empty(),
        "check_declaration and the validator disagree:\n{}",
        disagreements.join("\n")
    );
}
