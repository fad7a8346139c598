use cloudevent_runtime::CloudEvent;

pub struct Context {
    pub site: Option<Site>,
}

pub struct Site {
    pub zone: String,
}

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
struct OrderCreated {
    #[cloudevent(extension(name = "zone", member = "site.zone"))]
    context: Context,
}

fn main() {}
