//! Under the `cloudevents` profile only the CloudEvents MUSTs hold: names that the strict
//! default profile refuses compile here. The `ui/` cases are what it still refuses.

use cloudevent_runtime::CloudEvent;

/// A type without a reverse-DNS prefix (a SHOULD in CE 1.0.2), a `localhost` source with a
/// port (R-5/R-14 hygiene is INTG-STD-015 only) and a long extension name (gateway 5 is
/// INTG-STD-015 only).
#[derive(CloudEvent)]
#[cloudevent(type = "OrderCreated", source = "http://localhost:8080/orders")]
pub struct Relaxed {
    /// The long extension name.
    #[cloudevent(extension = "fulfilmentcentreregion")]
    pub region: String,
}

/// An unversioned dataschema: the version token is INTG-STD-015 R-2 only.
#[derive(CloudEvent)]
#[cloudevent(
    type = "com.example.order",
    dataschema = "https://schemas.example.com/orders/created.json"
)]
pub struct Unversioned;

#[cfg(test)]
mod tests {
    use super::*;
    use cloudevent_runtime::CloudEventData;

    #[test]
    fn relaxed_names_are_kept() {
        assert_eq!(Relaxed::TYPE, "OrderCreated");
        assert_eq!(Relaxed::SOURCE, Some("http://localhost:8080/orders"));
        assert_eq!(Relaxed::EXTENSIONS, &["fulfilmentcentreregion"]);
        assert_eq!(
            Unversioned::DATASCHEMA,
            Some("https://schemas.example.com/orders/created.json")
        );
    }
}
