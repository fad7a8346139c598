//! The derive input as our own types: the container with its attributes, and the fields that
//! fill the envelope. Each keeps the `syn` node it came from.

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::ext::IdentExt;
use syn::{Attribute, DeriveInput, LitStr};

use crate::attr::{self, Extension};
use crate::ctxt::Ctxt;

/// A struct or enum deriving `CloudEvent`.
pub(crate) struct Container<'a> {
    pub(crate) original: &'a DeriveInput,
    pub(crate) attrs: attr::Container,
    pub(crate) data: Data<'a>,
}

/// What the derive reads from the body.
pub(crate) enum Data<'a> {
    /// A named, tuple or unit struct, with every field (marked or not).
    Struct(Vec<Field<'a>>),
    /// An enum: container attributes only, so no subject and no extensions.
    Enum,
}

/// A struct field.
pub(crate) struct Field<'a> {
    pub(crate) original: &'a syn::Field,
    /// `self.name` or `self.0`.
    pub(crate) member: syn::Member,
    /// The payload property the field serializes as (serde's `rename` / `rename_all`
    /// applied); `None` for tuple fields, which have no property name.
    pub(crate) property: Option<String>,
    /// The span of `subject` when the field is marked as the subject.
    pub(crate) subject: Option<Span>,
    /// `id` when the field (or a member of it) fills the id.
    pub(crate) id: Option<attr::Marker>,
    /// `time` when the field (or a member of it) fills the time.
    pub(crate) time: Option<attr::Marker>,
    /// `source` when the field (or a member of it) fills the source.
    pub(crate) source: Option<attr::Marker>,
    /// The extensions the field fills (`extension`, `extension = ".."`, and each
    /// `extension(name = "..", member = "..")`), in the order written.
    pub(crate) extensions: Vec<ExtensionName>,
}

/// An extension's name, where the user wrote it (the literal, or the field's name), and the
/// member of the field's value that fills it.
pub(crate) struct ExtensionName {
    pub(crate) name: String,
    pub(crate) span: Span,
    /// The members inside the field (`member = "context.tenant"`); empty for the field itself.
    pub(crate) path: Vec<attr::Step>,
}

impl<'a> Container<'a> {
    /// Reads the input; errors go to `ctxt`. `None` only for a union, which cannot derive.
    pub(crate) fn from_ast(ctxt: &Ctxt, input: &'a DeriveInput) -> Option<Self> {
        let attrs = attr::container(ctxt, &input.attrs);
        let data = match &input.data {
            syn::Data::Struct(data) => {
                let rename_all = serde_rename(&input.attrs, "rename_all");
                let fields = data
                    .fields
                    .iter()
                    .enumerate()
                    .map(|(index, field)| {
                        Field::from_ast(ctxt, index, field, rename_all.as_deref())
                    })
                    .collect();
                Data::Struct(fields)
            }
            syn::Data::Enum(data) => {
                for variant in &data.variants {
                    for attr in variant.attrs.iter().filter(|a| attr::is_cloudevent(a)) {
                        ctxt.error_spanned(
                            syn::spanned::Spanned::span(attr),
                            format_args!(
                                "`#[cloudevent(...)]` on enum variant `{}`: an enum takes container attributes only; put `type`, `dataschema`, `source` or `datacontenttype` on the enum itself",
                                variant.ident
                            ),
                        );
                    }
                    for field in &variant.fields {
                        for attr in field.attrs.iter().filter(|a| attr::is_cloudevent(a)) {
                            ctxt.error_spanned(
                                syn::spanned::Spanned::span(attr),
                                format_args!(
                                    "field attributes are not supported on enums (field of variant `{}`): an enum has no field common to every value to copy into `subject` or an extension; derive on a struct to use `subject` or `extension`",
                                    variant.ident
                                ),
                            );
                        }
                    }
                }
                Data::Enum
            }
            syn::Data::Union(data) => {
                ctxt.error_spanned(
                    data.union_token.span,
                    "`CloudEvent` cannot be derived for a union: derive it on a struct or an enum",
                );
                return None;
            }
        };
        Some(Container {
            original: input,
            attrs,
            data,
        })
    }

    /// The fields that fill the envelope (empty for enums and unit structs).
    pub(crate) fn fields(&self) -> &[Field<'a>] {
        match &self.data {
            Data::Struct(fields) => fields,
            Data::Enum => &[],
        }
    }
}

impl<'a> Field<'a> {
    fn from_ast(
        ctxt: &Ctxt,
        index: usize,
        field: &'a syn::Field,
        rename_all: Option<&str>,
    ) -> Self {
        let attrs = attr::field(ctxt, &field.attrs);
        let member = match &field.ident {
            Some(ident) => syn::Member::Named(ident.clone()),
            None => syn::Member::Unnamed(syn::Index {
                index: u32::try_from(index).unwrap_or(u32::MAX),
                span: Span::call_site(),
            }),
        };
        let property = field.ident.as_ref().map(|ident| {
            serde_rename(&field.attrs, "rename").unwrap_or_else(|| {
                let name = ident.unraw().to_string();
                rename_all.map_or_else(|| name.clone(), |rule| apply_rename_all(rule, &name))
            })
        });
        let extension = match attrs.extension {
            Some(Extension::Named(lit)) => Some(ExtensionName {
                name: lit.value(),
                span: lit.span(),
                path: Vec::new(),
            }),
            Some(Extension::FromField(key_span)) => match &field.ident {
                Some(ident) => Some(ExtensionName {
                    name: ident.unraw().to_string(),
                    span: ident.span(),
                    path: Vec::new(),
                }),
                None => {
                    ctxt.error_spanned(
                        key_span,
                        "a tuple field has no name to give its extension: write `#[cloudevent(extension = \"name\")]`",
                    );
                    None
                }
            },
            None => None,
        };
        let extensions = extension
            .into_iter()
            .chain(attrs.member_extensions.into_iter().map(|e| ExtensionName {
                name: e.name.value(),
                span: e.name.span(),
                path: e.path,
            }))
            .collect();
        Field {
            original: field,
            member,
            property,
            subject: attrs.subject,
            id: attrs.id,
            time: attrs.time,
            source: attrs.source,
            extensions,
        }
    }
}

/// The value of serde's `key = "..."` or `key(serialize = "...")` in `#[serde(...)]`, read
/// leniently: anything else in the attribute is serde's business, not ours.
fn serde_rename(attrs: &[Attribute], key: &str) -> Option<String> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("serde"))
        .filter_map(|a| match &a.meta {
            syn::Meta::List(list) => Some(list.tokens.clone()),
            _ => None,
        })
        .find_map(|tokens| find_string(tokens, key))
}

/// Finds `key = "value"` or `key(serialize = "value")` among comma-separated items.
fn find_string(tokens: TokenStream, key: &str) -> Option<String> {
    let mut item: Vec<TokenTree> = Vec::new();
    let mut items = Vec::new();
    for tree in tokens {
        if matches!(&tree, TokenTree::Punct(p) if p.as_char() == ',') {
            items.push(std::mem::take(&mut item));
        } else {
            item.push(tree);
        }
    }
    items.push(item);
    items.into_iter().find_map(|item| match item.as_slice() {
        [
            TokenTree::Ident(name),
            TokenTree::Punct(eq),
            TokenTree::Literal(lit),
        ] if name == key && eq.as_char() == '=' => {
            syn::parse2::<LitStr>(TokenTree::Literal(lit.clone()).into())
                .ok()
                .map(|lit| lit.value())
        }
        [TokenTree::Ident(name), TokenTree::Group(group)] if name == key => {
            find_string(group.stream(), "serialize")
        }
        _ => None,
    })
}

/// serde's `rename_all` rules applied to a snake_case field name, as serde applies them.
fn apply_rename_all(rule: &str, field: &str) -> String {
    let pascal = || {
        let mut pascal = String::with_capacity(field.len());
        let mut capitalize = true;
        for ch in field.chars() {
            if ch == '_' {
                capitalize = true;
            } else if capitalize {
                pascal.push(ch.to_ascii_uppercase());
                capitalize = false;
            } else {
                pascal.push(ch);
            }
        }
        pascal
    };
    match rule {
        "UPPERCASE" | "SCREAMING_SNAKE_CASE" => field.to_ascii_uppercase(),
        "PascalCase" => pascal(),
        "camelCase" => {
            let pascal = pascal();
            let mut chars = pascal.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_lowercase().to_string() + chars.as_str()
            })
        }
        "kebab-case" => field.replace('_', "-"),
        "SCREAMING-KEBAB-CASE" => field.to_ascii_uppercase().replace('_', "-"),
        // "lowercase", "snake_case", and anything serde itself will reject.
        _ => field.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn reads_serde_renames() {
        let attrs: Vec<Attribute> = vec![
            parse_quote!(#[serde(default, rename = "orderId")]),
            parse_quote!(#[doc = "x"]),
        ];
        assert_eq!(serde_rename(&attrs, "rename").as_deref(), Some("orderId"));
        let attrs: Vec<Attribute> =
            vec![parse_quote!(#[serde(rename(serialize = "a", deserialize = "b"))])];
        assert_eq!(serde_rename(&attrs, "rename").as_deref(), Some("a"));
        let attrs: Vec<Attribute> = vec![parse_quote!(#[serde(rename_all = "camelCase")])];
        assert_eq!(serde_rename(&attrs, "rename"), None);
    }

    #[test]
    fn applies_rename_all_like_serde() {
        assert_eq!(apply_rename_all("camelCase", "order_id"), "orderId");
        assert_eq!(apply_rename_all("PascalCase", "order_id"), "OrderId");
        assert_eq!(apply_rename_all("kebab-case", "order_id"), "order-id");
        assert_eq!(
            apply_rename_all("SCREAMING-KEBAB-CASE", "order_id"),
            "ORDER-ID"
        );
        assert_eq!(
            apply_rename_all("SCREAMING_SNAKE_CASE", "order_id"),
            "ORDER_ID"
        );
        assert_eq!(apply_rename_all("lowercase", "order_id"), "order_id");
    }
}
