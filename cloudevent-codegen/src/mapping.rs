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
