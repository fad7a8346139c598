//! The axum guard (feature `axum`): [`Selected<E>`] reads the event with `E`'s own extractor
//! (an [`AnyEvent`](crate::AnyEvent), an [`Event<T>`](crate::Event), `Checked<AnyEvent>`'s
//! reader), then asks the [`EventFilter`] in the router's state. An event the filter does not
//! select is answered without reaching the handler: `202 Accepted` by default, as Knative's
//! trigger filter acknowledges what it drops (the sender does not retry), or the 4xx of your
//! choice ([`EventFilter::reject_with`]).

use std::sync::Arc;

use axum::extract::{FromRef, FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::{Filter, Filterable};

/// The filter a router's [`Selected`] extractors apply, and how an ignored event is answered.
///
/// ```
/// use axum::http::StatusCode;
/// use cloudevent_runtime::filter::{EventFilter, Expression};
///
/// let filter = EventFilter::new(Expression::parse("type LIKE 'com.example.order.%'").unwrap())
///     .reject_with(StatusCode::UNPROCESSABLE_ENTITY);
/// assert_eq!(filter.ignored_status(), StatusCode::UNPROCESSABLE_ENTITY);
/// ```
#[derive(Clone)]
pub struct EventFilter {
    filter: Arc<dyn Filter + Send + Sync>,
    ignored: StatusCode,
}

impl std::fmt::Debug for EventFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventFilter")
            .field("ignored", &self.ignored)
            .finish_non_exhaustive()
    }
}

impl EventFilter {
    /// Selects with `filter`; an ignored event is answered `202 Accepted`.
    pub fn new(filter: impl Filter + Send + Sync + 'static) -> EventFilter {
        EventFilter {
            filter: Arc::new(filter),
            ignored: StatusCode::ACCEPTED,
        }
    }

    /// Answers an ignored event with `status` instead (a 4xx tells the sender it was refused).
    pub fn reject_with(mut self, status: StatusCode) -> EventFilter {
        self.ignored = status;
        self
    }

    /// The status an ignored event gets.
    pub fn ignored_status(&self) -> StatusCode {
        self.ignored
    }
}

/// An event the router's [`EventFilter`] selected; others never reach the handler.
///
/// ```
/// use axum::{Router, routing::post};
/// use cloudevent_runtime::{AnyEvent, Attributes};
/// use cloudevent_runtime::filter::{EventFilter, Expression, Selected};
///
/// async fn orders(Selected(event): Selected<AnyEvent>) -> String {
///     event.id().to_owned()
/// }
/// let filter = Expression::parse("type LIKE 'com.example.order.%'").unwrap();
/// let app: Router = Router::new()
///     .route("/events", post(orders))
///     .with_state(EventFilter::new(filter));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Selected<E>(pub E);

impl<S, E> FromRequest<S> for Selected<E>
where
    S: Send + Sync,
    E: FromRequest<S> + Filterable,
    EventFilter: FromRef<S>,
{
    type Rejection = Response;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let filter = EventFilter::from_ref(state);
        let event = E::from_request(request, state)
            .await
            .map_err(IntoResponse::into_response)?;
        if filter.filter.accepts(&event) {
            Ok(Selected(event))
        } else {
            Err(filter.ignored.into_response())
        }
    }
}
