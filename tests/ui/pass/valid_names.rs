//! Names at the edge of the strict profile's rules, all valid.
use cloudevent_runtime::{CloudEvent, UriRef};

#[derive(CloudEvent)]
#[cloudevent(
    type = "com.example.order-management.order.created-by-batch.v2",
    dataschema = "urn:example:schema:order:created:v2",
    source = "/orders/checkout"
)]
struct Versioned {
    #[cloudevent(extension = "a2345678901234567890")]
    twenty_characters: bool,
    #[cloudevent(extension = "dataref")]
    claim: Option<UriRef>,
    #[cloudevent(extension = "traceparent")]
    trace: Option<String>,
}

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "urn:example:orders", datacontenttype = "application/vnd.example.order+json; charset=utf-8")]
struct Urn;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "https://localhost.example.com/checkout")]
struct HostStartingWithLocalhost;

fn main() {}
