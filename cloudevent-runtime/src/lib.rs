//! Typed CloudEvents: `Event<T>`, `AnyEvent`, the JSON event and batch formats, validation
//! profiles and protocol bindings.
//!
//! Depend on this crate alone: it re-exports `#[derive(CloudEvent)]` behind the default
//! `derive` feature.
//!
//! # Where to begin
//!
//! - **Producers** derive the metadata on their payload (`#[derive(CloudEvent)]`) and write
//!   [`Event::new`]: a fresh ULID `id`, `time` now, and the type, source, dataschema and
//!   datacontenttype the derive declares. The event serializes with serde to the JSON
//!   format, or goes out through a [`binding`].
//! - **Consumers** read an event typed with [`Event::<T>::from_slice`](Event::from_slice),
//!   under `T`'s profile, or dynamically as an [`AnyEvent`] ([`AnyEvent::from_slice`], or
//!   [`AnyEvent::decode_with::<Json>`] and a [`Policy`]). An axum service takes `Event<T>`,
//!   `AnyEvent`, `Batch` or `Events<E>` as handler arguments (the extractors of
//!   `binding::axum`); a gateway that enforces a policy takes
//!   `binding::axum::Checked<AnyEvent>` with the [`Policy`] in router state,
//!   `.with_state(Policy::new(Profile::IntgStd015))`.
//! - **Other event formats** go through the same doors, generic over an [`EventFormat`]:
//!   `AnyEvent::decode::<Protobuf>(bytes)`, `Event::<T>::decode::<Avro>(bytes)`,
//!   `event.encode::<F>()`, `Batch::decode::<F>(bytes)`, `validator.validate_bytes::<F>(bytes)`;
//!   `from_slice` and `to_vec` are the JSON ([`Json`]) shortcuts.
//! - **Gateways and pipelines** that must show everything wrong with an event, not only the
//!   first error, use a [`Validator`]: its [`ValidationReport`] lists every finding with its
//!   rule id, as `cloudevent validate` does.
//!
//! # Example
//!
//! A producer derives the metadata on its payload and writes events; a consumer reads them
//! typed, or dynamically and validated against a profile:
//!
//! ```
//! use cloudevent_runtime::Validate;
//! use cloudevent_runtime::{AnyEvent, Attributes, CloudEvent, Event, Json, Profile, Validator};
//!
//! #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
//! #[cloudevent(
//!     type = "com.example.order.created",
//!     dataschema = "https://schemas.example.com/orders/created/v1.json",
//!     source = "https://orders.example.com/checkout",
//! )]
//! struct OrderCreated {
//!     #[cloudevent(subject)]
//!     order_id: String,
//!     #[cloudevent(extension = "partitionkey")]
//!     customer_id: String,
//!     total_cents: i64,
//! }
//!
//! let order = OrderCreated { order_id: "order-8842".into(), customer_id: "c-1".into(), total_cents: 14_999 };
//! let bytes = serde_json::to_vec(&Event::new(order)).unwrap();
//!
//! let typed: Event<OrderCreated> = Event::from_slice(&bytes).unwrap();
//! assert_eq!(typed.subject(), Some("order-8842"));
//!
//! let report = Validator::new(cloudevent_runtime::Policy::new(Profile::IntgStd015).with_required_traceability(true)).validate_bytes::<Json>(&bytes);
//! assert!(report.is_valid(), "{report}");
//! let any = AnyEvent::from_slice(&bytes).unwrap();
//! assert_eq!(any.extensions().get("partitionkey").and_then(|v| v.as_str()), Some("c-1"));
//! ```
//!
//! # Features
//!
//! | Feature | Enables |
//! |---|---|
//! | `derive` (default) | `#[derive(CloudEvent)]`, re-exported from `cloudevent-derive` |
//! | `http` | `binding::http`: the CloudEvents HTTP Protocol Binding 1.0.2 on the `http` 1.x types |
//! | `axum` | `binding::axum`: the extractors (`Event<T>`, `AnyEvent`, `Batch`, `Events<E>`, `Checked<AnyEvent>`, `Checked<Batch>`), the `EventResponse` response type and the Web Hook handshake; implies `http` |
//! | `gateway` | `binding::gateway`: `serve`, the documented gateway's server, with a header read timeout, a request timeout and a connection cap (hyper, tower-http); implies `axum` |
//! | `reqwest` | `binding::reqwest`: a `Sender` on reqwest with R-12 retry and backoff; implies `http`; no TLS unless `rustls-tls` |
//! | `rustls-tls` | TLS (rustls) for the reqwest sender; implies `reqwest` |
//! | `kafka` | `binding::kafka`: the broker-neutral Kafka record mapping (CloudEvents Kafka Protocol Binding 1.0.2) and the R-13 key |
//! | `rdkafka` | `binding::rdkafka`: those records to and from rust-rdkafka's types; links librdkafka dynamically (not built on docs.rs); implies `kafka` |
//! | `nats` | `binding::nats`: the CloudEvents NATS Protocol Binding on async-nats, structured (1.0.2, the default) and binary mode (`ce-` headers, 1.0.3-wip), JetStream publishing and an at-least-once consumer (`handle_once`); `order::JetStreamSequenceStore`, `dedupe::JetStreamDeduplicator` |
//! | `redis` | `dedupe::RedisDeduplicator`: ADR-0003 dedupe shared by consumer replicas through Redis (`SET NX PX`) |
//! | `amqp` | `binding::amqp`: the broker-neutral AMQP 1.0 message mapping |
//! | `fe2o3-amqp` | `binding::fe2o3_amqp`: the AMQP mapping on the fe2o3-amqp client (sender and receiver links, binary mode by default); implies `amqp` |
//! | `mqtt` | `binding::mqtt`: the broker-neutral MQTT 3.1.1 / 5.0 PUBLISH mapping |
//! | `websocket` | `binding::websocket`: the CloudEvents WebSockets Protocol Binding on tokio-tungstenite (subprotocol negotiation, one event a message, client and server helpers) |
//! | `stream` | `EventStreamExt`: `.select(filter)` and `.ordered(stage)` on any `Stream` of read events (and `.verified(keys)` with `verify`); turned on by `rdkafka`, `nats`, `fe2o3-amqp`, `mqtt`, `websocket` |
//! | `protobuf` | `protobuf`: the CloudEvents Protobuf event and batch formats on `prost`, in every binding's structured mode |
//! | `avro` | `avro`: the CloudEvents Avro event format (no dependency), in every binding's structured mode |
//! | `registry` | `registry::RegistryValidator`: `data` checked against the registry's JSON Schema for its type, declared extension types, deprecation sunsets; `binding::axum::Registered` with `axum` |
//! | `tracing` | INTG-STD-015 R-15 receipt logging through `tracing`: `receipt::Receipt::log`, `receipt::Receivable::log_receipt`, and the axum extractors and `binding::nats::handle_once` log each event they receive |
//! | `verify` | `verify`: the CloudEvents verifiability extension: sign and verify `AnyEvent` and `Event<T>` with DSSE envelopes in `dssematerial` (ECDSA P-256 with RFC 6979 nonces, Ed25519; RustCrypto's `p256`, `ed25519-dalek`, `sha2`) and a key resolver the consumer implements |
//! | `otel` | `otel`: W3C trace context between events and OpenTelemetry (the current span's into a new event; a remote span context and a linked consumer span on receipt) |
//!
//! # The guide
//!
//! The repository's README.md and `docs/` explain the library by topic (producing, consuming
//! and gateways, bindings, formats, verifiable events, codegen and compatibility, rules,
//! performance); every Rust snippet there is compiled as a doctest of this crate.
//!
//! # Module layout
//!
//! Dependency order (a module uses only those to its left; the modules of one group do not
//! use each other), as ARCHITECTURE.md at the repository root states it and
//! `tests/module_order.rs` checks it:
//!
//! ```text
//! error, limits, id, payload <- value <- extension <- attributes <- trace, data, any <- otel
//!   <- event <- format <- validate, dispatch, verify <- registry <- patterns <- binding, order, filter
//!   <- stream <- deprecated
//! ```
//!
//! `event` comes before `format`: each format reads and writes `Event<T>` (its typed reading
//! lives with the formats), and `event` knows no format. `patterns` holds `claimcheck`,
//! `dedupe` and `receipt`; ARCHITECTURE.md says where each part lives.

#![cfg_attr(docsrs, feature(doc_cfg))]

mod any;
mod attributes;
pub mod binding;
mod data;
mod deprecated;
mod dispatch;
mod error;
mod event;
pub mod extension;
pub mod filter;
mod format;
mod id;
pub mod limits;
pub mod order;
#[cfg(feature = "otel")]
#[cfg_attr(docsrs, doc(cfg(feature = "otel")))]
pub mod otel;
mod patterns;
mod payload;
pub mod registry;
#[cfg(feature = "stream")]
mod stream;
pub mod trace;
mod validate;
mod value;
#[cfg(feature = "verify")]
#[cfg_attr(docsrs, doc(cfg(feature = "verify")))]
pub mod verify;

pub use patterns::{claimcheck, dedupe, receipt};

pub use any::{AnyEvent, Data};
pub use attributes::Attributes;
pub use data::{CheckedByDerive, CloudEventData, HasSource};
pub use error::{BuildError, FormatError, ValueError};
pub use event::{Event, EventBuilder};
pub use extension::{ExtensionField, ExtensionValue, ExtensionVisitor};
pub use extension::{ExtensionValueBuf, Extensions, ExtensionsIter};
#[cfg(feature = "avro")]
#[cfg_attr(docsrs, doc(cfg(feature = "avro")))]
pub use format::avro;
#[cfg(feature = "avro")]
#[cfg_attr(docsrs, doc(cfg(feature = "avro")))]
pub use format::avro::Avro;
pub use format::batch::{BATCH_CONTENT_TYPE, Batch};
#[cfg(feature = "protobuf")]
pub use format::protobuf;
#[cfg(feature = "protobuf")]
pub use format::protobuf::Protobuf;
pub use format::{EventFormat, FromFormat, Json};
pub use id::IdKind;
#[cfg(feature = "stream")]
#[cfg_attr(docsrs, doc(cfg(feature = "stream")))]
pub use stream::{EventStreamExt, OrderedStream, SelectStream};
#[cfg(all(feature = "stream", feature = "verify"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "stream", feature = "verify"))))]
pub use stream::{Unverified, VerifiedStream};
pub use trace::Traceable;
pub use validate::{BatchReport, Document, FindingJson, Validate, ValidationReport, Validator};
pub use value::{Binary, SchemaInteger, Timestamp, Uri, UriRef};

/// The structured-mode media type of one event (INTG-STD-015 R-7).
///
/// ```
/// assert!(cloudevent_runtime::EVENT_CONTENT_TYPE.starts_with("application/cloudevents+json"));
/// ```
pub const EVENT_CONTENT_TYPE: &str = "application/cloudevents+json; charset=utf-8";

pub use cloudevent_rules as rules;
pub use cloudevent_rules::{Policy, Profile, RuleId, Severity, Violation};

/// What most code that sends or receives events uses, in one import: the event types and
/// the traits whose methods read them ([`Attributes`]'s `id()`, `source()`, `ty()`,
/// `subject()`, `time()`, `datacontenttype()`, `dataschema()`; [`Traceable`]'s trace context).
///
/// ```
/// use cloudevent_runtime::prelude::*;
///
/// let event = AnyEvent::new("1", "/orders", "com.example.order.created");
/// assert_eq!((event.id(), event.source()), ("1", "/orders"));
/// assert_eq!(event.correlationid(), None);
/// ```
pub mod prelude {
    #[cfg(feature = "derive")]
    pub use crate::CloudEvent;
    pub use crate::{
        AnyEvent, Attributes, Event, EventFormat, FromFormat, Json, Traceable, Validate,
    };
}

/// Derives [`CloudEventData`] for a payload type; see the crate documentation.
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub use cloudevent_derive::CloudEvent;

/// `cesql!("...")`: a CloudEvents SQL v1 expression checked when the code compiles (see
/// [`filter`]).
///
/// ```
/// use cloudevent_runtime::{AnyEvent, cesql, filter::Filter};
///
/// let orders = cesql!("type LIKE 'com.example.order.%' AND partitionkey = 'k1'");
/// let mut event = AnyEvent::new("1", "/orders", "com.example.order.created");
/// event.extensions_mut().insert("partitionkey", "k1");
/// assert!(orders.accepts(&event));
/// ```
///
/// With an event type first, the expression is also checked against the type: an attribute
/// it can never carry, and a comparison with one of its extensions that the extension's
/// type can never satisfy, do not compile (the message is the one `Expression::check` gives):
///
/// ```compile_fail
/// use cloudevent_runtime::{CloudEvent, cesql};
///
/// #[derive(serde::Serialize, CloudEvent)]
/// #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
/// struct OrderCreated { #[cloudevent(extension)] priority: i32 }
///
/// // error: `priority` is an Integer, never equal to 'high' in =: compare with an integer such as 2
/// let urgent = cesql!(OrderCreated, "priority = 'high'");
/// ```
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub use cloudevent_derive::cesql;

/// What code generated by `#[derive(CloudEvent)]` reaches. Not a public API.
///
/// The suffix is the version of this contract: it is bumped on any breaking change to what
/// generated code reaches, which is safe because this crate depends on the exact version of
/// `cloudevent-derive` (an `=` requirement in the workspace manifest).
/// What a `dispatch!` enum reaches. Not a public API.
#[doc(hidden)]
pub use dispatch::typed as __dispatch;

#[doc(hidden)]
pub mod __private_v1 {
    pub use crate::data::{
        CheckedByDerive, CloudEventData, Confirmation, Confirmed, Declared, HasSource,
    };
    pub use crate::extension::{
        ExtensionField, ExtensionValue, ExtensionVisitor, StringExtensionField, SubjectField,
        TextField, UriReferenceExtensionField,
    };
    pub use ::cloudevent_rules::{AttributeKind, Prechecked, Profile, expand_template_variable};

    /// The claim of a derived type `T`: its own constants (`TYPE`, `SOURCE`,
    /// `DATACONTENTTYPE`, `DATASCHEMA`, `EXTENSIONS`), which the derive checked under the
    /// type's policy when it compiled, with the `static` (one per derived type) that keeps
    /// the rules' confirmation of them: the way to fill
    /// [`CloudEventData::PRECHECKED`](crate::CloudEventData::PRECHECKED). Only generated
    /// code calls it; a hand-written call gets its claim confirmed like any other.
    pub const fn checked_by_derive_of<T: CloudEventData + ?Sized>(
        confirmed: &'static Confirmation,
    ) -> CheckedByDerive {
        CheckedByDerive::of::<T>(confirmed)
    }
    /// The first release's form of [`checked_by_derive_of`]: any claim, with a
    /// `OnceLock` for its confirmation. Kept for the `__private_v1` contract; the derive
    /// calls [`checked_by_derive_of`], whose `static` costs the compiler less.
    pub const fn checked_by_derive(
        checked: Prechecked<'static>,
        confirmed: &'static OnceLock<Confirmed>,
    ) -> CheckedByDerive {
        CheckedByDerive::new(checked, confirmed)
    }
    /// Demands `SubjectField` of a field marked `#[cloudevent(subject)]` where the
    /// generated code calls it (the call carries the field type's span).
    #[inline]
    pub fn subject<T: ?Sized + SubjectField>(field: &T) -> Option<&str> {
        SubjectField::subject(field)
    }
    /// Demands `TextField` of a field that fills `id`, `time`, `source` or a template
    /// variable.
    #[inline]
    pub fn text<T: ?Sized + TextField>(field: &T) -> Option<Cow<'_, str>> {
        TextField::text(field)
    }
    /// Demands `ExtensionField` of a field marked `#[cloudevent(extension)]`.
    #[inline]
    pub fn extension<T: ?Sized + ExtensionField>(field: &T) -> Option<ExtensionValue<'_>> {
        ExtensionField::extension_value(field)
    }
    /// Demands `StringExtensionField` of a documented String extension (`partitionkey`).
    #[inline]
    pub fn string_extension<T: ?Sized + StringExtensionField>(
        field: &T,
    ) -> Option<ExtensionValue<'_>> {
        ExtensionField::extension_value(field)
    }
    /// Demands `UriReferenceExtensionField` of a documented URI-reference extension
    /// (`dataref`).
    #[inline]
    pub fn uri_reference_extension<T: ?Sized + UriReferenceExtensionField>(
        field: &T,
    ) -> Option<ExtensionValue<'_>> {
        ExtensionField::extension_value(field)
    }
    /// The data schema of a type generated by cloudevent-codegen, for what its Rust type
    /// cannot express (`#[cloudevent(check_schema = "..")]`).
    #[cfg(feature = "registry")]
    pub use crate::registry::SchemaCheck;
    pub use ::cloudevent_rules::Violation;
    pub use ::core::marker::PhantomData;
    pub use ::core::option::Option::{self, None, Some};

    /// Without the `registry` feature a generated type that carries its schema cannot check
    /// it: its `static` fails to compile with this message instead of checking nothing.
    #[cfg(not(feature = "registry"))]
    pub struct SchemaCheck(());

    #[cfg(not(feature = "registry"))]
    impl SchemaCheck {
        /// Stops the build: see the type's doc.
        pub const fn new(_schema: &'static str) -> Self {
            panic!(
                "this type was generated from a JSON Schema with keywords its Rust type cannot express, checked at every typed door: enable the `registry` feature of `cloudevent-runtime`"
            )
        }

        /// Never reached: `new` stops the build.
        pub fn check<T: ?Sized>(&self, _event_type: &str, _data: &T) -> Option<Violation> {
            None
        }
    }
    pub use ::core::result::Result::{self, Err, Ok};
    /// ECMAScript regular expressions, for the `pattern`s of code generated by
    /// cloudevent-codegen (typify checks them with `regress`), so a crate including that
    /// code needs no `regress` dependency of its own.
    pub use ::regress;
    pub use ::std::borrow::Cow;
    pub use ::std::string::String;
    pub use ::std::sync::OnceLock;

    /// `cesql!`'s expression, which the macro parsed with this same parser when the code
    /// compiled.
    pub fn cesql_checked(source: &str) -> crate::filter::Expression {
        match crate::filter::Expression::parse(source) {
            Ok(expression) => expression,
            Err(error) => {
                unreachable!(
                    "cesql! parsed `{source}` when it compiled, the same parser now says: {error}"
                )
            }
        }
    }

    /// `KindProbe::<F>::KIND`: the field type `F`'s [`ExtensionField::KIND`] when `F` is
    /// an extension type, else (through [`KindFallback`], which generated code brings in
    /// scope) `None`: a type that is not an extension type is reported once, where the
    /// derive's helper demands the bound, not a second time here.
    pub struct KindProbe<F: ?Sized>(PhantomData<F>);

    impl<F: ?Sized + ExtensionField> KindProbe<F> {
        /// The field type's kind.
        pub const KIND: Option<AttributeKind> = F::KIND;
    }

    /// The `None` a [`KindProbe`] of a type that is not an extension type gives.
    pub trait KindFallback {
        /// No kind.
        const KIND: Option<AttributeKind> = None;
    }

    impl<F: ?Sized> KindFallback for KindProbe<F> {}

    const fn same(a: &str, b: &str) -> bool {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// What a type says of the extension `name`, for `cesql!(T, ..)`'s check in a `const`:
    /// `None` when `name` is not one of `extensions` (the type's
    /// `CloudEventData::EXTENSIONS`), else its type from `kinds`
    /// (`CloudEventData::EXTENSION_KINDS`) when declared.
    pub const fn cesql_extension(
        extensions: &[&str],
        kinds: &[(&str, Option<AttributeKind>)],
        name: &str,
    ) -> Option<Option<AttributeKind>> {
        let mut i = 0;
        while i < extensions.len() {
            if same(extensions[i], name) {
                let mut k = 0;
                while k < kinds.len() {
                    if same(kinds[k].0, name) {
                        return Some(kinds[k].1);
                    }
                    k += 1;
                }
                return Some(None);
            }
            i += 1;
        }
        None
    }
}

// The guide's and the README's Rust snippets, compiled and run as doctests of this crate
// (`cargo test --doc --all-features`). `cfg(doctest)`: not part of the API. A guide whose
// snippets use optional features runs when those features are on, so `cargo test --doc`
// with the default features passes too (it runs the rest).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
#[cfg(doctest)]
#[doc = include_str!("../../docs/producing.md")]
pub struct ProducingDoctests;
#[cfg(all(
    doctest,
    feature = "http",
    feature = "axum",
    feature = "gateway",
    feature = "registry"
))]
#[doc = include_str!("../../docs/consuming-and-gateways.md")]
pub struct ConsumingDoctests;
#[cfg(all(
    doctest,
    feature = "http",
    feature = "axum",
    feature = "reqwest",
    feature = "kafka",
    feature = "rdkafka",
    feature = "nats",
    feature = "mqtt",
    feature = "websocket",
    feature = "amqp",
    feature = "fe2o3-amqp",
    feature = "otel"
))]
#[doc = include_str!("../../docs/bindings.md")]
pub struct BindingsDoctests;
#[cfg(all(doctest, feature = "http", feature = "avro", feature = "protobuf"))]
#[doc = include_str!("../../docs/formats.md")]
pub struct FormatsDoctests;
#[cfg(all(doctest, feature = "verify", feature = "http"))]
#[doc = include_str!("../../docs/verifiable-events.md")]
pub struct VerifiableEventsDoctests;
#[cfg(doctest)]
#[doc = include_str!("../../docs/rules.md")]
pub struct RulesDoctests;
#[cfg(doctest)]
#[doc = include_str!("../../docs/performance.md")]
pub struct PerformanceDoctests;
#[cfg(doctest)]
#[doc = include_str!("../../docs/scaling-out.md")]
pub struct ScalingOutDoctests;
