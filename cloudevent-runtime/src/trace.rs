//! Traceability (ADR-0003) and trace context (W3C) carried between events.
//!
//! Every event carries `correlationid` and `causationid` (ADR-0003 decision 4). The
//! convention this crate follows:
//!
//! - A **root** event (one that starts a workflow, made by [`Event::new`](crate::Event::new)
//!   or the builder without a parent) gets a newly generated `correlationid` (a ULID of its
//!   own, distinct from the event id) and `causationid` equal to its **own `id`**: "caused by
//!   nothing but itself". A consumer recognises a root by `causationid == id`.
//! - An event **caused by** another ([`Event::caused_by`](crate::Event::caused_by)) gets
//!   `causationid` = the parent's `id` and keeps the parent's `correlationid` (or, when the
//!   parent has none, the parent's `id`, which makes the parent the workflow's root).
//! - `traceparent` and `tracestate` (W3C Trace Context) are copied from the parent when the
//!   child has none, so the trace follows the causal chain.
//!
//! ```
//! use cloudevent_runtime::{AnyEvent, Traceable};
//!
//! let mut root = AnyEvent::new("01ROOT", "/orders", "com.example.order.created");
//! root.extensions_mut().insert("correlationid", "wf-1");
//! root.extensions_mut().insert("causationid", "01ROOT");
//! assert!(root.is_root());
//! ```

use std::borrow::Cow;

use crate::attributes::Attributes;

/// `correlationid`: the workflow an event belongs to (ADR-0003).
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Traceable, trace::CORRELATIONID};
/// let mut event = AnyEvent::new("1", "/s", "com.example.order.created");
/// event.extensions_mut().insert(CORRELATIONID, "wf-1");
/// assert_eq!(event.correlationid().as_deref(), Some("wf-1"));
/// ```
pub const CORRELATIONID: &str = "correlationid";
/// `causationid`: the `id` of the event that caused this one (ADR-0003).
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Traceable, trace::CAUSATIONID};
/// let mut event = AnyEvent::new("1", "/s", "com.example.order.created");
/// event.extensions_mut().insert(CAUSATIONID, "1");
/// assert!(event.is_root());
/// ```
pub const CAUSATIONID: &str = "causationid";
/// `traceparent`: W3C Trace Context.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Traceable, trace::TRACEPARENT};
/// let mut event = AnyEvent::new("1", "/s", "com.example.order.created");
/// event.extensions_mut().insert(TRACEPARENT, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
/// assert!(event.traceparent().is_some());
/// ```
pub const TRACEPARENT: &str = "traceparent";
/// `tracestate`: W3C Trace Context.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Traceable, trace::TRACESTATE};
/// let mut event = AnyEvent::new("1", "/s", "com.example.order.created");
/// event.extensions_mut().insert(TRACESTATE, "vendor=1");
/// assert_eq!(event.tracestate().as_deref(), Some("vendor=1"));
/// ```
pub const TRACESTATE: &str = "tracestate";

/// An event another can be caused by: its `id` and its traceability extensions, read through
/// [`Attributes`]. Every event type has it (a blanket implementation); import it to call
/// `correlationid()` and friends.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, Traceable};
///
/// let mut parent = AnyEvent::new("01J0PARENT", "/orders", "com.example.order.created");
/// parent.extensions_mut().insert("correlationid", "wf-1");
/// assert_eq!(parent.correlationid().as_deref(), Some("wf-1"));
/// assert_eq!(parent.causationid(), None);
/// ```
pub trait Traceable: Attributes {
    /// The text of a String-typed extension, if set (`None` for other types).
    fn extension_str(&self, name: &str) -> Option<Cow<'_, str>> {
        match self.extension_value(name)? {
            Cow::Borrowed(value) => value.as_str().map(Cow::Borrowed),
            Cow::Owned(value) => value.as_str().map(|text| Cow::Owned(text.to_owned())),
        }
    }

    /// `correlationid`.
    fn correlationid(&self) -> Option<Cow<'_, str>> {
        self.extension_str(CORRELATIONID)
    }

    /// `causationid`.
    fn causationid(&self) -> Option<Cow<'_, str>> {
        self.extension_str(CAUSATIONID)
    }

    /// `traceparent`.
    fn traceparent(&self) -> Option<Cow<'_, str>> {
        self.extension_str(TRACEPARENT)
    }

    /// `tracestate`.
    fn tracestate(&self) -> Option<Cow<'_, str>> {
        self.extension_str(TRACESTATE)
    }

    /// Whether this is a root event by this crate's convention (`causationid` = own `id`).
    fn is_root(&self) -> bool {
        self.causationid().as_deref() == Some(self.id())
    }
}

impl<E: Attributes + ?Sized> Traceable for E {}
