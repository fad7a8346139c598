use cloudevent_runtime::CloudEvent;

pub struct Context {
    pub sequence_number: i64,
}

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.order.created")]
struct OrderCreated {
    #[cloudevent(extension(name = "seqno", member = "sequence_number"))]
    context: Context,
}

fn main() {}
