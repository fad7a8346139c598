//! The rules, applied to what was parsed. The declared attributes go through
//! `cloudevent-rules`' one envelope check (`Policy::check_declaration`), the same check the
//! validator runs on an event, so the rule id and severity come from there; this file only
//! decides where each finding points, and checks the structure of the derive's input
//! (subject twice, duplicate extension names, a missing `type`).
//!
//! Only MUST violations (errors) fail the build. A SHOULD violation under the crate's profile
//! becomes a compiler warning at the user's token (see `expand::warning`): stable Rust has no
//! warning API for derives, so it is a `#[deprecated]` note, which `#[allow(deprecated)]` on
//! the type silences.

use std::collections::HashMap;

use cloudevent_rules::{AttributeKind, Declaration, Policy, Violation};
use proc_macro2::Span;

use crate::ast::{Container, ExtensionName};
use crate::attr::{Text, key};
use crate::ctxt::Ctxt;

/// Checks the container against the policy. `policy` is `None` when the Cargo.toml policy
/// could not be read: that error is reported already, and checking names against a profile
/// the user did not choose would only add noise.
pub(crate) fn check(ctxt: &Ctxt, cont: &Container<'_>, policy: Option<&Policy>) {
    check_type_present(ctxt, cont);
    check_subject_once(ctxt, cont);
    check_marked_once(ctxt, cont);
    check_source_template(ctxt, cont);
    check_extension_names_unique(ctxt, cont);
    check_signed_extensions(ctxt, cont);
    if let Some(policy) = policy {
        check_values(ctxt, cont, policy);
        check_literal_headers(ctxt, cont, policy);
    }
}

/// `literal_headers` asks for a tolerance the rules never grant under INTG-STD-015
/// (`Policy::literal_header`): refused here, where the user wrote it, rather than silently
/// strict at run time.
fn check_literal_headers(ctxt: &Ctxt, cont: &Container<'_>, policy: &Policy) {
    let Some(span) = cont.attrs.literal_headers else {
        return;
    };
    if let Err(Some(why)) = policy.clone().with_literal_headers(true).literal_header(
        cloudevent_rules::LiteralHeader::NonAscii,
        "",
        "",
    ) {
        ctxt.error_spanned(
            span,
            format_args!(
                "`{}` under the `{}` profile: {why}; use `profile = \"cloudevents\"` or `profile = \"nl-gov\"` on a type read from such senders",
                key::LITERAL_HEADERS,
                policy.profile()
            ),
        );
    }
}

fn check_type_present(ctxt: &Ctxt, cont: &Container<'_>) {
    if cont.attrs.type_.is_none() && !cont.attrs.incomplete {
        ctxt.error_spanned(
            cont.original.ident.span(),
            format_args!(
                "missing event type: every event needs one (CE 1.0.2 required); add `#[cloudevent({} = \"com.example.order.created\")]` to `{}`",
                key::TYPE,
                cont.original.ident
            ),
        );
    }
}

fn check_subject_once(ctxt: &Ctxt, cont: &Container<'_>) {
    let mut subjects = cont
        .fields()
        .iter()
        .filter_map(|f| f.subject.map(|s| (f, s)));
    let Some((first, _)) = subjects.next() else {
        return;
    };
    for (_, span) in subjects {
        ctxt.error_spanned(
            span,
            format_args!(
                "`subject` is already taken from {}: an event has one subject, so mark one field",
                describe(first.original, &first.member)
            ),
        );
    }
}

/// `id`, `time` and `source` each come from one field at most, and `source` from a field or
/// a template, not both.
fn check_marked_once(ctxt: &Ctxt, cont: &Container<'_>) {
    type Mark = fn(&crate::ast::Field<'_>) -> Option<Span>;
    let marks: [(&str, Mark); 3] = [
        (key::ID, |f| f.id.as_ref().map(|m| m.span)),
        (key::TIME, |f| f.time.as_ref().map(|m| m.span)),
        (key::SOURCE, |f| f.source.as_ref().map(|m| m.span)),
    ];
    for (name, mark) in marks {
        let mut marked = cont.fields().iter().filter_map(|f| mark(f).map(|s| (f, s)));
        let Some((first, first_span)) = marked.next() else {
            continue;
        };
        for (_, span) in marked {
            ctxt.error_spanned(
                span,
                format_args!(
                    "`{name}` is already taken from {}: an event has one {name}, so mark one field",
                    describe(first.original, &first.member)
                ),
            );
        }
        if name == key::SOURCE && cont.attrs.source_template.is_some() {
            ctxt.error_spanned(
                first_span,
                format_args!(
                    "`source` is taken from {} and from the type's `source_template`: keep one",
                    describe(first.original, &first.member)
                ),
            );
        }
    }
}

/// A `source_template` parses (RFC 6570 level 1) and each variable names a payload member.
/// The rules crate parses it, as it does for codegen and the runtime.
fn check_source_template(ctxt: &Ctxt, cont: &Container<'_>) {
    let Some(template) = &cont.attrs.source_template else {
        return;
    };
    let value = template.value();
    match cloudevent_rules::parse_source_template(&value) {
        Err(violation) => ctxt.error_spanned(template.span(), violation),
        Ok(parts) => {
            for part in parts {
                let cloudevent_rules::TemplatePart::Variable(name) = part else {
                    continue;
                };
                if !cont
                    .fields()
                    .iter()
                    .any(|f| f.property.as_deref() == Some(name))
                {
                    let members: Vec<String> = cont
                        .fields()
                        .iter()
                        .filter_map(|f| f.property.as_ref().map(|p| format!("`{p}`")))
                        .collect();
                    ctxt.error_spanned(
                        template.span(),
                        format_args!(
                            "`source_template` variable `{{{name}}}` names no field of `{}` (as serialized); its fields are {}",
                            cont.original.ident,
                            if members.is_empty() { "none".to_owned() } else { members.join(", ") }
                        ),
                    );
                }
            }
        }
    }
}

fn check_extension_names_unique(ctxt: &Ctxt, cont: &Container<'_>) {
    let mut seen: HashMap<&str, &syn::Member> = HashMap::new();
    for field in cont.fields() {
        for extension in &field.extensions {
            if let Some(first) = seen.get(extension.name.as_str()) {
                let first = cont
                    .fields()
                    .iter()
                    .find(|f| &&f.member == first)
                    .map_or_else(String::new, |f| describe(f.original, &f.member));
                ctxt.error_spanned(
                extension.span,
                format_args!(
                    "extension `{}` is named twice in this event, here and by {first}: give each extension one field",
                    extension.name
                ),
            );
            } else {
                seen.insert(&extension.name, &field.member);
            }
        }
    }
}

/// `sign(extensions = "..")`: the list goes through the rules' one `signedextattrs` verdict
/// (`signed_extension_problems`, what the runtime's signer and verifier apply), and each name
/// must be an extension this type fills from a field: a name it never carries would sign the
/// digest of nothing.
fn check_signed_extensions(ctxt: &Ctxt, cont: &Container<'_>) {
    let Some(lit) = cont
        .attrs
        .sign
        .as_ref()
        .and_then(|sign| sign.extensions.as_ref())
    else {
        return;
    };
    let written = lit.value();
    let names = signed_extension_names(&written);
    let prefix = format!("{}({} = \"{written}\")", key::SIGN, key::EXTENSIONS);
    if names.iter().any(|name| name.is_empty()) {
        ctxt.error_spanned(
            lit.span(),
            format_args!(
                "{prefix}: an empty name; list the extensions separated by commas, e.g. `{} = \"region,tenantid\"`",
                key::EXTENSIONS
            ),
        );
        return;
    }
    let problems = cloudevent_rules::signed_extension_problems(names.iter().copied());
    for problem in &problems {
        ctxt.error_spanned(
            lit.span(),
            format_args!("{prefix} `{}`: {problem}", problem.name()),
        );
    }
    let declared: Vec<&str> = cont
        .fields()
        .iter()
        .flat_map(|f| &f.extensions)
        .map(|e| e.name.as_str())
        .collect();
    for name in names {
        let refused = problems.iter().any(|p| p.name() == name);
        if !refused && !declared.contains(&name) {
            let known = if declared.is_empty() {
                "this type fills no extension from its fields".to_owned()
            } else {
                format!(
                    "this type fills {}",
                    declared
                        .iter()
                        .map(|d| format!("`{d}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            ctxt.error_spanned(
                lit.span(),
                format_args!(
                    "{prefix} `{name}`: not an extension of this type ({known}); mark the field that fills it `#[cloudevent(extension)]`, or sign an extension set at run time with `verify::sign(&mut event, &key, &[\"{name}\"])` (CE verifiability)"
                ),
            );
        }
    }
}

/// The names of `extensions = "a, b"`, split at commas, spaces around each trimmed; `""` is
/// no name at all.
pub(crate) fn signed_extension_names(written: &str) -> Vec<&str> {
    if written.trim().is_empty() {
        return Vec::new();
    }
    written.split(',').map(str::trim).collect()
}

/// The declared attributes and extension names go through the one envelope check
/// (`Policy::check_declaration`), as the validator's do at run time; each finding is reported
/// at the literal it is about.
fn check_values(ctxt: &Ctxt, cont: &Container<'_>, policy: &Policy) {
    let attrs = &cont.attrs;
    let value = |lit: &Option<Text>| lit.as_ref().map(Text::value);
    let (ty, source) = (value(&attrs.type_), value(&attrs.source));
    // A template is checked by the policy with its variables filled (`x`), so its scheme,
    // host and port get the verdict a filled source gets.
    let sample = attrs.source_template.as_ref().and_then(|t| {
        cloudevent_rules::parse_source_template(&t.value())
            .ok()
            .map(|parts| cloudevent_rules::sample_source(&parts))
    });
    if let (Some(_), Some(sample), Some(template)) = (&source, &sample, &attrs.source_template) {
        for violation in cloudevent_rules::check_source(sample, policy.profile()) {
            report(ctxt, template.span(), violation);
        }
    }
    let source = source.or(sample);
    let (dataschema, datacontenttype) = (value(&attrs.dataschema), value(&attrs.datacontenttype));
    let extensions: Vec<&ExtensionName> =
        cont.fields().iter().flat_map(|f| &f.extensions).collect();
    // The Rust type of an extension field decides its CloudEvents type at run time.
    let declared: Vec<(&str, Option<AttributeKind>)> =
        extensions.iter().map(|e| (e.name.as_str(), None)).collect();
    let declaration = Declaration {
        ty: ty.as_deref(),
        source: source.as_deref(),
        datacontenttype: datacontenttype.as_deref(),
        dataschema: dataschema.as_deref(),
        subject: None,
        extensions: &declared,
    };
    let mut found = policy.check_declaration(&declaration);
    // Reported in the order the derive documents its keys (type first), not the envelope
    // check's; the order within one attribute is kept.
    found.sort_by_key(|v| {
        key::CONTAINER
            .iter()
            .position(|k| *k == v.attribute)
            .unwrap_or(key::CONTAINER.len())
    });
    for violation in found {
        let literal = match &*violation.attribute {
            key::TYPE => attrs.type_.as_ref(),
            key::SOURCE => attrs.source.as_ref().or(attrs.source_template.as_ref()),
            key::DATASCHEMA => attrs.dataschema.as_ref(),
            key::DATACONTENTTYPE => attrs.datacontenttype.as_ref(),
            _ => None,
        };
        let spans: Vec<Span> = match literal {
            Some(lit) => vec![lit.span()],
            // An extension name's finding names the extension in its value; a name declared
            // twice gets it at each place (the duplicate is its own error).
            None => extensions
                .iter()
                .filter(|e| violation.attribute == key::EXTENSION && e.name == violation.value)
                .map(|e| e.span)
                .collect(),
        };
        let spans = if spans.is_empty() {
            vec![cont.original.ident.span()]
        } else {
            spans
        };
        for span in spans {
            report(ctxt, span, violation.clone());
        }
    }
}

/// A compile error for a MUST violation, a warning for a SHOULD, at the user's token.
fn report(ctxt: &Ctxt, span: Span, violation: Violation) {
    if violation.is_error() {
        ctxt.error_spanned(span, violation);
    } else {
        ctxt.warning_spanned(span, violation);
    }
}

/// "field `order_id`" or "field 0".
fn describe(field: &syn::Field, member: &syn::Member) -> String {
    match (&field.ident, member) {
        (Some(ident), _) => format!("field `{ident}`"),
        (None, syn::Member::Unnamed(index)) => format!("field {}", index.index),
        (None, syn::Member::Named(ident)) => format!("field `{ident}`"),
    }
}

#[cfg(test)]
mod tests {
    use cloudevent_rules::Profile;
    use syn::{DeriveInput, parse_quote};

    use super::*;

    /// Every error message the derive reports for this input under `profile`.
    fn errors(input: &DeriveInput, profile: Profile) -> Vec<String> {
        let ctxt = Ctxt::new();
        if let Some(cont) = Container::from_ast(&ctxt, input) {
            check(&ctxt, &cont, Some(&Policy::new(profile)));
        }
        match ctxt.finish() {
            Ok(()) => Vec::new(),
            Err(all) => all.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn the_issue_example_parses_into_fields() {
        let input: DeriveInput = parse_quote! {
            #[cloudevent(
                type = "com.example.order.created",
                dataschema = "https://schemas.example.com/orders/created/v1.json",
                source = "https://orders.example.com/checkout",
                datacontenttype = "application/json",
                crate = "::cloudevent_runtime",
            )]
            pub struct OrderCreated {
                #[cloudevent(subject)] pub order_id: String,
                #[cloudevent(extension = "partitionkey")] pub customer_id: String,
                #[cloudevent(extension)] pub region: String,
                pub total_cents: i64,
            }
        };
        let ctxt = Ctxt::new();
        let cont = Container::from_ast(&ctxt, &input).unwrap();
        check(&ctxt, &cont, Some(&Policy::default()));
        assert!(ctxt.finish().is_ok());
        let attrs = &cont.attrs;
        assert_eq!(
            attrs.type_.as_ref().unwrap().value(),
            "com.example.order.created"
        );
        assert_eq!(
            attrs.source.as_ref().unwrap().value(),
            "https://orders.example.com/checkout"
        );
        assert!(attrs.dataschema.is_some() && attrs.datacontenttype.is_some());
        assert!(attrs.krate.is_some());
        let fields = cont.fields();
        assert_eq!(fields.len(), 4);
        assert!(fields[0].subject.is_some() && fields[0].extensions.is_empty());
        let names: Vec<_> = fields
            .iter()
            .flat_map(|f| f.extensions.iter().map(|e| e.name.as_str()))
            .collect();
        assert_eq!(names, ["partitionkey", "region"]);
        assert!(fields[3].subject.is_none() && fields[3].extensions.is_empty());
    }

    #[test]
    fn all_errors_are_reported_together() {
        let input: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.Example.order.created", sorce = "x")]
            struct E {
                #[cloudevent(extension = "Region")] a: String,
                #[cloudevent(extention)] b: String,
            }
        };
        let found = errors(&input, Profile::IntgStd015);
        assert_eq!(found.len(), 4, "{found:#?}");
        assert!(found.iter().any(|e| e.contains("did you mean `source`?")));
        assert!(
            found
                .iter()
                .any(|e| e.contains("did you mean `extension`?"))
        );
        assert!(found.iter().any(|e| e.contains("segment `Example`")));
        assert!(found.iter().any(|e| e.contains("extension `Region`")));
    }

    #[test]
    fn a_malformed_type_is_not_also_missing() {
        let input: DeriveInput = parse_quote!(
            #[cloudevent(type = 42)]
            struct E;
        );
        let found = errors(&input, Profile::IntgStd015);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(found[0].contains("`type` takes a string"));

        let input: DeriveInput = parse_quote!(
            struct E;
        );
        let found = errors(&input, Profile::IntgStd015);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(found[0].contains("missing event type"));
    }

    #[test]
    fn structure_rules() {
        let subject_twice: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.example.order.created")]
            struct E { #[cloudevent(subject)] a: String, #[cloudevent(subject)] b: String }
        };
        assert!(
            errors(&subject_twice, Profile::IntgStd015)[0].contains("already taken from field `a`")
        );

        let extension_twice: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.example.order.created")]
            struct E { #[cloudevent(extension = "region")] a: String, #[cloudevent(extension)] region: String }
        };
        assert!(errors(&extension_twice, Profile::IntgStd015)[0].contains("named twice"));

        let on_enum: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.example.order.created")]
            enum E { A { #[cloudevent(subject)] id: String } }
        };
        assert!(errors(&on_enum, Profile::IntgStd015)[0].contains("not supported on enums"));

        let tuple: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.example.order.created")]
            struct E(#[cloudevent(extension)] String);
        };
        assert!(errors(&tuple, Profile::IntgStd015)[0].contains("tuple field"));

        let duplicate_key: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.example.order.created")]
            #[cloudevent(type = "com.example.order.updated")]
            struct E;
        };
        assert!(errors(&duplicate_key, Profile::IntgStd015)[0].contains("duplicate key `type`"));
    }

    #[test]
    fn names_are_checked_per_profile() {
        let input: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.example.OrderCreated")]
            struct E { #[cloudevent(extension = "averyverylongextensionname")] a: String }
        };
        let strict = errors(&input, Profile::IntgStd015);
        assert!(
            strict.iter().any(|e| e.starts_with("type `")),
            "{strict:#?}"
        );
        assert!(
            strict.iter().any(|e| e.starts_with("extension `")),
            "{strict:#?}"
        );
        assert!(errors(&input, Profile::CloudEvents).is_empty());
    }

    #[test]
    fn payload_attributes_are_checked_together() {
        let input: DeriveInput = parse_quote! {
            #[cloudevent(type = "dev.cdevents.build.started.0.2.0", source_template = "/ci/{tenant}/{pipeline}")]
            struct E {
                #[cloudevent(id = "id", time = "timestamp")] context: Context,
                #[cloudevent(time)] started: String,
                #[cloudevent(source)] origin: String,
                tenant: String,
            }
        };
        let found = errors(&input, Profile::CloudEvents);
        assert_eq!(found.len(), 3, "{found:#?}");
        assert!(
            found[0].starts_with("`time` is already taken from field `context`"),
            "{found:#?}"
        );
        assert!(
            found[1].starts_with(
                "`source` is taken from field `origin` and from the type's `source_template`"
            ),
            "{found:#?}"
        );
        assert!(
            found[2].contains("variable `{pipeline}` names no field of `E`"),
            "{found:#?}"
        );

        let member_path: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.example.order.created")]
            struct E { #[cloudevent(id = "context.2")] context: Context }
        };
        let found = errors(&member_path, Profile::IntgStd015);
        assert!(found[0].contains("`2` is not a field name"), "{found:#?}");
    }

    #[test]
    fn member_extensions_parse_beside_the_field_forms() {
        let input: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.example.order.created")]
            struct E {
                #[cloudevent(extension = "partitionkey", extension(name = "tenantid", member = "tenant?.id"))]
                #[cloudevent(extension(name = "zone", member = "site.r#type"), extension(name = "whole"))]
                context: Context,
                #[cloudevent(extension)] region: String,
            }
        };
        let ctxt = Ctxt::new();
        let cont = Container::from_ast(&ctxt, &input).unwrap();
        check(&ctxt, &cont, Some(&Policy::default()));
        assert!(ctxt.finish().is_ok());
        let found: Vec<(String, Vec<(String, usize)>)> = cont
            .fields()
            .iter()
            .flat_map(|f| &f.extensions)
            .map(|e| {
                let path = e
                    .path
                    .iter()
                    .map(|s| (s.ident.to_string(), s.optional))
                    .collect();
                (e.name.clone(), path)
            })
            .collect();
        let expected: Vec<(String, Vec<(String, usize)>)> = vec![
            ("partitionkey".into(), vec![]),
            (
                "tenantid".into(),
                vec![("tenant".into(), 1), ("id".into(), 0)],
            ),
            (
                "zone".into(),
                vec![("site".into(), 0), ("r#type".into(), 0)],
            ),
            ("whole".into(), vec![]),
            ("region".into(), vec![]),
        ];
        assert_eq!(found, expected);
    }

    #[test]
    fn member_extensions_are_checked_like_the_others() {
        let twice_across_forms: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.example.order.created")]
            struct E {
                #[cloudevent(extension = "region")] a: String,
                #[cloudevent(extension(name = "region", member = "site.region"))] b: Site,
            }
        };
        let found = errors(&twice_across_forms, Profile::IntgStd015);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].contains("extension `region` is named twice"),
            "{found:#?}"
        );

        let twice_on_one_field: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.example.order.created")]
            struct E {
                #[cloudevent(extension(name = "tenantid", member = "a"), extension(name = "tenantid", member = "b"))]
                c: C,
            }
        };
        assert!(errors(&twice_on_one_field, Profile::IntgStd015)[0].contains("named twice"));

        let bad_name: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.example.order.created")]
            struct E { #[cloudevent(extension(name = "TenantId", member = "tenant"))] c: C }
        };
        let found = errors(&bad_name, Profile::IntgStd015);
        assert!(
            found.iter().any(|e| e.starts_with("extension `TenantId`")),
            "{found:#?}"
        );
        assert!(
            errors(&bad_name, Profile::CloudEvents)
                .iter()
                .any(|e| e.contains("TenantId"))
        );

        let bad_path: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.example.order.created")]
            struct E { #[cloudevent(extension(name = "tenantid", member = "context..tenant"))] c: C }
        };
        let found = errors(&bad_path, Profile::IntgStd015);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(found[0].contains("`` is not a field name"), "{found:#?}");
        assert!(
            found[0].contains("member = \"context?.tenant\""),
            "{found:#?}"
        );

        let dash: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.example.order.created")]
            struct E { #[cloudevent(extension(name = "tenantid", member = "tenant-id"))] c: C }
        };
        assert!(errors(&dash, Profile::IntgStd015)[0].contains("`tenant-id` is not a field name"));

        let no_name: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.example.order.created")]
            struct E { #[cloudevent(extension(member = "tenant"))] c: C }
        };
        let found = errors(&no_name, Profile::IntgStd015);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].contains("needs the extension's `name`"),
            "{found:#?}"
        );

        let typo: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.example.order.created")]
            struct E { #[cloudevent(extension(nmae = "tenantid", member = "tenant"), subject)] c: C }
        };
        let found = errors(&typo, Profile::IntgStd015);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(found[0].contains("did you mean `name`?"), "{found:#?}");
    }

    #[test]
    fn signed_extensions_are_checked_together() {
        let input: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com",
                sign(extensions = "region, id, region, dssematerial, priority"))]
            struct OrderCreated {
                #[cloudevent(extension)]
                region: String,
            }
        };
        let found = errors(&input, Profile::CloudEvents);
        assert_eq!(found.len(), 4, "{found:#?}");
        assert!(found[0].contains("`id`: signedextattrs names the core context attribute"));
        assert!(found[1].contains("`region`: signedextattrs names `region` twice"));
        assert!(found[2].contains("`dssematerial`"));
        assert!(
            found[3]
                .contains("`priority`: not an extension of this type (this type fills `region`)")
        );

        let bare: DeriveInput = parse_quote! {
            #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com", sign)]
            struct Ping;
        };
        assert!(errors(&bare, Profile::CloudEvents).is_empty());
    }
}
