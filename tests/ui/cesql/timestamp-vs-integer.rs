use cloudevent_runtime::cesql;

fn main() {
    let _ = cesql!("time = 2026");
}
