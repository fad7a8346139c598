//! Selecting events: CloudEvents SQL v1 expressions and the Subscriptions API filter dialects,
//! evaluated on any event.
//!
//! The language lives once, in [`cloudevent_rules::cesql`]: the parser, the type checker and
//! the evaluator that `cesql!` runs at compile time are the ones [`Expression::parse`] runs
//! here, so an expression from configuration gets the same messages. This module adds the glue:
//! [`Filterable`], the one attribute view ([`cloudevent_rules::Envelope`]) of an
//! [`AnyEvent`] or an [`Event<T>`], and [`Filter`], what every kind of filter
//! implements (an [`Expression`], a [`SubscriptionFilter`]).
//!
//! ```
//! use cloudevent_runtime::AnyEvent;
//! use cloudevent_runtime::filter::{Expression, Filter, Filterable, Value};
//!
//! let filter = Expression::parse("type LIKE 'com.example.order.%' AND partitionkey = 'k1'").unwrap();
//! let mut event = AnyEvent::new("1", "/orders", "com.example.order.created");
//! event.extensions_mut().insert("partitionkey", "k1");
//! assert!(filter.accepts(&event));
//!
//! let concat = Expression::parse("CONCAT(type, '/', partitionkey)").unwrap();
//! assert_eq!(event.evaluate(&concat).value, Value::from("com.example.order.created/k1"));
//! ```

#[cfg(feature = "axum")]
mod axum;
mod subscription;

use cloudevent_rules::{Envelope, ExtensionAttributes};

#[cfg(feature = "axum")]
#[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
pub use axum::{EventFilter, Selected};
pub use cloudevent_rules::AttributeName;
pub use cloudevent_rules::cesql::{
    ErrorKind, EvalError, Evaluation, Expression, Finding, FunctionError, Functions, Limits,
    ParseError, Schema, Span, Type, Value,
};
pub use subscription::{SubscriptionError, SubscriptionFilter};

use crate::extension::{ExtensionValue, ExtensionValueBuf};
use crate::{AnyEvent, Attributes, CloudEventData, Event};

mod sealed {
    pub trait Sealed {
        /// The event when it is an [`AnyEvent`](crate::AnyEvent), whose view a filter can
        /// build field by field as it reads (`subscription.rs`); an `Event<T>` lends its
        /// payload's extensions only for the length of a call, so a filter reads its view
        /// built once.
        fn as_any_event(&self) -> Option<&crate::AnyEvent> {
            None
        }
    }
    impl Sealed for crate::AnyEvent {
        fn as_any_event(&self) -> Option<&crate::AnyEvent> {
            Some(self)
        }
    }
    impl<T: crate::CloudEventData> Sealed for crate::Event<T> {}
}

/// An event a filter can read: [`AnyEvent`] and every [`Event<T>`]. Sealed: both give the
/// one attribute view the rules crate's evaluator reads.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::filter::{ErrorKind, Expression, Filterable, Value};
///
/// let event = AnyEvent::new("1", "/orders", "com.example.order.created");
/// let e = Expression::parse("LENGTH(subject)").unwrap();
/// let result = event.evaluate(&e);
/// assert_eq!(result.value, Value::Integer(0));
/// assert_eq!(result.errors[0].kind, ErrorKind::MissingAttribute);
/// ```
pub trait Filterable: sealed::Sealed {
    /// Calls `f` with the event's attributes as [`Envelope`].
    fn with_envelope(&self, f: &mut dyn FnMut(&Envelope<'_>));

    /// Evaluates `expression` on the event: its value and every error (CESQL v1 3.3).
    fn evaluate(&self, expression: &Expression) -> Evaluation<'static> {
        let mut out = None;
        self.with_envelope(&mut |envelope| {
            let result = expression.evaluate(envelope);
            out = Some(Evaluation {
                value: result.value.into_owned(),
                errors: result.errors,
            });
        });
        out.unwrap_or(Evaluation {
            value: Value::Boolean(false),
            errors: Vec::new(),
        })
    }
}

impl Filterable for AnyEvent {
    fn with_envelope(&self, f: &mut dyn FnMut(&Envelope<'_>)) {
        f(&self.view());
    }
}

/// The extensions of an [`Event<T>`]: those set on the event, then those its payload fills.
/// A payload's are copied once per evaluation (the payload's visitor lends them only for
/// the length of a call); a type without payload extensions copies nothing.
struct TypedExtensions<'a> {
    set: &'a crate::Extensions,
    payload: Vec<(&'static str, ExtensionValueBuf)>,
}

impl ExtensionAttributes for TypedExtensions<'_> {
    fn for_each_extension(&self, f: &mut dyn FnMut(&str, ExtensionValue<'_>)) {
        self.set.for_each_extension(f);
        for (name, value) in &self.payload {
            f(name, value.as_value());
        }
    }

    fn extension(&self, name: &str) -> Option<ExtensionValue<'_>> {
        self.set.extension(name).or_else(|| {
            self.payload
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.as_value())
        })
    }
}

impl<T: CloudEventData> Filterable for Event<T> {
    fn with_envelope(&self, f: &mut dyn FnMut(&Envelope<'_>)) {
        let mut payload = Vec::new();
        if !T::EXTENSIONS.is_empty() {
            self.for_each_extension(|name, value| {
                if self.extensions().contains(name) {
                    return;
                }
                if let Some(name) = T::EXTENSIONS.iter().find(|n| **n == name) {
                    payload.push((*name, ExtensionValueBuf::from(value)));
                }
            });
        }
        let extensions = TypedExtensions {
            set: self.extensions(),
            payload,
        };
        f(&Envelope {
            specversion: Some("1.0"),
            id: Some(self.id()),
            source: Some(self.source()),
            ty: Some(T::TYPE),
            datacontenttype: self.datacontenttype(),
            dataschema: self.dataschema(),
            subject: self.subject(),
            time: self.time().map(|t| t.as_str()),
            extensions: &extensions,
            data: None,
            data_type_url: None,
        });
    }
}

/// A filter: an [`Expression`] (passes when it is `true` without an error, CESQL v1 1.2) or
/// a [`SubscriptionFilter`] (the Subscriptions API dialects). What the axum guard and the
/// stream adapter take.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::filter::{Filter, SubscriptionFilter};
///
/// let filter = SubscriptionFilter::from_json(&serde_json::json!({ "prefix": { "type": "com.example." } })).unwrap();
/// assert!(filter.accepts(&AnyEvent::new("1", "/orders", "com.example.order.created")));
/// assert!(!filter.accepts(&AnyEvent::new("1", "/orders", "org.other.thing")));
/// ```
pub trait Filter {
    /// Whether the attributes pass.
    fn accepts_envelope(&self, envelope: &Envelope<'_>) -> bool;

    /// Whether the event passes.
    fn accepts(&self, event: &dyn Filterable) -> bool {
        let mut accepted = false;
        event.with_envelope(&mut |envelope| accepted = self.accepts_envelope(envelope));
        accepted
    }
}

impl Filter for Expression {
    fn accepts_envelope(&self, envelope: &Envelope<'_>) -> bool {
        self.matches(envelope)
    }

    /// An [`AnyEvent`] is read attribute by attribute (its view built only when the tree
    /// evaluates the expression), without the two dynamic calls of
    /// [`Filterable::with_envelope`] and its closure (issue 40).
    fn accepts(&self, event: &dyn Filterable) -> bool {
        match event.as_any_event() {
            Some(event) => self.matches_attributes(&crate::format::Fields(event), || event.view()),
            None => {
                let mut accepted = false;
                event.with_envelope(&mut |envelope| accepted = self.matches(envelope));
                accepted
            }
        }
    }
}

/// A borrowed filter filters as the filter does: `cesql!` gives a `&'static Expression`,
/// which `.select(..)` (`EventStreamExt`, feature `stream`) and `EventFilter::new` take as it is.
///
/// ```
/// use cloudevent_runtime::{AnyEvent, cesql, filter::Filter};
/// fn keeps(filter: impl Filter, event: &AnyEvent) -> bool { filter.accepts(event) }
/// assert!(keeps(cesql!("type LIKE 'com.example.%'"), &AnyEvent::new("1", "/o", "com.example.a")));
/// ```
impl<F: Filter + ?Sized> Filter for &F {
    fn accepts_envelope(&self, envelope: &Envelope<'_>) -> bool {
        (**self).accepts_envelope(envelope)
    }

    fn accepts(&self, event: &dyn Filterable) -> bool {
        (**self).accepts(event)
    }
}

impl<F: Filter + ?Sized> Filter for std::sync::Arc<F> {
    fn accepts_envelope(&self, envelope: &Envelope<'_>) -> bool {
        (**self).accepts_envelope(envelope)
    }

    fn accepts(&self, event: &dyn Filterable) -> bool {
        (**self).accepts(event)
    }
}

impl<F: Filter + ?Sized> Filter for Box<F> {
    fn accepts_envelope(&self, envelope: &Envelope<'_>) -> bool {
        (**self).accepts_envelope(envelope)
    }

    fn accepts(&self, event: &dyn Filterable) -> bool {
        (**self).accepts(event)
    }
}
