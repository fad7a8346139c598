//! The verifying extractor (features `axum` and `verify`): an event read as the `AnyEvent`
//! extractor reads it, then verified against the keys in the router's state.

use std::sync::Arc;

use axum::extract::{FromRef, FromRequest, Request};
use axum::http::StatusCode;

use super::{EventRejection, Report, gate};
use crate::AnyEvent;
use crate::validate::ValidationReport;
use crate::verify::{KeyResolver, Verified, verify};

/// The keys a verifying route accepts ([`Signed`]), shared in the router's state.
#[derive(Clone)]
pub struct AcceptedKeys(Arc<dyn KeyResolver + Send + Sync>);

impl AcceptedKeys {
    /// Shares `keys` between requests.
    pub fn new(keys: impl KeyResolver + Send + Sync + 'static) -> Self {
        AcceptedKeys(Arc::new(keys))
    }
}

impl std::fmt::Debug for AcceptedKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AcceptedKeys(..)")
    }
}

/// A verified event (the CloudEvents verifiability extension): read under the CloudEvents
/// 1.0.2 MUSTs as the [`AnyEvent`] extractor reads it (400, 413, 415 as there), then verified
/// against the [`AcceptedKeys`] in the router's state; an event that does not verify is
/// answered 401 with the report of the finding, naming the step that discards it. The
/// handler gets only what was signed.
///
/// ```
/// use axum::{Router, routing::post};
/// use cloudevent_runtime::Attributes;
/// use cloudevent_runtime::binding::axum::{AcceptedKeys, Signed};
/// use cloudevent_runtime::verify::{SigningKey, TrustedKeys};
///
/// async fn gateway(Signed(verified): Signed) -> String {
///     verified.event().id().to_owned()
/// }
/// let public = SigningKey::ed25519("orders", &[7; 32]).verifying_key();
/// let app: Router = Router::new()
///     .route("/events", post(gateway))
///     .with_state(AcceptedKeys::new(TrustedKeys::new().with_key("orders", public)));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Signed(pub Verified<AnyEvent>);

impl<S> FromRequest<S> for Signed
where
    S: Send + Sync,
    AcceptedKeys: FromRef<S>,
{
    type Rejection = EventRejection;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let event: AnyEvent = gate(request, &AnyEvent::DEFAULT_POLICY).await?;
        let keys = AcceptedKeys::from_ref(state);
        verify(&event, &*keys.0)
            .map(Signed)
            .map_err(|error| EventRejection {
                status: StatusCode::UNAUTHORIZED,
                report: Report::Event(ValidationReport::refused(
                    AnyEvent::DEFAULT_POLICY.profile(),
                    vec![error.violation()],
                )),
            })
    }
}
