use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.payment.settled")]
enum PaymentSettled {
    #[cloudevent(type = "com.example.payment.card")]
    Card,
    Cash,
}

fn main() {}
