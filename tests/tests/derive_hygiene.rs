//! Generated code must not depend on what the user's scope calls `Result`, `Option`, `Ok`,
//! `Some`, `Err` or `None`: every path in it is absolute. Warnings are errors here, so any
//! lint the generated code trips fails this test's build.
#![deny(warnings)]
#![allow(dead_code, non_camel_case_types, clippy::upper_case_acronyms)]

// User types that shadow the prelude. If the derive wrote `Option<&str>` or `Ok(())` they
// would resolve to these and the build would fail.
struct Result;
struct Option;
struct Ok;
struct Some;
struct Err;
struct None;
struct Sized;
mod core {}
mod std {}
mod cloudevent_runtime {}
trait CloudEventData {}
trait ExtensionField {}

#[derive(::cloudevent_runtime::CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    dataschema = "https://schemas.example.com/orders/created/v1.json",
    source = "https://orders.example.com/checkout"
)]
struct Named {
    #[cloudevent(subject)]
    order_id: String,
    #[cloudevent(extension = "partitionkey")]
    customer_id: ::core::option::Option<String>,
    #[cloudevent(extension)]
    region: String,
    #[cloudevent(extension)]
    urgent: bool,
}

#[derive(::cloudevent_runtime::CloudEvent)]
#[cloudevent(type = "com.example.order.cancelled")]
struct Newtype(#[cloudevent(subject)] String);

#[derive(::cloudevent_runtime::CloudEvent)]
#[cloudevent(type = "com.example.order.shipped")]
struct Unit;

#[derive(::cloudevent_runtime::CloudEvent)]
#[cloudevent(type = "com.example.payment.settled")]
enum Payment {
    Card,
    Cash(u8),
}

#[derive(::cloudevent_runtime::CloudEvent)]
#[cloudevent(type = "com.example.item.tagged")]
struct Generic<T> {
    #[cloudevent(extension)]
    tag: T,
}

// Members below the root, through the `Option`s the generated `match` looks inside.
#[derive(::cloudevent_runtime::CloudEvent)]
#[cloudevent(type = "com.example.device.reading.taken")]
struct Nested {
    #[cloudevent(
        extension(name = "tenantid", member = "tenant"),
        extension(name = "zone", member = "site?.zone")
    )]
    context: ::core::option::Option<Context>,
}

struct Context {
    tenant: String,
    site: ::core::option::Option<Site>,
}

struct Site {
    zone: String,
}

#[test]
fn derives_compile_and_work_with_the_prelude_shadowed() {
    use ::cloudevent_runtime::CloudEventData as _;

    let named = Named {
        order_id: "order-1".into(),
        customer_id: ::core::option::Option::None,
        region: "eu".into(),
        urgent: true,
    };
    assert_eq!(named.subject(), ::core::option::Option::Some("order-1"));
    assert_eq!(
        <Named as ::cloudevent_runtime::CloudEventData>::EXTENSIONS.len(),
        3
    );
    assert_eq!(
        Newtype("n".into()).subject(),
        ::core::option::Option::Some("n")
    );
    assert_eq!(Unit.subject(), ::core::option::Option::None);
    assert_eq!(
        <Nested as ::cloudevent_runtime::CloudEventData>::EXTENSION_PROPERTIES,
        [
            ("tenantid", "context.tenant"),
            ("zone", "context.site.zone")
        ]
    );
    assert_eq!(Payment::Card.subject(), ::core::option::Option::None);
    assert_eq!(
        <Generic<bool> as ::cloudevent_runtime::CloudEventData>::TYPE,
        "com.example.item.tagged"
    );
}
