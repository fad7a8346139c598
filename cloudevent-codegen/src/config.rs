//! What codegen reads besides the schemas: the registry's own settings file
//! (`cloudevent-registry.toml` beside the schemas, so a schema set published by others needs
//! no flags and no edits) and, for a build script, the consuming crate's
//! `[package.metadata.cloudevent]` policy.
//!
//! ```toml
//! # cloudevent-registry.toml
//! type-pointer = "/properties/context/properties/type"
//! # or: type-template = ["com.github.{dir}.{/properties/action}", "com.github.{dir}"]
//! # or: types-pointer = "/cloudeventTypes"
//! # dataschema-base = "https://example.com/schemas/"   # for relative `$id`s
//! # events = ["spec/*.json"]; shared = ["facets/**"]; exclude = ["spec/tests"]   # globs
//! profile = "cloudevents"
//! compatibility = "full"        # the gate's mode for this registry (default forward)
//!
//! [attributes]
//! subject = "/subject/id"
//! id = "/context/id"
//! time = "/context/timestamp"
//! source = "/context/source"      # or: source-template = "/tenants/{tenantid}"
//!
//! [extensions]
//! region = "/region"
//! ```
//!
//! Options given to the `Builder` (or on the command line) win over the file.

use std::path::Path;

use cloudevent_rules::{Policy, Profile};

use crate::error::{CodegenError, Finding};

/// The registry settings file's name, in the schemas folder (beside an xRegistry document).
pub(crate) const REGISTRY_CONFIG: &str = "cloudevent-registry.toml";

/// The settings a `cloudevent-registry.toml` gives.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RegistryConfig {
    pub(crate) mapping: crate::registry::TypeMapping,
    pub(crate) profile: Option<Profile>,
    pub(crate) compatibility: Option<crate::diff::Compat>,
    pub(crate) subject: Option<String>,
    pub(crate) id: Option<String>,
    pub(crate) time: Option<String>,
    pub(crate) source: Option<String>,
    pub(crate) source_template: Option<String>,
    pub(crate) extensions: Vec<(String, String)>,
}

/// Reads `dir/cloudevent-registry.toml`; `None` when there is none.
pub(crate) fn read_registry_config(dir: &Path) -> Result<Option<RegistryConfig>, CodegenError> {
    let path = dir.join(REGISTRY_CONFIG);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(None);
    };
    let finding = |at: &str, message: String| {
        Finding::new(&path, at, message).with_fix(
            "see the example in the README (\"Schema sets published by others\"): top-level `type-pointer` (or `type-template`, `types-pointer`), `dataschema-base`, `profile`; `[attributes]` subject, id, time, source, source-template; `[extensions]` name = pointer",
        )
    };
    let table: toml::Table = text
        .parse()
        .map_err(|e| CodegenError::Findings(vec![finding("", format!("not valid TOML: {e}"))]))?;
    let mut config = RegistryConfig::default();
    let mut findings = Vec::new();
    let string = |at: String, value: &toml::Value, findings: &mut Vec<Finding>| match value {
        toml::Value::String(text) => Some(text.clone()),
        _ => {
            findings.push(finding(&at, format!("`{at}` must be a string")));
            None
        }
    };
    for (key, value) in &table {
        let at = format!("/{key}");
        match (key.as_str(), value) {
            ("type-pointer", value) => config.mapping.type_pointer = string(at, value, &mut findings),
            ("types-pointer", value) => config.mapping.types_pointer = string(at, value, &mut findings),
            ("dataschema-base", value) => config.mapping.dataschema_base = string(at, value, &mut findings),
            ("type-template", toml::Value::Array(templates)) => {
                for (i, template) in templates.iter().enumerate() {
                    if let Some(template) = string(format!("{at}/{i}"), template, &mut findings) {
                        config.mapping.type_templates.push(template);
                    }
                }
            }
            ("events" | "shared" | "exclude", value) => {
                let globs = match key.as_str() {
                    "events" => &mut config.mapping.events,
                    "shared" => &mut config.mapping.shared,
                    _ => &mut config.mapping.exclude,
                };
                match value {
                    toml::Value::Array(items) => {
                        for (i, glob) in items.iter().enumerate() {
                            globs.extend(string(format!("{at}/{i}"), glob, &mut findings));
                        }
                    }
                    value => globs.extend(string(at, value, &mut findings)),
                }
            }
            ("type-template", value) => {
                if let Some(template) = string(at, value, &mut findings) {
                    config.mapping.type_templates.push(template);
                }
            }
            ("profile", value) => {
                if let Some(name) = string(at.clone(), value, &mut findings) {
                    match name.parse::<Profile>() {
                        Ok(profile) => config.profile = Some(profile),
                        Err(unknown) => findings.push(finding(&at, format!("`profile = \"{name}\"`: {unknown}"))),
                    }
                }
            }
            ("compatibility", value) => {
                if let Some(name) = string(at.clone(), value, &mut findings) {
                    match name.parse::<crate::diff::Compat>() {
                        Ok(compat) => config.compatibility = Some(compat),
                        Err(unknown) => findings.push(finding(
                            &at,
                            format!("`compatibility = \"{name}\"`: {unknown}"),
                        )),
                    }
                }
            }
            ("attributes", toml::Value::Table(attributes)) => {
                for (name, value) in attributes {
                    let at = format!("/attributes/{name}");
                    let slot = match name.as_str() {
                        "subject" => &mut config.subject,
                        "id" => &mut config.id,
                        "time" => &mut config.time,
                        "source" => &mut config.source,
                        "source-template" => &mut config.source_template,
                        _ => {
                            findings.push(finding(&at, format!("unknown attribute `{name}`: expected `subject`, `id`, `time`, `source` or `source-template` (extensions go under `[extensions]`)")));
                            continue;
                        }
                    };
                    *slot = string(at, value, &mut findings);
                }
            }
            ("extensions", toml::Value::Table(extensions)) => {
                for (name, value) in extensions {
                    if let Some(pointer) = string(format!("/extensions/{name}"), value, &mut findings) {
                        config.extensions.push((name.clone(), pointer));
                    }
                }
            }
            ("attributes" | "extensions", _) => {
                findings.push(finding(&at, format!("`{key}` must be a table: `[{key}]`")));
            }
            _ => findings.push(finding(
                &at,
                format!("unknown key `{key}`: expected `type-pointer`, `type-template`, `types-pointer`, `dataschema-base`, `events`, `shared`, `exclude`, `profile`, `compatibility`, `[attributes]` or `[extensions]`"),
            )),
        }
    }
    if findings.is_empty() {
        Ok(Some(config))
    } else {
        Err(CodegenError::Findings(findings))
    }
}

/// The policy of the crate whose build script runs codegen, from `CARGO_MANIFEST_DIR`'s
/// `Cargo.toml` (`[package.metadata.cloudevent]`: `profile`, `type-prefix`), as the derive
/// reads it, so names are checked at generation as the derive will check them. `None`: not
/// in a Cargo build, or no such table (the default policy then holds, as for the derive).
pub(crate) fn crate_policy() -> Result<Option<Policy>, CodegenError> {
    let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR") else {
        return Ok(None);
    };
    manifest_policy(&Path::new(&dir).join("Cargo.toml"))
}

/// The `[package.metadata.cloudevent]` policy of one `Cargo.toml`.
fn manifest_policy(path: &Path) -> Result<Option<Policy>, CodegenError> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(None);
    };
    let finding = |at: &str, message: String| {
        CodegenError::Findings(vec![Finding::new(path, at, message).with_fix(
            "write `[package.metadata.cloudevent]` with `profile = \"intg-std-015\"` (or `cloudevents`, `nl-gov`) and optionally `type-prefix = \"com.example\"`",
        )])
    };
    let table: toml::Table = text
        .parse()
        .map_err(|e| finding("", format!("Cargo.toml could not be read as TOML: {e}")))?;
    let Some(section) = table
        .get("package")
        .and_then(|p| p.get("metadata"))
        .and_then(|m| m.get("cloudevent"))
    else {
        return Ok(None);
    };
    let at = "/package/metadata/cloudevent";
    let profile = match section.get("profile") {
        None => Profile::default(),
        Some(toml::Value::String(name)) => name.parse::<Profile>().map_err(|unknown| {
            finding(
                &format!("{at}/profile"),
                format!("`profile = \"{name}\"`: {unknown}"),
            )
        })?,
        Some(_) => {
            return Err(finding(
                &format!("{at}/profile"),
                "`profile` must be a string".to_owned(),
            ));
        }
    };
    let mut policy = Policy::new(profile);
    match section.get("type-prefix") {
        None => {}
        Some(toml::Value::String(prefix)) => {
            // The prefix's rules are the rules crate's, as for the derive.
            if let Some(violation) = cloudevent_rules::check_type_prefix(prefix, profile)
                .into_iter()
                .find(|v| v.is_error())
            {
                return Err(finding(
                    &format!("{at}/type-prefix"),
                    format!("`type-prefix = \"{prefix}\"`: {violation}"),
                ));
            }
            policy = policy.with_type_prefix(prefix.clone());
        }
        Some(_) => {
            return Err(finding(
                &format!("{at}/type-prefix"),
                "`type-prefix` must be a string".to_owned(),
            ));
        }
    }
    Ok(Some(policy))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_setting_and_names_a_wrong_key() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(REGISTRY_CONFIG),
            "type-pointer = \"/properties/context/properties/type\"\nprofile = \"cloudevents\"\n[attributes]\nid = \"/context/id\"\nsource-template = \"/t/{tenantid}\"\n[extensions]\nregion = \"/region\"\n",
        )
        .unwrap();
        let config = read_registry_config(dir.path()).unwrap().unwrap();
        assert_eq!(
            config.mapping.type_pointer.as_deref(),
            Some("/properties/context/properties/type")
        );
        assert_eq!(config.profile, Some(Profile::CloudEvents));
        assert_eq!(config.id.as_deref(), Some("/context/id"));
        assert_eq!(config.source_template.as_deref(), Some("/t/{tenantid}"));
        assert_eq!(
            config.extensions,
            [("region".to_owned(), "/region".to_owned())]
        );

        std::fs::write(
            dir.path().join(REGISTRY_CONFIG),
            "[attributes]\nidd = \"/x\"\nprofile = 3\n",
        )
        .unwrap();
        let Err(CodegenError::Findings(findings)) = read_registry_config(dir.path()) else {
            panic!("a wrong key was accepted");
        };
        assert_eq!(findings.len(), 2, "{findings:#?}");
        assert_eq!(findings[0].pointer, "/attributes/idd");
    }

    #[test]
    fn the_crate_policy_is_read_from_its_manifest() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = dir.path().join("Cargo.toml");
        std::fs::write(&manifest, "[package]\nname = \"x\"\n").unwrap();
        assert_eq!(manifest_policy(&manifest).unwrap(), None);
        std::fs::write(
            &manifest,
            "[package.metadata.cloudevent]\nprofile = \"nl-gov\"\ntype-prefix = \"nl.overheid\"\n",
        )
        .unwrap();
        let policy = manifest_policy(&manifest).unwrap().unwrap();
        assert_eq!(policy.profile(), Profile::NlGov);
        assert_eq!(policy.type_prefix(), Some("nl.overheid"));
        std::fs::write(
            &manifest,
            "[package.metadata.cloudevent]\nprofile = \"nl_gov\"\n",
        )
        .unwrap();
        assert!(manifest_policy(&manifest).is_err());
    }

    #[test]
    fn no_file_is_no_config() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_registry_config(dir.path()).unwrap(), None);
    }
}
