use cloudevent_runtime::cesql;

fn main() {
    let _ = cesql!("type LIKE 123");
}
