use cloudevent_runtime::cesql;

fn main() {
    let _ = cesql!("sequence + 'one' > 2");
}
