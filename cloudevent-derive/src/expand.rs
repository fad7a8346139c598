//! Code generation: the `CloudEventData` impl.
//!
//! The shape, for `#[cloudevent(type = "com.example.order.created")] struct OrderCreated`:
//!
//! ```text
//! const _: () = {
//!     use ::cloudevent_runtime::__private_v1 as __ce;    // the only path that `crate = ".."` swaps
//!     fn __string_extension<..StringExtensionField>(..)  // one helper per trait bound in use
//!     #[automatically_derived]
//!     impl __ce::CloudEventData for OrderCreated {
//!         const TYPE: &'static str = "com.example.order.created";
//!         ...
//!         fn subject(&self) -> Option<&str> { __subject(&self.order_id) }
//!         fn visit_extensions(..) { if let Some(__value) = __extension(&self.region) { .. } }
//!     }
//! };
//! ```
//!
//! Every path is absolute or goes through the alias, so a user's `Result`, `Option`, `Ok` or
//! `Some` cannot change its meaning. The helper calls carry the field type's span: when the
//! type is outside the CloudEvents type system, the compiler points at the field.
//!
//! Generated code reaches the runtime's hidden module `__private_v1` and nothing else of it.
//! The suffix is bumped on any breaking change to what generated code reaches (a name
//! removed or renamed, a signature or trait changed). That is safe because the runtime pins
//! this crate's exact version (`=x.y.z`): a runtime and a derive built for different
//! versions of the module never meet, and a stale path fails to compile instead of meaning
//! something else.

use std::collections::BTreeSet;

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{DeriveInput, LitStr};

use cloudevent_rules::AttributeKind;

use crate::ast::{Container, Field};
use crate::attr::Step;
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
    syn::parse_quote!(::cloudevent_runtime)
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

    fn helper_name(self) -> Ident {
        let name = match self {
            Bound::Subject => "__subject",
            Bound::Text => "__text",
            Bound::Extension => "__extension",
            Bound::StringExtension => "__string_extension",
            Bound::UriReferenceExtension => "__uri_reference_extension",
        };
        Ident::new(name, Span::call_site())
    }

    /// A generic function whose only job is to demand the bound where it is called.
    fn helper(self) -> TokenStream {
        let name = self.helper_name();
        let bound = self.trait_name();
        match self {
            Bound::Subject => quote! {
                #[inline]
                fn #name<__T: ?::core::marker::Sized + __ce::#bound>(
                    __field: &__T,
                ) -> __ce::Option<&str> {
                    __ce::SubjectField::subject(__field)
                }
            },
            Bound::Text => quote! {
                #[inline]
                fn #name<__T: ?::core::marker::Sized + __ce::#bound>(
                    __field: &__T,
                ) -> __ce::Option<__ce::Cow<'_, str>> {
                    __ce::TextField::text(__field)
                }
            },
            _ => quote! {
                #[inline]
                fn #name<__T: ?::core::marker::Sized + __ce::#bound>(
                    __field: &__T,
                ) -> __ce::Option<__ce::ExtensionValue<'_>> {
                    __ce::ExtensionField::extension_value(__field)
                }
            },
        }
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

    let helpers: BTreeSet<Bound> = subject
        .iter()
        .chain(&extensions)
        .chain(text_marked.iter().copied())
        .map(|m| m.bound)
        .collect();
    let helpers = helpers.into_iter().map(Bound::helper);
    let extension_kinds: Vec<TokenStream> = extensions.iter().map(extension_kind).collect();

    let type_ = lit(cont
        .attrs
        .type_
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_default());
    let dataschema = optional(cont.attrs.dataschema.as_ref().map(LitStr::value));
    let source = optional(cont.attrs.source.as_ref().map(LitStr::value));
    let datacontenttype = lit(cont
        .attrs
        .datacontenttype
        .as_ref()
        .map_or_else(|| DEFAULT_DATACONTENTTYPE.to_owned(), LitStr::value));
    // What `check::check` ran the policy on: the declared literals, not the defaults.
    let declared_type = optional(cont.attrs.type_.as_ref().map(LitStr::value));
    let declared_datacontenttype = optional(cont.attrs.datacontenttype.as_ref().map(LitStr::value));
    let literal_headers = cont.attrs.literal_headers.is_some();
    // `sign(extensions = "..")`: the names as listed; `check.rs` refused a list the rules
    // refuse, so only a list the signer accepts is emitted.
    let signed_extensions = cont.attrs.sign.as_ref().map(|sign| {
        let written = sign
            .extensions
            .as_ref()
            .map(syn::LitStr::value)
            .unwrap_or_default();
        let names = crate::check::signed_extension_names(&written);
        quote! {
            const SIGNED_EXTENSIONS: __ce::Option<&'static [&'static str]> =
                __ce::Some(&[#(#names),*]);
        }
    });
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
    // The trait's default profile is INTG-STD-015: named only when it is another.
    let profile = match profile {
        cloudevent_rules::Profile::CloudEvents => Some("CloudEvents"),
        cloudevent_rules::Profile::IntgStd015 => None,
        cloudevent_rules::Profile::NlGov => Some("NlGov"),
    }
    .map(|name| {
        let name = Ident::new(name, Span::call_site());
        quote!(const PROFILE: __ce::Profile = __ce::Profile::#name;)
    });
    let extension_names = extensions
        .iter()
        .filter_map(|m| m.extension)
        .map(lit)
        .collect::<Vec<_>>();
    let subject_property = optional(subject.as_ref().and_then(|m| m.field.property.clone()));
    let extension_properties: Vec<TokenStream> = extensions
        .iter()
        .filter_map(|m| {
            let name = lit(m.extension?);
            let property = lit(property_path(m)?);
            Some(quote!((#name, #property)))
        })
        .collect();

    let property = |m: &Option<Marked<'_, '_>>| optional(m.as_ref().and_then(property_path));
    let id_property = property(&id);
    let time_property = property(&time);
    let source_property = match &cont.attrs.source_template {
        Some(template) => optional(Some(template.value())),
        None => property(&source_field),
    };
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
    // Makes the compiler track the Cargo.toml whose policy was applied, so editing
    // `[package.metadata.cloudevent]` rebuilds the crate.
    let track_manifest = manifest.and_then(|m| m.to_str()).map(|path| {
        quote!(
            const _: &[u8] = ::core::include_bytes!(#path);
        )
    });

    // Items whose value is the trait's default (`None`, `&[]`, `false`, `application/json`,
    // INTG-STD-015, no extensions to visit) are left out: a derive of 100 types spent its
    // compile time on them (issue 40, `xtask compile-cost`).
    let dataschema_const = cont
        .attrs
        .dataschema
        .is_some()
        .then(|| quote!(const DATASCHEMA: __ce::Option<&'static str> = #dataschema;));
    let source_const = cont
        .attrs
        .source
        .is_some()
        .then(|| quote!(const SOURCE: __ce::Option<&'static str> = #source;));
    let datacontenttype_const = cont
        .attrs
        .datacontenttype
        .as_ref()
        .filter(|declared| declared.value() != DEFAULT_DATACONTENTTYPE)
        .map(|_| quote!(const DATACONTENTTYPE: &'static str = #datacontenttype;));
    let extensions_const = (!extension_names.is_empty())
        .then(|| quote!(const EXTENSIONS: &'static [&'static str] = &[#(#extension_names),*];));
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
    let has = |m: &Option<Marked<'_, '_>>| m.as_ref().and_then(property_path).is_some();
    let subject_property = subject
        .as_ref()
        .and_then(|m| m.field.property.as_ref())
        .map(|_| quote!(const SUBJECT_PROPERTY: __ce::Option<&'static str> = #subject_property;));
    let extension_properties = (!extension_properties.is_empty()).then(|| {
        quote! {
            const EXTENSION_PROPERTIES: &'static [(&'static str, &'static str)] =
                &[#(#extension_properties),*];
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
    let literal_headers = literal_headers.then(|| {
        quote!(
            const LITERAL_HEADERS: bool = true;
        )
    });
    let id_property =
        has(&id).then(|| quote!(const ID_PROPERTY: __ce::Option<&'static str> = #id_property;));
    let time_property = has(&time)
        .then(|| quote!(const TIME_PROPERTY: __ce::Option<&'static str> = #time_property;));
    let source_property = (cont.attrs.source_template.is_some() || has(&source_field))
        .then(|| quote!(const SOURCE_PROPERTY: __ce::Option<&'static str> = #source_property;));
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

    quote! {
        const _: () = {
            use #runtime::__private_v1 as __ce;
            #track_manifest
            #(#helpers)*
            #kind_fallback

            #[automatically_derived]
            impl #impl_generics __ce::CloudEventData for #ident #ty_generics #where_clause {
                const TYPE: &'static str = #type_;
                #dataschema_const
                #source_const
                #datacontenttype_const
                #extensions_const
                #subject_property
                #extension_properties
                #extension_kinds
                #profile
                #literal_headers
                #signed_extensions
                const PRECHECKED: __ce::CheckedByDerive = {
                    // The rules' confirmation of the claim, made on first use: one per type.
                    static __CONFIRMED: __ce::OnceLock<
                        __ce::Confirmed,
                    > = __ce::OnceLock::new();
                    __ce::checked_by_derive(
                        __ce::Prechecked {
                            source: #source,
                            ty: #declared_type,
                            datacontenttype: #declared_datacontenttype,
                            dataschema: #dataschema,
                            extension_names: &[#(#extension_names),*],
                            // Anything the derive does not claim (`time`): nothing known.
                            ..__ce::Prechecked::NONE
                        },
                        &__CONFIRMED,
                    )
                };
                #id_property
                #time_property
                #source_property

                #payload_id
                #payload_time
                #payload_source

                #[inline]
                fn subject(&self) -> __ce::Option<&str> {
                    #subject_body
                }

                #check_data

                #visit_extensions
            }

            #has_source
        };
    }
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

/// `__helper(&self.field)`, spanned on the field's type so an unmet bound is reported there;
/// for a member path, `__helper(&self.field.a.b)` spanned on the path's literal, looking
/// inside each `Option` on the way (a field whose type is written `Option<..>`, a member
/// written `a?`): `None` there is `None` here, so an absent member fills no attribute.
fn call_helper(marked: &Marked<'_, '_>) -> TokenStream {
    let ty = &marked.field.original.ty;
    let helper = marked.bound.helper_name();
    let member = &marked.field.member;
    let Some(last) = marked.path.last() else {
        return quote_spanned! {ty.span()=> #helper(&self.#member) };
    };
    let span = last.ident.span();
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
        None => quote_spanned! {span=> #helper(&#place) },
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

fn optional(value: Option<String>) -> TokenStream {
    match value {
        Some(value) => {
            let value = lit(value);
            quote!(__ce::Some(#value))
        }
        None => quote!(__ce::None),
    }
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
