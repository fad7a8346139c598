use cloudevent_runtime::CloudEvent;

#[derive(CloudEvent)]
#[cloudevent(type = "nl.brp.persoon-gehuwd")]
struct OrderCreated {
    #[cloudevent(extension = "Gemeente")]
    value: String,
}

fn main() {}
