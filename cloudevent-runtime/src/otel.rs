//! OpenTelemetry: W3C Trace Context in events (feature `otel`).
//!
//! The CloudEvents Distributed Tracing extension carries a W3C `traceparent` and
//! `tracestate` in the event, so a trace follows the event through brokers and hops that
//! transport headers do not survive. INTG-STD-015 R-15 asks for them (SHOULD) and R-6 says
//! to "propagate from the originating request". With this feature:
//!
//! - **Producing**: [`Event::new`](crate::Event::new) and
//!   [`EventBuilder::build`](crate::EventBuilder::build) set `traceparent` (and `tracestate`
//!   when the span has one) from the span of the current OpenTelemetry [`Context`], unless
//!   the event already has one (set on the builder, or a payload field). A span in the
//!   current context wins over a parent event's trace context (`caused_by`): the current span
//!   is the one processing that parent. Without an active span nothing is set and the cost is
//!   one thread-local read. [`Event::with_trace_context`](crate::Event::with_trace_context)
//!   and, for an [`AnyEvent`], [`inject`] do the same from a given context (one that is not
//!   the current one, such as `tracing_opentelemetry`'s `Span::current().context()`).
//! - **Consuming**: [`span_context`] reads the event's trace context as a remote
//!   [`SpanContext`] (`Context::current().with_remote_span_context(..)` parents work on it), and
//!   [`consumer_span`] starts the `process` span of the OpenTelemetry messaging and
//!   CloudEvents semantic conventions: kind `Consumer`, a link to the producer's span, the
//!   `cloudevents.*` attributes, and as parent the current span, or the producer's span when
//!   there is none.
//!
//! `traceparent` and `tracestate` are checked by `cloudevent-rules` (`W3C trace-context`),
//! the same check every reader runs; a value that fails it is a [`TraceContextError`] naming
//! the attribute, never a panic and never silently ignored.
//!
//! ```
//! use cloudevent_runtime::{CloudEvent, Event, Traceable, otel};
//! use opentelemetry::trace::{SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState};
//! use opentelemetry::Context;
//!
//! #[derive(serde::Serialize, CloudEvent)]
//! #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
//! struct OrderCreated;
//!
//! // A producer inside a span (here a remote one, so the example needs no SDK).
//! let producer = SpanContext::new(
//!     TraceId::from_hex("4bf92f3577b34da6a3ce929d0e0e4736").unwrap(),
//!     SpanId::from_hex("00f067aa0ba902b7").unwrap(),
//!     TraceFlags::SAMPLED,
//!     true,
//!     TraceState::default(),
//! );
//! let _guard = Context::current().with_remote_span_context(producer.clone()).attach();
//! let event = Event::new(OrderCreated);
//! assert_eq!(
//!     event.traceparent().as_deref(),
//!     Some("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
//! );
//!
//! // The consumer gets the producer's span context back.
//! let received = otel::span_context(&event).unwrap().unwrap();
//! assert_eq!(received.trace_id(), producer.trace_id());
//! assert_eq!(received.span_id(), producer.span_id());
//! assert!(received.is_remote());
//! ```

use std::borrow::Cow;

use cloudevent_rules::Violation;
use opentelemetry::trace::{
    Link, SpanBuilder, SpanContext, SpanId, SpanKind, TraceContextExt, TraceFlags, TraceId,
    TraceState, Tracer,
};
use opentelemetry::{Context, KeyValue};

use crate::any::AnyEvent;
use crate::error::BuildError;
use crate::trace::{TRACEPARENT, TRACESTATE, Traceable};

/// An event's `traceparent` or `tracestate` that cannot be a span context.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, otel};
///
/// let mut event = AnyEvent::new("1", "/orders", "com.example.order.created");
/// event.extensions_mut().insert("traceparent", "00-zz");
/// let err = otel::span_context(&event).unwrap_err();
/// assert_eq!(err.violation().attribute, "traceparent");
/// assert_eq!(err.violation().rule.as_str(), "W3C trace-context");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct TraceContextError(Box<Violation>);

impl TraceContextError {
    /// The finding: the attribute, the rule id (`W3C trace-context`) and what was found.
    ///
    /// ```
    /// # use cloudevent_runtime::{AnyEvent, otel};
    /// # let mut event = AnyEvent::new("1", "/orders", "com.example.order.created");
    /// event.extensions_mut().insert("traceparent", 7);
    /// assert!(otel::span_context(&event).unwrap_err().to_string().contains("traceparent"));
    /// ```
    pub fn violation(&self) -> &Violation {
        &self.0
    }
}

fn refused(violation: Violation) -> TraceContextError {
    TraceContextError(Box::new(violation))
}

/// `traceparent` and `tracestate` (`None`: the span has none) of the current context's
/// span; `None` without a valid span. What [`Event::new`](crate::Event::new) calls: one
/// thread-local read when there is no span.
pub(crate) fn current() -> Option<(String, Option<String>)> {
    Context::map_current(|cx| {
        let span = cx.span();
        let span = span.span_context();
        if !span.is_valid() {
            return None;
        }
        // W3C Trace Context 3.3.1: a tracestate that cannot be passed on is dropped and the
        // traceparent kept. The SDK's own tracestate parser makes this unreachable in practice.
        let tracestate = span.trace_state().header();
        let tracestate =
            (!tracestate.is_empty() && valid_tracestate(&tracestate).is_ok()).then_some(tracestate);
        Some((traceparent(span), tracestate))
    })
}

/// The W3C `traceparent` of a valid span context.
fn traceparent(span: &SpanContext) -> String {
    // Version 00 carries only the sampled flag (W3C Trace Context 3.2.2.5); the other bits
    // of OpenTelemetry's flags are not the wire's.
    let flags = span.trace_flags() & TraceFlags::SAMPLED;
    format!(
        "00-{}-{}-{:02x}",
        span.trace_id(),
        span.span_id(),
        flags.to_u8()
    )
}

fn valid_tracestate(tracestate: &str) -> Result<(), BuildError> {
    let found = cloudevent_rules::check_tracestate(tracestate);
    if found.iter().any(Violation::is_error) {
        return Err(BuildError::Invalid(found));
    }
    Ok(())
}

/// `traceparent` and `tracestate` (`None`: the span has none) of the span of `cx`; `None`
/// without a valid span.
///
/// # Errors
/// [`BuildError::Invalid`] when the span's `tracestate` breaks the W3C rule of
/// `cloudevent-rules`, which every reader would refuse.
pub(crate) fn trace_extensions(
    cx: &Context,
) -> Result<Option<(String, Option<String>)>, BuildError> {
    let span = cx.span();
    let span = span.span_context();
    if !span.is_valid() {
        return Ok(None);
    }
    let tracestate = span.trace_state().header();
    if tracestate.is_empty() {
        return Ok(Some((traceparent(span), None)));
    }
    valid_tracestate(&tracestate)?;
    Ok(Some((traceparent(span), Some(tracestate))))
}

/// Sets `traceparent` and `tracestate` on a dynamic event from the span of `cx`, replacing
/// what the event had (its `tracestate` goes with its `traceparent` when the span has none).
/// Returns whether `cx` had a valid span; without one the event is left as it was.
///
/// [`Event::new`](crate::Event::new) and the builder do this with the current context by
/// themselves; [`Event::with_trace_context`](crate::Event::with_trace_context) does it for a
/// typed event with another context.
///
/// # Errors
/// [`BuildError::Invalid`] when the span's `tracestate` breaks the W3C rule
/// (`cloudevent_rules::check_tracestate`); the event is then unchanged.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Traceable, otel};
/// use opentelemetry::trace::{SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState};
/// use opentelemetry::Context;
///
/// let span = SpanContext::new(
///     TraceId::from_hex("4bf92f3577b34da6a3ce929d0e0e4736").unwrap(),
///     SpanId::from_hex("00f067aa0ba902b7").unwrap(),
///     TraceFlags::default(),
///     false,
///     "vendor=1".parse::<TraceState>().unwrap(),
/// );
/// let mut event = AnyEvent::new("1", "/orders", "com.example.order.created");
/// assert!(otel::inject(&mut event, &Context::new().with_remote_span_context(span)).unwrap());
/// assert_eq!(event.traceparent().as_deref(), Some("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"));
/// assert_eq!(event.tracestate().as_deref(), Some("vendor=1"));
/// assert!(!otel::inject(&mut event, &Context::new()).unwrap());
/// ```
pub fn inject(event: &mut AnyEvent, cx: &Context) -> Result<bool, BuildError> {
    let Some((traceparent, tracestate)) = trace_extensions(cx)? else {
        return Ok(false);
    };
    let extensions = event.extensions_mut();
    extensions.insert(TRACEPARENT, traceparent);
    match tracestate {
        Some(tracestate) => extensions.insert(TRACESTATE, tracestate),
        None => extensions.remove(TRACESTATE),
    };
    Ok(true)
}

/// The producer's span context carried by the event (remote, as OpenTelemetry calls a span
/// context that came from another process); `None` when the event has no `traceparent`.
/// A `tracestate` without a `traceparent` is ignored, as W3C Trace Context 3.3 asks.
///
/// # Errors
/// [`TraceContextError`] when `traceparent` or `tracestate` is not a String or breaks the
/// W3C format (`cloudevent_rules::check_traceparent`, `check_tracestate`).
///
/// ```
/// use cloudevent_runtime::{AnyEvent, otel};
///
/// let mut event = AnyEvent::new("1", "/orders", "com.example.order.created");
/// assert_eq!(otel::span_context(&event).unwrap(), None);
/// event.extensions_mut().insert("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
/// event.extensions_mut().insert("tracestate", "congo=t61rcWkgMzE");
/// let span = otel::span_context(&event).unwrap().unwrap();
/// assert!(span.is_sampled());
/// assert_eq!(span.trace_state().get("congo"), Some("t61rcWkgMzE"));
/// ```
pub fn span_context(
    event: &(impl Traceable + ?Sized),
) -> Result<Option<SpanContext>, TraceContextError> {
    let Some(traceparent) = string_extension(event, TRACEPARENT)? else {
        return Ok(None);
    };
    if let Some(violation) = first_error(cloudevent_rules::check_traceparent(&traceparent)) {
        return Err(refused(violation));
    }
    // The rule above has checked the shape: lowercase hex fields at fixed offsets, non-zero
    // ids; a later version's extra fields, after byte 55, are not read (W3C 3.2.4).
    let field = |range: std::ops::Range<usize>| traceparent.get(range).unwrap_or_default();
    let parsed = (
        TraceId::from_hex(field(3..35)),
        SpanId::from_hex(field(36..52)),
        u8::from_str_radix(field(53..55), 16),
    );
    let (Ok(trace_id), Ok(span_id), Ok(flags)) = parsed else {
        return Err(refused(Violation::error(
            cloudevent_rules::rule::W3C_TRACE_CONTEXT,
            TRACEPARENT,
            traceparent.as_ref(),
            "is not a W3C traceparent",
        )));
    };
    let trace_state = match string_extension(event, TRACESTATE)? {
        None => TraceState::default(),
        Some(tracestate) => {
            if let Some(violation) = first_error(cloudevent_rules::check_tracestate(&tracestate)) {
                return Err(refused(violation));
            }
            tracestate.parse::<TraceState>().map_err(|error| {
                refused(Violation::error(
                    cloudevent_rules::rule::W3C_TRACE_CONTEXT,
                    TRACESTATE,
                    tracestate.as_ref(),
                    format!("is refused by OpenTelemetry: {error}"),
                ))
            })?
        }
    };
    Ok(Some(SpanContext::new(
        trace_id,
        span_id,
        TraceFlags::new(flags),
        true,
        trace_state,
    )))
}

/// Starts the consumer's `process` span for a received event (OpenTelemetry semantic
/// conventions for messaging and CloudEvents spans): named `process <type>`, kind
/// [`SpanKind::Consumer`], with the attributes `cloudevents.event_id`, `event_source`,
/// `event_spec_version`, `event_type` and `event_subject`, and a link to the producer's span
/// when the event carries one. Its parent is the current span (say, the HTTP server's) when
/// there is one, else the producer's span, so a consumer that starts no span of its own
/// still continues the producer's trace.
///
/// # Errors
/// [`TraceContextError`] as for [`span_context`]; no span is started then.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, otel};
/// use opentelemetry::trace::{Span, noop::NoopTracer};
///
/// let event = AnyEvent::new("1", "/orders", "com.example.order.created");
/// let mut span = otel::consumer_span(&NoopTracer::new(), &event).unwrap();
/// span.end();
/// ```
pub fn consumer_span<T: Tracer>(
    tracer: &T,
    event: &(impl Traceable + ?Sized),
) -> Result<T::Span, TraceContextError> {
    let producer = span_context(event)?;
    let mut attributes = vec![
        KeyValue::new("cloudevents.event_id", event.id().to_owned()),
        KeyValue::new("cloudevents.event_source", event.source().to_owned()),
        KeyValue::new("cloudevents.event_spec_version", "1.0"),
        KeyValue::new("cloudevents.event_type", event.ty().to_owned()),
    ];
    if let Some(subject) = event.subject() {
        attributes.push(KeyValue::new(
            "cloudevents.event_subject",
            subject.to_owned(),
        ));
    }
    let mut builder = SpanBuilder::from_name(format!("process {}", event.ty()))
        .with_kind(SpanKind::Consumer)
        .with_attributes(attributes);
    let current = Context::current();
    let parent = match producer {
        Some(producer) => {
            builder = builder.with_links(vec![Link::with_context(producer.clone())]);
            if current.has_active_span() {
                current
            } else {
                current.with_remote_span_context(producer)
            }
        }
        None => current,
    };
    Ok(builder.start_with_context(tracer, &parent))
}

/// A String extension's text; an extension of another type under a trace name is refused.
fn string_extension<'e>(
    event: &'e (impl Traceable + ?Sized),
    name: &'static str,
) -> Result<Option<Cow<'e, str>>, TraceContextError> {
    let Some(value) = event.extension_value(name) else {
        return Ok(None);
    };
    if value.as_str().is_none() {
        return Err(refused(Violation::error(
            cloudevent_rules::rule::W3C_TRACE_CONTEXT,
            name,
            format!("{:?}", value.as_ref()),
            "must be a String",
        )));
    }
    Ok(event.extension_str(name))
}

fn first_error(found: Vec<Violation>) -> Option<Violation> {
    found.into_iter().find(Violation::is_error)
}
