//! Typed events of schema sets published by others re-emit their data as received
//! (issue 11, item 8). typify's types read every valid instance but write some back
//! differently; this pass over its output closes those gaps:
//!
//! - a member with a schema `default` (`#[serde(default = "defaults::x")]`) and an optional
//!   array or map (`#[serde(default, skip_serializing_if = "Vec::is_empty")]`) become
//!   `Option<T>` skipped when `None`: an absent member stays absent (no default
//!   materialised) and a present `[]` or `{}` is written back;
//! - an optional member whose schema admits `null` (marked by `shapes.rs` with
//!   [`NULL_KEPT`] in its description) becomes `Option<Option<T>>`: absent is `None`, a
//!   `null` received is `Some(None)`, and each is written back as it came;
//! - an open object (no `additionalProperties: false`, so no `deny_unknown_fields`) keeps the
//!   members its schema does not name in `#[serde(flatten)] extra: serde_json::Map`, so
//!   CDEvents' `domainId` or a webhook's newer fields survive a round trip.
//!
//! - a JSON `number` is a `serde_json::Number`, not an `f64`: `2` stays `2` (an `f64` writes
//!   `2.0`), and every digit received is written back;
//! - a JSON Schema `integer` is the runtime's `SchemaInteger`, not an `i64`/`u64`: an integer
//!   beyond 64 bits is read (JSON Schema sets no range), `2.0` is read (an integer from draft-06
//!   on) and written back as `2.0` (one narrowed by `format: int32` and the like stays an
//!   `i32`, which an extension pointer needs, and refuses `2.0`);
//! - an open `oneOf`/`anyOf` object branch (a struct variant) keeps the members its schema
//!   does not name, as an open struct does.
//!
//! `date`, `uuid` and IP address text is kept by `shapes.rs` (`Mode::KeepText`), before typify
//! runs; a `date-time` is the runtime's `Timestamp`, which keeps its text (`import.rs`).

use quote::format_ident;
use syn::punctuated::Punctuated;

use crate::shapes::NULL_KEPT;

/// Whether `item` is typify's `impl Default` built from the schema's `default` values.
fn fills_schema_defaults(item: &syn::Item) -> bool {
    let syn::Item::Impl(item) = item else {
        return false;
    };
    let is_default = item
        .trait_
        .as_ref()
        .and_then(|(path, _)| path.segments.last().map(|segment| &segment.ident))
        .is_some_and(|ident| ident == "Default");
    is_default && quote::quote!(#item).to_string().contains("defaults ::")
}

/// The module-local function that reads a present member into `Some(..)`, `null` included.
const PRESENT: &str = "__cloudevent_present";

/// The module-local function that reads a present optional member into `Some(value)`: a
/// `null` is refused unless the member's own type reads it (serde's `Option` would read it as
/// absent, and the data would be written back without the member).
const PRESENT_VALUE: &str = "__cloudevent_present_value";

/// Applies the rewrites to every struct of a generated module; `runtime` is the path of
/// `cloudevent_runtime` in the generated code.
pub(crate) fn keep_data_as_received(syntax: &mut syn::File, runtime: &syn::Path) {
    numbers_as_received(syntax, runtime);
    // typify's `Default` for a struct whose members all have schema defaults fills them in;
    // those members are `Option`s now (absent stays absent), so that impl no longer fits.
    syntax.items.retain(|item| !fills_schema_defaults(item));
    let mut needs_present = false;
    let mut needs_present_value = false;
    for item in &mut syntax.items {
        // typify's default values are no longer filled in; the functions stay for reference.
        if let syn::Item::Mod(module) = item
            && module.ident == "defaults"
        {
            module.attrs.push(syn::parse_quote!(
                #[allow(dead_code, reason = "absent members stay absent: defaults are not materialised")]
            ));
        }
        if let syn::Item::Enum(item) = item {
            // The struct variants of an enum (`oneOf` of objects): their members keep presence
            // and `null` as a struct's do, and an open one keeps the members it does not name.
            let closed = item
                .attrs
                .iter()
                .any(|a| serde_flag(a, "deny_unknown_fields"));
            for variant in &mut item.variants {
                if let syn::Fields::Named(fields) = &mut variant.fields {
                    for field in &mut fields.named {
                        keep_presence(field);
                        needs_present |= keep_null(field);
                        needs_present_value |= refuse_null(field);
                    }
                    if !closed {
                        keep_unknown_members(fields, false);
                    }
                }
            }
            continue;
        }
        let syn::Item::Struct(item) = item else {
            continue;
        };
        let syn::Fields::Named(fields) = &mut item.fields else {
            continue;
        };
        for field in &mut fields.named {
            keep_presence(field);
            needs_present |= keep_null(field);
            needs_present_value |= refuse_null(field);
        }
        let closed = item
            .attrs
            .iter()
            .any(|a| serde_flag(a, "deny_unknown_fields"));
        if !closed {
            keep_unknown_members(fields, true);
        }
    }
    if needs_present_value {
        let name = format_ident!("{}", PRESENT_VALUE);
        syntax.items.push(syn::parse_quote! {
            /// A member that is present: `Some(value)`; `null` is read as `T` reads it.
            fn #name<'de, D, T>(
                deserializer: D,
            ) -> ::std::result::Result<::std::option::Option<T>, D::Error>
            where
                D: ::serde::Deserializer<'de>,
                T: ::serde::Deserialize<'de>,
            {
                <T as ::serde::Deserialize>::deserialize(deserializer).map(::std::option::Option::Some)
            }
        });
    }
    if needs_present {
        let name = format_ident!("{}", PRESENT);
        syntax.items.push(syn::parse_quote! {
            /// A member that is present: `Some(value)`, or `Some(None)` for `null`.
            fn #name<'de, D, T>(
                deserializer: D,
            ) -> ::std::result::Result<::std::option::Option<::std::option::Option<T>>, D::Error>
            where
                D: ::serde::Deserializer<'de>,
                T: ::serde::Deserialize<'de>,
            {
                <::std::option::Option<T> as ::serde::Deserialize>::deserialize(deserializer)
                    .map(::std::option::Option::Some)
            }
        });
    }
}

/// An optional member (`Option<T>`, absent is `None`) whose schema does not admit `null`
/// (those are `Option<Option<T>>`, [`keep_null`]): read through the module's present-value
/// function, so a `null` received is refused as `T` refuses it instead of being read as absent.
/// Returns whether it changed.
fn refuse_null(field: &mut syn::Field) -> bool {
    if !is_option(&field.ty) {
        return false;
    }
    let Some(index) = field.attrs.iter().position(|a| a.path().is_ident("serde")) else {
        return false;
    };
    let Ok(mut items) = field.attrs[index]
        .parse_args_with(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
    else {
        return false;
    };
    let (mut defaulted, mut optional) = (false, false);
    for item in &items {
        match item {
            syn::Meta::Path(p) if p.is_ident("default") => defaulted = true,
            syn::Meta::NameValue(nv) if nv.path.is_ident("skip_serializing_if") => optional = true,
            syn::Meta::NameValue(nv) if nv.path.is_ident("rename") => {}
            // `deserialize_with`, `with`, `flatten`: read some other way already.
            _ => return false,
        }
    }
    // A required member that may be `null` (no `skip_serializing_if`) reads it as `None`.
    if !optional {
        return false;
    }
    if !defaulted {
        items.push(syn::parse_quote!(default));
    }
    items.push(syn::parse_quote!(deserialize_with = #PRESENT_VALUE));
    field.attrs[index] = syn::parse_quote!(#[serde(#items)]);
    true
}

/// Adds a flattened map of the members the schema does not name to an open object's fields
/// (a struct's are `pub`, a variant's cannot be), unless one is flattened already.
fn keep_unknown_members(fields: &mut syn::FieldsNamed, public: bool) {
    let flattened = fields
        .named
        .iter()
        .any(|f| f.attrs.iter().any(|a| serde_flag(a, "flatten")));
    if flattened {
        return;
    }
    let taken = |name: &str| {
        fields
            .named
            .iter()
            .any(|f| f.ident.as_ref().is_some_and(|i| i == name))
    };
    let name = ["extra", "extra_members", "additional_members"]
        .into_iter()
        .find(|n| !taken(n))
        .unwrap_or("__extra");
    let ident = format_ident!("{}", name);
    let visibility: syn::Visibility = if public {
        syn::parse_quote!(pub)
    } else {
        syn::Visibility::Inherited
    };
    fields.named.push(syn::parse_quote! {
        /// Members the schema does not name, kept so the data is written back as received.
        #[serde(flatten)]
        #visibility #ident: ::serde_json::Map<::std::string::String, ::serde_json::Value>
    });
}

/// An optional member marked [`NULL_KEPT`]: `Option<T>` becomes `Option<Option<T>>`, read
/// through the module's present-member function. Returns whether it changed.
fn keep_null(field: &mut syn::Field) -> bool {
    let documented = field.attrs.iter().any(|a| {
        a.path().is_ident("doc")
            && matches!(&a.meta, syn::Meta::NameValue(nv)
                if matches!(&nv.value, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. })
                    if s.value().contains(NULL_KEPT)))
    });
    if !documented || !is_option(&field.ty) {
        return false;
    }
    let mut rename = None;
    let mut index = None;
    for (at, attr) in field.attrs.iter().enumerate() {
        if !attr.path().is_ident("serde") {
            continue;
        }
        let Ok(items) =
            attr.parse_args_with(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
        else {
            return false;
        };
        for item in &items {
            match item {
                syn::Meta::NameValue(nv) if nv.path.is_ident("rename") => {
                    rename = Some(nv.value.clone());
                }
                syn::Meta::Path(p) if p.is_ident("default") => {}
                syn::Meta::NameValue(nv) if nv.path.is_ident("skip_serializing_if") => {}
                _ => return false,
            }
        }
        index = Some(at);
    }
    let ty = &field.ty;
    field.ty = syn::parse_quote!(::std::option::Option<#ty>);
    let attr: syn::Attribute = match rename {
        Some(rename) => syn::parse_quote!(
            #[serde(rename = #rename, default, skip_serializing_if = "::std::option::Option::is_none", deserialize_with = #PRESENT)]
        ),
        None => syn::parse_quote!(
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none", deserialize_with = #PRESENT)]
        ),
    };
    match index {
        Some(at) => field.attrs[at] = attr,
        None => field.attrs.push(attr),
    }
    true
}

/// typify's types for an integer the schema does not narrow (`i64`; `u64` for `minimum: 0`,
/// `NonZeroU64` for `minimum: 1`): each becomes the runtime's `SchemaInteger`. The narrower ones
/// (`format: int32`, `int16`, ..., which an extension pointer needs: a CloudEvents Integer is 32
/// bits) stay, and refuse `2.0`.
const INTEGERS: [&str; 4] = ["i64", "i128", "u64", "u128"];

/// Every `f64` (typify's type for `number`) becomes `serde_json::Number`, which keeps an
/// integer an integer, and every integer type the runtime's `SchemaInteger`, which keeps
/// `2.0` and reads any integer; `Copy` and `Ord` are dropped from the derives of the types
/// that now hold one. Nested modules (typify's `defaults`, whose functions are no longer
/// called, and `error`) stay as they are.
fn numbers_as_received(syntax: &mut syn::File, runtime: &syn::Path) {
    fn replace(tokens: proc_macro2::TokenStream, runtime: &syn::Path) -> proc_macro2::TokenStream {
        tokens
            .into_iter()
            .flat_map(|tree| -> Vec<proc_macro2::TokenTree> {
                match tree {
                    proc_macro2::TokenTree::Ident(ident) if ident == "f64" => {
                        quote::quote!(::serde_json::Number).into_iter().collect()
                    }
                    proc_macro2::TokenTree::Ident(ident) if INTEGERS.iter().any(|i| ident == i) => {
                        quote::quote!(#runtime::SchemaInteger).into_iter().collect()
                    }
                    proc_macro2::TokenTree::Group(group) => {
                        let mut replaced = proc_macro2::Group::new(
                            group.delimiter(),
                            replace(group.stream(), runtime),
                        );
                        replaced.set_span(group.span());
                        vec![proc_macro2::TokenTree::Group(replaced)]
                    }
                    other => vec![other],
                }
            })
            .collect()
    }
    for item in &mut syntax.items {
        if matches!(item, syn::Item::Mod(_)) {
            continue;
        }
        let mut text = quote::quote!(#item).to_string();
        if !text.contains("f64")
            && !text.contains("NonZero")
            && !INTEGERS.iter().any(|i| {
                text.split(|c: char| !c.is_alphanumeric() && c != '_')
                    .any(|w| w == *i)
            })
        {
            continue;
        }
        // `::std::num::NonZeroU64`: `minimum: 1`, or `exclusiveMinimum: 0`.
        for width in ["64", "128"] {
            for sign in ["U", "I"] {
                text = text
                    .replace(&format!(":: std :: num :: NonZero{sign}{width}"), "i64")
                    .replace(&format!("std :: num :: NonZero{sign}{width}"), "i64")
                    .replace(&format!("NonZero{sign}{width}"), "i64");
            }
        }
        let Ok(tokens) = text.parse::<proc_macro2::TokenStream>() else {
            continue;
        };
        let Ok(replaced) = syn::parse2::<syn::Item>(replace(tokens, runtime)) else {
            continue;
        };
        *item = replaced;
    }
    for item in &mut syntax.items {
        let (attrs, holds_number) = match item {
            syn::Item::Struct(s) => {
                let fields = &s.fields;
                let text = quote::quote!(#fields).to_string();
                (
                    &mut s.attrs,
                    text.contains("Number") || text.contains("SchemaInteger"),
                )
            }
            syn::Item::Enum(e) => {
                let variants = &e.variants;
                let text = quote::quote!(#variants).to_string();
                (
                    &mut e.attrs,
                    text.contains("Number") || text.contains("SchemaInteger"),
                )
            }
            _ => continue,
        };
        if !holds_number {
            continue;
        }
        for attr in attrs.iter_mut().filter(|a| a.path().is_ident("derive")) {
            if let Ok(paths) =
                attr.parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
            {
                let kept: Vec<&syn::Path> = paths
                    .iter()
                    .filter(|p| {
                        p.segments.last().is_none_or(|s| {
                            !["Copy", "Ord", "PartialOrd"].contains(&s.ident.to_string().as_str())
                        })
                    })
                    .collect();
                *attr = syn::parse_quote!(#[derive(#(#kept),*)]);
            }
        }
    }
}

/// A member that typify fills or skips by a default becomes an `Option` skipped when
/// `None`, so presence is kept both ways.
fn keep_presence(field: &mut syn::Field) {
    let mut defaulted = false;
    let mut rename = None;
    let mut serde_index = None;
    for (index, attr) in field.attrs.iter().enumerate() {
        if !attr.path().is_ident("serde") {
            continue;
        }
        let Ok(items) =
            attr.parse_args_with(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
        else {
            return;
        };
        for item in &items {
            match item {
                syn::Meta::Path(path) if path.is_ident("default") => defaulted = true,
                syn::Meta::NameValue(nv) if nv.path.is_ident("default") => defaulted = true,
                syn::Meta::NameValue(nv) if nv.path.is_ident("rename") => {
                    rename = Some(nv.value.clone());
                }
                syn::Meta::NameValue(nv) if nv.path.is_ident("skip_serializing_if") => {}
                // Something else (`with`, `flatten`): leave the field as typify made it.
                _ => return,
            }
        }
        serde_index = Some(index);
    }
    let Some(index) = serde_index else {
        return;
    };
    if !defaulted || is_option(&field.ty) {
        return;
    }
    let ty = &field.ty;
    field.ty = syn::parse_quote!(::std::option::Option<#ty>);
    field.attrs[index] = match rename {
        Some(rename) => syn::parse_quote!(
            #[serde(rename = #rename, default, skip_serializing_if = "::std::option::Option::is_none")]
        ),
        None => syn::parse_quote!(
            #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
        ),
    };
}

fn is_option(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Option"))
}

/// Whether `#[serde(...)]` holds the bare word `flag`.
fn serde_flag(attr: &syn::Attribute, flag: &str) -> bool {
    attr.path().is_ident("serde")
        && attr
            .parse_args_with(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
            .is_ok_and(|items| {
                items
                    .iter()
                    .any(|m| matches!(m, syn::Meta::Path(p) if p.is_ident(flag)))
            })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(source: &str) -> String {
        let mut syntax: syn::File = syn::parse_str(source).unwrap();
        keep_data_as_received(&mut syntax, &syn::parse_quote!(::cloudevent_runtime));
        quote::quote!(#syntax).to_string().replace(' ', "")
    }

    #[test]
    fn defaults_and_empty_collections_become_options() {
        let out = rewritten(
            r#"#[serde(deny_unknown_fields)]
            pub struct Pr {
                #[serde(default = "defaults::pr_draft")] pub draft: bool,
                #[serde(default, skip_serializing_if = "::std::vec::Vec::is_empty")] pub labels: Vec<String>,
                #[serde(rename = "x-y", default, skip_serializing_if = "::std::option::Option::is_none")] pub x_y: Option<String>,
                pub id: i64,
            }"#,
        );
        assert!(
            out.contains("pubdraft:::std::option::Option<bool>"),
            "{out}"
        );
        assert!(
            out.contains("publabels:::std::option::Option<Vec<String>>"),
            "{out}"
        );
        assert!(out.contains("pubx_y:Option<String>"), "{out}");
        assert!(
            out.contains("pubid:::cloudevent_runtime::SchemaInteger"),
            "{out}"
        );
        assert!(
            !out.contains("pubextra"),
            "a closed object gets no extra members: {out}"
        );
    }

    #[test]
    fn open_objects_keep_unknown_members_and_marked_nullables_keep_null() {
        let source = format!(
            r#"pub struct Pr {{
                #[doc = "{NULL_KEPT}"]
                #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
                pub milestone: Option<String>,
                pub extra: String,
            }}"#
        );
        let out = rewritten(&source);
        assert!(out.contains("#[serde(flatten)]pubextra_members"), "{out}");
        assert!(
            out.contains("pubmilestone:::std::option::Option<Option<String>>"),
            "{out}"
        );
        assert!(out.contains("fn__cloudevent_present"), "{out}");
    }

    #[test]
    fn an_optional_member_that_may_not_be_null_refuses_it() {
        let out = rewritten(
            r#"pub struct Order {
                #[serde(skip_serializing_if = "::std::option::Option::is_none")]
                pub channel: Option<Channel>,
                #[serde(rename = "n", default, skip_serializing_if = "::std::option::Option::is_none")]
                pub n_: Option<String>,
                pub required_nullable: Option<String>,
            }"#,
        );
        assert!(
            out.contains(r#"#[serde(skip_serializing_if="::std::option::Option::is_none",default,deserialize_with="__cloudevent_present_value")]pubchannel"#),
            "{out}"
        );
        assert!(
            out.contains(r#"#[serde(rename="n",default,skip_serializing_if="::std::option::Option::is_none",deserialize_with="__cloudevent_present_value")]pubn_"#),
            "{out}"
        );
        // A required member that may be `null` has no `skip_serializing_if`: left as it is.
        assert!(out.contains("pubrequired_nullable:Option<String>"), "{out}");
        assert!(out.contains("fn__cloudevent_present_value"), "{out}");
    }

    #[test]
    fn numbers_become_serde_json_numbers_and_lose_copy() {
        let out = rewritten(
            r#"#[derive(Clone, Copy, Debug)]
            pub struct Reading(pub f64);
            #[derive(Clone, Copy)]
            pub enum Unit { C, F }
            #[derive(Clone, Copy, Debug, Ord, PartialOrd)]
            pub struct Count(pub ::std::num::NonZeroU64, pub i32);"#,
        );
        assert!(
            out.contains("#[derive(Clone,Debug)]pubstructCount(pub::cloudevent_runtime::SchemaInteger,pubi32)"),
            "{out}"
        );
        assert!(
            out.contains("pubstructReading(pub::serde_json::Number)"),
            "{out}"
        );
        assert!(
            out.contains("#[derive(Clone,Debug)]pubstructReading"),
            "{out}"
        );
        assert!(out.contains("#[derive(Clone,Copy)]pubenumUnit"), "{out}");
    }
}
