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
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String }
    /// use cloudevent_runtime::prelude::*;
    /// let event = Event::new(OrderCreated { order_id: "order-1".into() });
    /// let any = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.id().len(), 26); // a ULID
    /// assert_eq!(any.id(), "1");
    /// ```
    fn id(&self) -> &str;

    /// `source`.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String }
    /// use cloudevent_runtime::prelude::*;
    /// let event = Event::new(OrderCreated { order_id: "order-1".into() });
    /// let any = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.source(), "https://orders.example.com");
    /// assert_eq!(any.source(), "/orders");
    /// ```
    fn source(&self) -> &str;

    /// `type`: for an [`Event<T>`](crate::Event) always `T::TYPE` (use `T::TYPE` for a `&'static str`).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String }
    /// use cloudevent_runtime::prelude::*;
    /// let event = Event::new(OrderCreated { order_id: "order-1".into() });
    /// let any = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.ty(), "com.example.order.created");
    /// assert_eq!(any.ty(), "com.example.order.created");
    /// ```
    fn ty(&self) -> &str;

    /// `subject`, when set; for an [`Event<T>`](crate::Event) set explicitly or the payload's.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String }
    /// use cloudevent_runtime::prelude::*;
    /// let event = Event::new(OrderCreated { order_id: "order-1".into() });
    /// let any = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.subject(), Some("order-1"));
    /// assert_eq!(any.subject(), Some("order-1"));
    /// ```
    fn subject(&self) -> Option<&str>;

    /// `time`, when set.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String }
    /// use cloudevent_runtime::prelude::*;
    /// let event = Event::new(OrderCreated { order_id: "order-1".into() });
    /// let any = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","data":{"n":1}}"#).unwrap();
    /// assert!(event.time().is_some_and(|t| t.as_str().ends_with('Z')));
    /// assert_eq!(any.time().map(|t| t.as_str()), Some("2026-03-28T14:22:31Z"));
    /// ```
    fn time(&self) -> Option<&Timestamp>;

    /// `datacontenttype`, when set; an [`Event<T>`](crate::Event) always sets it (`T::DATACONTENTTYPE`).
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String }
    /// use cloudevent_runtime::prelude::*;
    /// let event = Event::new(OrderCreated { order_id: "order-1".into() });
    /// let any = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.datacontenttype(), Some("application/json"));
    /// assert_eq!(any.datacontenttype(), Some("application/json"));
    /// ```
    fn datacontenttype(&self) -> Option<&str>;

    /// `dataschema`, when set.
    ///
    /// ```
    /// # use cloudevent_runtime::{CloudEvent, Event};
    /// # #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, CloudEvent)]
    /// # #[cloudevent(type = "com.example.order.created", source = "https://orders.example.com")]
    /// # struct OrderCreated { #[cloudevent(subject)] order_id: String }
    /// use cloudevent_runtime::prelude::*;
    /// let event = Event::new(OrderCreated { order_id: "order-1".into() });
    /// let any = AnyEvent::from_slice(br#"{"specversion":"1.0","id":"1","source":"/orders",
    ///     "type":"com.example.order.created","datacontenttype":"application/json",
    ///     "dataschema":"https://schemas.example.com/orders/v1.json","subject":"order-1",
    ///     "time":"2026-03-28T14:22:31Z","data":{"n":1}}"#).unwrap();
    /// assert_eq!(event.dataschema(), None);
    /// assert_eq!(any.dataschema(), Some("https://schemas.example.com/orders/v1.json"));
    /// ```
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
