use cloudevent_runtime::cesql;

fn main() {
    let _ = cesql!("LENGHT(subject) > 3 AND LEFT('abc') = 'a'");
}
