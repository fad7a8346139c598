use cloudevent_runtime::CloudEvent;

#[derive(serde::Serialize, CloudEvent)]
#[cloudevent(type = "com.example.order.created", source = "https://orders.example.com", sign(extensions = "region,tenantid,region"))]
struct OrderCreated {
    #[cloudevent(extension)]
    region: String,
    #[cloudevent(extension)]
    tenantid: String,
}

fn main() {}
