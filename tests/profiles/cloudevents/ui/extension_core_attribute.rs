use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "OrderCreated")]
struct OrderCreated {
    #[cloudevent(extension = "time")]
    value: String,
}

fn main() {}
