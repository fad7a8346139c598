use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
union OrderCreated {
    id: u32,
}

fn main() {}
