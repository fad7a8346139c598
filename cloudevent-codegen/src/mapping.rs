//! Attributes filled from the payload at a JSON pointer, for schema sets whose binding says
//! where an attribute comes from (the CDEvents CloudEvents binding: `subject` is the
//! payload's `subject.id`).
//!
//! The derive fills `subject` from a root field marked `#[cloudevent(subject)]` whose type is
//! a [`SubjectField`](cloudevent_runtime::extension::SubjectField). For a pointer one level
//! deep (`/id`) the root field is marked; for two levels (`/subject/id`) the root field
//! `subject` is marked and its generated type implements `SubjectField` by reading its `id`
//! member. A generated newtype around a string (typify's type for a string with `minLength`)
//! implements it too.
//!
//! `id`, `time` and `source` (`--id-pointer /context/id` ...) mark the root field the pointer
//! starts at with the Rust member path of the rest (`#[cloudevent(id = "id")]` on `context`),
//! which the derive reads through `TextField`; extensions take a root member
//! (`--extension region=/region`). A `source` template's variables must be root members.

use quote::{format_ident, quote};

use crate::error::Finding;
use crate::import::{RustNames, property_name};
use crate::registry::SchemaFile;

/// Marks the field the subject pointer names, and implements `SubjectField` where needed.
pub(crate) fn subject_from_pointer(
    syntax: &mut syn::File,
    file: &SchemaFile,
    names: &RustNames,
    pointer: &str,
    runtime: &syn::Path,
) -> Result<(), Finding> {
    let segments: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect();
    let unsupported = |why: &str| {
        Finding::new(&file.path, "", format!("subject pointer `{pointer}`: {why}")).with_fix(
            "point at a string member of the payload or of one of its object members, e.g. `/subject/id`",
        )
    };
    if !pointer.starts_with('/') || segments.is_empty() || segments.len() > 2 {
        return Err(unsupported(
            "only `/member` and `/member/member` are supported",
        ));
    }
    let (root_field_type, root_optional) = {
        let field = field_of(syntax, &names.root, &segments[0]).ok_or_else(|| {
            unsupported(&format!("`{}` has no member `{}`", names.root, segments[0]))
        })?;
        field.attrs.push(syn::parse_quote!(#[cloudevent(subject)]));
        type_name(&field.ty)
    };
    let mut impls = Vec::new();
    if segments.len() == 1 {
        if let (Some(name), false) = (&root_field_type, root_optional)
            && is_newtype(syntax, name)
        {
            impls.push(newtype_impl(name, runtime));
        }
    } else {
        let Some(outer) = root_field_type.filter(|_| !root_optional) else {
            return Err(unsupported(&format!(
                "member `{}` must be a required object",
                segments[0]
            )));
        };
        {
            let field = field_of(syntax, &outer, &segments[1]).ok_or_else(|| {
                unsupported(&format!("`{outer}` has no member `{}`", segments[1]))
            })?;
            let member = field
                .ident
                .clone()
                .ok_or_else(|| unsupported("no named member"))?;
            let (_, optional) = type_name(&field.ty);
            let outer_ident = format_ident!("{}", outer);
            let body = if optional {
                quote! {
                    match &self.#member {
                        ::core::option::Option::Some(__value) => {
                            let __subject: &str = __value;
                            ::core::option::Option::Some(__subject)
                        }
                        ::core::option::Option::None => ::core::option::Option::None,
                    }
                }
            } else {
                quote! {
                    let __subject: &str = &self.#member;
                    ::core::option::Option::Some(__subject)
                }
            };
            impls.push(quote! {
                #[automatically_derived]
                impl #runtime::extension::SubjectField for #outer_ident {
                    fn subject(&self) -> ::core::option::Option<&str> { #body }
                }
            });
        }
    }
    for tokens in impls {
        syntax
            .items
            .push(syn::parse2(tokens).map_err(|e| unsupported(&e.to_string()))?);
    }
    Ok(())
}

/// The named field of struct `owner` that serializes as `property`.
fn field_of<'a>(
    syntax: &'a mut syn::File,
    owner: &str,
    property: &str,
) -> Option<&'a mut syn::Field> {
    syntax.items.iter_mut().find_map(|item| match item {
        syn::Item::Struct(s) if s.ident == owner => match &mut s.fields {
            syn::Fields::Named(fields) => fields
                .named
                .iter_mut()
                .find(|f| property_name(f) == property),
            _ => None,
        },
        _ => None,
    })
}

/// The last segment of a path type, and whether it was wrapped in `Option`.
fn type_name(ty: &syn::Type) -> (Option<String>, bool) {
    let syn::Type::Path(path) = ty else {
        return (None, false);
    };
    let Some(last) = path.path.segments.last() else {
        return (None, false);
    };
    if last.ident == "Option"
        && let syn::PathArguments::AngleBracketed(args) = &last.arguments
        && let Some(syn::GenericArgument::Type(inner)) = args.args.first()
    {
        return (type_name(inner).0, true);
    }
    (Some(last.ident.to_string()), false)
}

fn is_newtype(syntax: &syn::File, name: &str) -> bool {
    syntax.items.iter().any(|item| {
        matches!(item, syn::Item::Struct(s) if s.ident == name
            && matches!(&s.fields, syn::Fields::Unnamed(f) if f.unnamed.len() == 1))
    })
}

fn newtype_impl(name: &str, runtime: &syn::Path) -> proc_macro2::TokenStream {
    let ident = format_ident!("{}", name);
    quote! {
        #[automatically_derived]
        impl #runtime::extension::SubjectField for #ident {
            fn subject(&self) -> ::core::option::Option<&str> {
                let __subject: &str = &self.0;
                ::core::option::Option::Some(__subject)
            }
        }
    }
}

/// Marks the root field a pointer starts at as filling `attribute` (`id`, `time`, `source`),
/// with the Rust member path of the rest (`/context/id` → `#[cloudevent(id = "id")]` on
/// `context`); and implements `TextField` for a generated newtype at the end of the path
/// (typify's type for a string with `minLength`), once per type.
pub(crate) fn attribute_from_pointer(
    syntax: &mut syn::File,
    file: &SchemaFile,
    names: &RustNames,
    attribute: &str,
    pointer: &str,
    runtime: &syn::Path,
    implemented: &mut std::collections::BTreeSet<String>,
) -> Result<(), Finding> {
    let segments = segments(pointer);
    let unsupported = |why: &str| {
        Finding::new(&file.path, "", format!("{attribute} pointer `{pointer}`: {why}")).with_fix(
            format!("point at a string or integer member of the payload or of its required object members, e.g. `/context/{attribute}`"),
        )
    };
    if !pointer.starts_with('/') || segments.is_empty() {
        return Err(unsupported("must start with `/` and name a member"));
    }
    let mut owner = names.root.clone();
    let mut path = Vec::new();
    let mut leaf = None;
    for (depth, segment) in segments.iter().enumerate() {
        let field = field_of(syntax, &owner, segment)
            .ok_or_else(|| unsupported(&format!("`{owner}` has no member `{segment}`")))?;
        let (ty, optional) = type_name(&field.ty);
        if depth > 0 {
            path.push(
                field
                    .ident
                    .as_ref()
                    .map(|i| i.to_string())
                    .ok_or_else(|| unsupported("no named member"))?,
            );
        }
        if depth + 1 < segments.len() {
            match ty {
                Some(ty) if !optional => owner = ty,
                _ => {
                    return Err(unsupported(&format!(
                        "member `{segment}` must be a required object"
                    )));
                }
            }
        } else {
            leaf = ty;
        }
    }
    if let Some(leaf) = &leaf
        && ["DateTime", "NaiveDate", "Uuid"].contains(&leaf.as_str())
    {
        return Err(unsupported(&format!(
            "the member is typed `{leaf}` in this layout, which would rewrite the text received; only schema sets read with `--type-pointer` or `--xregistry` keep it as text"
        )));
    }
    let key = format_ident!("{}", attribute);
    let field =
        field_of(syntax, &names.root, &segments[0]).ok_or_else(|| unsupported("no root member"))?;
    if path.is_empty() {
        field.attrs.push(syn::parse_quote!(#[cloudevent(#key)]));
    } else {
        let path = path.join(".");
        field
            .attrs
            .push(syn::parse_quote!(#[cloudevent(#key = #path)]));
    }
    if let Some(leaf) = leaf
        && is_newtype(syntax, &leaf)
        && implemented.insert(leaf.clone())
    {
        let ident = format_ident!("{}", leaf);
        let tokens = quote! {
            #[automatically_derived]
            impl #runtime::extension::TextField for #ident {
                fn text(&self) -> ::core::option::Option<::std::borrow::Cow<'_, str>> {
                    #runtime::extension::TextField::text(&self.0)
                }
            }
        };
        syntax
            .items
            .push(syn::parse2(tokens).map_err(|e| unsupported(&e.to_string()))?);
    }
    Ok(())
}

/// Marks the root member a one-level pointer names as filling extension `name`.
pub(crate) fn extension_from_pointer(
    syntax: &mut syn::File,
    file: &SchemaFile,
    names: &RustNames,
    name: &str,
    pointer: &str,
) -> Result<(), Finding> {
    let segments = segments(pointer);
    let unsupported = |why: &str| {
        Finding::new(
            &file.path,
            "",
            format!("extension `{name}` pointer `{pointer}`: {why}"),
        )
        .with_fix("point at a member of the payload's root object, e.g. `/region`")
    };
    if !pointer.starts_with('/') || segments.len() != 1 {
        return Err(unsupported(
            "only a root member (`/member`) can fill an extension",
        ));
    }
    let field = field_of(syntax, &names.root, &segments[0])
        .ok_or_else(|| unsupported(&format!("`{}` has no member `{}`", names.root, segments[0])))?;
    field
        .attrs
        .push(syn::parse_quote!(#[cloudevent(extension = #name)]));
    Ok(())
}

/// The unescaped segments of a JSON pointer (RFC 6901).
fn segments(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// The root members a `source` template's variables name that the root type does not have
/// (empty: the template can be filled from the payload). A template that does not parse is
/// the rules crate's violation.
pub(crate) fn template_gaps(
    syntax: &mut syn::File,
    names: &RustNames,
    template: &str,
) -> Result<Vec<String>, Box<cloudevent_rules::Violation>> {
    let parts = cloudevent_rules::parse_source_template(template)?;
    Ok(parts
        .into_iter()
        .filter_map(|part| match part {
            cloudevent_rules::TemplatePart::Variable(name) => field_of(syntax, &names.root, name)
                .is_none()
                .then(|| name.to_owned()),
            cloudevent_rules::TemplatePart::Literal(_) => None,
        })
        .collect())
}
