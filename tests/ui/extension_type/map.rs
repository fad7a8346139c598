use cloudevent_runtime::CloudEvent;

use std::collections::HashMap;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
struct OrderCreated {
    #[cloudevent(extension)]
    labels: HashMap<String, String>,
}

fn main() {}
