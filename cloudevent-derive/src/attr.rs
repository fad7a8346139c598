//! `#[cloudevent(...)]` parsing: one branch a key, each headed by the syntax it takes.
//!
//! Parsing only reads what was written; rules that look at the values (naming, formats) or
//! at several attributes together live in `check.rs`.

use proc_macro2::{Span, TokenTree};
use strsim::levenshtein;
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::{Attribute, LitStr};

use crate::ctxt::Ctxt;

/// Every key the derive understands, in one place.
pub(crate) mod key {
    /// The attribute itself: `#[cloudevent(...)]`.
    pub(crate) const ATTRIBUTE: &str = "cloudevent";

    /// `type = "com.example.order.created"` (container, required).
    pub(crate) const TYPE: &str = "type";
    /// `dataschema = "https://schemas.example.com/orders/created/v1.json"` (container).
    pub(crate) const DATASCHEMA: &str = "dataschema";
    /// `source = "https://orders.example.com/checkout"` (container).
    pub(crate) const SOURCE: &str = "source";
    /// `datacontenttype = "application/json"` (container).
    pub(crate) const DATACONTENTTYPE: &str = "datacontenttype";
    /// `crate = "::cloudevent_runtime"` (container).
    pub(crate) const CRATE: &str = "crate";
    /// `profile = "cloudevents"` (container): the type's own profile, for imported types
    /// (generated from a third party's schemas) that must compile under any crate's policy.
    pub(crate) const PROFILE: &str = "profile";
    /// `literal_headers` (container): the type's readers take the header forms of senders
    /// that do not percent-encode literally, with a warning (never under INTG-STD-015).
    pub(crate) const LITERAL_HEADERS: &str = "literal_headers";
    /// `check_schema = "DATA_SCHEMA"` (container): the path of a `&'static str` holding the
    /// JSON Schema the payload is checked against at every typed door, for what its Rust type
    /// cannot express (written by cloudevent-codegen; needs the runtime's `registry` feature).
    pub(crate) const CHECK_SCHEMA: &str = "check_schema";

    /// `source_template = "/tenants/{tenantid}/devices/{deviceid}"` (container): the
    /// `source`, filled from the payload fields its `{variables}` name.
    pub(crate) const SOURCE_TEMPLATE: &str = "source_template";

    /// `sign` or `sign(extensions = "region,tenantid")` (container): the event is signed with
    /// the CloudEvents verifiability extension, covering these extensions besides its core
    /// attributes and data (the runtime's `verify::sign_declared`, feature `verify`).
    pub(crate) const SIGN: &str = "sign";
    /// `extensions = "region,tenantid"` inside `sign(...)`: the extensions to sign, in order.
    pub(crate) const EXTENSIONS: &str = "extensions";

    /// `subject` (field).
    pub(crate) const SUBJECT: &str = "subject";
    /// `id` (field): the field whose value is the event's `id`.
    pub(crate) const ID: &str = "id";
    /// `time` (field): the field whose RFC 3339 text is the event's `time`.
    pub(crate) const TIME: &str = "time";
    /// `extension`, `extension = "name"` or `extension(name = "..", member = "a.b")` (field).
    pub(crate) const EXTENSION: &str = "extension";
    /// `name = "tenantid"` inside `extension(...)`: the extension's name.
    pub(crate) const NAME: &str = "name";
    /// `member = "context.tenant"` inside `extension(...)`: the member of the field's value
    /// that fills it, by Rust field names.
    pub(crate) const MEMBER: &str = "member";
    /// The keys of `extension(...)`.
    pub(crate) const EXTENSION_ARGS: [&str; 2] = [NAME, MEMBER];

    /// The keys of the container attribute.
    pub(crate) const CONTAINER: [&str; 10] = [
        TYPE,
        DATASCHEMA,
        SOURCE,
        SOURCE_TEMPLATE,
        DATACONTENTTYPE,
        CRATE,
        PROFILE,
        LITERAL_HEADERS,
        CHECK_SCHEMA,
        SIGN,
    ];
    /// The keys of a field attribute (`source` too: the field whose value is the source).
    pub(crate) const FIELD: [&str; 5] = [SUBJECT, ID, TIME, SOURCE, EXTENSION];
}

/// What `#[cloudevent(...)]` on the struct or enum said.
#[derive(Default)]
pub(crate) struct Container {
    pub(crate) type_: Option<Text>,
    pub(crate) dataschema: Option<Text>,
    pub(crate) source: Option<Text>,
    pub(crate) source_template: Option<Text>,
    pub(crate) datacontenttype: Option<Text>,
    pub(crate) krate: Option<syn::Path>,
    /// `profile = "..."`: replaces the crate's `[package.metadata.cloudevent]` policy (and
    /// its `type-prefix`) for this type alone.
    pub(crate) profile: Option<cloudevent_rules::Profile>,
    /// The span of `literal_headers`, when present.
    pub(crate) literal_headers: Option<Span>,
    /// `check_schema = "DATA_SCHEMA"`: the path of the schema text the payload is checked against.
    pub(crate) check_schema: Option<syn::Path>,
    /// `sign` / `sign(extensions = "..")`, when present.
    pub(crate) sign: Option<Sign>,
    /// Whether some key could not be read. A missing `type` is then not reported: the user
    /// most likely wrote it and got it wrong, which is already reported.
    pub(crate) incomplete: bool,
}

/// `sign` or `sign(extensions = "region,tenantid")` on the type.
pub(crate) struct Sign {
    /// The `extensions = ".."` literal, when given.
    pub(crate) extensions: Option<LitStr>,
}

/// What `#[cloudevent(...)]` on a field said.
#[derive(Default)]
pub(crate) struct Field {
    /// The span of the `subject` key, when present.
    pub(crate) subject: Option<Span>,
    /// `id` or `id = "member"`, when present.
    pub(crate) id: Option<Marker>,
    /// `time` or `time = "member"`, when present.
    pub(crate) time: Option<Marker>,
    /// `source` or `source = "member"`, when present.
    pub(crate) source: Option<Marker>,
    /// `extension` or `extension = "name"`: the field's value fills one extension.
    pub(crate) extension: Option<Extension>,
    /// Each `extension(name = "..", member = "..")`, in order: a field can fill several.
    pub(crate) member_extensions: Vec<MemberExtension>,
}

/// A field marked as filling `id`, `time` or `source`: its value, or (`id = "a.b"`) a member
/// of its value reached by Rust field names, as a binding that nests the attribute in the
/// payload needs (CDEvents: `id` is `context.id`).
#[derive(Clone)]
pub(crate) struct Marker {
    /// The key's span.
    pub(crate) span: Span,
    /// The members inside the field, in order; empty for the field itself.
    pub(crate) path: Vec<Step>,
}

/// One member on a path inside a field's value (`context`, or `context?` for a member whose
/// type is an `Option`: when it is `None` the attribute is absent).
#[derive(Clone)]
pub(crate) struct Step {
    /// The Rust field name, spanned on the string literal it was written in.
    pub(crate) ident: syn::Ident,
    /// How many `?` follow it: the `Option`s to look inside (`context??` for an
    /// `Option<Option<Context>>`, a nullable optional member).
    pub(crate) optional: usize,
}

/// `extension(name = "tenantid", member = "context.tenant")` on a field.
pub(crate) struct MemberExtension {
    /// The `name = ".."` literal.
    pub(crate) name: LitStr,
    /// The members inside the field (empty without `member`: the field's value itself).
    pub(crate) path: Vec<Step>,
}

/// How a field names its extension.
pub(crate) enum Extension {
    /// `extension`: named after the field; the span is the key's.
    FromField(Span),
    /// `extension = "partitionkey"`.
    Named(LitStr),
}

/// Whether an attribute is ours.
pub(crate) fn is_cloudevent(attr: &Attribute) -> bool {
    attr.path().is_ident(key::ATTRIBUTE)
}

/// Reads every `#[cloudevent(...)]` on the container. Errors go to `ctxt`; parsing carries on
/// after each so that all of them are reported together.
pub(crate) fn container(ctxt: &Ctxt, attrs: &[Attribute]) -> Container {
    let mut found = Container::default();
    let local = Ctxt::new();
    for attr in attrs.iter().filter(|a| is_cloudevent(a)) {
        let ctxt = &local;
        let parsed = attr.parse_nested_meta(|meta| {
            let Some(name) = key_name(&meta) else {
                return recover(ctxt, &meta, Err(unknown_key(&meta, &key::CONTAINER, Place::Container)));
            };
            let result = match name.as_str() {
                // type = "com.example.order.created"
                key::TYPE => string_value(&meta, key::TYPE, "com.example.order.created")
                    .map(|lit| set_once(ctxt, &meta, &mut found.type_, lit)),
                // dataschema = "https://schemas.example.com/orders/created/v1.json"
                key::DATASCHEMA => string_value(
                    &meta,
                    key::DATASCHEMA,
                    "https://schemas.example.com/orders/created/v1.json",
                )
                .map(|lit| set_once(ctxt, &meta, &mut found.dataschema, lit)),
                // source = "https://orders.example.com/checkout"
                key::SOURCE => string_value(&meta, key::SOURCE, "https://orders.example.com/checkout")
                    .map(|lit| set_once(ctxt, &meta, &mut found.source, lit)),
                // source_template = "/tenants/{tenantid}/devices/{deviceid}"
                key::SOURCE_TEMPLATE => string_value(&meta, key::SOURCE_TEMPLATE, "/tenants/{tenantid}/devices/{deviceid}")
                    .map(|lit| set_once(ctxt, &meta, &mut found.source_template, lit)),
                // datacontenttype = "application/json"
                key::DATACONTENTTYPE => {
                    string_value(&meta, key::DATACONTENTTYPE, "application/json")
                        .map(|lit| set_once(ctxt, &meta, &mut found.datacontenttype, lit))
                }
                // crate = "::cloudevent_runtime"
                key::CRATE => string_value(&meta, key::CRATE, "::cloudevent_runtime")
                    .and_then(|lit| lit.parse::<syn::Path>().map_err(|_| {
                        syn::Error::new(
                            lit.span(),
                            format!(
                                "`crate` must name a path to the runtime crate, found `{}`; e.g. `crate = \"::cloudevent_runtime\"`",
                                lit.value()
                            ),
                        )
                    }))
                    .map(|path| set_once(ctxt, &meta, &mut found.krate, path)),
                // profile = "cloudevents"
                key::PROFILE => string_value(&meta, key::PROFILE, "cloudevents")
                    .and_then(|lit| {
                        lit.value().parse::<cloudevent_rules::Profile>().map_err(|unknown| {
                            syn::Error::new(lit.span(), format!("`profile = \"{}\"`: {unknown}", unknown.0))
                        })
                    })
                    .map(|profile| set_once(ctxt, &meta, &mut found.profile, profile)),
                // check_schema = "DATA_SCHEMA"
                key::CHECK_SCHEMA => string_value(&meta, key::CHECK_SCHEMA, "DATA_SCHEMA")
                    .and_then(|lit| lit.parse::<syn::Path>().map_err(|_| {
                        syn::Error::new(
                            lit.span(),
                            format!(
                                "`check_schema` must name the path of a `&'static str` constant, found `{}`; e.g. `check_schema = \"DATA_SCHEMA\"`",
                                lit.value()
                            ),
                        )
                    }))
                    .map(|path| set_once(ctxt, &meta, &mut found.check_schema, path)),
                // literal_headers
                key::LITERAL_HEADERS => {
                    if meta.input.peek(syn::Token![=]) || meta.input.peek(syn::token::Paren) {
                        Err(meta.error(format!(
                            "`{0}` takes no value: write `#[cloudevent({0})]` on the type",
                            key::LITERAL_HEADERS
                        )))
                    } else {
                        set_once(ctxt, &meta, &mut found.literal_headers, meta.path.span_ident());
                        Ok(())
                    }
                }
                // sign
                // sign(extensions = "region,tenantid")
                key::SIGN => sign(ctxt, &meta).map(|sign| set_once(ctxt, &meta, &mut found.sign, sign)),
                _ => Err(unknown_key(&meta, &key::CONTAINER, Place::Container)),
            };
            recover(ctxt, &meta, result)
        });
        if let Err(error) = parsed {
            ctxt.push(error);
        }
    }
    if let Err(errors) = local.finish() {
        found.incomplete = true;
        ctxt.push(errors);
    }
    found
}

/// Reads every `#[cloudevent(...)]` on a field.
pub(crate) fn field(ctxt: &Ctxt, attrs: &[Attribute]) -> Field {
    let mut found = Field::default();
    for attr in attrs.iter().filter(|a| is_cloudevent(a)) {
        let parsed = attr.parse_nested_meta(|meta| {
            let Some(name) = key_name(&meta) else {
                return recover(
                    ctxt,
                    &meta,
                    Err(unknown_key(&meta, &key::FIELD, Place::Field)),
                );
            };
            let result = match name.as_str() {
                // subject
                key::SUBJECT => flag(ctxt, &meta, key::SUBJECT, &mut found.subject),
                // id
                // id = "context.id"
                key::ID => marker(ctxt, &meta, key::ID, &mut found.id),
                // time
                // time = "context.timestamp"
                key::TIME => marker(ctxt, &meta, key::TIME, &mut found.time),
                // source
                // source = "context.source"
                key::SOURCE => marker(ctxt, &meta, key::SOURCE, &mut found.source),
                // extension
                // extension = "partitionkey"
                // extension(name = "tenantid", member = "context.tenant")
                key::EXTENSION => {
                    if meta.input.peek(syn::Token![=]) {
                        string_value(&meta, key::EXTENSION, "partitionkey").map(|lit| {
                            set_once(ctxt, &meta, &mut found.extension, Extension::Named(lit.lit));
                        })
                    } else if meta.input.peek(syn::token::Paren) {
                        member_extension(ctxt, &meta).map(|extension| {
                            found.member_extensions.extend(extension);
                        })
                    } else {
                        let span = meta.path.span_ident();
                        set_once(
                            ctxt,
                            &meta,
                            &mut found.extension,
                            Extension::FromField(span),
                        );
                        Ok(())
                    }
                }
                _ => Err(unknown_key(&meta, &key::FIELD, Place::Field)),
            };
            recover(ctxt, &meta, result)
        });
        if let Err(error) = parsed {
            ctxt.push(error);
        }
    }
    found
}

/// `sign` or `sign(extensions = "region,tenantid")`.
fn sign(ctxt: &Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Sign> {
    if meta.input.peek(syn::Token![=]) {
        return Err(meta.error(format!(
            "`{0}` takes `{0}` or `{0}({1} = \"region,tenantid\")`",
            key::SIGN,
            key::EXTENSIONS
        )));
    }
    let mut extensions = None;
    if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| {
            let result = match key_name(&inner).as_deref() {
                Some(key::EXTENSIONS) => string_value(&inner, key::EXTENSIONS, "region,tenantid")
                    .map(|lit| set_once(ctxt, &inner, &mut extensions, lit.lit)),
                _ => Err(inner.error(format!(
                    "unknown key `{}` in `{}(...)`: expected `{}`",
                    inner.path.to_token_string(),
                    key::SIGN,
                    key::EXTENSIONS
                ))),
            };
            recover(ctxt, &inner, result)
        })?;
    }
    Ok(Sign { extensions })
}

/// `subject`: marks the field whose value is the subject.
fn flag(
    ctxt: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    slot: &mut Option<Span>,
) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) || meta.input.peek(syn::token::Paren) {
        return Err(meta.error(format!(
            "`{key}` takes no value: write `#[cloudevent({key})]` on the field whose value is the {key}"
        )));
    }
    let span = meta.path.span_ident();
    set_once(ctxt, meta, slot, span);
    Ok(())
}

/// `id`, `time`, `source` on a field: the field's value fills the attribute, or with
/// `= "a.b"` the member reached from it by those Rust field names.
fn marker(
    ctxt: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    slot: &mut Option<Marker>,
) -> syn::Result<()> {
    let span = meta.path.span_ident();
    if meta.input.peek(syn::token::Paren) {
        return Err(meta.error(format!(
            "`{key}` on a field is written `#[cloudevent({key})]`, or `#[cloudevent({key} = \"member.path\")]` for a member of the field's value"
        )));
    }
    let mut path = Vec::new();
    if meta.input.peek(syn::Token![=]) {
        let lit: LitStr = meta.value()?.parse()?;
        path = member_path(&lit).map_err(|segment| {
            let also = if key == key::SOURCE {
                "; a default source belongs on the type: `#[cloudevent(source = \"...\")]` beside `type`"
            } else {
                ""
            };
            syn::Error::new(
                lit.span(),
                format!(
                    "`{key} = \"{}\"` on a field names a member of the field's value by Rust field names, e.g. `{key} = \"context.{key}\"` (`context?.{key}` when `context` is an `Option`); `{segment}` is not a field name{also}",
                    lit.value()
                ),
            )
        })?;
    }
    set_once(ctxt, meta, slot, Marker { span, path });
    Ok(())
}

/// `extension(name = "tenantid", member = "context.tenant")`: `name` is required, `member`
/// optional (the field's value itself). `None` when a key inside was wrong (reported).
fn member_extension(
    ctxt: &Ctxt,
    meta: &ParseNestedMeta<'_>,
) -> syn::Result<Option<MemberExtension>> {
    let example = "`#[cloudevent(extension(name = \"tenantid\", member = \"context.tenant\"))]`";
    let mut name: Option<LitStr> = None;
    let mut path: Option<Vec<Step>> = None;
    let span = meta.path.span_ident();
    let mut broken = false;
    meta.parse_nested_meta(|inner| {
        let result = extension_arg(&inner, &mut name, &mut path, example);
        broken |= result.is_err();
        // Each key's error is reported and the keys after it still read.
        recover(ctxt, &inner, result)
    })?;
    match name {
        Some(name) => Ok(Some(MemberExtension {
            name,
            path: path.unwrap_or_default(),
        })),
        // A broken `name` is reported already.
        None if broken => Ok(None),
        None => Err(syn::Error::new(
            span,
            format!("`extension(...)` needs the extension's `name`, e.g. {example}"),
        )),
    }
}

/// One `key = "value"` inside `extension(...)`.
fn extension_arg(
    inner: &ParseNestedMeta<'_>,
    name: &mut Option<LitStr>,
    path: &mut Option<Vec<Step>>,
    example: &str,
) -> syn::Result<()> {
    let written = key_name(inner).unwrap_or_default();
    let duplicate = |inner: &ParseNestedMeta<'_>| {
        inner.error(format!(
                "duplicate key `{written}` in `extension(...)`: give it once; a field fills several extensions with one `extension(...)` each"
            ))
    };
    match written.as_str() {
        key::NAME => {
            let lit = string_value(inner, key::NAME, "tenantid")?.lit;
            if name.replace(lit).is_some() {
                return Err(duplicate(inner));
            }
            Ok(())
        }
        key::MEMBER => {
            let lit = string_value(inner, key::MEMBER, "context.tenant")?;
            let steps = member_path(&lit).map_err(|segment| {
                    syn::Error::new(
                        lit.span(),
                        format!(
                            "`member = \"{}\"` names a member of the field's value by Rust field names separated by `.`, with `?` after a member whose type is an `Option` (e.g. `member = \"context?.tenant\"`); `{segment}` is not a field name",
                            lit.value()
                        ),
                    )
                })?;
            if path.replace(steps).is_some() {
                return Err(duplicate(inner));
            }
            Ok(())
        }
        _ => {
            let hint = match did_you_mean(&written, &key::EXTENSION_ARGS) {
                Some(close) => format!("did you mean `{close}`? "),
                None => String::new(),
            };
            Err(inner.error(format!(
                    "unknown key `{written}` in `extension(...)`: {hint}expected `name` and optionally `member`, e.g. {example}"
                )))
        }
    }
}

/// A member path written in a string literal: Rust field names separated by `.`, each
/// optionally followed by `?` (the member is an `Option`). The identifiers carry the
/// literal's span, so a member the type lacks is reported at the literal. `Err` holds the
/// segment that is not a field name.
pub(crate) fn member_path(lit: &LitStr) -> Result<Vec<Step>, String> {
    let value = lit.value();
    value
        .split('.')
        .map(|segment| {
            let name = segment.trim_end_matches('?');
            let optional = segment.len() - name.len();
            let ident = syn::parse_str::<syn::Ident>(name).map_err(|_| segment.to_owned())?;
            // Located at the literal, so the compiler's errors about the member (none such, a
            // type outside the CloudEvents type system) point there; resolved as the derive's
            // own tokens, so it does not offer to rewrite the literal as code. A raw
            // identifier (`r#type`) stays raw.
            let span = Span::call_site().located_at(lit.span());
            let ident = match name.strip_prefix("r#") {
                Some(raw) => syn::Ident::new_raw(raw, span),
                None => syn::Ident::new(&ident.to_string(), span),
            };
            Ok(Step { ident, optional })
        })
        .collect()
}

/// Where an attribute was written, for the unknown-key message.
#[derive(Clone, Copy)]
enum Place {
    Container,
    Field,
}

/// The key as written, or `None` for a path such as `a::b`.
fn key_name(meta: &ParseNestedMeta<'_>) -> Option<String> {
    meta.path.get_ident().map(ToString::to_string)
}

/// Records an error of one key and skips the rest of that key, so the keys after it are
/// still read.
fn recover(ctxt: &Ctxt, meta: &ParseNestedMeta<'_>, result: syn::Result<()>) -> syn::Result<()> {
    if let Err(error) = result {
        ctxt.push(error);
        skip_to_comma(meta.input)?;
    }
    Ok(())
}

fn skip_to_comma(input: ParseStream<'_>) -> syn::Result<()> {
    input.step(|cursor| {
        let mut rest = *cursor;
        while let Some((tree, next)) = rest.token_tree() {
            if matches!(&tree, TokenTree::Punct(p) if p.as_char() == ',') {
                break;
            }
            rest = next;
        }
        Ok(((), rest))
    })
}

/// `key = "string"`; the message shows the key with an example value when the shape is wrong.
fn string_value(meta: &ParseNestedMeta<'_>, key: &str, example: &str) -> syn::Result<Text> {
    let shape = || format!("`{key}` takes a string: `{key} = \"{example}\"`");
    if !meta.input.peek(syn::Token![=]) {
        return Err(meta.error(shape()));
    }
    let value = meta.value()?;
    value
        .parse::<LitStr>()
        .map(Text::new)
        .map_err(|error| syn::Error::new(error.span(), shape()))
}

/// A string literal of `#[cloudevent(...)]` with its value read once. `LitStr::value` asks
/// the compiler for the token's text and unescapes it on every call: a derive of 100 types
/// spent 12 M instructions reading the same literals again (issue 40, `xtask
/// compile-cost`). Derefs to the literal for its span and tokens.
#[derive(Clone)]
pub(crate) struct Text {
    lit: LitStr,
    value: String,
}

impl Text {
    pub(crate) fn new(lit: LitStr) -> Self {
        // `LitStr::value` unescapes character by character; a literal without an escape, a
        // raw prefix or a suffix is its text between the quotes.
        let token = lit.token().to_string();
        let value = match token.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
            Some(inner) if !inner.contains('\\') => inner.to_owned(),
            _ => lit.value(),
        };
        Text { lit, value }
    }

    /// The literal's value (unescaped), as `LitStr::value` gives it.
    pub(crate) fn value(&self) -> String {
        self.value.clone()
    }

    /// The literal's value without a copy.
    pub(crate) fn as_str(&self) -> &str {
        &self.value
    }
}

impl std::ops::Deref for Text {
    type Target = LitStr;

    fn deref(&self) -> &LitStr {
        &self.lit
    }
}

/// Stores a key's value, or reports the key as given twice.
fn set_once<T>(ctxt: &Ctxt, meta: &ParseNestedMeta<'_>, slot: &mut Option<T>, value: T) {
    if slot.is_some() {
        ctxt.error_spanned(
            meta.path.span_ident(),
            format_args!(
                "duplicate key `{}` in `#[cloudevent(...)]`: give it once",
                meta.path.to_token_string()
            ),
        );
    } else {
        *slot = Some(value);
    }
}

fn unknown_key(meta: &ParseNestedMeta<'_>, known: &[&str], place: Place) -> syn::Error {
    let written = meta.path.to_token_string();
    let (here, there, other_keys) = match place {
        Place::Container => ("the type", "a field", &key::FIELD[..]),
        Place::Field => ("a field", "the type", &key::CONTAINER[..]),
    };
    let message = if other_keys.contains(&written.as_str()) {
        format!(
            "`{written}` belongs on {there}, not on {here}: move it to {there}'s `#[cloudevent(...)]`"
        )
    } else {
        let expected = known
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ");
        match did_you_mean(&written, known) {
            Some(close) => {
                format!(
                    "unknown key `{written}` in `#[cloudevent(...)]`: did you mean `{close}`? expected one of {expected}"
                )
            }
            None => format!(
                "unknown key `{written}` in `#[cloudevent(...)]`: expected one of {expected}"
            ),
        }
    };
    syn::Error::new(meta.path.span_ident(), message)
}

/// The known word closest to `written`, when it is close enough to be a typo: at most one
/// edit for short words, two for longer ones, or the same word in another case or spelling
/// (`data_content_type`, `DataSchema`).
pub(crate) fn did_you_mean<'k>(written: &str, known: &[&'k str]) -> Option<&'k str> {
    let folded: String = written
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    known
        .iter()
        .map(|k| (levenshtein(&folded, k).min(levenshtein(written, k)), *k))
        .filter(|(distance, k)| *distance <= if k.len() > 3 { 2 } else { 1 })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, k)| k)
}

/// Small conveniences on `syn::Path` for messages and spans.
trait PathExt {
    /// The span of the key's identifier (or the whole path).
    fn span_ident(&self) -> Span;
    /// The key as written.
    fn to_token_string(&self) -> String;
}

impl PathExt for syn::Path {
    fn span_ident(&self) -> Span {
        match self.get_ident() {
            Some(ident) => ident.span(),
            None => syn::spanned::Spanned::span(self),
        }
    }

    fn to_token_string(&self) -> String {
        quote::ToTokens::to_token_stream(self)
            .to_string()
            .replace(' ', "")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_literal_value_read_once_equals_syns_reading() {
        for source in [
            r#""com.example.order.created""#,
            r#""""#,
            r#""with \"escaped\" quotes""#,
            r#""a \\ backslash and \n newline""#,
            r#""\u{e9} and é""#,
            "\"a literal\nline break\"",
            "\"a continued \\\n    line\"",
            r##"r#"raw "quoted" text"#"##,
            r#"r"raw \n stays""#,
            r#""suffixed"_s"#,
        ] {
            let lit: LitStr = syn::parse_str(source).expect(source);
            assert_eq!(Text::new(lit.clone()).value(), lit.value(), "{source}");
            assert_eq!(Text::new(lit.clone()).as_str(), lit.value(), "{source}");
        }
    }

    #[test]
    fn did_you_mean_finds_typos_and_other_spellings() {
        assert_eq!(did_you_mean("tpye", &key::CONTAINER), Some("type"));
        assert_eq!(
            did_you_mean("datashema", &key::CONTAINER),
            Some("dataschema")
        );
        assert_eq!(
            did_you_mean("data_content_type", &key::CONTAINER),
            Some("datacontenttype")
        );
        assert_eq!(
            did_you_mean("DataSchema", &key::CONTAINER),
            Some("dataschema")
        );
        assert_eq!(did_you_mean("extention", &key::FIELD), Some("extension"));
        assert_eq!(did_you_mean("rename", &key::FIELD), None);
        assert_eq!(did_you_mean("id", &key::CONTAINER), None);
    }
}
