//! The consumer's stream adapters (feature `stream`, which `nats`, `rdkafka`, `fe2o3-amqp`,
//! `mqtt` and `websocket` turn on): one extension trait, [`EventStreamExt`], on any `Stream`
//! of read events (`Result<E, X>`), the shape every pull reader gives. A transport's messages
//! become `Result<E, _>` through its binding's reader (`nats::from_message`,
//! `kafka::from_record` after `rdkafka::from_message`, `fe2o3_amqp::read`,
//! `mqtt::from_publish`, a WebSocket `EventStream`), mapped over the consumer's messages; a
//! client whose receiver is not a stream (rumqttc's event loop, a fe2o3-amqp `Receiver`)
//! becomes one with `futures_util::stream::unfold`. Every adapter passes each read error
//! through as it came, so a broken message is still seen. It needs only `futures-core`'s
//! `Stream`.
//!
//! - [`select`](EventStreamExt::select) keeps the events a [`Filter`] selects (issue 23).
//! - [`ordered`](EventStreamExt::ordered) puts them in `sequence` order through an
//!   [`OrderingStage`] (issue 22), the same stage a push consumer (an HTTP handler) calls
//!   [`OrderingStage::push`] on.
//! - `verified` (with feature `verify`) verifies each event against the consumer's keys
//!   (issue 42): what was signed comes out, an event the protocol discards is reported with
//!   the step that discards it.

use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;

use crate::attributes::Attributes;
use crate::filter::{Filter, Filterable};
use crate::order::{Ordered, OrderingStage};
use crate::patterns::dedupe::Clock;

/// `.select(filter)` and `.ordered(stage)` on any stream of read events:
/// [`Event<T>`](crate::Event), [`AnyEvent`](crate::AnyEvent), anything the filter or the
/// stage reads. The two chain: select first, so the stage holds only the events kept.
///
/// ```
/// use std::time::Duration;
/// use cloudevent_runtime::{AnyEvent, Attributes as _, EventStreamExt};
/// use cloudevent_runtime::filter::Expression;
/// use cloudevent_runtime::order::{Ordered, OrderingStage};
/// use futures_util::{StreamExt, stream};
///
/// let event = |n: i32, ty: &str| {
///     let mut event = AnyEvent::new(format!("e{n}"), "/orders", ty);
///     event.set_extension("sequencetype", "Integer".into()).unwrap();
///     event.set_extension("sequence", n.to_string().into()).unwrap();
///     event
/// };
/// let read = stream::iter([
///     Ok::<_, String>(event(2, "com.example.order.updated")),
///     Ok(event(7, "org.other.thing")),
///     Ok(event(1, "com.example.order.updated")),
/// ]);
/// let orders = Expression::parse("type LIKE 'com.example.order.%'").unwrap();
/// let stage = OrderingStage::new(64, Duration::from_secs(5)).from_start();
/// let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
/// let ids: Vec<String> = runtime
///     .block_on(read.select(orders).ordered(stage).collect::<Vec<_>>())
///     .into_iter()
///     .map(|out| match out {
///         Ok(Ordered::Deliver(e)) => e.id().to_owned(),
///         other => format!("{other:?}"),
///     })
///     .collect();
/// assert_eq!(ids, ["e1", "e2"]);
/// ```
pub trait EventStreamExt: Stream + Sized {
    /// Keeps the events `filter` selects; errors pass.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, EventStreamExt};
    /// use cloudevent_runtime::filter::Expression;
    /// use futures_util::{StreamExt, stream};
    ///
    /// let events = stream::iter([
    ///     Ok::<_, String>(AnyEvent::new("1", "/orders", "com.example.order.created")),
    ///     Ok(AnyEvent::new("2", "/orders", "org.other.thing")),
    ///     Err("a broken message".to_owned()),
    /// ]);
    /// let filter = Expression::parse("type LIKE 'com.example.%'").unwrap();
    /// let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    /// let kept: Vec<_> = runtime.block_on(events.select(filter).collect());
    /// assert_eq!(kept.len(), 2); // the order event and the error
    /// ```
    fn select<F: Filter>(self, filter: F) -> SelectStream<Self, F> {
        SelectStream {
            inner: self,
            filter,
        }
    }

    /// Runs the read events through `stage`; errors pass. The time bound is checked whenever
    /// the consumer polls; at the end of the inner stream everything still held is released
    /// with its gaps ([`OrderingStage::flush`]).
    ///
    /// ```
    /// use std::time::Duration;
    /// use cloudevent_runtime::{AnyEvent, Attributes as _, EventStreamExt};
    /// use cloudevent_runtime::order::{Ordered, OrderingStage};
    /// use futures_util::{StreamExt, stream};
    ///
    /// let event = |n: i32| {
    ///     let mut event = AnyEvent::new(format!("e{n}"), "/orders", "com.example.order.updated");
    ///     event.set_extension("sequencetype", "Integer".into()).unwrap();
    ///     event.set_extension("sequence", n.to_string().into()).unwrap();
    ///     event
    /// };
    /// let read = stream::iter([Ok(event(1)), Ok(event(3)), Err("a broken message"), Ok(event(2)), Ok(event(5))]);
    /// let stage = OrderingStage::new(64, Duration::from_secs(5));
    /// let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    /// let out: Vec<String> = runtime.block_on(read.ordered(stage).collect::<Vec<_>>())
    ///     .into_iter()
    ///     .map(|o| match o {
    ///         Ok(Ordered::Deliver(e)) => e.id().to_owned(),
    ///         Ok(Ordered::Gap { first_missing, .. }) => format!("gap at {first_missing}"),
    ///         Ok(other) => format!("{other:?}"),
    ///         Err(error) => error.to_owned(),
    ///     })
    ///     .collect();
    /// assert_eq!(out, ["e1", "a broken message", "e2", "e3", "gap at 4", "e5"]);
    /// ```
    fn ordered<E, X, C>(self, stage: OrderingStage<E, C>) -> OrderedStream<Self, E, C>
    where
        Self: Stream<Item = Result<E, X>>,
    {
        OrderedStream {
            inner: Some(self),
            stage,
            ready: VecDeque::new(),
        }
    }

    /// Verifies each read event against `keys` ([`crate::verify::verify`], the CloudEvents
    /// verifiability extension's protocol): a verified event comes out as
    /// [`Verified`](crate::verify::Verified), holding only what was signed; an event the
    /// protocol discards as [`Unverified::Refused`], with the error of the step that discards
    /// it (report it, or drop every such event with `.filter_map(|r| async { r.ok() })`);
    /// a read error as [`Unverified::Read`], as it came.
    ///
    /// ```
    /// use cloudevent_runtime::{AnyEvent, Attributes as _, EventStreamExt, Unverified};
    /// use cloudevent_runtime::verify::{SigningKey, TrustedKeys, VerifyError, sign};
    /// use futures_util::{StreamExt, stream};
    ///
    /// let key = SigningKey::ed25519("orders", &[7; 32]);
    /// let mut signed = AnyEvent::new("1", "https://orders.example.com", "com.example.order.created");
    /// sign(&mut signed, &key, &[]).unwrap();
    /// let mut moved = signed.clone();
    /// moved.set_subject(Some("another order".into()));
    /// let unsigned = AnyEvent::new("3", "https://orders.example.com", "com.example.order.created");
    ///
    /// let read = stream::iter([Ok(signed), Ok(moved), Ok(unsigned), Err("a broken message")]);
    /// let keys = TrustedKeys::new().with_key("orders", key.verifying_key());
    /// let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    /// let out: Vec<String> = runtime
    ///     .block_on(read.verified(keys).collect::<Vec<_>>())
    ///     .into_iter()
    ///     .map(|r| match r {
    ///         Ok(verified) => format!("verified {} by {}", verified.event().id(), verified.key_id()),
    ///         Err(Unverified::Refused { event, error: VerifyError::CoreMismatch }) => {
    ///             format!("{} changed after signing", event.id())
    ///         }
    ///         Err(Unverified::Refused { event, error }) => format!("{}: {error}", event.id()),
    ///         Err(Unverified::Read(error)) => error.to_owned(),
    ///     })
    ///     .collect();
    /// assert_eq!(out[0], "verified 1 by orders");
    /// assert_eq!(out[1], "1 changed after signing");
    /// assert!(out[2].starts_with("3: "), "{}", out[2]);
    /// assert_eq!(out[3], "a broken message");
    /// ```
    #[cfg(feature = "verify")]
    #[cfg_attr(docsrs, doc(cfg(feature = "verify")))]
    fn verified<X, R>(self, keys: R) -> VerifiedStream<Self, R>
    where
        Self: Stream<Item = Result<crate::AnyEvent, X>>,
        R: crate::verify::KeyResolver,
    {
        VerifiedStream { inner: self, keys }
    }
}

impl<S: Stream> EventStreamExt for S {}

/// Why [`EventStreamExt::verified`] gives no verified event.
#[cfg(feature = "verify")]
#[cfg_attr(docsrs, doc(cfg(feature = "verify")))]
#[derive(Debug)]
pub enum Unverified<X> {
    /// The inner stream's read error, as it came.
    Read(X),
    /// An event the verifiability extension's protocol discards, and the step's error.
    Refused {
        /// The event as read (its `dssematerial` included), for the report.
        event: Box<crate::AnyEvent>,
        /// The error of the step that discards it.
        error: crate::verify::VerifyError,
    },
}

/// The stream [`EventStreamExt::verified`] returns.
#[cfg(feature = "verify")]
#[cfg_attr(docsrs, doc(cfg(feature = "verify")))]
#[derive(Debug)]
pub struct VerifiedStream<S, R> {
    inner: S,
    keys: R,
}

#[cfg(feature = "verify")]
impl<S, R, X> Stream for VerifiedStream<S, R>
where
    S: Stream<Item = Result<crate::AnyEvent, X>> + Unpin,
    R: crate::verify::KeyResolver + Unpin,
{
    type Item = Result<crate::verify::Verified, Unverified<X>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        Pin::new(&mut this.inner).poll_next(cx).map(|read| {
            read.map(|read| match read {
                Err(error) => Err(Unverified::Read(error)),
                Ok(event) => {
                    crate::verify::verify(&event, &this.keys).map_err(|error| Unverified::Refused {
                        event: Box::new(event),
                        error,
                    })
                }
            })
        })
    }
}

/// The stream [`EventStreamExt::select`] returns.
#[derive(Debug)]
pub struct SelectStream<S, F> {
    inner: S,
    filter: F,
}

impl<S, F, E, X> Stream for SelectStream<S, F>
where
    S: Stream<Item = Result<E, X>> + Unpin,
    F: Filter + Unpin,
    E: Filterable,
{
    type Item = Result<E, X>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            match Pin::new(&mut this.inner).poll_next(cx) {
                Poll::Ready(Some(Ok(event))) if !this.filter.accepts(&event) => continue,
                other => return other,
            }
        }
    }
}

/// The stream [`EventStreamExt::ordered`] returns: each read event through the stage, each
/// error passed as it came; at the end of the inner stream, everything still held (with its
/// gaps, [`OrderingStage::flush`]).
#[derive(Debug)]
pub struct OrderedStream<S, E, C> {
    inner: Option<S>,
    stage: OrderingStage<E, C>,
    ready: VecDeque<Ordered<E>>,
}

impl<S, E, X, C> Stream for OrderedStream<S, E, C>
where
    S: Stream<Item = Result<E, X>> + Unpin,
    E: Attributes + Unpin,
    C: Clock + Unpin,
{
    type Item = Result<Ordered<E>, X>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if let Some(out) = this.ready.pop_front() {
                return Poll::Ready(Some(Ok(out)));
            }
            let Some(inner) = this.inner.as_mut() else {
                return Poll::Ready(None);
            };
            match Pin::new(inner).poll_next(cx) {
                Poll::Ready(Some(Ok(event))) => this.ready.extend(this.stage.push(event)),
                Poll::Ready(Some(Err(error))) => return Poll::Ready(Some(Err(error))),
                Poll::Ready(None) => {
                    this.inner = None;
                    this.ready.extend(this.stage.flush());
                }
                Poll::Pending => {
                    // The time bound of a group that waits while nothing arrives: checked
                    // whenever the consumer polls (a no-op when nothing is held).
                    if this.stage.held() > 0 {
                        this.ready.extend(this.stage.expire());
                    }
                    if this.ready.is_empty() {
                        return Poll::Pending;
                    }
                }
            }
        }
    }
}
