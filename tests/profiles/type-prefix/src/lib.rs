//! Under `type-prefix = "com.example"` every type is rooted at the organisation domain
//! (INTG-STD-015 R-4). The `ui/` cases are types rooted elsewhere.

use cloudevent_runtime::CloudEvent;

/// Rooted at the prefix.
#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
pub struct OrderCreated;

#[cfg(test)]
mod tests {
    use super::*;
    use cloudevent_runtime::CloudEventData;

    #[test]
    fn rooted_type_is_kept() {
        assert_eq!(OrderCreated::TYPE, "com.example.order.created");
    }
}
