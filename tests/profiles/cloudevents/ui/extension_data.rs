use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "OrderCreated")]
struct OrderCreated {
    #[cloudevent(extension = "data")]
    value: String,
}

fn main() {}
