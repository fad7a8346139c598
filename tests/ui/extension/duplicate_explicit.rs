use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
struct OrderCreated {
    #[cloudevent(extension = "region")]
    from: String,
    #[cloudevent(extension = "region")]
    to: String,
}

fn main() {}
