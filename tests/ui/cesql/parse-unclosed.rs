use cloudevent_runtime::cesql;

fn main() {
    let _ = cesql!("(type = 'a' OR subject = 'b'");
}
