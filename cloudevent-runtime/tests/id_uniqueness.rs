//! Generated ids stay unique where a per-thread random generator could repeat itself: across
//! threads (each seeds its own) and across `fork()` (the child inherits the parent's
//! generator state and must not replay it; ADR-0003 decision 2, a new id per emission).

use std::collections::HashSet;

use cloudevent_runtime::IdKind;

/// The 80 random bits of a ULID: its last 16 Crockford characters. Two processes that
/// replayed one generator would agree here even when their millisecond prefixes differ.
fn ulid_random(id: &str) -> String {
    id[10..].to_owned()
}

fn batch(n: usize) -> Vec<String> {
    (0..n)
        .flat_map(|_| {
            [
                ulid_random(&IdKind::Ulid.generate()),
                IdKind::UuidV4.generate(),
            ]
        })
        .collect()
}

#[test]
fn threads_never_share_random_bits() {
    let handles: Vec<_> = (0..4).map(|_| std::thread::spawn(|| batch(500))).collect();
    let mut seen = HashSet::new();
    for handle in handles {
        for random in handle.join().unwrap() {
            assert!(seen.insert(random.clone()), "{random} generated twice");
        }
    }
    assert_eq!(seen.len(), 4 * 500 * 2);
}

#[cfg(unix)]
#[test]
fn a_forked_child_does_not_repeat_its_parents_ids() {
    // `fork` and `_exit` are foreign functions; the child only generates ids, writes them to
    // a socket and exits without running destructors or the test harness.
    #![allow(unsafe_code)]
    use std::io::{Read, Write};
    use std::os::unix::net::UnixStream;

    // Seed this thread's generator before forking, so the child inherits its state.
    let before_fork = batch(8);
    let (mut parent_end, mut child_end) = UnixStream::pair().unwrap();
    // SAFETY: the child runs only the id generator and socket writes before `_exit`.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        drop(parent_end);
        let ids = batch(64).join("\n");
        let ok = child_end.write_all(ids.as_bytes()).is_ok();
        // SAFETY: ends the child at once, as a forked child of a threaded process should.
        unsafe { libc::_exit(if ok { 0 } else { 1 }) };
    }
    drop(child_end);
    let in_parent = batch(64);
    let mut from_child = String::new();
    parent_end.read_to_string(&mut from_child).unwrap();
    let mut status = 0;
    // SAFETY: waits for the child forked above.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    assert_eq!(status, 0, "the child failed");

    let in_child: Vec<&str> = from_child.lines().collect();
    assert_eq!(in_child.len(), 128);
    let parent: HashSet<&str> = in_parent
        .iter()
        .chain(&before_fork)
        .map(String::as_str)
        .collect();
    let repeated: Vec<&&str> = in_child.iter().filter(|id| parent.contains(**id)).collect();
    assert!(
        repeated.is_empty(),
        "the child repeated the parent's random bits: {repeated:?}"
    );
}
