//! `#[derive(CloudEvent)]`. Use it through `cloudevent_runtime`, which re-exports it.
//!
//! The derive reads the input (`ast.rs`, `attr.rs`), checks every name against
//! `cloudevent-rules` under the crate's policy (`policy.rs`, `check.rs`) and writes the
//! `CloudEventData` impl (`expand.rs`), or every error plus a stub impl (`fallback.rs`).

mod ast;
mod attr;
mod cesql;
mod check;
mod ctxt;
mod expand;
mod fallback;
mod policy;

use proc_macro::TokenStream;

/// Derives `cloudevent_runtime::CloudEventData`: the event's metadata, checked when the code
/// compiles.
///
/// ```ignore
/// use cloudevent_runtime::CloudEvent;
///
/// #[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
/// #[cloudevent(
///     type = "com.example.order.created",                                // required
///     dataschema = "https://schemas.example.com/orders/created/v1.json",   // optional
///     source = "https://orders.example.com/checkout",                      // optional default source
///     datacontenttype = "application/json",                                // optional, default application/json
///     crate = "::cloudevent_runtime",                                      // optional path override
/// )]
/// pub struct OrderCreated {
///     #[cloudevent(subject)] pub order_id: String,                         // copied into `subject`
///     #[cloudevent(extension = "partitionkey")] pub customer_id: String,   // copied into that extension
///     #[cloudevent(extension)] pub region: String,                         // extension named after the field
///     pub total_cents: i64,
/// }
/// ```
///
/// (The example is `ignore` here because a proc-macro crate's doctests cannot use the
/// runtime; the runtime's own doctests run it.)
///
/// # Container attributes: `#[cloudevent(...)]` on the struct or enum
///
/// | key | takes | rule |
/// |---|---|---|
/// | `type` | `"com.example.order.created"`, required | the profile's type rule: INTG-STD-015 R-4 (regex, `{reverse-dns}.{domain}.{entity}.{action}[.vN]`, rooted at `type-prefix`), CE 1.0.2 type, NL-GOV type |
/// | `dataschema` | `"https://schemas.example.com/orders/created/v1.json"` | absolute URI or URN, no fragment, a version token (INTG-STD-015 R-2); a `.vN` type suffix and the schema's major agree |
/// | `source` | `"https://orders.example.com/checkout"` | non-empty URI-reference (CE 1.0.2 source); INTG-STD-015 R-5/R-14 hygiene (no private IPs, `localhost`, `.internal`, ports) |
/// | `datacontenttype` | `"application/json"` (the default) | RFC 2046 media type (CE 1.0.2 datacontenttype) |
/// | `crate` | `"::cloudevent_runtime"` (the default) | the path generated code reaches the runtime through, for a renamed or re-exported runtime |
/// | `profile` | `"cloudevents"`, `"intg-std-015"` or `"nl-gov"` | this type's own policy in place of the crate's `[package.metadata.cloudevent]` (and its `type-prefix`): for types generated from a third party's schemas, which follow their publisher's naming, not the consuming crate's |
///
/// # Field attributes: `#[cloudevent(...)]` on a struct field
///
/// | key | means |
/// |---|---|
/// | `subject` | the field's value is the event's `subject`. One field at most; its type must be a string (`String`, `&str`, `Cow<str>`, `Box<str>` or an `Option` of one, `None` meaning absent). |
/// | `extension` | the field's value is copied into the extension named after the field (`region` → `region`). |
/// | `extension = "name"` | the same, under that name. A tuple field must name its extension. |
/// | `extension(name = "tenantid", member = "context.tenant")` | extension `tenantid` is the member `context.tenant` of the field's value (Rust field names, as `id = "context.id"`); without `member`, the field's value. Repeatable: one field can fill several extensions, beside `extension` / `extension = ".."`. |
/// | `id`, `time`, `source` | the field's value fills that attribute; `id = "context.id"` names a member of it. |
///
/// A member path goes through `Option`s: a field whose type is written `Option<..>`, and each
/// member written with a trailing `?` (`member = "context?.tenant"` when `context` is an
/// `Option`; `??` for an `Option<Option<..>>`). A `None` on the way, or at the end, means no value: the extension is absent
/// (an `id`, `time` or `source` then takes its default). A member the type lacks, or an
/// `Option` not marked `?`, is the compiler's error at the path's literal.
///
/// Extension names follow the profile's rule (CE 1.0.2 naming `[a-z0-9]`, not a core
/// attribute or `data`; INTG-STD-015 R-6 `^[a-z][a-z0-9]{0,19}$` and R-14, no names that
/// announce credentials or personal data) and appear once per event. Their field types stay
/// within the CloudEvents type system: `bool`, `i8`, `i16`, `i32`, `u8`, `u16`, `String`,
/// `&str`, `Cow<str>`, `Timestamp`, `Uri`, `UriRef`, `Binary`, or an `Option` of one (absent
/// when `None`); `i64`, `u32`, `u64`, `f64`, maps and vectors are refused at the field.
/// Documented extensions keep their documented type: `partitionkey`, `sequence`,
/// `sequencetype`, `traceparent`, `tracestate`, `correlationid` and `causationid` are strings,
/// `dataref` a URI-reference. Marked fields stay in the payload (serde decides); the value is
/// copied into the envelope.
///
/// Enums take container attributes only. Generic types work; a marked field whose type names
/// a type parameter adds that bound (`T: ExtensionField`) to the impl.
///
/// # The crate's policy: `[package.metadata.cloudevent]` in its Cargo.toml
///
/// ```toml
/// [package.metadata.cloudevent]
/// profile = "intg-std-015"      # or "cloudevents" or "nl-gov"; default "intg-std-015"
/// type-prefix = "com.example"   # optional: every type must start with it (INTG-STD-015 R-4)
/// ```
///
/// A bad value there is a compile error naming the key. It is read once per compilation.
///
/// # Errors and warnings
///
/// Every broken MUST is a compile error on the literal or field at fault, naming the rule id,
/// the offending segment or character and a corrected example; all errors of one derive are
/// reported in one build, and a stub impl keeps the rest of the crate compiling.
///
/// A broken SHOULD (a warning in `cloudevent-rules`, e.g. an `nl-gov` source that is not
/// `urn:nld:`, or an extension name longer than the CloudEvents SHOULD) is a compiler
/// warning at the same literal, and the build goes on. Stable Rust has no warning API for
/// derives, so the derive emits, next to the impl, a `#[deprecated(note = "...")]` constant
/// spanned on the literal and uses it once: the compiler prints
/// ``warning: use of deprecated constant `_::__cloudevent_should_0`: <the finding> (a SHOULD
/// under this crate's profile: a warning, not an error)``. The lint attributes written on the
/// type are copied onto that constant, so `#[allow(deprecated)]` on the type silences the
/// warning for that type alone, and `#[deny(deprecated)]` turns it into an error. The
/// validator reports the same finding, with the same rule id, on an event at run time
/// (`tests/profiles/nl-gov/ui/*.stderr` in the repository hold such warnings).
#[proc_macro_derive(CloudEvent, attributes(cloudevent))]
pub fn derive_cloud_event(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::derive(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// A CloudEvents SQL v1 expression, parsed and type-checked when the code compiles; a
/// `&'static cloudevent_runtime::filter::Expression`, parsed once at its first use.
///
/// `cesql!("type LIKE 'com.example.%'")` refuses what does not parse and what every
/// evaluation would raise (a missing function, a literal that never casts), pointing at the
/// token. `cesql!(OrderCreated, "region = 'eu'")` also refuses an attribute `OrderCreated`
/// can never carry, and a comparison with one of its extensions that the extension's type
/// (its field type's `ExtensionField::KIND`) can never satisfy.
///
/// ```ignore
/// use cloudevent_runtime::{cesql, filter::Filter};
/// let orders = cesql!("type LIKE 'com.example.order.%' AND partitionkey = 'k1'");
/// assert!(!orders.accepts(&cloudevent_runtime::AnyEvent::new("1", "/x", "org.other")));
/// ```
///
/// (`ignore` for the reason above; the runtime's doctests run it.)
#[proc_macro]
pub fn cesql(input: TokenStream) -> TokenStream {
    // In expression position several `compile_error!`s need a block around them.
    cesql::expand(input.into())
        .unwrap_or_else(|errors| {
            let errors = errors.into_compile_error();
            quote::quote! {{ #errors }}
        })
        .into()
}
