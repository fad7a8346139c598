//! Derived code under `clippy::pedantic`: `cargo clippy --all-targets -- -D warnings` (run by
//! `cargo xtask test`) fails if the generated impl trips a pedantic lint, since these
//! derives' spans point at user code.
#![deny(clippy::pedantic)]

use std::borrow::Cow;

use cloudevent_runtime::{Binary, CloudEvent, CloudEventData};

#[derive(CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    dataschema = "https://schemas.example.com/orders/created/v1.json",
    source = "https://orders.example.com/checkout",
    datacontenttype = "application/json"
)]
struct Named {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension = "partitionkey")]
    customer_id: Option<String>,
    #[cloudevent(extension)]
    urgent: bool,
    #[cloudevent(extension)]
    shelf: u16,
    #[cloudevent(extension)]
    checksum: Binary,
    total_cents: i64,
}

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.moved")]
struct Tuple(
    #[cloudevent(subject)] Cow<'static, str>,
    #[cloudevent(extension = "region")] &'static str,
);

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.shipped")]
struct Unit;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.payment.settled")]
enum Payment {
    Card,
    Cash,
}

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.item.tagged")]
struct Generic<'a, T: Clone> {
    #[cloudevent(subject)]
    id: &'a str,
    #[cloudevent(extension)]
    tag: Option<T>,
}

// Members below the root, through `Option`s: the generated `match` is spanned on the
// path's literal, so a lint it tripped would show here.
#[derive(CloudEvent)]
#[cloudevent(type = "com.example.device.reading.taken")]
struct Nested {
    #[cloudevent(
        extension(name = "tenantid", member = "tenant"),
        extension(name = "zone", member = "site?.zone"),
        id = "tenant"
    )]
    context: Option<Context>,
}

struct Context {
    tenant: String,
    site: Option<Site>,
}

struct Site {
    zone: Option<String>,
}

#[test]
fn pedantic_nested_members_work() {
    let nested = Nested {
        context: Some(Context {
            tenant: "acme".into(),
            site: Some(Site { zone: None }),
        }),
    };
    assert_eq!(nested.payload_id().as_deref(), Some("acme"));
    assert_eq!(Nested::EXTENSIONS, ["tenantid", "zone"]);
}

#[test]
fn pedantic_shapes_work() {
    let named = Named {
        order_id: "o".into(),
        customer_id: None,
        urgent: false,
        shelf: 3,
        checksum: Binary::default(),
        total_cents: 0,
    };
    assert_eq!(named.subject(), Some("o"));
    assert_eq!(named.total_cents, 0);
    assert_eq!(Tuple(Cow::Borrowed("t"), "eu").subject(), Some("t"));
    assert_eq!(Unit.subject(), None);
    assert_eq!(Payment::Cash.subject(), None);
    assert!(!matches!(Payment::Card, Payment::Cash));
    let generic = Generic {
        id: "g",
        tag: Some(true),
    };
    assert_eq!(generic.subject(), Some("g"));
}
