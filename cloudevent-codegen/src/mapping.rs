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
//! which the derive reads through `TextField`; extensions likewise, at any depth
//! (`--extension tenantid=/context/tenant` → `#[cloudevent(extension(name = "tenantid",
//! member = "tenant"))]` on `context`, optional objects written `member?`), read through
//! `ExtensionField` with the member's own type. A `source` template's variables must be root
//! members.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::error::Finding;
use crate::naming::RustNames;
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
/// `context`; an optional object on the way is `member?`); and implements `TextField` for a generated newtype at the end of the path
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
            format!("point at a string or integer member of the payload or of its object members, e.g. `/context/{attribute}`"),
        )
    };
    if !pointer.starts_with('/') || segments.is_empty() {
        return Err(unsupported("must start with `/` and name a member"));
    }
    let (path, leaf) = member_path(syntax, &names.root, &segments, &unsupported)?;
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

/// Marks the root field a pointer starts at as filling extension `name`: the root member
/// itself (`/region` → `#[cloudevent(extension = "region")]`), or a member at any depth with
/// the Rust member path of the rest (`/context/tenant` →
/// `#[cloudevent(extension(name = "tenantid", member = "tenant"))]` on `context`). An
/// optional object on the way is written `member?` (a nullable one `member??`), so an absent
/// object leaves the extension out, as an absent leaf does.
///
/// The extension's CloudEvents type is the member's Rust type's: a string is a String, a
/// boolean a Boolean, an integer typed within 32 bits (`i8` ... `i32`, `u8`, `u16`: a schema
/// `format` `int32`, `int16`, `int8`, `uint16` or `uint8`) an Integer. There is no conversion to text (as
/// `--id-pointer` makes): an integer stays an Integer, and one typed wider (`i64`, typify's
/// type for an unbounded `integer`) is a finding, not a truncation. A `date-time` (the
/// runtime's `Timestamp`: the text received, checked) is a Timestamp
/// extension, the type the registry's snapshot declares for it. A generated newtype around a string
/// (typify's type for a string with `minLength`) gets `ExtensionField`, once per type.
pub(crate) fn extension_from_pointer(
    syntax: &mut syn::File,
    file: &SchemaFile,
    names: &RustNames,
    (name, pointer): (&str, &str),
    runtime: &syn::Path,
    implemented: &mut std::collections::BTreeSet<String>,
) -> Result<(), Finding> {
    let segments = segments(pointer);
    let unsupported = |why: &str| {
        Finding::new(
            &file.path,
            "",
            format!("extension `{name}` pointer `{pointer}`: {why}"),
        )
        .with_fix("point at a string, boolean or 32-bit integer member of the payload, at any depth through object members, e.g. `/region` or `/context/tenant`")
    };
    if !pointer.starts_with('/') || segments.is_empty() {
        return Err(unsupported("must start with `/` and name a member"));
    }
    let (path, leaf) = member_path(syntax, &names.root, &segments, &unsupported)?;
    let leaf = leaf.ok_or_else(|| unsupported("the member's type is not a plain type"))?;
    let newtype = match leaf.as_str() {
        "String" | "str" | "bool" | "i8" | "i16" | "i32" | "u8" | "u16" | "Timestamp" => false,
        "SchemaInteger" | "i64" | "u32" | "u64" | "i128" | "u128" | "isize" | "usize" => {
            return Err(unsupported(&format!(
                "the member is an integer typed `{leaf}`, wider than the CloudEvents Integer (32 bits, CE 1.0.2 type system); codegen does not narrow it. Give the schema member `\"format\": \"int32\"` (or `int16`, `int8`, `uint16`, `uint8`; typify then types it within 32 bits), or point at a string member"
            )));
        }
        _ if newtype_of_string(syntax, &leaf) => true,
        _ => {
            return Err(unsupported(&format!(
                "the member is typed `{leaf}`, which the CloudEvents type system cannot carry as an extension (a string, a boolean or a 32-bit integer can)"
            )));
        }
    };
    let field =
        field_of(syntax, &names.root, &segments[0]).ok_or_else(|| unsupported("no root member"))?;
    if path.is_empty() {
        field
            .attrs
            .push(syn::parse_quote!(#[cloudevent(extension = #name)]));
    } else {
        let member = path.join(".");
        field
            .attrs
            .push(syn::parse_quote!(#[cloudevent(extension(name = #name, member = #member))]));
    }
    if newtype && implemented.insert(leaf.clone()) {
        let ident = format_ident!("{}", leaf);
        let tokens = quote! {
            #[automatically_derived]
            impl #runtime::ExtensionField for #ident {
                fn extension_value(&self) -> ::core::option::Option<#runtime::ExtensionValue<'_>> {
                    #runtime::ExtensionField::extension_value(&self.0)
                }
            }
            #[automatically_derived]
            impl #runtime::extension::StringExtensionField for #ident {}
            #[automatically_derived]
            impl #runtime::extension::UriReferenceExtensionField for #ident {}
        };
        let impls: syn::File = syn::parse2(tokens).map_err(|e| unsupported(&e.to_string()))?;
        syntax.items.extend(impls.items);
    }
    Ok(())
}

/// Walks a pointer's segments from the payload's root type through the generated structs:
/// the Rust member path below the root field (`site?.zone`: an optional object on the way is
/// marked `?` per `Option`, so the derive looks inside it and an absent object gives what an
/// absent leaf gives; the root field's and the leaf's own `Option`s are the derive's to see
/// in their types) and the leaf's type name, when it is a plain type.
fn member_path(
    syntax: &mut syn::File,
    root: &str,
    segments: &[String],
    unsupported: &dyn Fn(&str) -> Finding,
) -> Result<(Vec<String>, Option<String>), Finding> {
    let mut owner = root.to_owned();
    let mut path = Vec::new();
    for (depth, segment) in segments.iter().enumerate() {
        let field = field_of(syntax, &owner, segment)
            .ok_or_else(|| unsupported(&format!("`{owner}` has no member `{segment}`")))?;
        let (ty, options) = unwrap_options(&field.ty);
        let last = depth + 1 == segments.len();
        if depth > 0 {
            let ident = field
                .ident
                .as_ref()
                .map(ToString::to_string)
                .ok_or_else(|| unsupported("no named member"))?;
            let marks = if last { 0 } else { options };
            path.push(format!("{ident}{}", "?".repeat(marks)));
        }
        if last {
            return Ok((path, ty));
        }
        match ty {
            Some(ty) if is_struct(syntax, &ty) => owner = ty,
            _ => {
                return Err(unsupported(&format!(
                    "member `{segment}` is not an object with named members"
                )));
            }
        }
    }
    Ok((path, None))
}

/// The last segment of a path type inside its `Option`s, and how many `Option`s there are.
fn unwrap_options(ty: &syn::Type) -> (Option<String>, usize) {
    let syn::Type::Path(path) = ty else {
        return (None, 0);
    };
    let Some(last) = path.path.segments.last() else {
        return (None, 0);
    };
    if last.ident == "Option"
        && let syn::PathArguments::AngleBracketed(args) = &last.arguments
        && let Some(syn::GenericArgument::Type(inner)) = args.args.first()
    {
        let (name, options) = unwrap_options(inner);
        return (name, options + 1);
    }
    (Some(last.ident.to_string()), 0)
}

/// Whether `name` is a struct with named fields in the generated code.
fn is_struct(syntax: &syn::File, name: &str) -> bool {
    syntax.items.iter().any(|item| {
        matches!(item, syn::Item::Struct(s) if s.ident == name
            && matches!(&s.fields, syn::Fields::Named(_)))
    })
}

/// Whether `name` is a generated newtype around a `String`.
fn newtype_of_string(syntax: &syn::File, name: &str) -> bool {
    syntax.items.iter().any(|item| match item {
        syn::Item::Struct(s) if s.ident == name => match &s.fields {
            syn::Fields::Unnamed(f) if f.unnamed.len() == 1 => {
                unwrap_options(&f.unnamed[0].ty) == (Some("String".to_owned()), 0)
            }
            _ => false,
        },
        _ => false,
    })
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

/// The JSON property a generated field holds: its `#[serde(rename = "...")]`, else its name.
pub(crate) fn property_name(field: &syn::Field) -> String {
    for attr in &field.attrs {
        if !attr.path().is_ident("serde") {
            continue;
        }
        let mut renamed = None;
        let _ = attr.parse_nested_meta(|nested| {
            if nested.path.is_ident("rename") {
                let literal: syn::LitStr = nested.value()?.parse()?;
                renamed = Some(literal.value());
            } else if nested.input.peek(syn::Token![=]) {
                let _: syn::Expr = nested.value()?.parse()?;
            } else if nested.input.peek(syn::token::Paren) {
                let _: TokenStream = nested.input.parse()?;
            }
            Ok(())
        });
        if let Some(name) = renamed {
            return name;
        }
    }
    field
        .ident
        .as_ref()
        .map(|i| i.to_string().trim_start_matches("r#").to_owned())
        .unwrap_or_default()
}
