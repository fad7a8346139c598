//! Free ports on 127.0.0.1 for the servers the tests start, one home for every test binary
//! that starts one (included with `#[path]`).
//!
//! A port the OS calls free is handed out at most once per test process: a test that restarts
//! its server on the same port leaves it free for a moment, and a test starting beside it must
//! not be handed it then (stop 46's CI run failed so: one test talked to another's redis-server
//! as it was killed).

use std::collections::HashSet;
use std::net::{Ipv4Addr, TcpListener};
use std::sync::Mutex;

pub fn free_port() -> u16 {
    static HANDED_OUT: Mutex<Option<HashSet<u16>>> = Mutex::new(None);
    let mut handed_out = HANDED_OUT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let handed_out = handed_out.get_or_insert_with(HashSet::new);
    loop {
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .and_then(|listener| listener.local_addr())
            .expect("a free port on 127.0.0.1")
            .port();
        if handed_out.insert(port) {
            return port;
        }
    }
}
