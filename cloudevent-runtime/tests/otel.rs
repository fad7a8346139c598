//! OpenTelemetry propagation end to end: a producer span, an event built inside it, the event
//! over the HTTP binding (a real axum server on 127.0.0.1, the real reqwest client) and the
//! consumer's span, recorded by the OpenTelemetry SDK's in-memory exporter.
#![cfg(all(feature = "otel", feature = "axum", feature = "reqwest"))]

use cloudevent_runtime::Attributes;
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use cloudevent_runtime::binding::ContentMode;
use cloudevent_runtime::binding::http::event_request;
use cloudevent_runtime::binding::reqwest::{RetryPolicy, Sender};
use cloudevent_runtime::{AnyEvent, CloudEvent, Event, Traceable, otel};
use opentelemetry::trace::{
    Span, SpanContext, SpanId, SpanKind, TraceContextExt, TraceFlags, TraceId, TraceState, Tracer,
    TracerProvider,
};
use opentelemetry::{Context, KeyValue};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracer, SdkTracerProvider, SpanData};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com/checkout"
)]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.payment.requested",
    source = "https://payments.example.com"
)]
struct PaymentRequested {
    #[cloudevent(subject)]
    order_id: String,
}

fn order() -> OrderCreated {
    OrderCreated {
        order_id: "order-1".into(),
    }
}

/// A tracer provider of its own per test (no global state), exporting to memory.
fn tracing() -> (SdkTracerProvider, SdkTracer, InMemorySpanExporter) {
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let tracer = provider.tracer("cloudevent-runtime-tests");
    (provider, tracer, exporter)
}

fn finished(exporter: &InMemorySpanExporter, name: &str) -> SpanData {
    let spans = exporter.get_finished_spans().unwrap();
    let names: Vec<_> = spans.iter().map(|span| span.name.to_string()).collect();
    spans
        .into_iter()
        .find(|span| span.name == name)
        .unwrap_or_else(|| panic!("no finished span `{name}` among {names:?}"))
}

fn attribute<'s>(span: &'s SpanData, key: &str) -> Option<&'s opentelemetry::Value> {
    span.attributes
        .iter()
        .find(|kv| kv.key.as_str() == key)
        .map(|kv| &kv.value)
}

/// The consumer: an axum handler that starts the `process` span for each event it accepts,
/// inside a server span when `State(true)`.
async fn consume(
    State((tracer, server_span)): State<(SdkTracer, bool)>,
    event: Event<OrderCreated>,
) -> StatusCode {
    let server = server_span.then(|| Context::current_with_span(tracer.start("POST /orders")));
    let _guard = server.clone().map(Context::attach);
    let mut span = otel::consumer_span(&tracer, &event).expect("the reader checked traceparent");
    span.set_attribute(KeyValue::new("order", event.data().order_id.clone()));
    span.end();
    if let Some(server) = server {
        server.span().end();
    }
    StatusCode::ACCEPTED
}

async fn serve(tracer: SdkTracer, server_span: bool) -> String {
    let app = Router::new()
        .route("/orders", post(consume))
        .with_state((tracer, server_span));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{address}/orders")
}

fn sender() -> Sender {
    Sender::new(
        reqwest::Client::new(),
        RetryPolicy {
            max_attempts: 2,
            initial_backoff: Duration::from_millis(10),
            max_backoff: Duration::from_millis(50),
            max_retry_after: Duration::from_secs(1),
        },
    )
}

/// Every network test runs under this bound, so a hung server fails instead of hanging CI.
async fn bounded<F: std::future::Future<Output = ()>>(test: F) {
    tokio::time::timeout(Duration::from_secs(30), test)
        .await
        .expect("test took longer than 30 s");
}

/// Builds the event inside a producer span (the span is ended once the event is sent).
fn produce(tracer: &SdkTracer) -> (Context, Event<OrderCreated>) {
    let cx = Context::current_with_span(
        tracer
            .span_builder("send order")
            .with_kind(SpanKind::Producer)
            .start(tracer),
    );
    let _guard = cx.clone().attach();
    (cx, Event::new(order()))
}

#[tokio::test]
async fn producer_span_reaches_the_consumer_span_over_http_in_both_modes() {
    bounded(async {
        for mode in [ContentMode::Binary, ContentMode::Structured] {
            let (provider, tracer, exporter) = tracing();
            let url = serve(tracer.clone(), false).await;
            let (producer_cx, event) = produce(&tracer);
            let producer = producer_cx.span().span_context().clone();
            assert_eq!(
                event.traceparent().as_deref(),
                Some(format!("00-{}-{}-01", producer.trace_id(), producer.span_id()).as_str()),
                "{mode:?}: Event::new takes the current span"
            );

            let request = event_request(url, &event, mode).unwrap();
            let delivered = sender().send(request).await.unwrap();
            assert_eq!(delivered.status, StatusCode::ACCEPTED, "{mode:?}");
            producer_cx.span().end();

            let consumer = finished(&exporter, "process com.example.order.created");
            assert_eq!(consumer.span_kind, SpanKind::Consumer, "{mode:?}");
            assert_eq!(
                consumer.span_context.trace_id(),
                producer.trace_id(),
                "{mode:?}"
            );
            assert_eq!(consumer.parent_span_id, producer.span_id(), "{mode:?}");
            let links: Vec<_> = consumer
                .links
                .iter()
                .map(|l| l.span_context.clone())
                .collect();
            assert_eq!(links.len(), 1, "{mode:?}");
            assert_eq!(links[0].trace_id(), producer.trace_id(), "{mode:?}");
            assert_eq!(links[0].span_id(), producer.span_id(), "{mode:?}");
            assert!(links[0].is_remote(), "{mode:?}");
            assert_eq!(
                attribute(&consumer, "cloudevents.event_id").map(ToString::to_string),
                Some(event.id().to_owned())
            );
            assert_eq!(
                attribute(&consumer, "cloudevents.event_type").map(ToString::to_string),
                Some("com.example.order.created".to_owned())
            );
            assert_eq!(
                attribute(&consumer, "cloudevents.event_subject").map(ToString::to_string),
                Some("order-1".to_owned())
            );
            // The producer's span was exported too, in the same trace.
            let sent = finished(&exporter, "send order");
            assert_eq!(sent.span_context.span_id(), producer.span_id());
            provider.shutdown().unwrap();
        }
    })
    .await;
}

#[tokio::test]
async fn a_consumer_inside_a_server_span_keeps_it_as_parent_and_links_the_producer() {
    bounded(async {
        let (provider, tracer, exporter) = tracing();
        let url = serve(tracer.clone(), true).await;
        let (producer_cx, event) = produce(&tracer);
        let producer = producer_cx.span().span_context().clone();
        let request = event_request(url, &event, ContentMode::Binary).unwrap();
        sender().send(request).await.unwrap();
        producer_cx.span().end();

        let server = finished(&exporter, "POST /orders");
        let consumer = finished(&exporter, "process com.example.order.created");
        assert_eq!(consumer.parent_span_id, server.span_context.span_id());
        assert_eq!(consumer.links.len(), 1);
        assert_eq!(consumer.links[0].span_context.span_id(), producer.span_id());
        assert_eq!(
            consumer.links[0].span_context.trace_id(),
            producer.trace_id()
        );
        provider.shutdown().unwrap();
    })
    .await;
}

#[test]
fn without_an_active_span_nothing_is_set_and_the_consumer_span_is_a_root() {
    let (provider, tracer, exporter) = tracing();
    let event = Event::new(order());
    assert_eq!(event.traceparent(), None);
    assert_eq!(event.tracestate(), None);
    assert_eq!(otel::span_context(&event).unwrap(), None);
    otel::consumer_span(&tracer, &event).unwrap().end();
    let consumer = finished(&exporter, "process com.example.order.created");
    assert_eq!(consumer.parent_span_id, SpanId::INVALID);
    assert!(consumer.links.is_empty());
    provider.shutdown().unwrap();
}

fn remote(trace: &str, span: &str, state: &str) -> Context {
    Context::new().with_remote_span_context(SpanContext::new(
        TraceId::from_hex(trace).unwrap(),
        SpanId::from_hex(span).unwrap(),
        TraceFlags::SAMPLED,
        true,
        state.parse::<TraceState>().unwrap(),
    ))
}

const CURRENT_TRACE: &str = "0af7651916cd43dd8448eb211c80319c";
const PARENT_TRACEPARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

#[test]
fn the_current_span_wins_over_the_parent_event_and_an_explicit_value_over_both() {
    let parent = Event::builder(order())
        .extension("traceparent", PARENT_TRACEPARENT)
        .extension("tracestate", "parent=1")
        .build()
        .unwrap();
    let current = remote(CURRENT_TRACE, "b7ad6b7169203331", "");
    let _guard = current.attach();
    let expected = format!("00-{CURRENT_TRACE}-b7ad6b7169203331-01");

    // The builder and `caused_by` after `new`: the current span's trace, and the parent's
    // tracestate does not come along with someone else's traceparent.
    let child = Event::builder(PaymentRequested {
        order_id: "order-1".into(),
    })
    .caused_by(&parent)
    .build()
    .unwrap();
    assert_eq!(child.traceparent().as_deref(), Some(expected.as_str()));
    assert_eq!(child.tracestate(), None);
    assert_eq!(child.causationid().as_deref(), Some(parent.id()));
    let child = Event::new(PaymentRequested {
        order_id: "order-1".into(),
    })
    .caused_by(&parent);
    assert_eq!(child.traceparent().as_deref(), Some(expected.as_str()));
    assert_eq!(child.tracestate(), None);

    // An explicit traceparent on the builder wins over the current span.
    let explicit = Event::builder(order())
        .extension("traceparent", PARENT_TRACEPARENT)
        .build()
        .unwrap();
    assert_eq!(explicit.traceparent().as_deref(), Some(PARENT_TRACEPARENT));
}

#[test]
fn without_a_span_the_parent_events_trace_context_is_carried_as_a_pair() {
    let parent = Event::builder(order())
        .extension("traceparent", PARENT_TRACEPARENT)
        .extension("tracestate", "parent=1")
        .build()
        .unwrap();
    let child = Event::new(PaymentRequested {
        order_id: "order-1".into(),
    })
    .caused_by(&parent);
    assert_eq!(child.traceparent().as_deref(), Some(PARENT_TRACEPARENT));
    assert_eq!(child.tracestate().as_deref(), Some("parent=1"));
}

#[test]
fn a_span_with_tracestate_is_injected_and_extracted_with_it() {
    let cx = remote(
        CURRENT_TRACE,
        "b7ad6b7169203331",
        "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE",
    );
    let event = {
        let _guard = cx.attach();
        Event::new(order())
    };
    assert_eq!(
        event.tracestate().as_deref(),
        Some("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE")
    );
    let back = otel::span_context(&event).unwrap().unwrap();
    assert_eq!(back.trace_state().get("congo"), Some("t61rcWkgMzE"));

    // The typed event's explicit form replaces both.
    let plain = event
        .with_trace_context(&remote(CURRENT_TRACE, "00f067aa0ba902b7", ""))
        .unwrap();
    assert_eq!(plain.tracestate(), None);
    assert!(plain.traceparent().unwrap().contains("00f067aa0ba902b7"));
}

#[test]
fn hostile_trace_extensions_are_typed_errors_naming_the_attribute() {
    let cases: [(&str, cloudevent_runtime::ExtensionValueBuf, &str); 6] = [
        ("traceparent", "00-zz".into(), "traceparent"),
        ("traceparent", 7.into(), "traceparent"),
        (
            "traceparent",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01".into(),
            "traceparent",
        ),
        (
            "traceparent",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01".into(),
            "traceparent",
        ),
        (
            "traceparent",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".into(),
            "traceparent",
        ),
        ("tracestate", "=,=,=".into(), "tracestate"),
    ];
    for (name, value, attribute) in cases {
        let mut event = AnyEvent::new("1", "/orders", "com.example.order.created");
        event
            .extensions_mut()
            .insert("traceparent", PARENT_TRACEPARENT);
        event.extensions_mut().insert(name, value.clone());
        let err = otel::span_context(&event).unwrap_err();
        assert_eq!(err.violation().attribute, attribute, "{value:?}");
        assert_eq!(
            err.violation().rule.as_str(),
            "W3C trace-context",
            "{value:?}"
        );
        let (_provider, tracer, _exporter) = tracing();
        assert!(otel::consumer_span(&tracer, &event).is_err(), "{value:?}");
    }
}

#[test]
fn a_later_traceparent_version_is_read_by_its_version_00_fields() {
    let mut event = AnyEvent::new("1", "/orders", "com.example.order.created");
    event.extensions_mut().insert(
        "traceparent",
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-comes-next",
    );
    let span = otel::span_context(&event).unwrap().unwrap();
    assert_eq!(span.span_id().to_string(), "00f067aa0ba902b7");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    /// Extraction never panics, and agrees with the one traceparent rule of
    /// `cloudevent-rules`: a span context exactly when the rule finds nothing.
    #[test]
    fn extraction_of_hostile_traceparents_never_panics_and_agrees_with_the_rule(
        text in prop_oneof![
            any::<String>(),
            "[0-9a-fA-F-]{0,70}",
            "0[0-9a-f]-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}(-.{0,8})?",
        ],
        state in proptest::option::of(prop_oneof![any::<String>(), "[a-z]{1,4}=[ -~]{0,6}(,[a-z]{1,3}=[a-z0-9]{0,4}){0,3}"]),
    ) {
        let mut event = AnyEvent::new("1", "/orders", "com.example.order.created");
        event.extensions_mut().insert("traceparent", text.clone());
        if let Some(state) = &state {
            event.extensions_mut().insert("tracestate", state.clone());
        }
        let result = otel::span_context(&event);
        let rule_ok = cloudevent_runtime::rules::check_traceparent(&text).is_empty();
        if !rule_ok {
            prop_assert!(result.is_err());
            prop_assert_eq!(result.unwrap_err().violation().attribute.to_string(), "traceparent");
        } else if let Ok(Some(span)) = &result {
            prop_assert!(span.is_valid());
            prop_assert_eq!(span.trace_id().to_string(), &text[3..35]);
        } else {
            // Only the tracestate can refuse a traceparent the rule accepts.
            let err = result.unwrap_err();
            prop_assert_eq!(err.violation().attribute.to_string(), "tracestate");
        }
    }

    /// Any valid span context survives inject -> event JSON -> reader -> extract.
    #[test]
    fn span_contexts_round_trip_through_the_event(
        trace in 1u128..,
        span in 1u64..,
        sampled in any::<bool>(),
    ) {
        let cx = Context::new().with_remote_span_context(SpanContext::new(
            TraceId::from(trace),
            SpanId::from(span),
            TraceFlags::default().with_sampled(sampled),
            false,
            TraceState::default(),
        ));
        let mut event = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
        prop_assert!(otel::inject(&mut event, &cx).unwrap());
        let read = AnyEvent::from_slice(&serde_json::to_vec(&event).unwrap()).unwrap();
        let back = otel::span_context(&read).unwrap().unwrap();
        prop_assert_eq!(back.trace_id(), TraceId::from(trace));
        prop_assert_eq!(back.span_id(), SpanId::from(span));
        prop_assert_eq!(back.is_sampled(), sampled);
    }
}

#[test]
fn a_span_tracestate_the_w3c_rule_refuses_is_left_out_by_new_and_refused_explicitly() {
    // OpenTelemetry's parser takes a value outside printable ASCII; W3C Trace Context
    // 3.3.1.3.2 (and so the rules crate) does not.
    let Ok(state) = TraceState::from_key_value([("vendor", "é")]) else {
        panic!("OpenTelemetry now refuses this tracestate: pick another that the rule refuses");
    };
    assert!(!cloudevent_runtime::rules::check_tracestate("vendor=é").is_empty());
    let cx = Context::new().with_remote_span_context(SpanContext::new(
        TraceId::from_hex(CURRENT_TRACE).unwrap(),
        SpanId::from_hex("b7ad6b7169203331").unwrap(),
        TraceFlags::SAMPLED,
        true,
        state,
    ));
    let event = {
        let _guard = cx.clone().attach();
        Event::new(order())
    };
    assert!(event.traceparent().is_some());
    assert_eq!(event.tracestate(), None);
    let err = Event::new(order()).with_trace_context(&cx).unwrap_err();
    assert_eq!(err.violations()[0].attribute, "tracestate");
}
