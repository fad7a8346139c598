use cloudevent_runtime::CloudEvent;

pub struct Context {
    pub tenant_id: String,
}

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
struct OrderCreated {
    #[cloudevent(extension(name = "tenantid", member = "tenant-id"))]
    context: Context,
}

fn main() {}
