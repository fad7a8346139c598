//! A type the registry deprecates is generated `#[deprecated]`: using it warns (the
//! `#[expect(deprecated)]` below is unfulfilled, and CI's `-D warnings` fails, if it does
//! not), and the generated code itself, `RegistryEvent` included, compiles without a warning.

use codegen_build_test::deprecated::RegistryEvent;

#[test]
#[expect(
    deprecated,
    reason = "the registry deprecates com.example.order.expedited"
)]
fn a_deprecated_type_still_reads_its_events() {
    use codegen_build_test::deprecated::order_expedited_v1::OrderExpedited;

    let bytes = br#"{"specversion":"1.0","id":"01HZX3KQVB8E72GQJHF5RM6YWR",
        "source":"https://api.example.com/orders","type":"com.example.order.expedited",
        "time":"2026-03-28T14:22:31Z","subject":"ord-1","express":true,
        "data":{"order_id":"ord-1","express":true}}"#;
    let event = cloudevent_runtime::Event::<OrderExpedited>::from_slice(bytes).unwrap();
    assert!(event.data().express);
    assert!(matches!(
        RegistryEvent::from_slice(bytes).unwrap(),
        RegistryEvent::OrderExpedited(_)
    ));
}
