//! Stage "check": every schema file against the policy. Each file becomes an [`Entry`]
//! holding its broken MUSTs (its refusals) and whether it breaks a SHOULD; the SHOULDs, the
//! relative-`$id` note and the entries the reader left out are the registry's warnings.

use cloudevent_rules::Policy;

use super::Entry;
use crate::check::{check_schema, check_warnings};
use crate::error::Finding;
use crate::registry::Registry;

/// One entry a file of `registry`, and the warnings of the whole registry.
pub(super) fn check<'a>(registry: &'a Registry, policy: &Policy) -> (Vec<Entry<'a>>, Vec<Finding>) {
    let mut warnings = Vec::new();
    let mut entries = Vec::new();
    for (index, file) in registry.files.iter().enumerate() {
        let should = check_warnings(file, policy);
        entries.push(Entry {
            index,
            file,
            refusals: check_schema(file, policy),
            warned: !should.is_empty(),
            reached: Default::default(),
            names: Default::default(),
            module: None,
        });
        warnings.extend(should);
    }
    if let Some(note) = relative_id_note(registry) {
        warnings.push(note);
    }
    // Entries left out as they were read (an xRegistry message with an Avro payload).
    warnings.extend(registry.skipped.iter().cloned());
    (entries, warnings)
}

/// One warning for every type whose schema's `$id` is relative and which therefore gets no
/// `dataschema` (CE 3.1.1: `dataschema` is a URI; a relative `$id` is resolved against its
/// retrieval URI, which the generated code cannot know).
fn relative_id_note(registry: &Registry) -> Option<Finding> {
    let without: Vec<_> = registry
        .files
        .iter()
        .filter(|f| f.meta.dataschema.is_empty())
        .filter_map(|f| Some((f, f.schema.get("$id")?.as_str()?)))
        .collect();
    let (first, id) = without.first()?;
    Some(
        Finding::new(
            &first.path,
            "/$id",
            format!(
                "{} type(s) have a schema whose `$id` is relative (`{id}` here), which is no URI to give as `dataschema`: they get no `dataschema`",
                without.len()
            ),
        )
        .with_fix("give the absolute URI the schemas are published under: `--dataschema-base URI` (`Builder::dataschema_base`, `dataschema-base` in cloudevent-registry.toml)"),
    )
}
