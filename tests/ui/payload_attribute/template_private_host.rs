use cloudevent_runtime::CloudEvent;

#[derive(serde::Serialize, CloudEvent)]
#[cloudevent(
    type = "com.example.device.reading.taken",
    source_template = "https://localhost/{tenantid}"
)]
struct ReadingTaken {
    tenantid: String,
}

fn main() {}
