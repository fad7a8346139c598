use cloudevent_runtime::CloudEvent;

use cloudevent_runtime::CloudEventData;

#[derive(CloudEvent)]
#[cloudevent(type = "com.Example.order.created")]
struct OrderCreated {
    #[cloudevent(subject)]
    order_id: String,
}

fn type_of<T: CloudEventData>(_: &T) -> &'static str {
    T::TYPE
}

fn main() {
    let order = OrderCreated { order_id: "o".into() };
    let _ = (type_of(&order), OrderCreated::TYPE, order.subject());
}
