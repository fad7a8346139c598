//! A filter over a consumer's stream (with `nats`, `websocket`, `rdkafka`, `fe2o3-amqp` or
//! `mqtt`): one adapter for every reader. A transport's messages become `Result<E, _>` through its binding's reader
//! (`nats::from_message`, `kafka::from_record` after `rdkafka::from_message`,
//! `fe2o3_amqp::read`, `mqtt::from_publish`, a WebSocket `EventStream`), mapped over the
//! consumer's messages as a `Stream`; [`FilterStreamExt::select`] keeps the events the filter
//! selects and passes every error through, so a broken message is still seen. It needs only
//! `futures-core`'s `Stream`: a client whose receiver is not a stream (rumqttc's event loop,
//! a fe2o3-amqp `Receiver`) becomes one with `futures_util::stream::unfold`.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;

use super::{Filter, Filterable};

/// The stream [`FilterStreamExt::select`] returns.
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

/// `.select(filter)` on any stream of read events.
///
/// ```
/// use cloudevent_runtime::AnyEvent;
/// use cloudevent_runtime::filter::{Expression, FilterStreamExt};
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
pub trait FilterStreamExt: Stream + Sized {
    /// Keeps the events `filter` selects; errors pass.
    fn select<F: Filter>(self, filter: F) -> SelectStream<Self, F> {
        SelectStream {
            inner: self,
            filter,
        }
    }
}

impl<S: Stream> FilterStreamExt for S {}
