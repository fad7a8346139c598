//! The rules, applied to what was parsed. Every naming and format rule is a call into
//! `cloudevent-rules`; this file only decides which value goes to which rule, where the error
//! points, and the rules that span several attributes (subject twice, duplicate extension
//! names, a missing `type`).
//!
//! Only MUST violations (errors) fail the build. SHOULD violations are not reported here:
//! stable Rust gives a derive no way to emit a warning that the user could silence for one
//! type; the runtime's profile validation reports them.

use std::collections::HashMap;

use cloudevent_rules::{Policy, Violation};
use proc_macro2::Span;

use crate::ast::Container;
use crate::attr::key;
use crate::ctxt::Ctxt;

/// Checks the container against the policy. `policy` is `None` when the Cargo.toml policy
/// could not be read: that error is reported already, and checking names against a profile
/// the user did not choose would only add noise.
pub(crate) fn check(ctxt: &Ctxt, cont: &Container<'_>, policy: Option<&Policy>) {
    check_type_present(ctxt, cont);
    check_subject_once(ctxt, cont);
    check_extension_names_unique(ctxt, cont);
    if let Some(policy) = policy {
        check_values(ctxt, cont, policy);
    }
}

fn check_type_present(ctxt: &Ctxt, cont: &Container<'_>) {
    if cont.attrs.type_.is_none() {
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

fn check_extension_names_unique(ctxt: &Ctxt, cont: &Container<'_>) {
    let mut seen: HashMap<&str, &syn::Member> = HashMap::new();
    for field in cont.fields() {
        let Some(extension) = &field.extension else {
            continue;
        };
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

fn check_values(ctxt: &Ctxt, cont: &Container<'_>, policy: &Policy) {
    let attrs = &cont.attrs;
    let profile = policy.profile();
    if let Some(lit) = &attrs.type_ {
        report(
            ctxt,
            lit.span(),
            cloudevent_rules::check_type(&lit.value(), policy),
        );
    }
    if let Some(lit) = &attrs.dataschema {
        let schema = lit.value();
        let mut found = cloudevent_rules::check_dataschema(&schema, profile);
        if let Some(type_) = &attrs.type_ {
            found.extend(cloudevent_rules::check_type_schema_agreement(
                &type_.value(),
                &schema,
            ));
        }
        report(ctxt, lit.span(), found);
    }
    if let Some(lit) = &attrs.source {
        report(
            ctxt,
            lit.span(),
            cloudevent_rules::check_source(&lit.value(), profile),
        );
    }
    if let Some(lit) = &attrs.datacontenttype {
        report(
            ctxt,
            lit.span(),
            cloudevent_rules::check_media_type(&lit.value()),
        );
    }
    for extension in cont.fields().iter().filter_map(|f| f.extension.as_ref()) {
        report(
            ctxt,
            extension.span,
            cloudevent_rules::check_extension_name(&extension.name, profile),
        );
    }
}

/// One compile error per MUST violation, at the user's token.
fn report(ctxt: &Ctxt, span: Span, violations: Vec<Violation>) {
    for violation in violations.into_iter().filter(Violation::is_error) {
        ctxt.error_spanned(span, violation);
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
