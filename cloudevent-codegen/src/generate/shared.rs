//! Stage "map to Rust", the shared module: the definitions the registry's events reach
//! through external `$ref`s, generated once. A Rust name typify gives twice is renamed,
//! qualified by its file ([`Bundle::rename_shared`]), and the module generated again; with
//! `skip_refused`, definitions that fail (and those reaching them) are left out and the
//! entries reaching them refused.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use proc_macro2::TokenStream;

use super::Entry;
use super::event::{MAX_RENAMINGS, twice_named, unique_items};
use super::resolve::{closure, reach_all, shared_reach};
use crate::bundle::Bundle;
use crate::error::Finding;
use crate::import::{RustOptions, shared_tokens};
use crate::registry::Registry;

/// The shared module's tokens (`None` when no schema has an external ref, or when it fails
/// as a whole: its findings are then in `findings`).
pub(super) fn shared_module(
    registry: &Registry,
    bundle: &mut Bundle,
    entries: &mut [Entry<'_>],
    options: &RustOptions,
    findings: &mut Vec<Finding>,
) -> Option<TokenStream> {
    let mut left_out: BTreeSet<String> = BTreeSet::new();
    let mut renamings = 0;
    loop {
        if bundle.shared.is_empty() {
            return None;
        }
        let kept: BTreeMap<String, serde_json::Value> = bundle
            .shared
            .iter()
            .filter(|(name, _)| !left_out.contains(*name))
            .map(|(name, schema)| (name.clone(), schema.clone()))
            .collect();
        let generated = shared_tokens(&registry.root, &kept, &options.runtime_crate);
        // A name typify gives twice: the shared definitions bearing it are renamed and the
        // module generated again (a bounded number of rounds; what is left is refused by
        // `unique_items`).
        if let Ok(tokens) = &generated
            && renamings < MAX_RENAMINGS
            && rename_twice_named(&registry.root, tokens, bundle, &left_out)
        {
            renamings += 1;
            reach_all(bundle, entries);
            continue;
        }
        let failed = match generated.and_then(|tokens| unique_items(&registry.root, tokens)) {
            Ok(tokens) => return Some(tokens),
            Err(found) => found,
        };
        let failing = failing_definitions(&failed, &left_out);
        let mapped: Vec<Finding> = failed
            .into_iter()
            .map(|f| shared_finding(f, &bundle.origins, &registry.root))
            .collect();
        if !options.skip_refused || failing.is_empty() {
            findings.extend(mapped);
            return None;
        }
        left_out.extend(leave_out(bundle, entries, &failing, &mapped));
    }
}

/// Renames the shared definitions bearing a name typify gave twice in `tokens` (those not
/// left out); whether one was renamed.
fn rename_twice_named(
    root: &Path,
    tokens: &TokenStream,
    bundle: &mut Bundle,
    left_out: &BTreeSet<String>,
) -> bool {
    let Ok(twice) = twice_named(root, tokens) else {
        return false;
    };
    let mut renamed = false;
    for name in twice.iter().filter(|n| !left_out.contains(*n)) {
        renamed |= bundle.rename_shared(name).is_some();
    }
    renamed
}

/// The shared definitions the findings point into (`/definitions/<name>/...`), but those
/// already left out.
fn failing_definitions(failed: &[Finding], left_out: &BTreeSet<String>) -> BTreeSet<String> {
    failed
        .iter()
        .filter_map(|f| f.pointer.strip_prefix("/definitions/"))
        .map(|n| {
            n.split('/')
                .next()
                .unwrap_or(n)
                .replace("~1", "/")
                .replace("~0", "~")
        })
        .filter(|n| !left_out.contains(n))
        .collect()
}

/// Every definition reaching a failing one (so no kept `$ref` dangles), to be left out; each
/// entry reaching one of them is refused with the module's findings.
fn leave_out(
    bundle: &Bundle,
    entries: &mut [Entry<'_>],
    failing: &BTreeSet<String>,
    mapped: &[Finding],
) -> BTreeSet<String> {
    let reach = shared_reach(bundle);
    let bad: BTreeSet<String> = bundle
        .shared
        .keys()
        .filter(|name| {
            closure(&BTreeSet::from([(*name).clone()]), &reach)
                .iter()
                .any(|n| failing.contains(n))
        })
        .cloned()
        .collect();
    for entry in entries.iter_mut() {
        if entry.reached.iter().any(|n| bad.contains(n)) {
            entry.refusals.extend(mapped.iter().cloned());
        }
    }
    bad
}

/// A shared definition's finding points at the file and pointer the definition came from.
fn shared_finding(finding: Finding, origins: &BTreeMap<String, String>, root: &Path) -> Finding {
    let name = finding
        .pointer
        .strip_prefix("/definitions/")
        .map(|n| n.replace("~1", "/").replace("~0", "~"));
    match name.and_then(|n| origins.get(&n)) {
        Some(origin) => {
            let (file, pointer) = origin.split_once('#').unwrap_or((origin, ""));
            Finding {
                file: root.join(file),
                pointer: pointer.to_owned(),
                ..finding
            }
        }
        None => finding,
    }
}
