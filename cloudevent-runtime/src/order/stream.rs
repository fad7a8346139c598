//! The ordering stage over a consumer's stream: `.ordered(stage)` on any `Stream` of read
//! events (`Result<E, X>`), the shape every reader gives (NATS, JetStream, Kafka, AMQP, MQTT,
//! WebSockets; a client whose receiver is not a stream becomes one with
//! `futures_util::stream::unfold`). The same stage a push consumer (an HTTP handler) calls
//! [`OrderingStage::push`] on.

use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;

use super::{Ordered, OrderingStage};
use crate::attributes::Attributes;
use crate::patterns::dedupe::Clock;

/// The stream [`OrderStreamExt::ordered`] returns: each read event through the stage, each
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

/// `.ordered(stage)` on any stream of read events: [`Event<T>`](crate::Event),
/// [`AnyEvent`](crate::AnyEvent), anything with [`Attributes`].
///
/// ```
/// use std::time::Duration;
/// use cloudevent_runtime::{AnyEvent, Attributes as _};
/// use cloudevent_runtime::order::{OrderStreamExt, Ordered, OrderingStage};
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
pub trait OrderStreamExt: Stream + Sized {
    /// Runs the read events through `stage`; errors pass.
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
}

impl<S: Stream> OrderStreamExt for S {}
