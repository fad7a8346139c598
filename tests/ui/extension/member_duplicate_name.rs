use cloudevent_runtime::CloudEvent;

pub struct Context {
    region: String,
}

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
struct OrderCreated {
    #[cloudevent(extension)]
    region: String,
    #[cloudevent(extension(name = "region", member = "region"))]
    context: Context,
}

fn main() {}
