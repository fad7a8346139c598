use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.Example.order.created", source = "https://localhost/checkout")]
struct OrderCreated {
    #[cloudevent(extension = "Region")]
    region: String,
    #[cloudevent(extension)]
    amount: i64,
}

fn main() {}
