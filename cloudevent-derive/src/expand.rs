//! Code generation: the `CloudEventData` impl.
//!
//! The shape, for `#[cloudevent(type = "com.example.order.created")] struct OrderCreated`:
//!
//! ```text
//! const _: () = {
//!     use ::cloudevent_runtime::__private_v1 as __ce;    // the only path that `crate = ".."` swaps
//!     #[automatically_derived]
//!     impl __ce::CloudEventData for OrderCreated {
//!         const TYPE: &'static str = "com.example.order.created";
//!         const __DECLARED: __ce::Declared = {     // every other constant defaults from it
//!             static __CONFIRMED: __ce::Confirmation = __ce::Confirmation::new();
//!             __ce::Declared {
//!                 confirmation: __ce::Some(&__CONFIRMED), // PRECHECKED: the constants, as checked
//!                 source: __ce::Some("https://orders.example.com"), // what differs from the default
//!                 ..__ce::Declared::NOTHING
//!             }
//!         };
//!         fn subject(&self) -> Option<&str> { __ce::subject(&self.order_id) }
//!         fn visit_extensions(..) { if let Some(__value) = __ce::extension(&self.region) { .. } }
//!     }
//! };
//! ```
//!
//! Every path is absolute or goes through the alias, so a user's `Result`, `Option`, `Ok` or
//! `Some` cannot change its meaning. The calls of the runtime's bound helpers (`__ce::subject`,
//! `__ce::extension`, ...) carry the field type's span: when the type is outside the
//! CloudEvents type system, the compiler points at the field. The helpers live in the
//! runtime, not in each expansion: a derive of 100 types compiled 100 copies of them (issue
//! 40, `cargo xtask compile-cost`).
//!
//! Generated code reaches the runtime's hidden module `__private_v1` and nothing else of it.
//! The suffix is bumped on any breaking change to what generated code reaches (a name
//! removed or renamed, a signature or trait changed). That is safe because the runtime pins
//! this crate's exact version (`=x.y.z`): a runtime and a derive built for different
//! versions of the module never meet, and a stale path fails to compile instead of meaning
//! something else.

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{DeriveInput, LitStr};

use cloudevent_rules::AttributeKind;

use crate::ast::{Container, Field};
use crate::attr::{Step, Text};
use crate::ctxt::Ctxt;
use crate::{check, fallback, policy};

/// The `application/json` default of `datacontenttype`.
const DEFAULT_DATACONTENTTYPE: &str = "application/json";

/// Parses, checks and expands one derive. On errors the output is every error plus a stub
/// impl (see `fallback.rs`); `Err` is never returned for rule violations.
pub(crate) fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let ctxt = Ctxt::new();
    let policy = match policy::current() {
        Ok(policy) => Some(policy),
        Err(message) => {
            for line in message.lines() {
                ctxt.error_spanned(Span::call_site(), line);
            }
            None
        }
    };
    let cont = Container::from_ast(&ctxt, input);
    // A type that names its own profile is checked (and read at run time) under that profile
    // alone: the crate's organisation rules (`type-prefix`) are not its rules.
    let policy = match (policy, cont.as_ref().and_then(|c| c.attrs.profile)) {
        (Some(crate_policy), Some(profile)) => Some(policy::CratePolicy {
            policy: cloudevent_rules::Policy::new(profile),
            manifest: crate_policy.manifest,
        }),
        (policy, _) => policy,
    };
    if let Some(cont) = &cont {
        check::check(&ctxt, cont, policy.as_ref().map(|p| &p.policy));
    }
    let runtime = cont
        .as_ref()
        .and_then(|c| c.attrs.krate.clone())
        .unwrap_or_else(default_runtime);
    let warnings = ctxt.take_warnings();
    match (ctxt.finish(), cont) {
        (Ok(()), Some(cont)) => {
            let profile = policy
                .as_ref()
                .map(|p| p.policy.profile())
                .unwrap_or_default();
            let manifest = policy.and_then(|p| p.manifest);
            let mut out = impl_cloud_event_data(&cont, &runtime, profile, manifest.as_deref());
            // Lint levels the user set on the type (`#[allow(deprecated)]`) apply to the
            // warnings generated for it too.
            let lints: Vec<&syn::Attribute> = input
                .attrs
                .iter()
                .filter(|a| {
                    ["allow", "warn", "deny", "forbid"]
                        .iter()
                        .any(|l| a.path().is_ident(l))
                })
                .collect();
            for (index, (span, message)) in warnings.iter().enumerate() {
                out.extend(warning(*span, message, index, &lints));
            }
            Ok(out)
        }
        (Err(errors), _) => {
            let mut out = errors.into_compile_error();
            out.extend(fallback::stub(input, &runtime));
            Ok(out)
        }
        (Ok(()), None) => Ok(fallback::stub(input, &runtime)),
    }
}

/// A broken SHOULD as a compiler warning at `span`. Stable Rust gives a derive no warning API,
/// so the message rides on a `#[deprecated]` constant used once: the compiler prints
/// ``warning: use of deprecated constant `...`: <message>`` at the user's token, and
/// `#[allow(deprecated)]` on the type silences it.
fn warning(span: Span, message: &str, index: usize, lints: &[&syn::Attribute]) -> TokenStream {
    let name = quote::format_ident!("__cloudevent_should_{}", index, span = span);
    let note = format!("{message} (a SHOULD under this crate's profile: a warning, not an error)");
    quote_spanned! {span=>
        #(#lints)*
        const _: () = {
            #[deprecated(note = #note)]
            #[allow(non_upper_case_globals)]
            const #name: () = ();
            #name
        };
    }
}

/// `::cloudevent_runtime`, unless `#[cloudevent(crate = "...")]` says otherwise.
pub(crate) fn default_runtime() -> syn::Path {
    // Built, not parsed: `parse_quote!` ran `syn`'s path parser for every derived type.
    syn::Path {
        leading_colon: Some(syn::Token![::](Span::call_site())),
        segments: std::iter::once(syn::PathSegment::from(Ident::new(
            "cloudevent_runtime",
            Span::call_site(),
        )))
        .collect(),
    }
}

/// The trait bound a marked field's type must meet, and the helper that checks it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Bound {
    Subject,
    Text,
    Extension,
    StringExtension,
    UriReferenceExtension,
}

impl Bound {
    /// Documented extensions keep their documented type (`partitionkey` is a String,
    /// `dataref` a URI-reference); any other extension takes the whole type system.
    fn for_extension(name: &str) -> Self {
        match cloudevent_rules::documented_extension(name).map(|d| d.kind) {
            Some(AttributeKind::String) => Bound::StringExtension,
            Some(AttributeKind::UriReference) => Bound::UriReferenceExtension,
            _ => Bound::Extension,
        }
    }

    fn trait_name(self) -> Ident {
        let name = match self {
            Bound::Subject => "SubjectField",
            Bound::Text => "TextField",
            Bound::Extension => "ExtensionField",
            Bound::StringExtension => "StringExtensionField",
            Bound::UriReferenceExtension => "UriReferenceExtensionField",
        };
        Ident::new(name, Span::call_site())
    }

    /// The runtime's helper (`__ce::subject`, ...) that demands the bound where it is called,
    /// named with the span of the call so the compiler points at the field alone.
    fn helper_name(self, span: Span) -> Ident {
        let name = match self {
            Bound::Subject => "subject",
            Bound::Text => "text",
            Bound::Extension => "extension",
            Bound::StringExtension => "string_extension",
            Bound::UriReferenceExtension => "uri_reference_extension",
        };
        Ident::new(name, span)
    }
}

/// A field that fills the envelope, with the bound its type must meet.
struct Marked<'f, 'a> {
    field: &'f Field<'a>,
    bound: Bound,
    /// The extension name; `None` for the subject.
    extension: Option<&'f str>,
    /// The members inside the field that hold the value (`id = "context.id"`); empty for
    /// the field itself.
    path: &'f [Step],
}

fn impl_cloud_event_data(
    cont: &Container<'_>,
    runtime: &syn::Path,
    profile: cloudevent_rules::Profile,
    manifest: Option<&std::path::Path>,
) -> TokenStream {
    let input = cont.original;
    let ident = &input.ident;

    let subject = cont
        .fields()
        .iter()
        .find(|f| f.subject.is_some())
        .map(|field| Marked {
            field,
            bound: Bound::Subject,
            extension: None,
            path: &[],
        });
    type MarkerOf = for<'x> fn(&'x Field<'_>) -> Option<&'x crate::attr::Marker>;
    let text_field = |mark: MarkerOf| {
        cont.fields().iter().find_map(|field| {
            mark(field).map(|marker| Marked {
                field,
                bound: Bound::Text,
                extension: None,
                path: &marker.path,
            })
        })
    };
    let id = text_field(|f| f.id.as_ref());
    let time = text_field(|f| f.time.as_ref());
    let source_field = text_field(|f| f.source.as_ref());
    let template = template_parts(cont);
    let template_fields: Vec<Marked<'_, '_>> = template
        .iter()
        .filter_map(|part| match part {
            TemplatePiece::Variable(field) => Some(Marked {
                field,
                bound: Bound::Text,
                extension: None,
                path: &[],
            }),
            TemplatePiece::Literal(_) => None,
        })
        .collect();
    let extensions: Vec<Marked<'_, '_>> = cont
        .fields()
        .iter()
        .flat_map(|field| {
            field.extensions.iter().map(move |e| Marked {
                field,
                bound: Bound::for_extension(&e.name),
                extension: Some(e.name.as_str()),
                path: &e.path,
            })
        })
        .collect();

    let mut generics = input.generics.clone();
    let type_params: Vec<Ident> = input
        .generics
        .type_params()
        .map(|p| p.ident.clone())
        .collect();
    let text_marked: Vec<&Marked<'_, '_>> = id
        .iter()
        .chain(&time)
        .chain(&source_field)
        .chain(&template_fields)
        .collect();
    for marked in subject
        .iter()
        .chain(&extensions)
        .chain(text_marked.iter().copied())
    {
        let ty = &marked.field.original.ty;
        // A member inside the field has a type the derive cannot see; its bound is checked
        // where it is used.
        if marked.path.is_empty() && mentions_any(ty.to_token_stream(), &type_params) {
            let bound = marked.bound.trait_name();
            generics
                .make_where_clause()
                .predicates
                .push(syn::parse_quote_spanned! {ty.span()=>
                    #ty: __ce::#bound
                });
        }
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();

    let extension_kinds: Vec<TokenStream> = extensions.iter().map(extension_kind).collect();

    // The data schema's checks beyond the type, compiled once per type on first use.
    let check_data = cont.attrs.check_schema.as_ref().map(|schema| {
        quote! {
            #[inline]
            fn check_data(&self) -> __ce::Option<__ce::Violation> {
                static __SCHEMA: __ce::SchemaCheck =
                    __ce::SchemaCheck::new(#schema);
                __SCHEMA.check(<Self as __ce::CloudEventData>::TYPE, self)
            }
        }
    });
    // `Event::new` compiles only for a type that always has a source (`HasSource`): the
    // same condition the runtime reads from `SOURCE` and `SOURCE_PROPERTY`.
    let has_source = (cont.attrs.source.is_some()
        || cont.attrs.source_template.is_some()
        || source_field.as_ref().and_then(property_path).is_some())
    .then(|| {
        quote! {
            #[automatically_derived]
            impl #impl_generics __ce::HasSource for #ident #ty_generics #where_clause {}
        }
    });
    let text_body = |m: &Option<Marked<'_, '_>>| match m {
        Some(marked) => call_helper(marked),
        None => quote!(__ce::None),
    };
    let id_body = text_body(&id);
    let time_body = text_body(&time);
    let source_body = if template.is_empty() {
        text_body(&source_field)
    } else {
        template_body(&template)
    };
    let subject_body = match &subject {
        Some(marked) => call_helper(marked),
        None => quote!(__ce::None),
    };
    let visits = extensions.iter().map(|marked| {
        let name = lit(marked.extension.unwrap_or_default());
        let value = call_helper(marked);
        quote! {
            if let __ce::Some(__value) = #value {
                __ce::ExtensionVisitor::visit(__visitor, #name, __value)?;
            }
        }
    });
    let visit_extensions = (!extensions.is_empty()).then(|| {
        quote! {
            fn visit_extensions<__V: __ce::ExtensionVisitor>(
                &self,
                __visitor: &mut __V,
            ) -> __ce::Result<(), __V::Error> {
                #(#visits)*
                __ce::Ok(())
            }
        }
    });
    let kind_fallback = (!extension_kinds.is_empty()).then(|| {
        quote! {
            #[allow(unused_imports, reason = "the probe's fallback, named by path only")]
            use __ce::KindFallback as _;
        }
    });
    let extension_kinds = (!extension_kinds.is_empty()).then(|| {
        quote! {
            const EXTENSION_KINDS: &'static [(
                &'static str,
                __ce::Option<__ce::AttributeKind>,
            )] = &[#(#extension_kinds),*];
        }
    });
    let payload_id = id.is_some().then(|| {
        quote! {
            #[inline]
            fn payload_id(&self) -> __ce::Option<__ce::Cow<'_, str>> {
                #id_body
            }
        }
    });
    let payload_time = time.is_some().then(|| {
        quote! {
            #[inline]
            fn payload_time(&self) -> __ce::Option<__ce::Cow<'_, str>> {
                #time_body
            }
        }
    });
    let payload_source = (source_field.is_some() || !template.is_empty()).then(|| {
        quote! {
            #[inline]
            fn payload_source(&self) -> __ce::Option<__ce::Cow<'_, str>> {
                #source_body
            }
        }
    });

    let constants = constants(
        cont,
        profile,
        &Filled {
            subject: subject.as_ref(),
            extensions: &extensions,
            id: id.as_ref(),
            time: time.as_ref(),
            source: source_field.as_ref(),
        },
    );
    // Makes the compiler track the Cargo.toml whose policy was applied, so editing
    // `[package.metadata.cloudevent]` rebuilds the crate (one derive per crate emits it:
    // `policy::current`).
    let track_manifest = manifest.and_then(|m| m.to_str()).map(|path| {
        quote!(
            const _: &[u8] = ::core::include_bytes!(#path);
        )
    });

    quote! {
        const _: () = {
            use #runtime::__private_v1 as __ce;
            #track_manifest
            #kind_fallback

            #[automatically_derived]
            impl #impl_generics __ce::CloudEventData for #ident #ty_generics #where_clause {
                #constants
                #extension_kinds
                #check_data

                #payload_id
                #payload_time
                #payload_source

                #[inline]
                fn subject(&self) -> __ce::Option<&str> {
                    #subject_body
                }

                #visit_extensions
            }

            #has_source
        };
    }
}

/// The fields that fill attributes, as `constants` reads them.
struct Filled<'m, 'f, 'a> {
    subject: Option<&'m Marked<'f, 'a>>,
    extensions: &'m [Marked<'f, 'a>],
    id: Option<&'m Marked<'f, 'a>>,
    time: Option<&'m Marked<'f, 'a>>,
    source: Option<&'m Marked<'f, 'a>>,
}

/// The impl's constants: `TYPE`, the other declared attributes, the properties that fill
/// attributes, `PROFILE` and `PRECHECKED`. Written as text and handed to the compiler's
/// lexer in one call: they carry no span of the user's (unlike the field accessors), and
/// building them token by token was most of the derive's own run (issue 40,
/// `xtask compile-cost`). Every value is a string literal written by `{:?}`, which escapes
/// it as Rust reads it back. Items whose value is the trait's default (`None`, `&[]`,
/// `false`, `application/json`, INTG-STD-015) are left out.
fn constants<'a>(
    cont: &'a Container<'_>,
    profile: cloudevent_rules::Profile,
    filled: &Filled<'_, '_, '_>,
) -> TokenStream {
    use std::fmt::Write as _;
    let attrs = &cont.attrs;
    let value = |lit: &'a Option<Text>| lit.as_ref().map(Text::as_str);
    let mut out = String::with_capacity(512);
    let _ = write!(
        out,
        "const TYPE: &'static str = {:?};",
        value(&attrs.type_).unwrap_or_default()
    );
    // Every other constant the trait's defaults read from one, `__DECLARED` (one item costs
    // the compiler less than one each; `Declared`), only what differs from the default
    // written. The claim is the constants; the rules confirm it on first use, one `static`
    // per type keeping their verdict (`CheckedByDerive`).
    out.push_str(
        "const __DECLARED: __ce::Declared = { \
         static __CONFIRMED: __ce::Confirmation = __ce::Confirmation::new(); \
         __ce::Declared { confirmation: __ce::Some(&__CONFIRMED), ",
    );
    let mut optional = |name: &str, value: Option<&str>| {
        if let Some(value) = value {
            let _ = write!(out, "{name}: __ce::Some({value:?}), ");
        }
    };
    optional("dataschema", value(&attrs.dataschema));
    optional("source", value(&attrs.source));
    optional(
        "subject_property",
        filled.subject.and_then(|m| m.field.property.as_deref()),
    );
    optional("id_property", filled.id.and_then(property_path).as_deref());
    optional(
        "time_property",
        filled.time.and_then(property_path).as_deref(),
    );
    optional(
        "source_property",
        match &attrs.source_template {
            Some(template) => Some(template.value()),
            None => filled.source.and_then(property_path),
        }
        .as_deref(),
    );
    if let Some(declared) = value(&attrs.datacontenttype).filter(|d| *d != DEFAULT_DATACONTENTTYPE)
    {
        let _ = write!(out, "datacontenttype: {declared:?}, ");
    }
    let names: Vec<&str> = filled
        .extensions
        .iter()
        .filter_map(|m| m.extension)
        .collect();
    if !names.is_empty() {
        let _ = write!(out, "extensions: &{names:?}, ");
    }
    let properties: Vec<(&str, String)> = filled
        .extensions
        .iter()
        .filter_map(|m| Some((m.extension?, property_path(m)?)))
        .collect();
    if !properties.is_empty() {
        let _ = write!(out, "extension_properties: &{properties:?}, ");
    }
    // The trait's default profile is INTG-STD-015: named only when it is another.
    let profile = match profile {
        cloudevent_rules::Profile::CloudEvents => Some("CloudEvents"),
        cloudevent_rules::Profile::IntgStd015 => None,
        cloudevent_rules::Profile::NlGov => Some("NlGov"),
    };
    if let Some(name) = profile {
        let _ = write!(out, "profile: __ce::Profile::{name}, ");
    }
    if attrs.literal_headers.is_some() {
        out.push_str("literal_headers: true, ");
    }
    // `sign(extensions = "..")`: the names as listed; `check.rs` refused a list the rules
    // refuse, so only a list the signer accepts is emitted.
    if let Some(sign) = &attrs.sign {
        let written = sign
            .extensions
            .as_ref()
            .map(LitStr::value)
            .unwrap_or_default();
        let names = crate::check::signed_extension_names(&written);
        let _ = write!(out, "signed_extensions: __ce::Some(&{names:?}), ");
    }
    out.push_str("..__ce::Declared::NOTHING } };");
    parse_text(&out)
}

/// Fixed Rust text as tokens, lexed by the compiler itself. `proc_macro2`'s own `parse`
/// first re-lexes the text with its fallback lexer, which cost more than building the tokens
/// one by one; inside a macro the text goes to the compiler's lexer directly. The text is
/// fixed pieces and `{:?}`-escaped strings (valid Rust by construction), and an `Err` is
/// still turned into a `compile_error!` rather than unwrapped.
fn parse_text(text: &str) -> TokenStream {
    let parsed = if proc_macro::is_available() {
        text.parse::<proc_macro::TokenStream>()
            .map(TokenStream::from)
            .map_err(|error| error.to_string())
    } else {
        text.parse::<TokenStream>()
            .map_err(|error| error.to_string())
    };
    parsed.unwrap_or_else(|error| {
        // Unreachable: the text is fixed pieces and `{:?}`-escaped strings.
        let message = format!("cloudevent-derive wrote text the compiler cannot read: {error}");
        quote!(::core::compile_error!(#message);)
    })
}

/// A piece of a `source_template`, its variables resolved to fields.
enum TemplatePiece<'f, 'a> {
    Literal(String),
    Variable(&'f Field<'a>),
}

/// The container's `source_template` with each variable's field; empty when there is none
/// (or it did not check, which is reported already).
fn template_parts<'f, 'a>(cont: &'f Container<'a>) -> Vec<TemplatePiece<'f, 'a>> {
    let Some(template) = &cont.attrs.source_template else {
        return Vec::new();
    };
    let value = template.value();
    let Ok(parts) = cloudevent_rules::parse_source_template(&value) else {
        return Vec::new();
    };
    parts
        .into_iter()
        .filter_map(|part| match part {
            cloudevent_rules::TemplatePart::Literal(text) => {
                Some(TemplatePiece::Literal(text.to_owned()))
            }
            cloudevent_rules::TemplatePart::Variable(name) => cont
                .fields()
                .iter()
                .find(|f| f.property.as_deref() == Some(name))
                .map(TemplatePiece::Variable),
        })
        .collect()
}

/// The template filled from the fields, each value percent-encoded as RFC 6570 simple
/// expansion does; `None` when a variable's field is absent.
fn template_body(template: &[TemplatePiece<'_, '_>]) -> TokenStream {
    let pushes = template.iter().map(|piece| match piece {
        TemplatePiece::Literal(text) => quote!(__source.push_str(#text);),
        TemplatePiece::Variable(field) => {
            let value = call_helper(&Marked {
                field,
                bound: Bound::Text,
                extension: None,
                path: &[],
            });
            quote! {
                __ce::expand_template_variable(&mut __source, &#value?);
            }
        }
    });
    quote! {
        let mut __source = __ce::String::new();
        #(#pushes)*
        __ce::Some(__ce::Cow::Owned(__source))
    }
}

/// `(name, kind)` for `CloudEventData::EXTENSION_KINDS`: the field type's
/// `ExtensionField::KIND` (`None` when it is not an extension type, which the helper reports
/// once). A member below the field (`member = "site?.zone"`) has a type the derive cannot
/// see and no path can name: `None`, its comparisons go unchecked.
fn extension_kind(marked: &Marked<'_, '_>) -> TokenStream {
    let name = lit(marked.extension.unwrap_or_default());
    if !marked.path.is_empty() {
        return quote!((#name, __ce::None));
    }
    let ty = &marked.field.original.ty;
    quote! {
        (#name, __ce::KindProbe::<#ty>::KIND)
    }
}

/// The payload property a marked field (or member) is read from: the field's serialized
/// name, then the Rust names of the members inside it (`context.id`); `None` for a tuple field.
fn property_path(marked: &Marked<'_, '_>) -> Option<String> {
    let mut property = marked.field.property.clone()?;
    for step in marked.path {
        property.push('.');
        property.push_str(&step.ident.unraw().to_string());
    }
    Some(property)
}

/// `__ce::helper(&self.field)`, spanned on the field's type so an unmet bound is reported
/// there; for a member path, `__ce::helper(&self.field.a.b)` spanned on the path's literal, looking
/// inside each `Option` on the way (a field whose type is written `Option<..>`, a member
/// written `a?`): `None` there is `None` here, so an absent member fills no attribute.
fn call_helper(marked: &Marked<'_, '_>) -> TokenStream {
    let ty = &marked.field.original.ty;
    let member = &marked.field.member;
    let Some(last) = marked.path.last() else {
        let helper = marked.bound.helper_name(ty.span());
        return quote_spanned! {ty.span()=> __ce::#helper(&self.#member) };
    };
    let span = last.ident.span();
    let helper = marked.bound.helper_name(span);
    // The root field's own `Option` is seen in its type: the path goes on inside it.
    access(
        quote_spanned!(span=> self.#member),
        options(ty),
        marked.path,
        &helper,
        span,
        0,
    )
}

/// The expression reading `place` and then `rest` with `helper`; `optional`: how many
/// `Option`s `place` is wrapped in, whose `Some` value the rest is read from.
fn access(
    place: TokenStream,
    optional: usize,
    rest: &[Step],
    helper: &Ident,
    span: Span,
    depth: usize,
) -> TokenStream {
    if optional > 0 {
        let value = quote::format_ident!("__member{}", depth, span = span);
        let inner = access(
            quote_spanned!(span=> (*#value)),
            optional - 1,
            rest,
            helper,
            span,
            depth + 1,
        );
        return quote_spanned! {span=>
            match __ce::Option::as_ref(&#place) {
                __ce::Some(#value) => #inner,
                __ce::None => __ce::None,
            }
        };
    }
    match rest.split_first() {
        Some((step, tail)) => {
            let ident = &step.ident;
            access(
                quote_spanned!(span=> #place.#ident),
                step.optional,
                tail,
                helper,
                span,
                depth,
            )
        }
        None => quote_spanned! {span=> __ce::#helper(&#place) },
    }
}

/// How many `Option`s a type is written in (`Option<..>`, `core::option::Option<..>`,
/// `::std::option::Option<..>`, nested). An alias of `Option` is not seen: a member path
/// through one does not compile (the compiler names the `Option`); write the type out.
fn options(ty: &syn::Type) -> usize {
    let syn::Type::Path(path) = ty else {
        return 0;
    };
    let Some(last) = path.path.segments.last() else {
        return 0;
    };
    match &last.arguments {
        syn::PathArguments::AngleBracketed(args)
            if path.qself.is_none() && last.ident == "Option" && args.args.len() == 1 =>
        {
            match args.args.first() {
                Some(syn::GenericArgument::Type(inner)) => 1 + options(inner),
                _ => 0,
            }
        }
        _ => 0,
    }
}

fn lit(value: impl AsRef<str>) -> LitStr {
    LitStr::new(value.as_ref(), Span::call_site())
}

/// Whether a type's tokens name one of the type parameters (then its bound goes in the
/// where clause, as serde does, and is checked where the type is used).
fn mentions_any(tokens: TokenStream, params: &[Ident]) -> bool {
    tokens.into_iter().any(|tree| match tree {
        TokenTree::Ident(ident) => params.contains(&ident),
        TokenTree::Group(group) => mentions_any(group.stream(), params),
        _ => false,
    })
}
