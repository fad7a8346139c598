//! Schemas defined in terms of themselves: a `$ref` that reaches the schema it stands in
//! again without a property or an item between (`{"$ref": "#"}` at a root, `{"allOf":
//! [{"$ref": "#"}]}`, `$defs` that name each other, files that name each other). Such a
//! type would contain itself with nothing to stop it, and typify recursed until the stack
//! overflowed (SIGABRT in `cloudevent codegen` and in a `build.rs`). Recursion through a
//! property or an item (a tree of nodes) is a type Rust can hold (`Option<Box<_>>`,
//! `Vec<_>`) and is not a cycle here.
//!
//! The walk is iterative, so a long chain of refs cannot overflow this check either.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use serde_json::Value;

use crate::error::{Finding, pointer_segment};

/// A schema: a document (by index) and a JSON pointer in it.
type Node = (usize, String);

/// How the walk reached a schema: through a `$ref` (its pointer and text) or in place
/// (`allOf`, `anyOf`, `oneOf`: the same instance, so no less of it).
#[derive(Clone)]
struct Edge {
    to: Node,
    /// The `$ref` taken: the document, the pointer of the `$ref` member, its text.
    by_ref: Option<(usize, String, String)>,
}

/// The keywords whose subschemas describe the same instance as the schema holding them.
const IN_PLACE: [&str; 3] = ["allOf", "anyOf", "oneOf"];

/// A finding for every cycle of refs among `docs` (each: its path for the finding, its
/// name for the message, its value), naming the `$ref` that closes it. `resolve` turns a
/// document's `$ref` into the schema it names, or `None` when it names nothing (reported
/// elsewhere).
pub(crate) fn ref_cycles(
    docs: &[(&Path, &str, &Value)],
    resolve: impl Fn(usize, &str) -> Option<Node>,
) -> Vec<Finding> {
    let edges = |(doc, pointer): &Node| -> Vec<Edge> {
        let Some(object) = docs[*doc].2.pointer(pointer).and_then(Value::as_object) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if let Some(Value::String(reference)) = object.get("$ref")
            && let Some(to) = resolve(*doc, reference)
        {
            out.push(Edge {
                to,
                by_ref: Some((*doc, format!("{pointer}/$ref"), reference.clone())),
            });
        }
        for keyword in IN_PLACE {
            if let Some(Value::Array(list)) = object.get(keyword) {
                out.extend((0..list.len()).map(|i| Edge {
                    to: (*doc, format!("{pointer}/{keyword}/{i}")),
                    by_ref: None,
                }));
            }
        }
        out
    };
    let mut done: BTreeSet<Node> = BTreeSet::new();
    let mut reported: BTreeSet<(usize, String)> = BTreeSet::new();
    let mut findings = Vec::new();
    for (doc, (_, _, value)) in docs.iter().enumerate() {
        let mut starts = Vec::new();
        schema_pointers(value, String::new(), &mut starts);
        for start in starts {
            let start = (doc, start);
            if done.contains(&start) {
                continue;
            }
            // Depth-first, by hand: the schemas on the path, each with its edges, the next
            // edge to take and the edge it was reached by.
            let mut on_path: HashMap<Node, usize> = HashMap::from([(start.clone(), 0)]);
            let mut path: Vec<(Node, Vec<Edge>, usize, Option<Edge>)> =
                vec![(start.clone(), edges(&start), 0, None)];
            while let Some((node, out, next, _)) = path.last_mut() {
                let Some(edge) = out.get(*next).cloned() else {
                    let node = node.clone();
                    on_path.remove(&node);
                    done.insert(node);
                    path.pop();
                    continue;
                };
                *next += 1;
                if let Some(&at) = on_path.get(&edge.to) {
                    // The path from `at` back to itself: report its first `$ref`.
                    let closing = path[at + 1..]
                        .iter()
                        .filter_map(|(_, _, _, by)| by.as_ref())
                        .chain([&edge])
                        .find_map(|e| e.by_ref.clone());
                    if let Some((ref_doc, ref_at, reference)) = closing
                        && reported.insert((ref_doc, ref_at.clone()))
                    {
                        let cycle: Vec<String> = path[at..]
                            .iter()
                            .map(|(n, ..)| n)
                            .chain([&edge.to])
                            .map(|(d, p)| format!("{}#{p}", docs[*d].1))
                            .collect();
                        findings.push(
                            Finding::new(
                                docs[ref_doc].0,
                                ref_at,
                                format!(
                                    "`$ref` `{reference}` makes a schema contain itself with no property or item between ({}): the type would never end",
                                    cycle.join(" -> ")
                                ),
                            )
                            .with_fix(
                                "reach the schema again only through a property or an item (an `Option` or a `Vec` in Rust), or remove the `$ref`",
                            ),
                        );
                    }
                } else if !done.contains(&edge.to) {
                    on_path.insert(edge.to.clone(), path.len());
                    let out = edges(&edge.to);
                    path.push((edge.to.clone(), out, 0, Some(edge)));
                }
            }
        }
    }
    findings
}

/// The pointer of every object below `value` where a schema may stand (not inside `enum`,
/// `const`, `default` or `examples`, which hold instances).
fn schema_pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            for (key, sub) in object {
                if !matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                    schema_pointers(sub, format!("{at}/{}", pointer_segment(key)), out);
                }
            }
            out.push(at);
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                schema_pointers(item, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cycles(docs: &[(&str, Value)]) -> Vec<Finding> {
        let listed: Vec<(&Path, &str, &Value)> = docs
            .iter()
            .map(|(name, value)| (Path::new(*name), *name, value))
            .collect();
        ref_cycles(&listed, |doc, reference| {
            let (file, pointer) = reference.split_once('#').unwrap_or((reference, ""));
            let doc = if file.is_empty() {
                doc
            } else {
                docs.iter().position(|(name, _)| *name == file)?
            };
            docs[doc].1.pointer(pointer)?;
            Some((doc, pointer.to_owned()))
        })
    }

    #[test]
    fn a_root_that_is_a_ref_to_itself_is_a_cycle() {
        let found = cycles(&[("a.json", json!({"type": "object", "$ref": "#"}))]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].pointer, "/$ref");
    }

    #[test]
    fn a_ref_to_the_root_through_all_of_is_a_cycle() {
        let found = cycles(&[("a.json", json!({"allOf": [{"$ref": "#"}]}))]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].pointer, "/allOf/0/$ref");
    }

    #[test]
    fn defs_naming_each_other_are_a_cycle() {
        let found = cycles(&[(
            "a.json",
            json!({"properties": {"a": {"$ref": "#/$defs/A"}},
                   "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"oneOf": [{"$ref": "#/$defs/A"}]}}}),
        )]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].message.contains("#/$defs/A"),
            "{}",
            found[0].message
        );
    }

    #[test]
    fn files_naming_each_other_are_a_cycle() {
        let found = cycles(&[
            ("a.json", json!({"$ref": "b.json"})),
            ("b.json", json!({"allOf": [{"$ref": "a.json"}]})),
        ]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].message.contains("a.json#"), "{}", found[0].message);
        assert!(found[0].message.contains("b.json#"), "{}", found[0].message);
    }

    #[test]
    fn recursion_through_a_property_or_an_item_is_a_type_rust_holds() {
        let found = cycles(&[(
            "a.json",
            json!({"properties": {"children": {"type": "array", "items": {"$ref": "#"}},
                                  "next": {"$ref": "#/$defs/Node"}},
                   "$defs": {"Node": {"properties": {"next": {"$ref": "#/$defs/Node"}}}}}),
        )]);
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn a_long_chain_of_refs_does_not_overflow_the_stack() {
        let mut defs = serde_json::Map::new();
        for i in 0..100_000 {
            defs.insert(
                format!("D{i}"),
                json!({"$ref": format!("#/$defs/D{}", i + 1)}),
            );
        }
        defs.insert("D100000".into(), json!({"$ref": "#/$defs/D0"}));
        let found = cycles(&[("a.json", json!({"$defs": defs}))]);
        assert_eq!(found.len(), 1);
    }
}
