use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
struct OrderCreated {
    #[cloudevent(extension = "subject")]
    region: String,
}

fn main() {}
