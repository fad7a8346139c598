//! The registry-aware extractor: events read under the profile of a [`RegistryValidator`]
//! in the router's state, then checked against its schema registry.

use axum::extract::{FromRef, FromRequest, Request};

use super::{EventRejection, Gate, gate};
use crate::registry::RegistryValidator;
use crate::validate::Then;
use crate::{AnyEvent, Batch, Validator};

/// An [`AnyEvent`] or a [`Batch`] checked by the [`RegistryValidator`] in the router's state
/// (feature `registry`): a gateway that validates `data` against its schema registry is one
/// line, `.with_state(validator)`. The answer to a refused event is the same JSON report as
/// every extractor's: 400 when the profile refuses it (as [`super::Checked`] does), 422 when
/// the profile accepts it and the registry does not (unknown type, `data` that fails its
/// schema, an extension of the wrong type); 413 and 415 as for every extractor.
///
/// ```
/// use axum::{Router, routing::post};
/// use cloudevent_runtime::binding::axum::Registered;
/// use cloudevent_runtime::registry::{Registry, RegistryEntry, RegistryValidator};
/// use cloudevent_runtime::{AnyEvent, Attributes, Profile, Validator};
///
/// async fn gateway(Registered(event): Registered<AnyEvent>) -> String {
///     event.id().to_owned()
/// }
/// let registry = Registry::new(vec![RegistryEntry::new(
///     "com.example.order.created",
///     serde_json::json!({"type": "object", "required": ["orderId"]}),
/// )])
/// .unwrap();
/// let app: Router = Router::new()
///     .route("/events", post(gateway))
///     .with_state(RegistryValidator::new(Validator::new(Profile::IntgStd015), registry));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Registered<E>(pub E);

impl<S> FromRequest<S> for Registered<AnyEvent>
where
    S: Send + Sync,
    RegistryValidator: FromRef<S>,
{
    type Rejection = EventRejection;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        gate(request, &RegistryValidator::from_ref(state))
            .await
            .map(Registered)
    }
}

impl<S> FromRequest<S> for Registered<Batch>
where
    S: Send + Sync,
    RegistryValidator: FromRef<S>,
{
    type Rejection = EventRejection;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        gate(request, &RegistryValidator::from_ref(state))
            .await
            .map(Registered)
    }
}

impl Gate for RegistryValidator {
    fn validator(&self) -> Validator {
        RegistryValidator::validator(self).clone()
    }
    fn then(&self) -> &impl Then {
        self
    }
}
