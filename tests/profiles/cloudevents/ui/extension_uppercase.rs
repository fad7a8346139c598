use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "OrderCreated")]
struct OrderCreated {
    #[cloudevent(extension = "Region")]
    value: String,
}

fn main() {}
