use cloudevent_runtime::CloudEvent;

pub struct Context {
    pub tenant: String,
}

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
struct OrderCreated {
    #[cloudevent(extension(member = "tenant"))]
    context: Context,
}

fn main() {}
