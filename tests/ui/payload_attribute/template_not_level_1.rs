use cloudevent_runtime::CloudEvent;

#[derive(serde::Serialize, CloudEvent)]
#[cloudevent(
    type = "com.example.device.reading.taken",
    source_template = "https://devices.example.com{/tenantid}"
)]
struct ReadingTaken {
    tenantid: String,
}

fn main() {}
