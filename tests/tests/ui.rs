//! The compile-time checks of `#[derive(CloudEvent)]` under the default profile
//! (`intg-std-015`): one mistake per file under `tests/ui/<rule>/`, each with the compiler
//! output it must produce. Regenerate with `TRYBUILD=overwrite` and read the diff.
//!
//! trybuild builds these files in a project it generates under `target/tests/trybuild/`,
//! whose Cargo.toml does not carry `[package.metadata]`; the other profiles and
//! `type-prefix` are therefore exercised by the crates under `tests/profiles/`, whose own
//! Cargo.toml holds the policy.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("ui/pass/*.rs");
    for rule in [
        "type",
        "dataschema",
        "source",
        "datacontenttype",
        "extension",
        "extension_type",
        "subject",
        "payload_attribute",
        "attribute",
        "report",
        "prechecked",
        "event_new",
        "sign",
    ] {
        cases.compile_fail(format!("ui/{rule}/*.rs"));
    }
}

/// `cesql!`: the expression's parse errors and checker findings, pointed at in the literal;
/// with an event type, an extension the type can never carry.
#[test]
fn cesql() {
    let cases = trybuild::TestCases::new();
    cases.pass("ui/pass/cesql.rs");
    cases.compile_fail("ui/cesql/*.rs");
}
