use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "com.example.payment.settled")]
enum PaymentSettled {
    Card {
        #[cloudevent(subject)]
        card_id: String,
    },
    Cash,
}

fn main() {}
