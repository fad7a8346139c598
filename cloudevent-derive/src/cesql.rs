//! `cesql!`: a CloudEvents SQL v1 expression parsed and checked when the code compiles, by the
//! rules crate's parser and type checker, the ones `Expression::parse` runs at run time. With
//! an event type first (`cesql!(OrderCreated, "...")`) it also refuses an attribute the type
//! can never carry: not a core attribute, not a documented extension, not one of the type's
//! `#[cloudevent(extension)]`s (checked against `CloudEventData::EXTENSIONS` in a `const`).

use cloudevent_rules::cesql::{Expression, Schema, Span};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::{LitStr, Token};

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
    if plain {
        if let Some(inner) = token.subspan(span.start + 1..span.end.max(span.start + 1) + 1) {
            return inner;
        }
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
    let schema = Schema::core();
    let checks = ty.map(|ty| {
        let shown = quote!(#ty).to_string();
        let names = expression
            .attributes()
            .into_iter()
            .filter(|name| schema.kind(name).is_none());
        let each = names.map(|name| {
            let message = format!(
                "cesql!: `{shown}` never carries `{name}`, which the expression reads: not a core attribute, not a documented extension, not one of its #[cloudevent(extension)] fields (a MissingAttributeError on every event)"
            );
            quote_spanned! {literal.span()=>
                const _: () = if !::cloudevent_runtime::__private_v1::cesql_carries(
                    <#ty as ::cloudevent_runtime::__private_v1::CloudEventData>::EXTENSIONS,
                    #name,
                ) {
                    ::core::panic!(#message)
                };
            }
        });
        quote! { #(#each)* }
    });
    Ok(quote! {{
        #checks
        static __CESQL: ::std::sync::OnceLock<::cloudevent_runtime::filter::Expression> =
            ::std::sync::OnceLock::new();
        __CESQL.get_or_init(|| ::cloudevent_runtime::__private_v1::cesql_checked(#literal))
    }})
}
