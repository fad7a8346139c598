//! Where typify stops, said as a schema author can act on it (issue 37, item 2): the deepest
//! subschema that typify refuses (or panics on) by itself, and the keywords of it without
//! which typify takes it. typify's own words stay out of a panic's finding: `called
//! Option::unwrap() on a None value` says nothing about the schema.

use serde_json::Value;

/// What a typify panic is reported as, in place of the panic's text.
pub(crate) const TYPIFY_PANICKED: &str =
    "typify 0.8 stops on this shape (an internal error of typify's, not a mistake in the schema)";

/// Keywords that only annotate: never what typify stops on.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "$comment",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$id",
    "$schema",
];

/// The deepest subschema of `schema` (at `pointer`) that `fails` by itself, and the keywords
/// of it whose removal lets it through; `fails` answers whether typify refuses a subschema
/// standing alone, with its message. Returns the pointer, the keywords (empty when no single
/// keyword is to blame) and typify's message there.
pub(crate) fn narrow(
    pointer: &str,
    schema: &Value,
    message: String,
    fails: &dyn Fn(&Value) -> Option<String>,
) -> (String, Vec<String>, String) {
    let mut pointer = pointer.to_owned();
    let mut schema = schema;
    let mut message = message;
    // Bounded by the schema's depth; a schema is finite and each step goes one level down.
    'down: loop {
        for (child_pointer, child) in crate::keywords::subschemas(schema) {
            if let Some(child_message) = fails(child) {
                pointer = format!("{pointer}{child_pointer}");
                schema = child;
                message = child_message;
                continue 'down;
            }
        }
        break;
    }
    let keywords = match schema {
        Value::Object(object) => object
            .keys()
            .filter(|k| !ANNOTATIONS.contains(&k.as_str()))
            .filter(|k| {
                let mut without = object.clone();
                without.remove(*k);
                fails(&Value::Object(without)).is_none()
            })
            .cloned()
            .collect(),
        Value::Bool(b) => vec![format!("{b} (a boolean schema)")],
        _ => Vec::new(),
    };
    (pointer, keywords, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Stands in for typify: refuses a schema holding `minimum` without `type`.
    fn fails(schema: &Value) -> Option<String> {
        fn bad(schema: &Value) -> bool {
            let own = schema
                .as_object()
                .is_some_and(|o| o.contains_key("minimum") && !o.contains_key("type"));
            own || crate::keywords::subschemas(schema)
                .iter()
                .any(|(_, c)| bad(c))
        }
        bad(schema).then(|| "stopped".to_owned())
    }

    #[test]
    fn the_deepest_failing_subschema_and_its_keyword_are_named() {
        let schema = json!({"anyOf": [{"type": "integer"}, {"minimum": 2, "description": "x"}]});
        let (pointer, keywords, _) = narrow("/properties/m", &schema, "m".into(), &fails);
        assert_eq!(pointer, "/properties/m/anyOf/1");
        assert_eq!(keywords, ["minimum"]);
    }
}
