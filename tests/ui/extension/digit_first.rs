use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
struct OrderCreated {
    #[cloudevent(extension = "1region")]
    region: String,
}

fn main() {}
