//! Typed events of schema sets published by others re-emit their data as received
//! (issue 11, item 8). typify's types read every valid instance but write some back
//! differently; this pass over its output closes those gaps:
//!
//! - a member with a schema `default` (`#[serde(default = "defaults::x")]`) and an optional
//!   array or map (`#[serde(default, skip_serializing_if = "Vec::is_empty")]`) become
//!   `Option<T>` skipped when `None`: an absent member stays absent (no default
//!   materialised) and a present `[]` or `{}` is written back;
//! - an open object (no `additionalProperties: false`, so no `deny_unknown_fields`) keeps the
//!   members its schema does not name in `#[serde(flatten)] extra: serde_json::Map`, so
//!   CDEvents' `domainId` or a webhook's newer fields survive a round trip.
//!
//! `date-time` text is kept by `shapes.rs` (`Mode::KeepText`), before typify runs.

use quote::format_ident;
use syn::punctuated::Punctuated;

/// Applies the rewrites to every struct of a generated module.
pub(crate) fn keep_data_as_received(syntax: &mut syn::File) {
    for item in &mut syntax.items {
        // typify's default values are no longer filled in; the functions stay for reference.
        if let syn::Item::Mod(module) = item
            && module.ident == "defaults"
        {
            module.attrs.push(syn::parse_quote!(
                #[allow(dead_code, reason = "absent members stay absent: defaults are not materialised")]
            ));
        }
        let syn::Item::Struct(item) = item else {
            continue;
        };
        let syn::Fields::Named(fields) = &mut item.fields else {
            continue;
        };
        for field in &mut fields.named {
            keep_presence(field);
        }
        let closed = item
            .attrs
            .iter()
            .any(|a| serde_flag(a, "deny_unknown_fields"));
        let flattened = fields
            .named
            .iter()
            .any(|f| f.attrs.iter().any(|a| serde_flag(a, "flatten")));
        if closed || flattened {
            continue;
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
        fields.named.push(syn::parse_quote! {
            /// Members the schema does not name, kept so the data is written back as received.
            #[serde(flatten)]
            pub #ident: ::serde_json::Map<::std::string::String, ::serde_json::Value>
        });
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
