//! `.proto` entries → Rust: the messages and enums as `prost` derives (what `prost-build`
//! writes for them), the event's message also deriving `CloudEvent` with the entry's metadata
//! and `prost::Name` with its type URL, so `protobuf::encode_message` and
//! `protobuf::decode_message::<T>` carry it in `proto_data`.

use cloudevent_rules::Policy;
use heck::{ToSnakeCase, ToUpperCamelCase};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::error::{CodegenError, Finding};
use crate::import::{RustOptions, pretty};
use crate::naming::RustNames;
use crate::protobuf::{
    Label, PROTOBUF_CONTENT_TYPE, ProtoEnum, ProtoField, ProtoFile, ProtoMessage, ProtoSchema,
    check_proto, check_proto_warnings,
};
use crate::registry::Registry;

/// Stage "map to Rust" for the registry's `.proto` entries (checked and mapped here, named
/// with the JSON entries): their modules, written after the JSON schemas' (`None` without
/// any, or when one is refused: the refusals are then in `findings`, never skipped); broken
/// SHOULDs go to `warnings`.
///
/// # Errors
/// What [`protobuf_rust`] fails with besides findings (generated code that does not parse).
pub(super) fn protobuf_modules(
    registry: &Registry,
    names: &[RustNames],
    (policy, options): (&Policy, &RustOptions),
    warnings: &mut Vec<Finding>,
    findings: &mut Vec<Finding>,
) -> Result<Option<String>, CodegenError> {
    if registry.protobuf.is_empty() {
        return Ok(None);
    }
    match protobuf_rust(&registry.protobuf, names, policy, options) {
        Ok((code, found)) => {
            warnings.extend(found);
            Ok(Some(code))
        }
        Err(CodegenError::Findings(found)) => {
            findings.extend(found);
            Ok(None)
        }
        Err(other) => Err(other),
    }
}

/// The Rust code of a registry's `.proto` entries: one `pub mod` each, named by
/// `names` (the registry's one naming, `crate::naming`), for `include!` or a committed file.
/// The including crate depends on `prost` (feature `derive`) and `cloudevent-runtime` with
/// feature `protobuf`. Broken SHOULDs are returned beside the code, as warnings.
///
/// # Errors
/// [`CodegenError::Findings`]: every entry's broken MUSTs ((`crate::protobuf::check_proto`)) and every
/// field whose type is neither a scalar nor a message or enum of the same file.
pub(crate) fn protobuf_rust(
    files: &[ProtoFile],
    names: &[RustNames],
    policy: &Policy,
    options: &RustOptions,
) -> Result<(String, Vec<Finding>), CodegenError> {
    let mut findings = Vec::new();
    let mut warnings = Vec::new();
    let mut modules = TokenStream::new();
    for (file, names) in files.iter().zip(names) {
        let found = check_proto(file, policy);
        if !found.is_empty() {
            findings.extend(found);
            continue;
        }
        let warned = check_proto_warnings(file, policy);
        match module(file, names, options, !warned.is_empty()) {
            Ok(tokens) => modules.extend(tokens),
            Err(found) => findings.extend(found),
        }
        warnings.extend(warned);
    }
    if !findings.is_empty() {
        return Err(CodegenError::Findings(findings));
    }
    let text = pretty(modules).map_err(|message| CodegenError::GeneratedCode {
        path: files.first().map(|f| f.path.clone()).unwrap_or_default(),
        message,
    })?;
    Ok((text, warnings))
}

fn module(
    file: &ProtoFile,
    names: &RustNames,
    options: &RustOptions,
    warned: bool,
) -> Result<TokenStream, Vec<Finding>> {
    let schema = &file.schema;
    let mut findings = Vec::new();
    let mut items: TokenStream = schema.enums.iter().map(enum_item).collect();
    for message in &schema.messages {
        match message_item(file, message, options, warned) {
            Ok(item) => items.extend(item),
            Err(found) => findings.extend(found),
        }
    }
    if !findings.is_empty() {
        return Err(findings);
    }
    let message = format_ident!("{}", file.message);
    let short = &file.message;
    let package = &schema.package;
    let full_name = file.full_name();
    let type_url = file.type_url();
    let module = format_ident!("{}", names.module);
    let doc = format!(
        " `{}` v{}: generated from `{}` (message `{full_name}`, carried in `proto_data` as `{type_url}`).",
        file.meta.event_type, file.major, file.relative
    );
    Ok(quote! {
        #[doc = #doc]
        #[allow(clippy::all, missing_docs, reason = "prost's derives on generated messages, not ours to restyle")]
        pub mod #module {
            #items
            impl ::prost::Name for #message {
                const NAME: &'static str = #short;
                const PACKAGE: &'static str = #package;
                fn full_name() -> ::std::string::String { #full_name.into() }
                fn type_url() -> ::std::string::String { #type_url.into() }
            }
        }
    })
}

/// An enum as prost-build writes it.
fn enum_item(proto_enum: &ProtoEnum) -> TokenStream {
    let name = format_ident!("{}", proto_enum.name);
    let prefix = format!("{}_", proto_enum.name.to_snake_case().to_uppercase());
    let variants = proto_enum.values.iter().map(|(value, number)| {
        // prost-build's naming: the enum's name as a prefix is dropped, then UpperCamel.
        let short = value.strip_prefix(&prefix).unwrap_or(value);
        let variant = format_ident!("{}", short.to_upper_camel_case());
        let number = proc_macro2::Literal::i32_unsuffixed(*number);
        quote!(#variant = #number,)
    });
    quote! {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, ::prost::Enumeration)]
        #[repr(i32)]
        pub enum #name { #(#variants)* }
    }
}

/// A message as prost-build writes it; the event's also derives `CloudEvent`. A field of a
/// type this file does not define is a finding.
fn message_item(
    file: &ProtoFile,
    message: &ProtoMessage,
    options: &RustOptions,
    warned: bool,
) -> Result<TokenStream, Vec<Finding>> {
    let is_event = message.name == file.message;
    let mut findings = Vec::new();
    let mut fields = Vec::new();
    for field in &message.fields {
        match message_field(file, message, field, is_event) {
            Ok(tokens) => fields.push(tokens),
            Err(finding) => findings.push(finding),
        }
    }
    if !findings.is_empty() {
        return Err(findings);
    }
    let name = format_ident!("{}", message.name);
    let event_attrs = if is_event {
        event_attributes(file, options, warned)
    } else {
        quote!(#[derive(Clone, PartialEq, ::prost::Message)])
    };
    Ok(quote! {
        #event_attrs
        pub struct #name { #(#fields)* }
    })
}

/// One field of `message`, marked as the event's subject or an extension when the entry's
/// metadata says so.
fn message_field(
    file: &ProtoFile,
    message: &ProtoMessage,
    field: &ProtoField,
    is_event: bool,
) -> Result<TokenStream, Finding> {
    let Some((attr, ty)) = field_type(&file.schema, &field.type_name, field.label) else {
        return Err(Finding::new(
            &file.path,
            format!("line {}", field.line),
            format!(
                "field `{}.{}`: type `{}` is neither a scalar nor a message or enum of this file",
                message.name, field.name, field.type_name
            ),
        )
        .with_rule(cloudevent_rules::rule::CE_PROTOBUF)
        .with_fix("define it in this file, or compile the file with prost-build and declare the event yourself"));
    };
    let tag = field.tag.to_string();
    let ident = field_ident(&field.name);
    let mut markers = Vec::new();
    if is_event && file.meta.subject.as_deref() == Some(field.name.as_str()) {
        markers.push(quote!(#[cloudevent(subject)]));
    }
    for (extension, _) in file
        .meta
        .extensions
        .iter()
        .filter(|(_, f)| **f == field.name)
    {
        markers.push(quote!(#[cloudevent(extension = #extension)]));
    }
    Ok(quote! {
        #[prost(#attr, tag = #tag)]
        #(#markers)*
        pub #ident: #ty,
    })
}

fn event_attributes(file: &ProtoFile, options: &RustOptions, warned: bool) -> TokenStream {
    let meta = &file.meta;
    let event_type = &meta.event_type;
    let dataschema = &meta.dataschema;
    let media_type = meta
        .datacontenttype
        .as_deref()
        .unwrap_or(PROTOBUF_CONTENT_TYPE);
    let runtime_str = &options.runtime_crate;
    let runtime: syn::Path =
        syn::parse_str(runtime_str).unwrap_or_else(|_| syn::parse_quote!(::cloudevent_runtime));
    let mut args = vec![quote!(type = #event_type), quote!(dataschema = #dataschema)];
    if let Some(source) = &meta.source {
        args.push(quote!(source = #source));
    }
    args.push(quote!(datacontenttype = #media_type));
    args.push(quote!(crate = #runtime_str));
    if let Some(profile) = options.profile {
        let profile = profile.name();
        args.push(quote!(profile = #profile));
    }
    let allow = warned.then(|| {
        quote!(#[allow(deprecated, reason = "the SHOULDs this type breaks were reported by codegen")])
    });
    quote! {
        #allow
        #[derive(Clone, PartialEq, ::prost::Message, #runtime::CloudEvent)]
        #[cloudevent(#(#args),*)]
    }
}

/// The `#[prost(...)]` kind and the Rust type of a field, as prost-build writes them.
fn field_type(
    schema: &ProtoSchema,
    type_name: &str,
    label: Label,
) -> Option<(TokenStream, TokenStream)> {
    let scalar = match type_name {
        "double" => Some(("double", quote!(f64))),
        "float" => Some(("float", quote!(f32))),
        "int32" => Some(("int32", quote!(i32))),
        "int64" => Some(("int64", quote!(i64))),
        "uint32" => Some(("uint32", quote!(u32))),
        "uint64" => Some(("uint64", quote!(u64))),
        "sint32" => Some(("sint32", quote!(i32))),
        "sint64" => Some(("sint64", quote!(i64))),
        "fixed32" => Some(("fixed32", quote!(u32))),
        "fixed64" => Some(("fixed64", quote!(u64))),
        "sfixed32" => Some(("sfixed32", quote!(i32))),
        "sfixed64" => Some(("sfixed64", quote!(i64))),
        "bool" => Some(("bool", quote!(bool))),
        "string" => Some(("string", quote!(::prost::alloc::string::String))),
        "bytes" => Some(("bytes = \"vec\"", quote!(::prost::alloc::vec::Vec<u8>))),
        _ => None,
    };
    if let Some((kind, ty)) = scalar {
        let kind: TokenStream = kind.parse().ok()?;
        return Some(labelled(kind, ty, label));
    }
    let local = local_name(schema, type_name);
    if schema.enums.iter().any(|e| e.name == local) {
        let kind = quote!(enumeration = #local);
        return Some(labelled(kind, quote!(i32), label));
    }
    if schema.messages.iter().any(|m| m.name == local) {
        let ident = format_ident!("{}", local);
        return Some(match label {
            Label::Repeated => (
                quote!(message, repeated),
                quote!(::prost::alloc::vec::Vec<#ident>),
            ),
            // A message field always has presence.
            Label::Singular | Label::Optional => (
                quote!(message, optional),
                quote!(::core::option::Option<#ident>),
            ),
        });
    }
    None
}

fn labelled(kind: TokenStream, ty: TokenStream, label: Label) -> (TokenStream, TokenStream) {
    match label {
        Label::Singular => (kind, ty),
        Label::Optional => (quote!(#kind, optional), quote!(::core::option::Option<#ty>)),
        Label::Repeated => (
            quote!(#kind, repeated),
            quote!(::prost::alloc::vec::Vec<#ty>),
        ),
    }
}

/// `Size` for `Size`, `.example.v1.Size` and `example.v1.Size` in package `example.v1`.
fn local_name(schema: &ProtoSchema, type_name: &str) -> String {
    let name = type_name.strip_prefix('.').unwrap_or(type_name);
    if !schema.package.is_empty()
        && let Some(rest) = name.strip_prefix(&format!("{}.", schema.package))
    {
        return rest.to_owned();
    }
    name.to_owned()
}

fn field_ident(name: &str) -> syn::Ident {
    let snake = name.to_snake_case();
    syn::parse_str::<syn::Ident>(&snake).unwrap_or_else(|_| format_ident!("r#{}", snake))
}
