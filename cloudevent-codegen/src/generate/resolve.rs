//! Stage "resolve": the registry's external `$ref`s bundled into shared definitions
//! ([`crate::bundle`]), what each entry reaches among them, and each ref that cannot be
//! resolved given to the entries it concerns (the file holding it, or every entry reaching a
//! definition of the shared document holding it).

use std::collections::{BTreeMap, BTreeSet};

use super::Entry;
use crate::bundle::{self, Bundle};
use crate::error::{CodegenError, Finding};
use crate::registry::Registry;

/// The bundle of `registry`, each entry's reach set and its bundling refusals; findings no
/// entry owns go to `findings`.
///
/// # Errors
/// A schema that contains itself through refs alone: typify would recurse without end on it,
/// so nothing is generated, whatever `skip_refused` says (the cycle is a finding at the ref
/// that closes it); every finding so far is listed.
pub(super) fn resolve(
    registry: &Registry,
    entries: &mut [Entry<'_>],
    findings: &mut Vec<Finding>,
) -> Result<Bundle, CodegenError> {
    let bundle = bundle::bundle(registry);
    reach_all(&bundle, entries);
    for finding in &bundle.findings {
        let owners = owners(registry, &bundle, entries, finding);
        if owners.is_empty() {
            findings.push(finding.clone());
        }
        for owner in owners {
            entries[owner].refusals.push(finding.clone());
        }
    }
    if bundle.cyclic {
        findings.extend(entries.iter().flat_map(|e| e.refusals.iter().cloned()));
        return Err(CodegenError::Findings(std::mem::take(findings)));
    }
    Ok(bundle)
}

/// The entries a bundling finding refuses: the file it is in, else (a ref inside a shared
/// document) every entry reaching a definition from that document.
fn owners(
    registry: &Registry,
    bundle: &Bundle,
    entries: &[Entry<'_>],
    finding: &Finding,
) -> Vec<usize> {
    let owners: Vec<usize> = entries
        .iter()
        .filter(|e| e.file.path == finding.file)
        .map(|e| e.index)
        .collect();
    if !owners.is_empty() {
        return owners;
    }
    let from: BTreeSet<&String> = bundle
        .origins
        .iter()
        .filter(|(_, origin)| {
            registry
                .root
                .join(origin.split('#').next().unwrap_or_default())
                == finding.file
        })
        .map(|(name, _)| name)
        .collect();
    entries
        .iter()
        .filter(|e| e.reached.iter().any(|n| from.contains(n)))
        .map(|e| e.index)
        .collect()
}

/// Sets which shared definitions each entry reaches, directly or through others (again after
/// the shared module's renamings).
pub(super) fn reach_all(bundle: &Bundle, entries: &mut [Entry<'_>]) {
    let reach = shared_reach(bundle);
    for (entry, (_, used)) in entries.iter_mut().zip(&bundle.events) {
        entry.reached = closure(used, &reach);
    }
}

/// Each shared definition's direct `#/definitions/<name>` refs.
pub(super) fn shared_reach(bundle: &Bundle) -> BTreeMap<String, BTreeSet<String>> {
    fn refs(value: &serde_json::Value, out: &mut BTreeSet<String>) {
        match value {
            serde_json::Value::Object(object) => {
                for (key, sub) in object {
                    if key == "$ref"
                        && let Some(name) =
                            sub.as_str().and_then(|r| r.strip_prefix("#/definitions/"))
                    {
                        out.insert(name.to_owned());
                    } else if !matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                        refs(sub, out);
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|i| refs(i, out)),
            _ => {}
        }
    }
    bundle
        .shared
        .iter()
        .map(|(name, schema)| {
            let mut out = BTreeSet::new();
            refs(schema, &mut out);
            (name.clone(), out)
        })
        .collect()
}

/// The names `start` reaches through `reach`, `start` included.
pub(super) fn closure(
    start: &BTreeSet<String>,
    reach: &BTreeMap<String, BTreeSet<String>>,
) -> BTreeSet<String> {
    let mut out = start.clone();
    let mut queue: Vec<String> = start.iter().cloned().collect();
    while let Some(name) = queue.pop() {
        for next in reach.get(&name).into_iter().flatten() {
            if out.insert(next.clone()) {
                queue.push(next.clone());
            }
        }
    }
    out
}
