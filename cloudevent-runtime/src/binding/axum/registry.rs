//! The registry-aware extractor: events read under the profile of a [`RegistryValidator`]
//! in the router's state, then checked against its schema registry.

use axum::extract::{FromRef, FromRequest, Request};
use http::StatusCode;

use super::{EventRejection, Report, read_batch, read_event};
use crate::registry::RegistryValidator;
use crate::{AnyEvent, Batch};

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
/// use cloudevent_runtime::{AnyEvent, Profile, Validator};
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

fn status(profile_valid: bool) -> StatusCode {
    if profile_valid {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::BAD_REQUEST
    }
}

impl<S> FromRequest<S> for Registered<AnyEvent>
where
    S: Send + Sync,
    RegistryValidator: FromRef<S>,
{
    type Rejection = EventRejection;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let validator = RegistryValidator::from_ref(state);
        let event = read_event::<AnyEvent>(request, validator.validator().policy()).await?;
        let (report, profile_valid) = validator.validate_with_verdict(&event);
        if !report.is_valid() {
            return Err(EventRejection {
                status: status(profile_valid),
                report: Report::Event(report),
            });
        }
        // Received only once the registry accepts it (R-15 logs what the consumer takes).
        crate::patterns::receipt::received(&event);
        Ok(Registered(event))
    }
}

impl<S> FromRequest<S> for Registered<Batch>
where
    S: Send + Sync,
    RegistryValidator: FromRef<S>,
{
    type Rejection = EventRejection;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let validator = RegistryValidator::from_ref(state);
        let batch =
            Batch::from(read_batch::<AnyEvent>(request, validator.validator().policy()).await?);
        let (report, profile_valid) = validator.validate_batch_with_verdict(&batch);
        if !report.is_valid() {
            return Err(EventRejection {
                status: status(profile_valid),
                report: Report::Batch(report),
            });
        }
        batch
            .events()
            .iter()
            .for_each(crate::patterns::receipt::received);
        Ok(Registered(batch))
    }
}
