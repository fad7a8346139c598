use cloudevent_rules::{
    AttributeKind, Declaration, Policy, Profile, Severity, Violation, schema_major, type_version,
};
use serde_json::Value;

use crate::error::{Finding, pointer_segment};
use crate::registry::SchemaFile;

/// Checks a schema file before any code is generated: its names with `cloudevent-rules`' one
/// envelope check (type, source, dataschema, extension names, datacontenttype, the `.vN`
/// suffix against the schema's major), the registry layout, the properties named by `x-cloudevent`, and the
/// keywords codegen cannot turn into Rust.
///
/// Returns the errors; warnings (broken SHOULDs) are left out: [`crate::Builder`] reports them
/// among [`crate::GeneratedRust::warnings`].
///
/// ```
/// use cloudevent_codegen::{check_schema, SchemaFile};
/// use cloudevent_rules::{Policy, Profile};
///
/// let text = r##"{"$id": "https://schemas.example.com/events/com.example.order.created/v1.json",
///   "x-cloudevent": {"type": "com.example.order.created"},
///   "type": "object", "properties": {"next": {"$dynamicRef": "#node"}}}"##;
/// let file = SchemaFile::parse("schemas".as_ref(), "com.example.order.created/v1.json", text).unwrap();
/// let findings = check_schema(&file, &Policy::new(Profile::IntgStd015));
/// assert!(findings.iter().any(|f| f.pointer == "/properties/next/$dynamicRef" && f.message.contains("`$dynamicRef`")));
/// ```
pub fn check_schema(file: &SchemaFile, policy: &Policy) -> Vec<Finding> {
    let mut findings: Vec<Finding> = rule_findings(file, policy)
        .into_iter()
        .filter(|(_, v)| v.is_error())
        .map(|(pointer, v)| violation_finding(file, pointer, &v))
        .collect();
    point_to_profile(file, policy, &mut findings);
    findings.extend(layout_findings(file));
    findings.extend(property_findings(file));
    findings.extend(unsupported_keywords(file));
    findings
}

/// The broken SHOULDs of a schema's names, reported but not fatal; and the keywords codegen
/// does not know (read as annotations, as JSON Schema reads them), each named once a file at
/// its first pointer.
pub(crate) fn check_warnings(file: &SchemaFile, policy: &Policy) -> Vec<Finding> {
    let mut found: Vec<Finding> = rule_findings(file, policy)
        .into_iter()
        .filter(|(_, v)| v.severity == Severity::Warning)
        .map(|(pointer, v)| violation_finding(file, pointer, &v))
        .collect();
    point_to_profile(file, policy, &mut found);
    let mut seen = std::collections::BTreeSet::new();
    // The member a type mapping reads the type from (Google's `cloudeventTypes`) is the
    // mapping's, not an unknown keyword.
    let read_by_mapping = |pointer: &str| {
        file.type_pointer.as_deref().is_some_and(|at| {
            at == pointer
                || at
                    .strip_prefix(pointer)
                    .is_some_and(|rest| rest.starts_with('/'))
        })
    };
    for (pointer, keyword) in crate::keywords::unknown_keywords(&file.schema) {
        if read_by_mapping(&pointer) {
            continue;
        }
        if seen.insert(keyword.clone()) {
            found.push(
                Finding::new(
                    &file.path,
                    pointer,
                    format!("`{keyword}` is not a JSON Schema keyword codegen knows: it is read as an annotation and asserts nothing"),
                )
                .with_fix(format!("rename it `x-{keyword}` if it is your own metadata, or remove it")),
            );
        }
    }
    found
}

/// The declared metadata goes through the one envelope check (`Policy::check_declaration`),
/// as the validator's does at run time; each finding points at the member it is about.
fn rule_findings(file: &SchemaFile, policy: &Policy) -> Vec<(String, Violation)> {
    let meta = &file.meta;
    // `property_findings` holds each extension named by a root property to a string
    // property, so its events carry a String; one at a JSON pointer has its member's type,
    // decided where the type is generated (as the derive leaves it to the field's type).
    let extensions: Vec<(&str, Option<AttributeKind>)> = meta
        .extensions
        .iter()
        .map(|(name, at)| {
            let kind = (!at.starts_with('/')).then_some(AttributeKind::String);
            (name.as_str(), kind)
        })
        .collect();
    // A source template is checked with its variables filled (`x`): its scheme, host and
    // port get the verdict a filled source gets. One that does not parse is reported where
    // the type is generated.
    let sample = meta.source_template.as_deref().and_then(|t| {
        cloudevent_rules::parse_source_template(t)
            .ok()
            .map(|parts| cloudevent_rules::sample_source(&parts))
    });
    let declaration = Declaration {
        ty: Some(&meta.event_type),
        source: meta.source.as_deref().or(sample.as_deref()),
        datacontenttype: meta.datacontenttype.as_deref(),
        dataschema: (!meta.dataschema.is_empty()).then_some(meta.dataschema.as_str()),
        subject: None,
        extensions: &extensions,
    };
    let extension_pointer =
        |name: &str| format!("/x-cloudevent/extensions/{}", pointer_segment(name));
    let mut found: Vec<(String, Violation)> = policy
        .check_declaration(&declaration)
        .into_iter()
        .map(|v| {
            let pointer = match &*v.attribute {
                "type" => match &file.type_pointer {
                    Some(pointer) => pointer.clone(),
                    None => "/x-cloudevent/type".to_owned(),
                },
                "dataschema" => "/$id".to_owned(),
                "source" => "/x-cloudevent/source".to_owned(),
                "datacontenttype" => "/x-cloudevent/datacontenttype".to_owned(),
                "extension" => extension_pointer(&v.value),
                name if meta.extensions.contains_key(name) => extension_pointer(name),
                _ => "/x-cloudevent".to_owned(),
            };
            (pointer, v)
        })
        .collect();
    // Reported in the order of the file's members (`type`, `$id`, `source`, ...), as before
    // the envelope check decided them; the order within one member is kept.
    found.sort_by_key(|(pointer, _)| {
        MEMBER_ORDER
            .iter()
            .position(|p| pointer == p)
            .unwrap_or(MEMBER_ORDER.len())
    });
    found
}

/// A type that came from a mapping (a pointer, a template, an xRegistry document) is named by
/// its publisher, not by the registry's owner: where the CloudEvents profile accepts what the
/// stricter profile refuses, the fix is that profile, not renaming someone else's types.
fn point_to_profile(file: &SchemaFile, policy: &Policy, findings: &mut [Finding]) {
    let mapped = file
        .type_pointer
        .as_deref()
        .is_some_and(|at| at != "/x-cloudevent/type");
    if !mapped || policy.profile() == Profile::CloudEvents || findings.is_empty() {
        return;
    }
    let lenient = Policy::new(Profile::CloudEvents);
    let still_refused: Vec<String> = rule_findings(file, &lenient)
        .into_iter()
        .filter(|(_, v)| v.is_error())
        .map(|(pointer, _)| pointer)
        .collect();
    let fix = format!(
        "this type is named by its publisher; the `cloudevents` profile accepts it: generate with `--profile cloudevents` (`Builder::profile(Profile::CloudEvents)`, or `profile = \"cloudevents\"` in the registry's cloudevent-registry.toml) instead of renaming it (the `{}` profile's rule)",
        policy.profile()
    );
    for finding in findings.iter_mut() {
        if finding.rule.is_some() && !still_refused.contains(&finding.pointer) {
            finding.fix = Some(fix.clone());
        }
    }
}

const MEMBER_ORDER: [&str; 4] = [
    "/x-cloudevent/type",
    "/$id",
    "/x-cloudevent/source",
    "/x-cloudevent/datacontenttype",
];

fn violation_finding(file: &SchemaFile, pointer: String, v: &Violation) -> Finding {
    // A schema inside a document (`doc.json#/definitions/X`): the type a template read from
    // the schema is at the schema's fragment joined with the pointer; the type of an
    // xRegistry message sits elsewhere in the document, at the pointer itself.
    let (path, pointer) = match (&file.type_pointer, file.path.to_str()) {
        (Some(at), Some(path)) if *at == pointer && path.contains('#') => {
            let (document, fragment) = path.split_once('#').unwrap_or((path, ""));
            let pointer = if file.schema.pointer(at).is_some() {
                format!("{fragment}{pointer}")
            } else {
                pointer
            };
            (std::path::PathBuf::from(document), pointer)
        }
        _ => (file.path.clone(), pointer),
    };
    let mut message = format!("{} `{}`", v.attribute, v.value);
    if let Some(part) = &v.part {
        message.push(' ');
        message.push_str(part);
    }
    message.push_str(": ");
    message.push_str(&v.problem);
    let fix = v
        .hint
        .clone()
        .unwrap_or_else(|| format!("change `{}` to satisfy {}", v.attribute, v.rule));
    Finding::new(path, pointer, message)
        .with_rule(v.rule)
        .with_fix(fix)
}

/// The directory must be the type without its `.vN` suffix, and the file's major must match
/// the type suffix and the dataschema's version token, so a v2 can never hide in `v1.json`.
fn layout_findings(file: &SchemaFile) -> Vec<Finding> {
    let meta = &file.meta;
    let mut out = Vec::new();
    if file.type_pointer.is_some() {
        // A schema set published by others: its files are named as its publisher likes, and
        // its `$id` is the dataschema as published (a spec version such as `0.4.1` is no
        // major of the event's schema), so there is no layout to hold it to.
        return out;
    }
    if meta.base_type() != file.type_dir {
        out.push(
            Finding::new(
                &file.path,
                "/x-cloudevent/type",
                format!(
                    "type `{}` does not belong in directory `{}`",
                    meta.event_type, file.type_dir
                ),
            )
            .with_fix(format!("move the file to `{}/`", meta.base_type())),
        );
    }
    let type_major = type_version(&meta.event_type).unwrap_or(1);
    if type_major != file.major {
        out.push(
            Finding::new(
                &file.path,
                "/x-cloudevent/type",
                format!(
                    "file `v{}.json` holds type `{}` of version {type_major}",
                    file.major, meta.event_type
                ),
            )
            .with_rule(cloudevent_rules::rule::INTG_R4)
            .with_fix(if file.major > 1 {
                format!("name the type `{}.v{}`", meta.base_type(), file.major)
            } else {
                format!("name the type `{}`", meta.base_type())
            }),
        );
    }
    if let Some(schema) = schema_major(&meta.dataschema)
        && schema != file.major
    {
        out.push(
            Finding::new(
                &file.path,
                "/$id",
                format!(
                    "dataschema `{}` names version {schema} but the file is `v{}.json`",
                    meta.dataschema, file.major
                ),
            )
            .with_rule(cloudevent_rules::rule::INTG_R2)
            .with_fix(format!("end `$id` with `/v{}.json`", file.major)),
        );
    }
    out
}

/// `x-cloudevent.subject` and each extension named by a root property must name a string
/// property of the root object; a JSON pointer (an extension, `x-cloudevent.attributes`)
/// must reach a member the schema defines, of a scalar type.
fn property_findings(file: &SchemaFile) -> Vec<Finding> {
    let meta = &file.meta;
    let properties = file.schema.get("properties").and_then(Value::as_object);
    let mut named: Vec<(String, &str)> = Vec::new();
    let mut pointers: Vec<(String, &str)> = Vec::new();
    if let Some(subject) = &meta.subject {
        named.push(("/x-cloudevent/subject".to_owned(), subject));
    }
    for (name, property) in &meta.extensions {
        let at = format!("/x-cloudevent/extensions/{}", pointer_segment(name));
        if property.starts_with('/') {
            pointers.push((at, property));
        } else {
            named.push((at, property));
        }
    }
    for (name, pointer) in meta.attribute_pointers() {
        if let Some(pointer) = pointer {
            pointers.push((format!("/x-cloudevent/attributes/{name}"), pointer));
        }
    }
    let mut out = Vec::new();
    for (at, pointer) in pointers {
        match crate::registry::member_schema(&file.schema, pointer) {
            crate::registry::Member::Missing(segment) => out.push(
                Finding::new(
                    &file.path,
                    at,
                    format!(
                        "names member `{pointer}`, but the schema defines no `{segment}` there"
                    ),
                )
                .with_fix(
                    "point at a member the schema defines under `properties`, e.g. `/context/id`",
                ),
            ),
            crate::registry::Member::Found(schema)
                if schema
                    .get("type")
                    .and_then(Value::as_str)
                    .is_some_and(|t| !["string", "integer", "boolean"].contains(&t)) =>
            {
                out.push(
                    Finding::new(
                        &file.path,
                        at,
                        format!("names member `{pointer}`, which is not a string, integer or boolean"),
                    )
                    .with_rule(cloudevent_rules::rule::CE_TYPE_SYSTEM)
                    .with_fix("point at a scalar member: an attribute or extension holds one value of the CloudEvents type system"),
                );
            }
            _ => {}
        }
    }
    for (pointer, property) in named {
        match properties.and_then(|p| p.get(property)) {
            None => out.push(
                Finding::new(
                    &file.path,
                    pointer,
                    format!("names property `{property}`, which the schema does not define"),
                )
                .with_fix(format!("add `{property}` to `properties` or name an existing property")),
            ),
            Some(schema) if schema.get("type").and_then(Value::as_str) != Some("string") => out
                .push(
                    Finding::new(
                        &file.path,
                        format!("/properties/{}", pointer_segment(property)),
                        format!(
                            "property `{property}` fills a string attribute but is not `\"type\": \"string\"`"
                        ),
                    )
                    .with_rule(cloudevent_rules::rule::CE_TYPE_SYSTEM)
                    .with_fix("make it a plain string without `format` or `pattern`"),
                ),
            Some(schema) if schema.get("format").is_some() || schema.get("pattern").is_some() => out
                .push(
                    Finding::new(
                        &file.path,
                        format!("/properties/{}", pointer_segment(property)),
                        format!(
                            "property `{property}` fills an attribute, so it must generate a plain `String`"
                        ),
                    )
                    .with_fix("drop `format`/`pattern` from it (check the value in the producer)"),
                ),
            Some(_) => {}
        }
    }
    out
}

/// Keywords codegen refuses, each with the reason and a way around it.
/// Walks every subschema position (not property names) looking for keywords typify cannot
/// turn into Rust and for `$defs` refs that name nothing, refused here with the file and the
/// keyword named.
fn unsupported_keywords(file: &SchemaFile) -> Vec<Finding> {
    let mut out = Vec::new();
    walk(file, &file.schema, String::new(), &mut out);
    out
}

fn walk(file: &SchemaFile, schema: &Value, pointer: String, out: &mut Vec<Finding>) {
    let Some(object) = schema.as_object() else {
        return;
    };
    for (keyword, state, ..) in crate::keywords::KEYWORDS {
        let crate::keywords::State::Refused(fix) = state else {
            continue;
        };
        if object.contains_key(*keyword) {
            out.push(
                Finding::new(
                    &file.path,
                    format!("{pointer}/{}", pointer_segment(keyword)),
                    format!("`{keyword}` is not supported by codegen"),
                )
                .with_fix(*fix),
            );
        }
    }
    if let Some(reference) = object.get("$ref") {
        let at = format!("{pointer}/$ref");
        match reference.as_str() {
            Some(r) if r.starts_with("#/$defs/") || r.starts_with("#/definitions/") => {
                if file.schema.pointer(&r[1..]).is_none() {
                    out.push(
                        Finding::new(&file.path, at, format!("`$ref` `{r}` points to nothing"))
                            .with_fix("add the definition under `$defs`"),
                    );
                }
            }
            // Any other ref (another file, an `$id`-relative or absolute URI, a pointer
            // outside `$defs`) is resolved and bundled by `generate_rust`, which reports the
            // ones that name nothing in the registry folder.
            Some(_) => {}
            None => out.push(Finding::new(&file.path, at, "`$ref` must be a string")),
        }
    }
    for (at, sub) in crate::keywords::subschemas(schema) {
        walk(file, sub, format!("{pointer}{at}"), out);
    }
}

#[cfg(test)]
mod tests {
    use cloudevent_rules::{Policy, Profile};

    use crate::registry::SchemaFile;

    /// Google's schemas list their types at `/cloudeventTypes`: read by `--types-pointer`, that
    /// member is no unknown keyword; another unknown member still is.
    #[test]
    fn the_member_a_mapping_reads_is_no_unknown_keyword() {
        let text = r#"{"$schema": "http://json-schema.org/draft-07/schema#",
            "$id": "https://schemas.example.com/events/com.example.object.finalized/v1.json",
            "x-cloudevent": {"type": "com.example.object.finalized"},
            "cloudeventTypes": ["com.example.object.finalized"],
            "vendorHint": 1, "type": "object"}"#;
        let relative = "com.example.object.finalized/v1.json";
        let mut file = SchemaFile::parse("schemas".as_ref(), relative, text).unwrap();
        let policy = Policy::new(Profile::CloudEvents);
        let unknown = |file: &SchemaFile| -> Vec<String> {
            super::check_warnings(file, &policy)
                .into_iter()
                .filter(|f| f.message.contains("is not a JSON Schema keyword"))
                .map(|f| f.pointer)
                .collect()
        };
        assert_eq!(unknown(&file), ["/cloudeventTypes", "/vendorHint"]);
        file.type_pointer = Some("/cloudeventTypes/0".into());
        assert_eq!(unknown(&file), ["/vendorHint"]);
    }
}
