use std::panic::{AssertUnwindSafe, catch_unwind};

use heck::{ToSnakeCase, ToUpperCamelCase};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use schemars::transform::{ReplacePrefixItems, Transform};
use serde_json::Value;
use typify::{TypeSpace, TypeSpaceSettings};

use crate::error::CodegenError;
use crate::registry::{METADATA_KEY, SchemaFile};

/// How generated code reaches the runtime.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RustOptions {
    /// The path of `cloudevent_runtime` in the generated code; `::cloudevent_runtime` unless
    /// the user renamed or re-exported it. Passed on as `#[cloudevent(crate = "...")]`.
    pub runtime_crate: String,
}

impl Default for RustOptions {
    fn default() -> Self {
        RustOptions {
            runtime_crate: "::cloudevent_runtime".to_owned(),
        }
    }
}

/// The Rust names of one schema file: its module and its root (payload) type.
///
/// The module is the type's segments after the reverse-DNS prefix (the first two), in
/// snake case, plus `_v<major>`; the root type is the same segments in upper camel case.
///
/// ```
/// use cloudevent_codegen::RustNames;
///
/// let names = RustNames::new("com.example.order.created.v2", 2);
/// assert_eq!(names.module, "order_created_v2");
/// assert_eq!(names.root, "OrderCreated");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RustNames {
    /// The module holding the file's types, e.g. `order_created_v1`.
    pub module: String,
    /// The payload type, e.g. `OrderCreated`.
    pub root: String,
}

impl RustNames {
    /// The names for a type of a major version.
    pub fn new(event_type: &str, major: u64) -> RustNames {
        let base = match cloudevent_rules::type_version(event_type) {
            Some(n) => event_type
                .strip_suffix(&format!(".v{n}"))
                .unwrap_or(event_type),
            None => event_type,
        };
        let segments: Vec<&str> = base.split('.').collect();
        let local = if segments.len() > 2 {
            segments[2..].join(" ")
        } else {
            segments.join(" ")
        };
        RustNames {
            module: format!("{}_v{major}", local.to_snake_case()),
            root: local.to_upper_camel_case(),
        }
    }
}

/// The Rust module body (no `mod` wrapper) for one schema file: typify's types, the root
/// type carrying `#[derive(CloudEvent)]` and its `#[cloudevent(...)]` attributes.
///
/// Each file gets its own typify `TypeSpace`, so `Money` in two events stays two types.
/// Call [`crate::check_schema`] first: this function assumes a schema that passed it.
///
/// # Errors
/// [`CodegenError::Typify`] when typify refuses (or panics on) the schema,
/// [`CodegenError::GeneratedCode`] when its output does not parse.
pub fn module_tokens(
    file: &SchemaFile,
    options: &RustOptions,
) -> Result<TokenStream, CodegenError> {
    let names = RustNames::new(&file.meta.event_type, file.major);
    let prepared = typify_input(file, &names.root);
    let typify_error = |message: String| CodegenError::Typify {
        path: file.path.clone(),
        message,
    };
    let root: schemars08::schema::RootSchema =
        serde_json::from_value(prepared).map_err(|e| typify_error(e.to_string()))?;

    let mut settings = TypeSpaceSettings::default();
    settings.with_derive("PartialEq".to_owned());
    // typify panics on some schemas it does not support; check_schema refuses the known ones,
    // and this guard turns any other panic into an error naming the file.
    let tokens = catch_unwind(AssertUnwindSafe(|| {
        let mut space = TypeSpace::new(&settings);
        space
            .add_root_schema(root)
            .map(|_| space.to_stream())
            .map_err(|e| e.to_string())
    }))
    .map_err(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| "typify panicked".to_owned());
        typify_error(format!("typify panicked: {message}"))
    })?
    .map_err(typify_error)?;

    let mut syntax: syn::File = syn::parse2(tokens).map_err(|e| CodegenError::GeneratedCode {
        path: file.path.clone(),
        message: e.to_string(),
    })?;
    annotate_root(&mut syntax, file, &names, options)?;
    Ok(quote!(#syntax))
}

/// The schema as typify 0.8 (schemars 0.8, draft 7) understands it: without our metadata,
/// with `prefixItems` rewritten to draft-7 `items` and `$defs` moved to `definitions`, titled
/// with the root type's Rust name so typify names it.
fn typify_input(file: &SchemaFile, root_name: &str) -> Value {
    let mut value = file.schema.clone();
    if let Ok(mut schema) = schemars::Schema::try_from(value.clone()) {
        ReplacePrefixItems::default().transform(&mut schema);
        value = schema.to_value();
    }
    if let Some(object) = value.as_object_mut() {
        object.remove(METADATA_KEY);
        object.remove("$schema");
        object.insert("title".into(), Value::String(root_name.to_owned()));
        if let Some(defs) = object.remove("$defs") {
            object.insert("definitions".into(), defs);
        }
    }
    value
}

fn annotate_root(
    syntax: &mut syn::File,
    file: &SchemaFile,
    names: &RustNames,
    options: &RustOptions,
) -> Result<(), CodegenError> {
    let meta = &file.meta;
    let root = syntax.items.iter_mut().find_map(|item| match item {
        syn::Item::Struct(s) if s.ident == names.root => Some(s),
        _ => None,
    });
    let Some(root) = root else {
        return Err(CodegenError::GeneratedCode {
            path: file.path.clone(),
            message: format!(
                "typify did not generate the root struct `{}`; the root schema must be an object",
                names.root
            ),
        });
    };
    let runtime: syn::Path =
        syn::parse_str(&options.runtime_crate).map_err(|e| CodegenError::GeneratedCode {
            path: file.path.clone(),
            message: format!("runtime crate path `{}`: {e}", options.runtime_crate),
        })?;
    let event_type = &meta.event_type;
    let dataschema = &meta.dataschema;
    let runtime_str = &options.runtime_crate;
    let mut args = vec![quote!(type = #event_type), quote!(dataschema = #dataschema)];
    if let Some(source) = &meta.source {
        args.push(quote!(source = #source));
    }
    if let Some(media_type) = &meta.datacontenttype
        && media_type != "application/json"
    {
        args.push(quote!(datacontenttype = #media_type));
    }
    args.push(quote!(crate = #runtime_str));
    root.attrs
        .push(syn::parse_quote!(#[derive(#runtime::CloudEvent)]));
    root.attrs
        .push(syn::parse_quote!(#[cloudevent(#(#args),*)]));

    let syn::Fields::Named(fields) = &mut root.fields else {
        return Err(CodegenError::GeneratedCode {
            path: file.path.clone(),
            message: format!("root struct `{}` has no named fields", names.root),
        });
    };
    for field in &mut fields.named {
        let property = property_name(field);
        if meta.subject.as_deref() == Some(property.as_str()) {
            field.attrs.push(syn::parse_quote!(#[cloudevent(subject)]));
        }
        for (extension, _) in meta.extensions.iter().filter(|(_, p)| **p == property) {
            field
                .attrs
                .push(syn::parse_quote!(#[cloudevent(extension = #extension)]));
        }
    }
    Ok(())
}

/// The JSON property a generated field holds: its `#[serde(rename = "...")]`, else its name.
fn property_name(field: &syn::Field) -> String {
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

/// Pretty-prints a module body.
pub(crate) fn pretty(tokens: TokenStream) -> Result<String, String> {
    let file: syn::File = syn::parse2(tokens).map_err(|e| e.to_string())?;
    Ok(prettyplease::unparse(&file))
}

/// One `pub mod <name> { ... }` per schema, for `include!`.
pub(crate) fn wrap_module(names: &RustNames, body: TokenStream, doc: &str) -> TokenStream {
    let module = format_ident!("{}", names.module);
    quote! {
        #[doc = #doc]
        #[allow(clippy::all, missing_docs, reason = "typify's output is generated, not ours to restyle")]
        pub mod #module {
            #body
        }
    }
}
