//! The one documented way to build a generated payload: a builder per struct, set member by
//! member (issue 37, item 3). A struct literal stops compiling on every compatible schema
//! change that adds a member (E0063), and a constructor taking the required members on every
//! change that makes one optional; a builder keeps compiling on each change the gate calls
//! compatible (`docs/codegen-and-compatibility.md`, "Building a generated payload"):
//!
//! ```text
//! let cancelled = OrderCancelled::try_from(      // names a member missing or not converting
//!     OrderCancelled::builder()
//!         .order_id("ord-20240611-0043")
//!         .reason(OrderCancelledReason::PaymentFailed)
//!         .comment("customer called"),          // optional: the value itself, no `Some`
//! )?;
//! ```
//!
//! - `X::builder()` gives `builder::X` (typify's naming, as `with_struct_builder` would), whose
//!   setters are named as the fields and take anything that converts (`TryInto`) to the
//!   member's type, so text goes to a constrained string (`maxLength`, `pattern`) as to a
//!   `String`, and a bound added, moved or dropped changes nothing in the calling code;
//! - an optional member's setter takes the value, not an `Option`: a required member made
//!   optional keeps its setter's signature, a member added is simply not set;
//! - `X::try_from(builder)` checks that every required member was set and every value
//!   converted, naming the member otherwise.
//!
//! The builders are written from the final structs, after every other pass over typify's
//! output (`fidelity.rs`, `member_names.rs`), so they follow whatever those changed; typify's
//! own builder is not used because it is written before them and takes an optional member
//! only as an `Option`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::mapping::property_name;

/// Adds `X::builder()` and a `builder` module holding one builder per struct with named
/// fields to a generated module. A module with no such struct, or without typify's `error`
/// module (the builders' error type), is left as it is.
pub(crate) fn add_builders(syntax: &mut syn::File) {
    let has_error_module = syntax
        .items
        .iter()
        .any(|item| matches!(item, syn::Item::Mod(m) if m.ident == "error"));
    let taken = syntax
        .items
        .iter()
        .any(|item| matches!(item, syn::Item::Mod(m) if m.ident == "builder"));
    if !has_error_module || taken {
        return;
    }
    let structs: Vec<(syn::Ident, Vec<Member>)> = syntax
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(s) => match &s.fields {
                syn::Fields::Named(fields) if !fields.named.is_empty() => Some((
                    s.ident.clone(),
                    fields.named.iter().map(Member::of).collect(),
                )),
                _ => None,
            },
            _ => None,
        })
        .collect();
    if structs.is_empty() {
        return;
    }
    let mut builders = TokenStream::new();
    for (name, members) in &structs {
        let doc = format!(
            " Starts a [`builder::{name}`]: set each member by name, then `{name}::try_from(builder)`. Code that builds the payload this way keeps compiling when the schema changes compatibly (a member added, an enum value added, a bound relaxed, a required member made optional)."
        );
        syntax.items.push(syn::parse_quote! {
            impl #name {
                #[doc = #doc]
                pub fn builder() -> builder::#name {
                    ::std::default::Default::default()
                }
            }
        });
        builders.extend(builder(name, members));
    }
    let all = || structs.iter().flat_map(|(_, members)| members);
    let helpers = helpers(
        all().any(|m| m.optional),
        all().any(|m| !m.optional && m.default.is_none()),
        all().any(|m| !m.optional && m.default.is_some()),
    );
    syntax.items.push(syn::parse_quote! {
        /// Builders of this module's structs, one a struct, named as it: `X::builder()`, one
        /// setter a member, then `X::try_from(builder)`.
        pub mod builder {
            #helpers
            #builders
        }
    });
}

/// What the builder needs of one field.
struct Member {
    ident: syn::Ident,
    json: String,
    /// The type a setter converts to: the field's, or the `T` of an `Option<T>` field.
    value: syn::Type,
    optional: bool,
    /// What an unset member that is not optional gets, when the schema gives it a default.
    default: Option<TokenStream>,
}

impl Member {
    fn of(field: &syn::Field) -> Member {
        let ident = field
            .ident
            .clone()
            .unwrap_or_else(|| format_ident!("value"));
        let (value, optional) = match option_inner(&field.ty) {
            Some(inner) => (scoped(inner), true),
            None => (scoped(&field.ty), false),
        };
        Member {
            ident,
            json: property_name(field),
            value,
            optional,
            default: default_of(field),
        }
    }
}

fn builder(name: &syn::Ident, members: &[Member]) -> TokenStream {
    let fields = members.iter().map(|m| {
        let (ident, value) = (&m.ident, &m.value);
        quote!(#ident: __Slot<#value>)
    });
    // Kept to one line a member: a schema set's builders are compiled with its types (GitHub's
    // webhooks: 224 types), so each member costs as little code as it can.
    let setters = members.iter().map(|m| {
        let (ident, value, json) = (&m.ident, &m.value, &m.json);
        quote! {
            pub fn #ident(mut self, value: impl ::std::convert::TryInto<#value, Error: ::std::fmt::Display>) -> Self {
                self.#ident = __set(#json, value);
                self
            }
        }
    });
    let type_name = name.to_string();
    let build = members.iter().map(|m| {
        let (ident, json) = (&m.ident, &m.json);
        if m.optional {
            quote!(#ident: __optional(builder.#ident)?)
        } else if let Some(default) = &m.default {
            quote!(#ident: __or(builder.#ident, || #default)?)
        } else {
            quote!(#ident: __required(#type_name, #json, builder.#ident)?)
        }
    });
    let doc = format!(
        " Builds a [`super::{name}`] member by member: one setter a member (an optional one takes the value itself), then `{name}::try_from(builder)`, which names a required member left unset or a value that does not convert."
    );
    quote! {
        #[doc = #doc]
        #[derive(Clone, Debug, Default)]
        #[must_use]
        pub struct #name {
            #(#fields,)*
        }

        impl #name {
            #(#setters)*
        }

        impl ::std::convert::TryFrom<#name> for super::#name {
            type Error = super::error::ConversionError;

            fn try_from(builder: #name) -> ::std::result::Result<Self, super::error::ConversionError> {
                ::std::result::Result::Ok(Self {
                    #(#build,)*
                })
            }
        }
    }
}

/// What every builder of a module shares: a member's slot (unset, set, or a value that did
/// not convert, with why) and the conversions in and out of it; only those the module's
/// members use, so the generated code stays free of dead-code warnings.
fn helpers(optional: bool, required: bool, defaulted: bool) -> TokenStream {
    let optional = optional.then(|| {
        quote! {
            fn __optional<T>(slot: __Slot<T>) -> __Built<::std::option::Option<T>> {
                slot.transpose().map_err(::std::convert::Into::into)
            }
        }
    });
    let required = required.then(|| {
        quote! {
            fn __required<T>(type_name: &str, member: &str, slot: __Slot<T>) -> __Built<T> {
                match slot {
                    ::std::option::Option::Some(value) => value.map_err(::std::convert::Into::into),
                    ::std::option::Option::None => ::std::result::Result::Err(
                        ::std::format!("`{type_name}`: no value for the required member `{member}`").into(),
                    ),
                }
            }
        }
    });
    let defaulted = defaulted.then(|| {
        quote! {
            fn __or<T>(slot: __Slot<T>, default: impl ::std::ops::FnOnce() -> T) -> __Built<T> {
                slot.unwrap_or_else(|| ::std::result::Result::Ok(default()))
                    .map_err(::std::convert::Into::into)
            }
        }
    });
    quote! {
        type __Slot<T> = ::std::option::Option<::std::result::Result<T, ::std::string::String>>;
        type __Built<T> = ::std::result::Result<T, super::error::ConversionError>;

        fn __set<T, V>(member: &str, value: V) -> __Slot<T>
        where
            V: ::std::convert::TryInto<T, Error: ::std::fmt::Display>,
        {
            ::std::option::Option::Some(
                value.try_into().map_err(|e| ::std::format!("member `{member}`: {e}")),
            )
        }

        #optional
        #required
        #defaulted
    }
}

/// `T` of `Option<T>` (typify writes `::std::option::Option<T>`).
fn option_inner(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(args) if args.args.len() == 1 => match &args.args[0] {
            syn::GenericArgument::Type(inner) => Some(inner),
            _ => None,
        },
        _ => None,
    }
}

/// What an unset member gets when serde would fill it: `#[serde(default = "path")]` calls
/// the module's function, `#[serde(default)]` and a flattened map take `Default`.
fn default_of(field: &syn::Field) -> Option<TokenStream> {
    let mut out = None;
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|nested| {
            let key = nested.path.get_ident().map(ToString::to_string);
            if nested.input.peek(syn::Token![=]) {
                let value: syn::Expr = nested.value()?.parse()?;
                if key.as_deref() == Some("default")
                    && let syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(path),
                        ..
                    }) = value
                    && let Ok(path) = path.parse::<syn::Path>()
                {
                    out = Some(quote!(super::#path()));
                }
            } else if nested.input.peek(syn::token::Paren) {
                let _: TokenStream = nested.input.parse()?;
            } else if key.as_deref() == Some("default")
                || (key.as_deref() == Some("flatten") && is_map(&field.ty))
            {
                out = Some(quote!(::std::default::Default::default()));
            }
            Ok(())
        });
    }
    out
}

fn is_map(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Map" || s.ident == "HashMap" || s.ident == "BTreeMap"))
}

/// The type as written one module down (in `builder`): a path relative to the generated
/// module (`Money`, `self::error::X`, `super::shared::Money`) gets one more `super`; absolute
/// paths (`::std::string::String`) and `crate::` stay.
fn scoped(ty: &syn::Type) -> syn::Type {
    let mut ty = ty.clone();
    rescope(&mut ty);
    ty
}

/// The primitive types typify writes without a path (`bool`, `u64`, `f64`); no type it
/// names itself is spelled so (its names are in upper camel case).
const PRIMITIVES: &[&str] = &[
    "bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
    "i128", "isize", "f32", "f64",
];

fn rescope(ty: &mut syn::Type) {
    match ty {
        syn::Type::Path(path) => {
            if let Some(qself) = &mut path.qself {
                rescope(&mut qself.ty);
            }
            let path = &mut path.path;
            for segment in path.segments.iter_mut() {
                if let syn::PathArguments::AngleBracketed(args) = &mut segment.arguments {
                    for arg in args.args.iter_mut() {
                        if let syn::GenericArgument::Type(inner) = arg {
                            rescope(inner);
                        }
                    }
                }
            }
            if path.leading_colon.is_some() {
                return;
            }
            let first = path.segments.first().map(|s| s.ident.to_string());
            match first.as_deref() {
                Some("crate") | None => {}
                Some(primitive) if path.segments.len() == 1 && PRIMITIVES.contains(&primitive) => {}
                Some("self") => path.segments[0].ident = format_ident!("super"),
                _ => path.segments.insert(0, syn::parse_quote!(super)),
            }
        }
        syn::Type::Array(array) => rescope(&mut array.elem),
        syn::Type::Slice(slice) => rescope(&mut slice.elem),
        syn::Type::Reference(reference) => rescope(&mut reference.elem),
        syn::Type::Paren(paren) => rescope(&mut paren.elem),
        syn::Type::Group(group) => rescope(&mut group.elem),
        syn::Type::Tuple(tuple) => tuple.elems.iter_mut().for_each(rescope),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_are_written_one_module_down() {
        for (before, after) in [
            ("Money", "super :: Money"),
            ("::std::string::String", ":: std :: string :: String"),
            (
                "::std::vec::Vec<LineItem>",
                ":: std :: vec :: Vec < super :: LineItem >",
            ),
            ("super::shared::Money", "super :: super :: shared :: Money"),
            ("self::error::X", "super :: error :: X"),
            (
                "(A, ::std::string::String)",
                "(super :: A , :: std :: string :: String)",
            ),
            ("[Money; 2]", "[super :: Money ; 2]"),
            (
                "::std::option::Option<bool>",
                ":: std :: option :: Option < bool >",
            ),
        ] {
            let ty: syn::Type = syn::parse_str(before).unwrap();
            let scoped = scoped(&ty);
            assert_eq!(quote!(#scoped).to_string(), after, "{before}");
        }
    }

    #[test]
    fn every_struct_gets_a_builder_and_a_module_without_one_is_left_alone() {
        let mut file: syn::File = syn::parse_str(
            r#"
            pub struct Order {
                pub id: ::std::string::String,
                #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
                pub note: ::std::option::Option<Note>,
                #[serde(default = "defaults::order_count")]
                pub count: u64,
            }
            pub mod error { pub struct ConversionError; }
            "#,
        )
        .unwrap();
        add_builders(&mut file);
        let text = quote!(#file).to_string();
        assert!(
            text.contains("pub fn builder () -> builder :: Order"),
            "{text}"
        );
        assert!(
            text.contains("value : impl :: std :: convert :: TryInto < super :: Note , Error"),
            "{text}"
        );
        assert!(
            text.contains("super :: defaults :: order_count ()"),
            "{text}"
        );
        assert!(
            text.contains("id : __required (\"Order\" , \"id\" , builder . id) ?"),
            "{text}"
        );
        // Only the helpers the members use: no dead code in a module of optional members.
        let mut optional: syn::File = syn::parse_str(
            "pub struct A { pub a: ::std::option::Option<u8> } pub mod error { pub struct ConversionError; }",
        )
        .unwrap();
        add_builders(&mut optional);
        let text = quote!(#optional).to_string();
        assert!(
            text.contains("fn __optional")
                && !text.contains("fn __required")
                && !text.contains("fn __or"),
            "{text}"
        );
        let mut without_error: syn::File = syn::parse_str("pub struct A { pub a: u8 }").unwrap();
        add_builders(&mut without_error);
        assert_eq!(without_error.items.len(), 1);
    }
}
