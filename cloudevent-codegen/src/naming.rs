//! Rust names for a whole registry: a module and a root type per event schema, unique across
//! the registry (a name is lengthened with more of the type's segments on a collision, never
//! refused), and readable for third-party types with semver suffixes.

use std::collections::HashMap;

use heck::{ToSnakeCase, ToUpperCamelCase};

use cloudevent_rules::split_type_version;

use crate::registry::{Registry, SchemaFile};

/// The Rust names of one registry entry: its module and its root type (the payload type of
/// a JSON schema, the event's message of a `.proto` entry).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RustNames {
    /// The module holding the entry's types, e.g. `order_created_v1`.
    pub(crate) module: String,
    /// The root type, e.g. `OrderCreated`.
    pub(crate) root: String,
}

/// The names of every entry of a registry, from one algorithm: the generator's modules and
/// `RegistryEvent` variants, and the catalog's and AsyncAPI document's message keys
/// (`orderCreatedV1`, the module in lower camel case) all come from here, so two types that
/// would share a name are lengthened in every output alike instead of one overwriting the
/// other.
#[derive(Debug, Clone)]
pub(crate) struct RegistryNames {
    /// One a JSON schema file, in [`Registry::files`] order.
    pub(crate) files: Vec<RustNames>,
    /// One a `.proto` entry, in `Registry::protobuf` order; `root` is the event's message.
    pub(crate) protobuf: Vec<RustNames>,
}

impl RegistryNames {
    /// Every entry's names, the JSON schema files' first.
    pub(crate) fn all(&self) -> impl Iterator<Item = &RustNames> {
        self.files.iter().chain(&self.protobuf)
    }
}

/// The names of every entry of `registry` (JSON schema files and `.proto` entries alike,
/// unique across both).
pub(crate) fn registry_names(registry: &Registry) -> RegistryNames {
    let mut candidates: Vec<Candidate> = registry.files.iter().map(file_candidate).collect();
    candidates.extend(
        registry
            .protobuf
            .iter()
            .map(|file| candidate(&file.meta.event_type, file.major, false)),
    );
    let mut files = unique(candidates);
    let mut protobuf = files.split_off(registry.files.len());
    for (names, file) in protobuf.iter_mut().zip(&registry.protobuf) {
        names.root = file.message.clone();
    }
    RegistryNames { files, protobuf }
}

/// One file's naming state: its type's segments, how many leading ones are left out, and
/// the module suffix naming its version.
struct Candidate {
    segments: Vec<String>,
    start: usize,
    suffix: String,
    counter: usize,
}

impl Candidate {
    fn local(&self) -> String {
        self.segments[self.start..].join(" ")
    }

    fn module(&self) -> String {
        let mut module = format!("{}{}", self.local().to_snake_case(), self.suffix);
        if module.starts_with(|c: char| c.is_ascii_digit()) {
            module.insert_str(0, "event_");
        }
        if syn::parse_str::<syn::Ident>(&module).is_err() {
            module.push_str("_event");
        }
        if self.counter > 0 {
            module.push_str(&format!("_{}", self.counter + 1));
        }
        module
    }

    fn root(&self) -> String {
        let mut root = self.local().to_upper_camel_case();
        // typify camel-cases the name it is given once more, and `COM eXAmPle` camel-cased
        // (`ComEXAmPle`) changes again (`ComExAmPle`): the root would not be the type typify
        // writes, and was refused as "a root that is only a `$ref`" (issue 38). A name that
        // camel-casing keeps is the one typify writes; two rounds reach it, four are a bound.
        for _ in 0..4 {
            let again = root.to_upper_camel_case();
            if again == root {
                break;
            }
            root = again;
        }
        if root.starts_with(|c: char| c.is_ascii_digit()) || root.is_empty() {
            root.insert_str(0, "Event");
        }
        // typify recases the title it is given (`PQ`, from `com.example.p.q`, is `Pq` to it):
        // the root is named as typify will name it, or the generated type would not be found.
        typify_type_name(&root)
    }
}

/// Files of today's layout are named from their type after the reverse-DNS prefix plus
/// `_v<major>` (`order_created_v1`, `OrderCreated`); types with a semver suffix get it in the
/// module (`ticket_created_v0_2_0`), never in the type (`TicketCreated`). When two entries
/// would share a module, both are lengthened with the type's next leading segment
/// (`smart_oven_turned_on`, `lumen_turned_on`) until they differ; the same type twice is
/// numbered.
fn unique(mut candidates: Vec<Candidate>) -> Vec<RustNames> {
    // Each round is linear (modules counted in a map), and a module shared by entries that
    // cannot be lengthened numbers them all in one round: comparing every pair in each round
    // and numbering one more entry a round cost 49.8 s for 2,000 colliding types (issue 38).
    loop {
        let modules: Vec<String> = candidates.iter().map(Candidate::module).collect();
        let mut total: HashMap<&str, usize> = HashMap::new();
        for module in &modules {
            *total.entry(module).or_default() += 1;
        }
        let mut seen: HashMap<&str, usize> = HashMap::new();
        let mut changed = false;
        for (candidate, module) in candidates.iter_mut().zip(&modules) {
            let earlier = seen.entry(module).or_default();
            let rank = *earlier;
            *earlier += 1;
            if total[module.as_str()] < 2 {
                continue;
            }
            if candidate.start > 0 {
                candidate.start -= 1;
                changed = true;
            } else if rank > 0 {
                // The n-th of its module: numbered past the n - 1 before it.
                candidate.counter += rank;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    candidates
        .iter()
        .map(|c| RustNames {
            module: c.module(),
            root: c.root(),
        })
        .collect()
}

fn file_candidate(file: &SchemaFile) -> Candidate {
    candidate(
        &file.meta.event_type,
        file.major,
        file.type_pointer.is_some(),
    )
}

/// `imported`: the type came from a schema set laid out by others (a type pointer), whose
/// version, if any, is part of the type itself.
fn candidate(event_type: &str, major: u64, imported: bool) -> Candidate {
    let (base, suffix) = if imported {
        let (base, version) = split_type_version(event_type);
        let suffix = match version {
            Some(v) => format!(
                "_v{}",
                v.trim_start_matches(['v', 'V'])
                    .to_ascii_lowercase()
                    .replace(|c: char| !c.is_ascii_alphanumeric(), "_")
            ),
            None => String::new(),
        };
        (base, suffix)
    } else {
        let (base, _) = split_type_version(event_type);
        (base, format!("_v{major}"))
    };
    let segments: Vec<String> = base.split('.').map(str::to_owned).collect();
    let start = if segments.len() > 2 { 2 } else { 0 };
    Candidate {
        segments,
        start,
        suffix,
        counter: 0,
    }
}

/// The Rust type name typify 0.8 gives a definition named `name` (its `sanitize` in Pascal
/// case): quotes dropped, every other character that cannot continue an identifier a word
/// break, upper camel case, `X` before a leading character that cannot start one. Two
/// definitions differing in case alone (`SQLJobFacet`, `SqlJobFacet`) get one name.
pub(crate) fn typify_type_name(name: &str) -> String {
    let words: String = name
        .replace('\'', "")
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let camel = words.to_upper_camel_case();
    match camel.chars().next() {
        Some(c) if c.is_alphabetic() || c == '_' => camel,
        _ => format!("X{camel}"),
    }
}

/// The variant of the registry's dispatch enum for each file: its root type's name, or, when
/// two files share a root name (two versions of one type), the module's name in camel case.
pub(crate) fn variant_names(names: &[RustNames]) -> Vec<String> {
    let mut roots: HashMap<&str, usize> = HashMap::new();
    for n in names {
        *roots.entry(&n.root).or_default() += 1;
    }
    names
        .iter()
        .map(|n| {
            if roots[n.root.as_str()] > 1 {
                n.module.to_upper_camel_case()
            } else {
                n.root.clone()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pointer_file(event_type: &str) -> SchemaFile {
        SchemaFile {
            path: "x.json".into(),
            relative: "x.json".into(),
            type_dir: String::new(),
            major: 0,
            version: None,
            type_pointer: Some("/t".into()),
            schema: serde_json::Value::Null,
            meta: crate::registry::EventMeta {
                event_type: event_type.into(),
                ..Default::default()
            },
        }
    }

    fn modules(types: &[&str]) -> Vec<(String, String)> {
        let registry = Registry {
            root: "schemas".into(),
            files: types.iter().map(|t| pointer_file(t)).collect(),
            documents: Default::default(),
            protobuf: Vec::new(),
            mapping: None,
            skipped: Vec::new(),
        };
        registry_names(&registry)
            .files
            .into_iter()
            .map(|n| (n.module, n.root))
            .collect()
    }

    #[test]
    fn semver_suffixes_go_to_the_module_not_the_type() {
        assert_eq!(
            modules(&[
                "dev.cdevents.artifact.packaged.0.3.0",
                "nl.vng.zaak.aangemaakt.v1.2.3"
            ]),
            [
                (
                    "artifact_packaged_v0_3_0".to_owned(),
                    "ArtifactPackaged".to_owned()
                ),
                (
                    "zaak_aangemaakt_v1_2_3".to_owned(),
                    "ZaakAangemaakt".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn collisions_lengthen_the_names() {
        assert_eq!(
            modules(&[
                "Fabrikam.SmartOven.TurnedOn",
                "Fabrikam.Lumen.TurnedOn",
                "Contoso.ERP.Events.EmployeeAdded"
            ]),
            [
                (
                    "smart_oven_turned_on".to_owned(),
                    "SmartOvenTurnedOn".to_owned()
                ),
                ("lumen_turned_on".to_owned(), "LumenTurnedOn".to_owned()),
                (
                    "events_employee_added".to_owned(),
                    "EventsEmployeeAdded".to_owned()
                ),
            ]
        );
        // The same type twice (two files): numbered, not refused.
        let twice = modules(&["com.example.order.created", "com.example.order.created"]);
        assert_eq!(twice[0].0, "com_example_order_created");
        assert_eq!(twice[1].0, "com_example_order_created_2");
    }

    #[test]
    fn typify_names_definitions_differing_in_case_alike() {
        assert_eq!(typify_type_name("SQLJobFacet"), "SqlJobFacet");
        assert_eq!(typify_type_name("SqlJobFacet"), "SqlJobFacet");
        assert_eq!(typify_type_name("sql-job facet"), "SqlJobFacet");
        assert_eq!(typify_type_name("3d"), "X3d");
        // Single-letter segments give a root typify would recase: it is named as typify will.
        assert_eq!(modules(&["com.example.p.q"])[0].1, "Pq");
    }

    #[test]
    fn keywords_and_digits_make_identifiers() {
        assert_eq!(modules(&["com.example.type"])[0].0, "type_event");
        assert_eq!(
            modules(&["com.example.3d.printed"])[0].0,
            "event_3d_printed"
        );
    }
}
