use cloudevent_runtime::{CloudEvent, CloudEventData};

#[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(
    type = "com.example.order.created",
    source = "https://orders.example.com",
    sign(extensions = "tenantid, region")
)]
struct OrderCreated {
    #[cloudevent(extension)]
    region: String,
    #[cloudevent(extension(name = "tenantid", member = "id"))]
    tenant: Tenant,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Tenant {
    id: String,
}

#[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(type = "com.example.health.ping.sent", source = "https://health.example.com", sign)]
struct Ping;

#[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(type = "com.example.health.pong.sent", source = "https://health.example.com")]
struct Pong;

fn main() {
    // The order listed is the order signed.
    assert_eq!(OrderCreated::SIGNED_EXTENSIONS, Some(&["tenantid", "region"][..]));
    assert_eq!(Ping::SIGNED_EXTENSIONS, Some(&[][..]));
    assert_eq!(Pong::SIGNED_EXTENSIONS, None);
}
