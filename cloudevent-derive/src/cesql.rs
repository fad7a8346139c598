//! `cesql!`: a CloudEvents SQL v1 expression parsed and checked when the code compiles, by the
//! rules crate's parser and type checker, the ones `Expression::parse` runs at run time. With
//! an event type first (`cesql!(OrderCreated, "...")`) it also refuses an attribute the type
//! can never carry: not a core attribute, not a documented extension, not one of the type's
//! `#[cloudevent(extension)]`s (checked against `CloudEventData::EXTENSIONS` in a `const`),
//! and a comparison the type the extension is declared with can never satisfy (checked
//! against `CloudEventData::EXTENSION_KINDS`, see [`typed_checks`]).

use cloudevent_rules::AttributeKind;
use cloudevent_rules::cesql::{Expression, Schema, Span};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token};

struct Input {
    ty: Option<syn::Type>,
    source: LitStr,
}

impl Parse for Input {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.peek(LitStr) {
            let source = input.parse()?;
            return Ok(Input { ty: None, source });
        }
        let ty = input.parse()?;
        input.parse::<Token![,]>()?;
        let source = input.parse()?;
        Ok(Input {
            ty: Some(ty),
            source,
        })
    }
}

/// The span of `span` inside the literal where the compiler can point there (a plain literal
/// without escapes, on a compiler that supports sub-spans), else the literal's.
fn span_in(literal: &LitStr, span: Span) -> proc_macro2::Span {
    let token = literal.token();
    let text = token.to_string();
    let plain = text.starts_with('"') && !text.contains('\\');
    if plain && let Some(inner) = token.subspan(span.start + 1..span.end.max(span.start + 1) + 1) {
        return inner;
    }
    literal.span()
}

/// The message with the expression and carets under the offending token.
fn pointed(source: &str, span: Span, message: &str) -> String {
    let before = source.get(..span.start).unwrap_or("").chars().count();
    let width = source
        .get(span.start..span.end)
        .map_or(1, |t| t.chars().count().max(1));
    format!(
        "{message}\n  {source}\n  {}{}",
        " ".repeat(before),
        "^".repeat(width)
    )
}

pub(crate) fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let Input {
        ty,
        source: literal,
    } = syn::parse2(input)?;
    let source = literal.value();
    let expression = Expression::parse(&source).map_err(|error| {
        syn::Error::new(
            span_in(&literal, error.span),
            pointed(&source, error.span, &error.to_string()),
        )
    })?;
    let mut errors: Option<syn::Error> = None;
    for finding in expression.check(&Schema::core()) {
        let error = syn::Error::new(
            span_in(&literal, finding.span),
            pointed(&source, finding.span, &finding.to_string()),
        );
        match &mut errors {
            Some(all) => all.combine(error),
            None => errors = Some(error),
        }
    }
    if let Some(errors) = errors {
        return Err(errors);
    }
    let checks = ty.map(|ty| typed_checks(&ty, &expression, &literal));
    Ok(quote! {{
        #checks
        static __CESQL: ::std::sync::OnceLock<::cloudevent_runtime::filter::Expression> =
            ::std::sync::OnceLock::new();
        __CESQL.get_or_init(|| ::cloudevent_runtime::__private_v1::cesql_checked(#literal))
    }})
}

/// The kinds an extension can be declared with (CE 1.0.2 type system).
const KINDS: [AttributeKind; 7] = [
    AttributeKind::Boolean,
    AttributeKind::Integer,
    AttributeKind::String,
    AttributeKind::Binary,
    AttributeKind::Uri,
    AttributeKind::UriReference,
    AttributeKind::Timestamp,
];

/// `cesql!(T, ..)`: for each attribute the expression reads that is neither core nor
/// documented, a `const` that fails to compile when `T` never carries it, or when the
/// checker finds a comparison `T`'s declared type for it can never satisfy. The proc macro
/// cannot see `T`'s derive, so it runs the rules crate's checker here once per possible type
/// (`Schema::core().with(name, kind)`: a finding reads one attribute's type), and the `const`
/// picks the verdict of the type `T` declares (`CloudEventData::EXTENSION_KINDS`).
fn typed_checks(ty: &syn::Type, expression: &Expression, literal: &LitStr) -> TokenStream {
    let source = literal.value();
    let schema = Schema::core();
    let shown = quote!(#ty).to_string();
    let mut names = expression.attributes();
    names.retain(|name| schema.kind(name).is_none());
    let each = names.into_iter().map(|name| {
        let never = format!(
            "cesql!: `{shown}` never carries `{name}`, which the expression reads: not a core attribute, not a documented extension, not one of its #[cloudevent(extension)] fields (a MissingAttributeError on every event)"
        );
        let arms = KINDS.into_iter().filter_map(|kind| {
            let findings = expression.check(&Schema::core().with(name, kind));
            let span = span_in(literal, findings.first()?.span);
            let message = findings
                .iter()
                .map(|f| pointed(&source, f.span, &f.to_string()))
                .collect::<Vec<_>>()
                .join("\n");
            let variant = Ident::new(&format!("{kind:?}"), proc_macro2::Span::call_site());
            Some(quote_spanned! {span=>
                ::core::option::Option::Some(::core::option::Option::Some(
                    ::cloudevent_runtime::__private_v1::AttributeKind::#variant,
                )) => ::core::panic!("{}", #message),
            })
        });
        let arms: Vec<TokenStream> = arms.collect();
        quote_spanned! {literal.span()=>
            const _: () = match ::cloudevent_runtime::__private_v1::cesql_extension(
                <#ty as ::cloudevent_runtime::__private_v1::CloudEventData>::EXTENSIONS,
                <#ty as ::cloudevent_runtime::__private_v1::CloudEventData>::EXTENSION_KINDS,
                #name,
            ) {
                ::core::option::Option::None => ::core::panic!("{}", #never),
                #(#arms)*
                _ => {}
            };
        }
    });
    quote! { #(#each)* }
}
