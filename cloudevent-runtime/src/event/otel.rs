//! OpenTelemetry trace context in a typed event (feature `otel`; see [`crate::otel`]).

use opentelemetry::Context;

use super::*;

impl<T: CloudEventData> Event<T> {
    /// Sets `traceparent` and `tracestate` from the span of `cx`, replacing the event's own
    /// (its `tracestate` goes with its `traceparent` when the span has none); without a valid
    /// span in `cx` the event is returned as it was. [`Event::new`] and the builder already
    /// take the current context's span; this is for another context, such as
    /// `tracing_opentelemetry`'s `tracing::Span::current().context()`.
    ///
    /// # Errors
    /// [`BuildError::Invalid`] when the span's `tracestate` breaks the W3C rule
    /// (`cloudevent_rules::check_tracestate`).
    ///
    /// ```
    /// use cloudevent_runtime::{CloudEvent, Event, Traceable};
    /// use opentelemetry::trace::{SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState};
    /// use opentelemetry::Context;
    ///
    /// #[derive(serde::Serialize, CloudEvent)]
    /// #[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com")]
    /// struct Ping;
    ///
    /// let span = SpanContext::new(
    ///     TraceId::from_hex("4bf92f3577b34da6a3ce929d0e0e4736").unwrap(),
    ///     SpanId::from_hex("00f067aa0ba902b7").unwrap(),
    ///     TraceFlags::SAMPLED,
    ///     false,
    ///     TraceState::default(),
    /// );
    /// let event = Event::new(Ping)
    ///     .with_trace_context(&Context::new().with_remote_span_context(span))
    ///     .unwrap();
    /// assert_eq!(
    ///     event.traceparent().as_deref(),
    ///     Some("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
    /// );
    /// assert_eq!(event.tracestate(), None);
    /// ```
    pub fn with_trace_context(mut self, cx: &Context) -> Result<Self, BuildError> {
        if let Some((traceparent, tracestate)) = crate::otel::trace_extensions(cx)? {
            self.set_trace(traceparent, tracestate);
        }
        Ok(self)
    }

    /// What [`Event::fresh`] does with the feature on: the current span's trace context,
    /// unless the payload fills `traceparent` itself. A span `tracestate` that the W3C rule
    /// refuses (a reader would refuse the event) is left out and its `traceparent` kept, as
    /// W3C Trace Context 3.3.1 lets a vendor do; `with_trace_context` reports it instead.
    pub(super) fn traced_by_current_span(mut self) -> Self {
        if let Some((traceparent, tracestate)) = crate::otel::current()
            && payload_extension(&self.data, TRACEPARENT).is_none()
        {
            self.set_trace(traceparent, tracestate);
        }
        self
    }

    fn set_trace(&mut self, traceparent: String, tracestate: Option<String>) {
        self.extensions.insert(TRACEPARENT, traceparent);
        match tracestate {
            Some(tracestate) => self.extensions.insert(TRACESTATE, tracestate),
            None => self.extensions.remove(TRACESTATE),
        };
    }
}
