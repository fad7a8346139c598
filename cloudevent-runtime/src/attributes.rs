//! [`Attributes`]: reading an event's context attributes, whatever its type. Implemented once
//! for [`AnyEvent`](crate::AnyEvent) (in `any.rs`) and once for every
//! [`Event<T>`](crate::Event) (in `event/mod.rs`); everything that works on "any event"
//! builds on it instead of being implemented per event type: [`Traceable`](crate::Traceable)
//! (ADR-0003's `correlationid`/`causationid`, W3C trace context),
//! [`Receivable`](crate::receipt::Receivable) (the R-15 receipt),
//! [`Dataref`](crate::claimcheck::Dataref) (the claim check) and
//! `binding::BindingEvent` (every protocol binding).
//!
//! ```
//! use cloudevent_runtime::{AnyEvent, Attributes};
//!
//! fn describe(event: &impl Attributes) -> String {
//!     format!("{} from {} ({})", event.ty(), event.source(), event.id())
//! }
//!
//! let event = AnyEvent::new("01J0A", "/orders", "com.example.order.created");
//! assert_eq!(describe(&event), "com.example.order.created from /orders (01J0A)");
//! ```

use std::borrow::Cow;

use crate::error::BuildError;
use crate::extension::ExtensionValueBuf;
use crate::value::Timestamp;

/// An event's context attributes (CloudEvents 1.0.2 section 3), read the same way from
/// [`AnyEvent`](crate::AnyEvent) and [`Event<T>`](crate::Event).
///
/// `extension_value` sees every extension the event writes: for an [`Event<T>`](crate::Event) those set on
/// the event and those its payload fills (`#[cloudevent(extension)]` fields), exactly what goes
/// on the wire.
///
/// ```
/// # use cloudevent_runtime::{Attributes, CloudEvent, Event};
/// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
/// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
/// # struct OrderCreated { #[cloudevent(subject)] order_id: String, #[cloudevent(extension)] region: String }
/// let event = Event::new(OrderCreated { order_id: "o-1".into(), region: "eu".into() });
/// let attributes: &dyn Attributes = &event;
/// assert_eq!(attributes.subject(), Some("o-1"));
/// assert_eq!(attributes.extension_value("region").unwrap().as_str(), Some("eu"));
/// assert!(attributes.extension_value("priority").is_none());
/// ```
pub trait Attributes {
    /// `id`.
    fn id(&self) -> &str;

    /// `source`.
    fn source(&self) -> &str;

    /// `type`.
    fn ty(&self) -> &str;

    /// `subject`, when set.
    fn subject(&self) -> Option<&str>;

    /// `time`, when set.
    fn time(&self) -> Option<&Timestamp>;

    /// `datacontenttype`, when set.
    fn datacontenttype(&self) -> Option<&str>;

    /// `dataschema`, when set.
    fn dataschema(&self) -> Option<&str>;

    /// An extension's value, `None` when the event does not write it.
    fn extension_value(&self, name: &str) -> Option<Cow<'_, ExtensionValueBuf>>;

    /// Sets an extension. An [`Event<T>`](crate::Event) checks it against `T`'s profile first
    /// ([`Event::with_extension`](crate::Event::with_extension)); an
    /// [`AnyEvent`](crate::AnyEvent) stores it as given, like its other setters.
    ///
    /// # Errors
    /// [`BuildError::Invalid`] when `T`'s profile refuses the name or value.
    fn set_extension(&mut self, name: &str, value: ExtensionValueBuf) -> Result<(), BuildError>;
}
