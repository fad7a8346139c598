// `Event::new` needs a source it can fill in: a type that names none (no `source = "..."`,
// no `source_template`, no `#[cloudevent(source)]` field) is refused at the call.
use cloudevent_runtime::{CloudEvent, Event};

#[derive(serde::Serialize, CloudEvent)]
#[cloudevent(type = "com.example.health.ping.sent")]
struct Ping;

fn main() {
    let _ = Event::new(Ping);
}
