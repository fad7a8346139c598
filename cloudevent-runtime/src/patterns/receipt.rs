//! What a consumer records on receipt (INTG-STD-015 R-15): `id`, `source`, `type` and `time`.
//!
//! R-15: "Consumers MUST log id, source, type, and time upon receipt. The combination of
//! source + id + time MUST be sufficient to locate the originating event in producer logs."
//! [`Receivable::receipt`] reads those four attributes from [`Event<T>`](crate::Event) or
//! [`AnyEvent`](crate::AnyEvent); with the `tracing` feature, `Receivable::log_receipt`
//! writes them as one `info` event on the `cloudevent::receipt` target.
//!
//! Where the runtime itself receives an event, it logs the receipt (with the `tracing`
//! feature): the axum extractors (`Event<T>`, `AnyEvent`, `Batch`, `Events<E>`: one record
//! per event) and `binding::nats::handle_once`. Code that reads events any other way (a
//! Kafka or MQTT client loop, `from_slice` on a body it fetched) calls `log_receipt` itself.
//!
//! ```
//! use cloudevent_runtime::AnyEvent;
//! use cloudevent_runtime::receipt::Receivable;
//!
//! let event = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"01J0A","source":"/orders",
//!     "type":"com.example.order.created","time":"2026-03-28T14:22:31Z"}"#).unwrap();
//! let receipt = event.receipt();
//! assert_eq!(receipt.to_string(),
//!     "id=01J0A source=/orders type=com.example.order.created time=2026-03-28T14:22:31Z");
//! ```

use std::fmt;

use crate::attributes::Attributes;
use crate::value::Timestamp;

/// The `tracing` target receipts are logged on, to filter them (`cloudevent::receipt=info`).
pub const TARGET: &str = "cloudevent::receipt";

/// The attributes R-15 asks a consumer to log, borrowed from a received event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Receipt<'a> {
    /// `id`.
    pub id: &'a str,
    /// `source`.
    pub source: &'a str,
    /// `type`.
    pub ty: &'a str,
    /// `time`, when the producer set it (R-2 says SHOULD).
    pub time: Option<&'a str>,
}

impl Receipt<'_> {
    /// Logs the receipt at `info` level on [`TARGET`], with fields `id`, `source`, `type` and
    /// `time` (absent when the event has none).
    ///
    /// ```
    /// use cloudevent_runtime::receipt::Receipt;
    ///
    /// Receipt { id: "1", source: "/orders", ty: "com.example.order.created", time: None }.log();
    /// ```
    #[cfg(feature = "tracing")]
    #[cfg_attr(docsrs, doc(cfg(feature = "tracing")))]
    pub fn log(&self) {
        tracing::info!(
            target: "cloudevent::receipt",
            id = self.id,
            source = self.source,
            "type" = self.ty,
            time = self.time,
            "event received"
        );
    }
}

impl fmt::Display for Receipt<'_> {
    /// `id=.. source=.. type=.. time=..` (`time=-` when absent), for plain-text logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "id={} source={} type={} time={}",
            self.id,
            self.source,
            self.ty,
            self.time.unwrap_or("-")
        )
    }
}

/// An event a consumer can receive: it yields its [`Receipt`]. Every event type has it (a
/// blanket implementation over [`Attributes`]).
pub trait Receivable: Attributes {
    /// The attributes to log on receipt.
    fn receipt(&self) -> Receipt<'_> {
        Receipt {
            id: self.id(),
            source: self.source(),
            ty: self.ty(),
            time: self.time().map(Timestamp::as_str),
        }
    }

    /// Logs the receipt (INTG-STD-015 R-15); see [`Receipt::log`].
    ///
    /// ```
    /// use cloudevent_runtime::AnyEvent;
    /// use cloudevent_runtime::receipt::Receivable;
    ///
    /// AnyEvent::new("1", "/orders", "com.example.order.created").log_receipt();
    /// ```
    #[cfg(feature = "tracing")]
    #[cfg_attr(docsrs, doc(cfg(feature = "tracing")))]
    fn log_receipt(&self) {
        self.receipt().log();
    }
}

impl<E: Attributes + ?Sized> Receivable for E {}

/// Logs the receipt of an event the runtime received itself (see the module docs); without
/// the `tracing` feature there is nothing to log to.
#[cfg(any(feature = "axum", feature = "nats"))]
pub(crate) fn received<E: Receivable + ?Sized>(event: &E) {
    #[cfg(feature = "tracing")]
    event.log_receipt();
    #[cfg(not(feature = "tracing"))]
    let _ = event;
}

/// A `tracing` subscriber that keeps what it is given, for the tests of every receiving point.
#[cfg(all(test, feature = "tracing"))]
pub(crate) mod capture {
    use std::fmt;
    use std::sync::{Arc, Mutex};

    use tracing::field::{Field, Visit};
    use tracing::span::{Attributes, Id, Record};
    use tracing::{Event as TracingEvent, Level, Metadata, Subscriber};

    /// One logged event: level, target and fields as text.
    #[derive(Debug, Clone, PartialEq)]
    pub(crate) struct Logged {
        pub(crate) level: Level,
        pub(crate) target: String,
        pub(crate) fields: Vec<(String, String)>,
    }

    /// Keeps every event it is given.
    #[derive(Default, Clone)]
    struct Capture(Arc<Mutex<Vec<Logged>>>);

    struct Fields<'a>(&'a mut Vec<(String, String)>);

    impl Visit for Fields<'_> {
        fn record_str(&mut self, field: &Field, value: &str) {
            self.0.push((field.name().to_owned(), value.to_owned()));
        }

        fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
            self.0.push((field.name().to_owned(), format!("{value:?}")));
        }
    }

    impl Subscriber for Capture {
        fn enabled(&self, _: &Metadata<'_>) -> bool {
            true
        }
        fn new_span(&self, _: &Attributes<'_>) -> Id {
            Id::from_u64(1)
        }
        fn record(&self, _: &Id, _: &Record<'_>) {}
        fn record_follows_from(&self, _: &Id, _: &Id) {}
        fn event(&self, event: &TracingEvent<'_>) {
            let mut fields = Vec::new();
            event.record(&mut Fields(&mut fields));
            self.0.lock().unwrap().push(Logged {
                level: *event.metadata().level(),
                target: event.metadata().target().to_owned(),
                fields,
            });
        }
        fn enter(&self, _: &Id) {}
        fn exit(&self, _: &Id) {}
    }

    /// What `f` logged on this thread.
    pub(crate) fn captured(f: impl FnOnce()) -> Vec<Logged> {
        let capture = Capture::default();
        tracing::subscriber::with_default(capture.clone(), f);
        capture.0.lock().unwrap().clone()
    }

    /// A field's value as text.
    pub(crate) fn field<'a>(logged: &'a Logged, name: &str) -> Option<&'a str> {
        logged
            .fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

#[cfg(all(test, feature = "tracing"))]
mod tests {
    use tracing::Level;

    use super::capture::{captured, field};
    use super::*;
    use crate::{AnyEvent, Event};

    #[test]
    fn receipt_logs_id_source_type_and_time_at_info() {
        let event = AnyEvent::from_slice(
            br#"{"specversion":"1.0","id":"01J0A","source":"https://orders.example.com",
                "type":"com.example.order.created","time":"2026-03-28T14:22:31Z"}"#,
        )
        .unwrap();
        let logged = captured(|| event.log_receipt());
        assert_eq!(logged.len(), 1);
        let line = &logged[0];
        assert_eq!(line.level, Level::INFO);
        assert_eq!(line.target, TARGET);
        assert_eq!(field(line, "id"), Some("01J0A"));
        assert_eq!(field(line, "source"), Some("https://orders.example.com"));
        assert_eq!(field(line, "type"), Some("com.example.order.created"));
        assert_eq!(field(line, "time"), Some("2026-03-28T14:22:31Z"));
        assert_eq!(field(line, "message"), Some("event received"));
    }

    #[test]
    fn an_event_without_time_logs_no_time_field() {
        let event = AnyEvent::new("1", "/orders", "com.example.order.created");
        let logged = captured(|| event.log_receipt());
        assert_eq!(logged.len(), 1);
        assert_eq!(field(&logged[0], "id"), Some("1"));
        assert_eq!(field(&logged[0], "time"), None);
    }

    #[cfg(feature = "derive")]
    #[test]
    fn typed_events_log_their_receipt_too() {
        #[derive(serde::Serialize, crate::CloudEvent)]
        #[cloudevent(
            crate = "crate",
            type = "com.example.health.ping.sent",
            source = "https://health.example.com"
        )]
        struct Ping;

        let event = Event::new(Ping);
        let logged = captured(|| event.log_receipt());
        assert_eq!(field(&logged[0], "id"), Some(event.id()));
        assert_eq!(
            field(&logged[0], "type"),
            Some("com.example.health.ping.sent")
        );
        assert_eq!(
            field(&logged[0], "time"),
            event.time().map(Timestamp::as_str)
        );
    }
}
