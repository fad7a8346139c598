use std::collections::{BTreeMap, BTreeSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use cloudevent_rules::Profile;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use schemars::transform::{ReplacePrefixItems, Transform};
use serde_json::{Map, Value};
use typify::{TypeSpace, TypeSpaceSettings};

use crate::bundle::{SHARED_MODULE, stub_key};
use crate::error::{Finding, pointer_segment};
use crate::mapping::property_name;
use crate::naming::RustNames;
use crate::registry::{METADATA_KEY, SchemaFile};
use crate::shapes::normalize;

/// How generated code reaches the runtime, and what it says about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RustOptions {
    /// The path of `cloudevent_runtime` in the generated code; `::cloudevent_runtime` unless
    /// the user renamed or re-exported it. Passed on as `#[cloudevent(crate = "...")]`.
    pub runtime_crate: String,
    /// The profile every generated type carries (`#[cloudevent(profile = "...")]`), so it
    /// compiles and reads under that profile in any crate, whatever the crate's own
    /// `[package.metadata.cloudevent]`; `None`: the types follow the including crate's policy.
    pub profile: Option<Profile>,
    /// The command that regenerates the file, named in its header; `None`: `cargo xtask
    /// codegen` (this repository's own registry).
    pub command: Option<String>,
    /// Where in the payload `subject` comes from when a schema does not say
    /// (`x-cloudevent.subject`): a JSON pointer one or two members deep, e.g. `/subject/id`
    /// for the CDEvents binding.
    pub subject_pointer: Option<String>,
    /// Where `id` comes from: a JSON pointer to a string or integer member (`/context/id`
    /// for CDEvents); `None`: a fresh id per event.
    pub id_pointer: Option<String>,
    /// Where `time` comes from: a JSON pointer to a `date-time` string (`/context/timestamp`).
    pub time_pointer: Option<String>,
    /// Where `source` comes from: a JSON pointer (`/context/source`).
    pub source_pointer: Option<String>,
    /// `source` as a URI template (RFC 6570 level 1) filled from root members
    /// (`/tenants/{tenantid}/devices/{deviceid}`), for schemas that do not give their own.
    pub source_template: Option<String>,
    /// Extensions filled from payload members at any depth: `(name, pointer)`, e.g.
    /// `("region", "/region")`, `("tenantid", "/context/tenant")`.
    pub extension_pointers: Vec<(String, String)>,
    /// Generate the types that can be, leaving out (and listing) those refused, instead of
    /// refusing the whole registry.
    pub skip_refused: bool,
}

impl Default for RustOptions {
    fn default() -> Self {
        RustOptions {
            runtime_crate: "::cloudevent_runtime".to_owned(),
            profile: None,
            command: None,
            subject_pointer: None,
            id_pointer: None,
            time_pointer: None,
            source_pointer: None,
            source_template: None,
            extension_pointers: Vec::new(),
            skip_refused: false,
        }
    }
}

/// The Rust module body (no `mod` wrapper) for one schema file whose external refs were
/// bundled: typify's types, the root type carrying `#[derive(CloudEvent)]` and its
/// `#[cloudevent(...)]` attributes. Each file gets its own typify `TypeSpace`, so `Money` in
/// two events stays two types; `shared` names the stubs that stand for types of the
/// registry's shared module; `data_schema` is the schema made self-contained, which the type
/// carries when it cannot express every keyword (`keywords.rs`). The schema passed
/// `crate::check::check_schema`.
pub(crate) fn event_tokens(
    file: &SchemaFile,
    (schema, data_schema): (&Value, &Value),
    names: &RustNames,
    shared: &BTreeSet<String>,
    warned: bool,
    options: &RustOptions,
    warnings: &mut Vec<Finding>,
) -> Result<TokenStream, Vec<Finding>> {
    let prepared = typify_input(schema, Some(&names.root));
    let mut settings = settings();
    for name in shared {
        settings.with_replacement(
            stub_key(name),
            format!("super::{SHARED_MODULE}::{name}"),
            std::iter::empty(),
        );
    }
    let tokens = through_runtime(
        run_typify(&file.path, &prepared, &settings)?,
        &options.runtime_crate,
    );
    let mut syntax: syn::File = syn::parse2(tokens)
        .map_err(|e| vec![generated_code_finding(&file.path, &e.to_string())])?;
    let runtime: syn::Path = syn::parse_str(&options.runtime_crate)
        .map_err(|e| vec![generated_code_finding(&file.path, &e.to_string())])?;
    crate::member_names::distinct_members(&mut syntax);
    crate::fidelity::keep_data_as_received(&mut syntax, &runtime);
    let template = source_template(&mut syntax, file, names, options, warnings)?;
    // What the type cannot hold is checked against the schema itself, embedded here.
    let checked = crate::keywords::needs_check(data_schema);
    if checked {
        let text = serde_json::to_string(data_schema)
            .map_err(|e| vec![generated_code_finding(&file.path, &e.to_string())])?;
        syntax.items.push(syn::parse_quote!(
            /// The data schema this module was generated from, which checks what the types
            /// above cannot express (`docs/schema-fidelity.md`).
            pub const DATA_SCHEMA: &str = #text;
        ));
    }
    annotate_root(
        &mut syntax,
        file,
        names,
        warned,
        options,
        template.as_deref(),
        checked,
    )
    .map_err(|f| vec![f])?;
    if file.meta.subject.is_none()
        && let Some(pointer) = &options.subject_pointer
    {
        crate::mapping::subject_from_pointer(&mut syntax, file, names, pointer, &runtime)
            .map_err(|f| vec![f])?;
    }
    let mut findings = Vec::new();
    let mut implemented = BTreeSet::new();
    // The schema's own `x-cloudevent.attributes` win over the options, as its `subject` does.
    let meta = &file.meta;
    let pointers = [
        (
            "id",
            meta.id_pointer.as_ref().or(options.id_pointer.as_ref()),
        ),
        (
            "time",
            meta.time_pointer.as_ref().or(options.time_pointer.as_ref()),
        ),
        (
            "source",
            meta.source_pointer
                .as_ref()
                .or(options.source_pointer.as_ref()),
        ),
    ];
    for (attribute, pointer) in pointers {
        if let Some(pointer) = pointer
            && let Err(finding) = crate::mapping::attribute_from_pointer(
                &mut syntax,
                file,
                names,
                attribute,
                pointer,
                &runtime,
                &mut implemented,
            )
        {
            findings.push(finding);
        }
    }
    let mut extension_impls = BTreeSet::new();
    // The schema's pointers first; an option naming an extension the schema maps is not used.
    let from_schema = meta
        .extensions
        .iter()
        .filter(|(_, at)| at.starts_with('/'))
        .map(|(name, pointer)| (name.clone(), pointer.clone()));
    let from_options = options
        .extension_pointers
        .iter()
        .filter(|(name, _)| !meta.extensions.contains_key(name))
        .cloned();
    for (name, pointer) in from_schema.chain(from_options).collect::<Vec<_>>() {
        if let Err(finding) = crate::mapping::extension_from_pointer(
            &mut syntax,
            file,
            names,
            (name.as_str(), pointer.as_str()),
            &runtime,
            &mut extension_impls,
        ) {
            findings.push(finding);
        }
    }
    if !findings.is_empty() {
        return Err(findings);
    }
    crate::payload_builder::add_builders(&mut syntax);
    Ok(quote!(#syntax))
}

/// The `source_template` a type gets: the option's, else a template the schema set gives
/// as its source (an xRegistry message's `{tenantid}/{deviceid}`), when every variable is a
/// root member of the payload. A template whose variables are not payload members cannot be
/// filled from the payload: the type gets no default source and a warning says how to set it.
fn source_template(
    syntax: &mut syn::File,
    file: &SchemaFile,
    names: &RustNames,
    options: &RustOptions,
    warnings: &mut Vec<Finding>,
) -> Result<Option<String>, Vec<Finding>> {
    if options.source_pointer.is_some() || file.meta.source_pointer.is_some() {
        return Ok(None);
    }
    let Some(template) = options
        .source_template
        .clone()
        .or_else(|| file.meta.source_template.clone())
    else {
        return Ok(None);
    };
    match crate::mapping::template_gaps(syntax, names, &template) {
        Err(violation) => Err(vec![
            Finding::new(&file.path, "", format!("source template {violation}")).with_fix(
                "write the template's variables as `{name}`, each naming a member of the payload",
            ),
        ]),
        Ok(gaps) if gaps.is_empty() => Ok(Some(template)),
        Ok(gaps) => {
            let gaps: Vec<String> = gaps.iter().map(|g| format!("`{g}`")).collect();
            warnings.push(
                Finding::new(
                    &file.path,
                    "",
                    format!(
                        "source `{template}` is a URI template whose variable(s) {} are not members of the payload `{}`, so it cannot be filled from the data: `{}` gets no default source",
                        gaps.join(", "),
                        names.root,
                        names.root
                    ),
                )
                .with_fix(format!(
                    "build its events with `Event::builder(payload).source(..)`, filling `{template}` from what the producer knows (RFC 6570 level 1: each value percent-encoded); if the payload holds those values under other names, generate with `--source-template` naming its members"
                )),
            );
            Ok(None)
        }
    }
}

/// The registry's shared module: every schema reached through an external `$ref`, once.
pub(crate) fn shared_tokens(
    root: &Path,
    shared: &BTreeMap<String, Value>,
    runtime_crate: &str,
) -> Result<TokenStream, Vec<Finding>> {
    let mut definitions = Map::new();
    // The shared definitions reach each other as `#/definitions/<name>` in one document.
    let document = serde_json::json!({ "definitions": shared });
    let nullable = crate::shapes::nullable_definitions(&document);
    for (name, schema) in shared {
        let mut schema = schema.clone();
        crate::shapes::normalize_with(&mut schema, &nullable);
        crate::keywords::widen_for_typify(&mut schema);
        definitions.insert(name.clone(), schema);
    }
    let mut document = Map::new();
    document.insert("definitions".into(), Value::Object(definitions));
    let tokens = through_runtime(
        run_typify(root, &Value::Object(document), &settings())?,
        runtime_crate,
    );
    let mut syntax: syn::File =
        syn::parse2(tokens).map_err(|e| vec![generated_code_finding(root, &e.to_string())])?;
    crate::member_names::distinct_members(&mut syntax);
    let runtime: syn::Path = syn::parse_str(runtime_crate)
        .map_err(|e| vec![generated_code_finding(root, &e.to_string())])?;
    crate::fidelity::keep_data_as_received(&mut syntax, &runtime);
    crate::payload_builder::add_builders(&mut syntax);
    Ok(quote!(#syntax))
}

/// typify's `chrono` type for a `format: "date-time"` string, as its tokens print.
const CHRONO_DATE_TIME: &str = ":: chrono :: DateTime < :: chrono :: offset :: Utc >";

/// typify checks a `pattern` with `::regress::Regex`; the generated code reaches `regress`
/// through the runtime's versioned private module instead, so a crate including it needs no
/// `regress` dependency of its own (and gets the version the runtime was built with).
///
/// A `date-time` is the runtime's
/// `Timestamp`, not typify's `chrono::DateTime<Utc>`: it keeps the text received, so the data
/// is written back identical, and reading it checks it with the rules' `check_time`, the check
/// `validate --registry` makes for `format: "date-time"` (one verdict, issue 26 item 7). A
/// `date-time` that does not hold fails the typed reading with its JSON pointer
/// (`data/app/created_at`).
fn through_runtime(tokens: TokenStream, runtime_crate: &str) -> TokenStream {
    let mut text = tokens.to_string();
    let date_times = text.contains(CHRONO_DATE_TIME);
    if !text.contains(":: regress ::") && !date_times {
        return tokens;
    }
    text = text.replace(
        ":: regress ::",
        &format!("{runtime_crate} :: __private_v1 :: regress ::"),
    );
    if date_times {
        text = text.replace(CHRONO_DATE_TIME, &format!("{runtime_crate} :: Timestamp"));
    }
    text.parse().unwrap_or(tokens)
}

fn settings() -> TypeSpaceSettings {
    let mut settings = TypeSpaceSettings::default();
    settings.with_derive("PartialEq".to_owned());
    settings
}

pub(crate) fn generated_code_finding(path: &Path, message: &str) -> Finding {
    Finding::new(path, "", format!("the Rust typify generated does not parse: {message}"))
        .with_fix("this is a codegen bug: report the schema; meanwhile simplify the shape named in the message")
}

/// Runs typify on one prepared schema. A refusal or a panic becomes findings naming the file
/// and, when one property alone fails, that property's pointer; no panic text reaches the
/// user's terminal.
fn run_typify(
    path: &Path,
    prepared: &Value,
    settings: &TypeSpaceSettings,
) -> Result<TokenStream, Vec<Finding>> {
    match typify_once(prepared, settings) {
        Ok(tokens) => Ok(tokens),
        Err(message) => {
            let fix = "simplify that subschema (codegen handles objects, arrays, scalars, `enum`, `$ref`, `allOf`, and `anyOf`/`oneOf` of objects or of scalars), or describe it as `{}` to read it as JSON";
            let mut findings: Vec<Finding> = culprits(prepared, settings)
                .into_iter()
                .map(|(pointer, keywords, message)| {
                    let on = match keywords.as_slice() {
                        [] => String::new(),
                        keywords => format!(
                            "it stops on {}: ",
                            keywords
                                .iter()
                                .map(|k| format!("`{k}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    };
                    Finding::new(
                        path,
                        pointer,
                        format!("typify cannot turn this subschema into Rust: {on}{message}"),
                    )
                    .with_fix(fix)
                })
                .collect();
            if findings.is_empty() {
                findings.push(
                    Finding::new(
                        path,
                        "",
                        format!("typify cannot turn the schema into Rust: {message}"),
                    )
                    .with_fix(fix),
                );
            }
            Err(findings)
        }
    }
}

/// The definitions, then the root properties, that fail on their own when the whole schema
/// failed: each definition is tried with the others standing in as `{}` (any JSON), each
/// property with the definitions that work; then, inside each, the deepest subschema that
/// fails alone and the keywords to blame there (`narrow.rs`).
fn culprits(prepared: &Value, settings: &TypeSpaceSettings) -> Vec<(String, Vec<String>, String)> {
    let mut out = Vec::new();
    let definitions = prepared
        .get("definitions")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let stubbed = |keep: &dyn Fn(&str) -> bool| -> Map<String, Value> {
        definitions
            .iter()
            .map(|(k, v)| {
                let v = if keep(k) {
                    v.clone()
                } else {
                    Value::Object(Map::new())
                };
                (k.clone(), v)
            })
            .collect()
    };
    let probe = |schema: &Value, definitions: Map<String, Value>| {
        let mut properties = Map::new();
        properties.insert("probe".into(), schema.clone());
        let mut probe = Map::new();
        probe.insert("title".into(), "CodegenProbe".into());
        probe.insert("type".into(), "object".into());
        probe.insert("properties".into(), Value::Object(properties));
        probe.insert("definitions".into(), Value::Object(definitions));
        // The probe's name is ours: typify's message names the member it stopped on.
        typify_once(&Value::Object(probe), settings)
            .map_err(|m| m.replace(" for CodegenProbe_probe", ""))
    };
    let mut failing: Vec<String> = Vec::new();
    for (name, schema) in &definitions {
        if let Err(message) = probe(schema, stubbed(&|k| k == name)) {
            let alone = |s: &Value| probe(s, stubbed(&|k| k == name)).err();
            let pointer = format!("/definitions/{}", pointer_segment(name));
            out.push(crate::narrow::narrow(&pointer, schema, message, &alone));
            failing.push(name.clone());
        }
    }
    if let Some(properties) = prepared.get("properties").and_then(Value::as_object) {
        for (name, schema) in properties {
            let working = || stubbed(&|k| !failing.iter().any(|f| f == k));
            if let Err(message) = probe(schema, working()) {
                let alone = |s: &Value| probe(s, working()).err();
                let pointer = format!("/properties/{}", pointer_segment(name));
                out.push(crate::narrow::narrow(&pointer, schema, message, &alone));
            }
        }
    }
    out
}

/// typify's message, short: its first line, at most 200 characters.
fn short(message: &str) -> String {
    let line = message.lines().next().unwrap_or_default();
    match line.char_indices().nth(200) {
        Some((at, _)) => format!("{}...", &line[..at]),
        None => line.to_owned(),
    }
}

fn typify_once(prepared: &Value, settings: &TypeSpaceSettings) -> Result<TokenStream, String> {
    let root: schemars08::schema::RootSchema =
        serde_json::from_value(prepared.clone()).map_err(|e| e.to_string())?;
    quietly(|| {
        let mut space = TypeSpace::new(settings);
        space
            .add_root_schema(root)
            .map(|_| space.to_stream())
            .map_err(|e| short(&e.to_string()))
    })
    // A panic's text (`called Option::unwrap() on a None value`) is typify's, not the
    // schema's: the finding names the subschema and keyword instead (`culprits`).
    .unwrap_or_else(|_| Err(crate::narrow::TYPIFY_PANICKED.to_owned()))
}

/// Runs `f`, catching a panic without letting the panic hook print it: typify panics on some
/// shapes it does not support, and that text is not for the user (the finding says it
/// better). The hook is process-wide, so calls take turns.
fn quietly<T>(f: impl FnOnce() -> T) -> std::thread::Result<T> {
    static TURN: Mutex<()> = Mutex::new(());
    let _turn = TURN.lock().unwrap_or_else(PoisonError::into_inner);
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = catch_unwind(AssertUnwindSafe(f));
    std::panic::set_hook(previous);
    result
}

/// The schema as typify 0.8 (schemars 0.8, draft 7) understands it: the shapes it mishandles
/// rewritten (see `shapes.rs`), without our metadata, with `prefixItems` rewritten to draft-7
/// `items` and `$defs` merged into `definitions`, titled with the root type's Rust name so
/// typify names it.
fn typify_input(schema: &Value, root_name: Option<&str>) -> Value {
    let mut value = schema.clone();
    crate::shapes::inline_root_ref(&mut value);
    normalize(&mut value);
    crate::keywords::widen_for_typify(&mut value);
    if let Ok(mut schema) = schemars::Schema::try_from(value.clone()) {
        ReplacePrefixItems::default().transform(&mut schema);
        value = schema.to_value();
    }
    if let Some(object) = value.as_object_mut() {
        object.remove(METADATA_KEY);
        object.remove("$schema");
        if let Some(root_name) = root_name {
            object.insert("title".into(), Value::String(root_name.to_owned()));
        }
        if let Some(Value::Object(defs)) = object.remove("$defs") {
            let definitions = object
                .entry("definitions")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Some(definitions) = definitions.as_object_mut() {
                definitions.extend(defs);
            }
        }
    }
    value
}

fn annotate_root(
    syntax: &mut syn::File,
    file: &SchemaFile,
    names: &RustNames,
    warned: bool,
    options: &RustOptions,
    source_template: Option<&str>,
    checked: bool,
) -> Result<(), Finding> {
    let meta = &file.meta;
    let root = syntax.items.iter_mut().find_map(|item| match item {
        syn::Item::Struct(s) if s.ident == names.root => Some((&mut s.attrs, Some(&mut s.fields))),
        syn::Item::Enum(e) if e.ident == names.root => Some((&mut e.attrs, None)),
        _ => None,
    });
    let Some((attrs, fields)) = root else {
        return Err(Finding::new(
            &file.path,
            "",
            format!(
                "typify generated no struct or enum `{}` for the root schema (a root that is only a `$ref` or `allOf` becomes an alias)",
                names.root
            ),
        )
        .with_fix("give the root its own `type` (an object, an array, a scalar) or a `oneOf`/`anyOf` of alternatives"));
    };
    let runtime: syn::Path = syn::parse_str(&options.runtime_crate).map_err(|e| {
        Finding::new(
            &file.path,
            "",
            format!("runtime crate path `{}`: {e}", options.runtime_crate),
        )
        .with_fix("give a Rust path such as `::cloudevent_runtime`")
    })?;
    let event_type = &meta.event_type;
    let dataschema = &meta.dataschema;
    let runtime_str = &options.runtime_crate;
    let mut args = vec![quote!(type = #event_type)];
    if !dataschema.is_empty() {
        args.push(quote!(dataschema = #dataschema));
    }
    if let Some(source) = &meta.source {
        args.push(quote!(source = #source));
    }
    if let Some(template) = source_template {
        args.push(quote!(source_template = #template));
    }
    if let Some(media_type) = &meta.datacontenttype
        && media_type != "application/json"
    {
        args.push(quote!(datacontenttype = #media_type));
    }
    args.push(quote!(crate = #runtime_str));
    if let Some(profile) = options.profile {
        let profile = profile.name();
        args.push(quote!(profile = #profile));
    }
    if checked {
        args.push(quote!(check_schema = "DATA_SCHEMA"));
    }
    if warned {
        // The derive turns a broken SHOULD into a `deprecated` warning; codegen reported it
        // already, where the schema can be fixed, so the including crate is not told again.
        attrs.push(syn::parse_quote!(
            #[allow(deprecated, reason = "the SHOULDs this type breaks were reported by codegen")]
        ));
    }
    attrs.push(syn::parse_quote!(#[derive(#runtime::CloudEvent)]));
    attrs.push(syn::parse_quote!(#[cloudevent(#(#args),*)]));

    let Some(syn::Fields::Named(fields)) = fields else {
        // A tuple struct (an array or scalar root) or an enum: no member to read the subject
        // or an extension from, and `check_schema` allows none.
        return Ok(());
    };
    for field in &mut fields.named {
        let property = property_name(field);
        if meta.subject.as_deref() == Some(property.as_str()) {
            field.attrs.push(syn::parse_quote!(#[cloudevent(subject)]));
        }
        // A property may fill several extensions: `extension = ".."` is given once per
        // field, so the others are `extension(name = "..")`.
        for (index, (extension, _)) in meta
            .extensions
            .iter()
            .filter(|(_, p)| **p == property)
            .enumerate()
        {
            field.attrs.push(if index == 0 {
                syn::parse_quote!(#[cloudevent(extension = #extension)])
            } else {
                syn::parse_quote!(#[cloudevent(extension(name = #extension))])
            });
        }
    }
    Ok(())
}

/// Pretty-prints a module body.
pub(crate) fn pretty(tokens: TokenStream) -> Result<String, String> {
    let file: syn::File = syn::parse2(tokens).map_err(|e| e.to_string())?;
    Ok(prettyplease::unparse(&file))
}

/// One `pub mod <name> { ... }` per schema, for `include!`.
pub(crate) fn wrap_module(module: &str, body: TokenStream, doc: &str) -> TokenStream {
    let module = format_ident!("{}", module);
    quote! {
        #[doc = #doc]
        #[allow(clippy::all, missing_docs, reason = "typify's output is generated, not ours to restyle")]
        pub mod #module {
            #body
        }
    }
}
