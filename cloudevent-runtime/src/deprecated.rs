//! The public items renamed or removed in the 0.1 surface work (issue 21) without a
//! deprecation step, restored as deprecated shims that call their replacement (issue 41: a
//! public item is deprecated for at least one release before it is removed; see
//! CONTRIBUTING.md's "Upgrade policy"). `binding::http::write_batch_in` lives in its module.

use crate::{AnyEvent, Batch, Timestamp, Uri, UriRef, Validator, ValueError};
use cloudevent_rules::Policy;

impl Timestamp {
    /// Parses an RFC 3339 timestamp.
    ///
    /// # Errors
    /// A string that is not an RFC 3339 date-time.
    #[deprecated(
        since = "0.1.0",
        note = "use `Timestamp::try_from(s)` or `s.parse::<Timestamp>()`"
    )]
    pub fn parse(value: impl Into<String>) -> Result<Self, ValueError> {
        Timestamp::try_from(value.into())
    }
}

impl Uri {
    /// Parses an absolute URI.
    ///
    /// # Errors
    /// A string that is not an absolute URI.
    #[deprecated(since = "0.1.0", note = "use `Uri::try_from(s)` or `s.parse::<Uri>()`")]
    pub fn parse(value: impl Into<String>) -> Result<Self, ValueError> {
        Uri::try_from(value.into())
    }
}

impl UriRef {
    /// Parses a URI-reference.
    ///
    /// # Errors
    /// A string that is not a URI-reference.
    #[deprecated(
        since = "0.1.0",
        note = "use `UriRef::try_from(s)` or `s.parse::<UriRef>()`"
    )]
    pub fn parse(value: impl Into<String>) -> Result<Self, ValueError> {
        UriRef::try_from(value.into())
    }
}

impl Batch {
    /// The events, borrowed.
    #[deprecated(
        since = "0.1.0",
        note = "use `&batch[..]` or `batch.iter()` (a `Batch` reads as a slice)"
    )]
    pub fn events(&self) -> &[AnyEvent] {
        self
    }

    /// The events, owned.
    #[deprecated(
        since = "0.1.0",
        note = "use `Vec::from(batch)` or `batch.into_iter()`"
    )]
    pub fn into_events(self) -> Vec<AnyEvent> {
        Vec::from(self)
    }
}

impl Validator {
    /// A validator for a policy.
    #[deprecated(since = "0.1.0", note = "use `Validator::new(policy)`")]
    pub fn with_policy(policy: impl Into<Policy>) -> Self {
        Validator::new(policy)
    }
}

#[cfg(feature = "protobuf")]
impl AnyEvent {
    /// Reads one event in the Protobuf format.
    ///
    /// # Errors
    /// See [`AnyEvent::decode`].
    #[deprecated(since = "0.1.0", note = "use `AnyEvent::decode::<Protobuf>(bytes)`")]
    pub fn from_protobuf(bytes: &[u8]) -> Result<Self, crate::FormatError> {
        AnyEvent::decode::<crate::Protobuf>(bytes)
    }
}

#[cfg(feature = "avro")]
impl AnyEvent {
    /// The event in the Avro format.
    ///
    /// # Errors
    /// See [`AnyEvent::encode`].
    #[deprecated(since = "0.1.0", note = "use `event.encode::<Avro>()`")]
    pub fn to_avro(&self) -> Result<Vec<u8>, crate::FormatError> {
        self.encode::<crate::Avro>()
    }
}

#[cfg(test)]
#[allow(deprecated)]
mod tests {
    use super::*;

    #[test]
    fn value_parse_shims_call_try_from() {
        let ok = "2026-03-28T15:22:31+01:00";
        assert_eq!(
            Timestamp::parse(ok).unwrap(),
            Timestamp::try_from(ok).unwrap()
        );
        assert!(Timestamp::parse("2026-02-30T00:00:00Z").is_err());
        assert_eq!(
            Uri::parse("urn:example:orders").unwrap(),
            Uri::try_from("urn:example:orders").unwrap()
        );
        assert!(Uri::parse("/relative").is_err());
        assert_eq!(
            UriRef::parse(String::from("../orders")).unwrap().as_str(),
            "../orders"
        );
        assert!(UriRef::parse("has space").is_err());
    }

    #[test]
    fn batch_shims_read_the_events() {
        let batch = Batch::from(vec![
            AnyEvent::new("1", "/s", "com.example.order.created"),
            AnyEvent::new("2", "/s", "com.example.order.created"),
        ]);
        assert_eq!(batch.events(), &batch[..]);
        assert_eq!(batch.clone().into_events(), Vec::from(batch));
    }

    #[test]
    fn validator_with_policy_is_new() {
        let validator = Validator::with_policy(crate::Profile::NlGov);
        assert_eq!(validator.policy().profile(), crate::Profile::NlGov);
    }

    #[cfg(feature = "protobuf")]
    #[test]
    fn from_protobuf_is_decode() {
        let event = AnyEvent::new(
            "1",
            "https://orders.example.com",
            "com.example.order.created",
        );
        let bytes = event.encode::<crate::Protobuf>().unwrap();
        assert_eq!(
            AnyEvent::from_protobuf(&bytes).unwrap(),
            AnyEvent::decode::<crate::Protobuf>(&bytes).unwrap()
        );
    }

    #[cfg(feature = "avro")]
    #[test]
    fn to_avro_is_encode() {
        let event = AnyEvent::new(
            "1",
            "https://orders.example.com",
            "com.example.order.created",
        );
        assert_eq!(
            event.to_avro().unwrap(),
            event.encode::<crate::Avro>().unwrap()
        );
    }

    #[cfg(feature = "http")]
    #[test]
    fn write_batch_in_is_write_batch() {
        use crate::binding::{StructuredFormat, http};
        let events = [AnyEvent::new(
            "1",
            "https://orders.example.com",
            "com.example.order.created",
        )];
        let (mut old, mut new) = (::http::HeaderMap::new(), ::http::HeaderMap::new());
        let body = http::write_batch_in(&events, StructuredFormat::Json, &mut old).unwrap();
        assert_eq!(
            body,
            http::write_batch(&events, StructuredFormat::Json, &mut new).unwrap()
        );
        assert_eq!(old, new);
    }
}
