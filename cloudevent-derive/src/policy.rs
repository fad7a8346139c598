//! The user crate's policy, read from `[package.metadata.cloudevent]` in its `Cargo.toml`:
//!
//! ```toml
//! [package.metadata.cloudevent]
//! profile = "intg-std-015"      # or "cloudevents" or "nl-gov"; default "intg-std-015"
//! type-prefix = "com.example"   # optional: every type must start with it
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};

use cloudevent_rules::{Policy, Profile};

use crate::attr::did_you_mean;

/// The keys of `[package.metadata.cloudevent]`.
pub(crate) mod key {
    /// `profile = "intg-std-015"`.
    pub(crate) const PROFILE: &str = "profile";
    /// `type-prefix = "com.example"`.
    pub(crate) const TYPE_PREFIX: &str = "type-prefix";
    /// Both, for the did-you-mean.
    pub(crate) const ALL: [&str; 2] = [PROFILE, TYPE_PREFIX];
}

/// The crate's policy and the manifest it came from.
#[derive(Clone)]
pub(crate) struct CratePolicy {
    pub(crate) policy: Policy,
    /// The `Cargo.toml` that was read, so generated code can make the compiler track it.
    pub(crate) manifest: Option<PathBuf>,
}

/// The policy of the crate being compiled, read once per compilation.
///
/// The cache is keyed by manifest directory because one proc-macro process can serve several
/// crates (rust-analyzer keeps it alive across the workspace).
///
/// Only the first call for a manifest returns its path in [`CratePolicy::manifest`]: the
/// derive that gets it emits the `include_bytes!` that makes the compiler track the file,
/// and one per crate is all the tracking needs (Cargo rebuilds the crate when any file in its
/// dep-info changes). A derive of 100 types spent 19 M of the compiler's instructions
/// including the same file 100 times (issue 40, `cargo xtask compile-cost`). A crate whose
/// first derive fails does not compile, so it is rebuilt whatever the manifest says.
pub(crate) fn current() -> Result<CratePolicy, String> {
    type Cache = HashMap<PathBuf, (Result<CratePolicy, String>, bool)>;
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from) else {
        // Not built by Cargo: there is no Cargo.toml to read, so the default profile holds.
        return Ok(CratePolicy {
            policy: Policy::default(),
            manifest: None,
        });
    };
    let cache = CACHE.get_or_init(Mutex::default);
    let mut cache = cache.lock().unwrap_or_else(PoisonError::into_inner);
    let (policy, tracked) = cache
        .entry(dir.clone())
        .or_insert_with(|| (read(&dir), false));
    let mut policy = policy.clone();
    if let Ok(policy) = &mut policy {
        if *tracked {
            policy.manifest = None;
        }
        *tracked = true;
    }
    policy
}

fn read(dir: &Path) -> Result<CratePolicy, String> {
    let manifest = dir.join("Cargo.toml");
    let Ok(text) = std::fs::read_to_string(&manifest) else {
        return Ok(CratePolicy {
            policy: Policy::default(),
            manifest: None,
        });
    };
    Ok(CratePolicy {
        policy: from_manifest(&text)?,
        manifest: Some(manifest),
    })
}

/// The policy written in a `Cargo.toml`; the error names the key that is wrong.
pub(crate) fn from_manifest(text: &str) -> Result<Policy, String> {
    let table: toml::Table = text
        .parse()
        .map_err(|error| format!("Cargo.toml could not be read as TOML: {error}"))?;
    let section = table
        .get("package")
        .and_then(|package| package.get("metadata"))
        .and_then(|metadata| metadata.get("cloudevent"));
    let Some(section) = section else {
        return near_miss(&table).map_or(Ok(Policy::default()), Err);
    };
    let Some(section) = section.as_table() else {
        return Err(
            "Cargo.toml `package.metadata.cloudevent` must be a table: `[package.metadata.cloudevent]` with `profile = \"intg-std-015\"` and optionally `type-prefix = \"com.example\"`"
                .to_owned(),
        );
    };
    let mut errors = Vec::new();
    for written in section.keys() {
        if !key::ALL.contains(&written.as_str()) {
            errors.push(match did_you_mean(written, &key::ALL) {
                Some(close) => format!(
                    "Cargo.toml `package.metadata.cloudevent.{written}`: unknown key; did you mean `{close}`? expected `profile` or `type-prefix`"
                ),
                None => format!(
                    "Cargo.toml `package.metadata.cloudevent.{written}`: unknown key; expected `profile` or `type-prefix`"
                ),
            });
        }
    }
    let profile = match section.get(key::PROFILE) {
        None => Profile::default(),
        Some(value) => match value.as_str().map(str::parse::<Profile>) {
            Some(Ok(profile)) => profile,
            Some(Err(unknown)) => {
                errors.push(format!(
                    "Cargo.toml `package.metadata.cloudevent.profile = \"{}\"`: {unknown}",
                    unknown.0
                ));
                Profile::default()
            }
            None => {
                errors.push(format!(
                    "Cargo.toml `package.metadata.cloudevent.profile = {}`: must be a string, one of `cloudevents`, `intg-std-015`, `nl-gov`",
                    shown(value)
                ));
                Profile::default()
            }
        },
    };
    let mut policy = Policy::new(profile);
    match section.get(key::TYPE_PREFIX) {
        None => {}
        Some(toml::Value::String(prefix)) => {
            let found = cloudevent_rules::check_type_prefix(prefix, profile);
            let broken: Vec<_> = found.iter().filter(|v| v.is_error()).collect();
            if broken.is_empty() {
                policy = policy.with_type_prefix(prefix.clone());
            }
            for violation in broken {
                errors.push(format!(
                    "Cargo.toml `package.metadata.cloudevent.type-prefix = {}`: {violation}",
                    shown(&toml::Value::String(prefix.clone()))
                ));
            }
        }
        Some(value) => errors.push(format!(
            "Cargo.toml `package.metadata.cloudevent.type-prefix = {}`: must be a string such as `\"com.example\"` (INTG-STD-015 R-4: types are rooted at the organisation domain)",
            shown(value)
        )),
    }
    if errors.is_empty() {
        Ok(policy)
    } else {
        Err(errors.join("\n"))
    }
}

/// A `[package.metadata.*]` table whose name is one slip away from `cloudevent`
/// (`cloudevents`, `cloud-event`, `CloudEvent`): its settings would be silently ignored.
fn near_miss(table: &toml::Table) -> Option<String> {
    let metadata = table.get("package")?.get("metadata")?.as_table()?;
    metadata.keys().find_map(|written| {
        did_you_mean(written, &["cloudevent"]).map(|_| {
            format!(
                "Cargo.toml `[package.metadata.{written}]` is not read; did you mean `[package.metadata.cloudevent]`? the policy table is named `cloudevent` (singular)"
            )
        })
    })
}

/// A TOML value as the user wrote it, near enough for an error message.
fn shown(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => format!("{s:?}"),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        other => format!("<{}>", other.type_str()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_section_is_the_default_profile() {
        let policy = from_manifest("[package]\nname = \"x\"\n").unwrap();
        assert_eq!(policy, Policy::default());
    }

    #[test]
    fn reads_profile_and_prefix_in_every_spelling() {
        let table =
            "[package.metadata.cloudevent]\nprofile = \"nl-gov\"\ntype-prefix = \"nl.overheid\"\n";
        let dotted = "[package]\nname = \"x\"\nmetadata.cloudevent.profile = \"nl-gov\"\nmetadata.cloudevent.type-prefix = \"nl.overheid\"\n";
        let inline = "[package.metadata]\ncloudevent = { profile = \"nl-gov\", type-prefix = \"nl.overheid\" }\n";
        for text in [table, dotted, inline] {
            let policy = from_manifest(text).unwrap();
            assert_eq!(policy.profile(), Profile::NlGov, "{text}");
            assert_eq!(policy.type_prefix(), Some("nl.overheid"), "{text}");
        }
    }

    #[test]
    fn bad_values_name_the_key() {
        let error =
            from_manifest("[package.metadata.cloudevent]\nprofile = \"nl_gov\"\n").unwrap_err();
        assert!(
            error.contains("`package.metadata.cloudevent.profile = \"nl_gov\"`"),
            "{error}"
        );
        assert!(error.contains("expected one of"), "{error}");

        let error = from_manifest("[package.metadata.cloudevent]\nprofile = 3\n").unwrap_err();
        assert!(error.contains("must be a string"), "{error}");

        let error = from_manifest("[package.metadata.cloudevent]\ntype_prefix = \"com.example\"\n")
            .unwrap_err();
        assert!(error.contains("did you mean `type-prefix`?"), "{error}");

        let error =
            from_manifest("[package.metadata.cloudevent]\ntype-prefix = \"\"\n").unwrap_err();
        assert!(
            error.contains("`package.metadata.cloudevent.type-prefix"),
            "{error}"
        );

        let error = from_manifest("[package.metadata]\ncloudevent = \"nl-gov\"\n").unwrap_err();
        assert!(error.contains("must be a table"), "{error}");

        for profile in ["nlgov", "NL-GOV"] {
            let error = from_manifest(&format!(
                "[package.metadata.cloudevent]\nprofile = \"{profile}\"\n"
            ))
            .unwrap_err();
            assert!(error.contains("did you mean `nl-gov`?"), "{error}");
        }
        let error = from_manifest("[package.metadata.cloudevent]\nprofile = \"INTG-STD-015\"\n")
            .unwrap_err();
        assert!(error.contains("did you mean `intg-std-015`?"), "{error}");
    }

    #[test]
    fn a_near_miss_table_name_is_an_error_not_silence() {
        for name in ["cloudevents", "cloud-event", "CloudEvent", "cloudevnt"] {
            let error = from_manifest(&format!(
                "[package.metadata.{name}]\nprofile = \"cloudevents\"\n"
            ))
            .unwrap_err();
            assert!(
                error.contains("did you mean `[package.metadata.cloudevent]`?"),
                "{name}: {error}"
            );
        }
        assert_eq!(
            from_manifest("[package.metadata.docs.rs]\nall-features = true\n").unwrap(),
            Policy::default()
        );
    }
}
