use cloudevent_runtime::{CloudEvent, cesql};

#[derive(serde::Serialize, serde::Deserialize, CloudEvent)]
#[cloudevent(type = "com.example.sensor.reading.taken", source = "https://sensors.example.com")]
struct Reading<L> {
    #[cloudevent(extension)]
    level: L,
}

fn main() {
    // A generic extension is typed by the type the payload is used with: `Reading<bool>`'s
    // `level` is a Boolean, never equal to 'high'; `Reading<String>`'s may be.
    let _ = cesql!(Reading<String>, "level = 'high'");
    let _ = cesql!(Reading<bool>, "level = 'high'");
}
