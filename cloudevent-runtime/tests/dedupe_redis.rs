//! Issue 22: `RedisDeduplicator` against a real `redis-server` on 127.0.0.1, started and
//! stopped here (`apt-get install -y redis-server`; `cargo xtask test` does it). Three
//! replicas share the window; `forget` reopens an event; a server restart is survived.
//! Each test checks that the server answering is the one it started.
#![cfg(feature = "redis")]

use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use cloudevent_runtime::dedupe::{Deduplicator, Delivery, RedisDeduplicator};

#[path = "support/ports.rs"]
mod ports;
use ports::free_port;

struct RedisServer {
    child: Child,
    port: u16,
}

impl RedisServer {
    fn start(port: u16) -> Self {
        let mut child = Command::new("redis-server")
            .args([
                "--port",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts (apt-get install -y redis-server)");
        // Listening is not enough: the server answering must be this child (stop 46's CI run
        // connected to another test's server on a reused port just as it was killed).
        let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                panic!("redis-server on port {port} exited ({status}): was the port taken?");
            }
            if TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_ok()
                && answering_pid(port) == Some(child.id())
            {
                break;
            }
            if Instant::now() >= deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!("redis-server {} did not answer on port {port}", child.id());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        RedisServer { child, port }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The process id of the redis-server answering on `port`, from `INFO server`.
fn answering_pid(port: u16) -> Option<u32> {
    let client = redis::Client::open(format!("redis://127.0.0.1:{port}")).ok()?;
    let mut connection = client
        .get_connection_with_timeout(Duration::from_millis(500))
        .ok()?;
    let info: String = redis::cmd("INFO")
        .arg("server")
        .query(&mut connection)
        .ok()?;
    info.lines()
        .find_map(|line| line.strip_prefix("process_id:"))
        .and_then(|pid| pid.trim().parse().ok())
}

#[test]
fn three_replicas_forget_and_a_restart() {
    let port = free_port();
    let mut server = RedisServer::start(port);
    let replicas: Vec<RedisDeduplicator> = (0..3)
        .map(|_| RedisDeduplicator::connect(&server.url(), Duration::from_millis(800)).unwrap())
        .collect();
    let news: Vec<usize> = std::thread::scope(|scope| {
        let handles: Vec<_> = replicas
            .iter()
            .map(|replica| {
                scope.spawn(move || {
                    (0..200)
                        .filter(|n| {
                            replica.check("/orders", &format!("e{n}")).unwrap() == Delivery::New
                        })
                        .count()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(news.iter().sum::<usize>(), 200, "{news:?}");
    replicas[0].forget("/orders", "e7").unwrap();
    assert_eq!(replicas[1].check("/orders", "e7").unwrap(), Delivery::New);
    assert_eq!(
        replicas[2].check("/orders", "e7").unwrap(),
        Delivery::Duplicate
    );
    // The window: PX expiry.
    std::thread::sleep(Duration::from_millis(1200));
    assert_eq!(replicas[2].check("/orders", "e7").unwrap(), Delivery::New);
    // A restart (no persistence here): the call that meets the dead connection fails, the next
    // reconnects.
    drop(server);
    server = RedisServer::start(port);
    let first = replicas[0].check("/orders", "after");
    let second = replicas[0].check("/orders", "after-2").unwrap();
    assert!(
        first.is_err() || first.as_ref().is_ok_and(|d| *d == Delivery::New),
        "{first:?}"
    );
    assert_eq!(second, Delivery::New);
    drop(server);
}

#[test]
fn a_claim_holds_for_its_lease_and_an_expired_one_is_taken_over_once() {
    use cloudevent_runtime::dedupe::Claim;
    let server = RedisServer::start(free_port());
    let window = Duration::from_secs(60);
    let replicas: Vec<RedisDeduplicator> = (0..3)
        .map(|_| RedisDeduplicator::connect(&server.url(), window).unwrap())
        .collect();
    let lease = Duration::from_millis(300);
    assert_eq!(
        replicas[0].claim("/s", "e1", lease).unwrap(),
        Claim::Claimed
    );
    assert_eq!(
        replicas[1].claim("/s", "e1", lease).unwrap(),
        Claim::InFlight
    );
    std::thread::sleep(Duration::from_millis(400));
    let taken: Vec<Claim> = std::thread::scope(|scope| {
        let handles: Vec<_> = replicas[1..]
            .iter()
            .map(|replica| scope.spawn(move || replica.claim("/s", "e1", lease).unwrap()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(
        taken.iter().filter(|c| **c == Claim::Claimed).count(),
        1,
        "{taken:?}"
    );
    replicas[2].commit("/s", "e1").unwrap();
    // The commit outlives the lease: it lasts the window.
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(replicas[0].claim("/s", "e1", lease).unwrap(), Claim::Done);
    assert_eq!(replicas[0].check("/s", "e1").unwrap(), Delivery::Duplicate);
    assert_eq!(
        replicas[0].claim("/s", "e2", window).unwrap(),
        Claim::Claimed
    );
    replicas[0].forget("/s", "e2").unwrap();
    assert_eq!(
        replicas[1].claim("/s", "e2", window).unwrap(),
        Claim::Claimed
    );
}

/// Issue 38 item 3: the NATS stores failed on a 3 KB `id` or `source`; Redis takes keys up to
/// 512 MB, and keeps doing so: a long pair is deduplicated, and answered at once.
#[test]
fn a_3_kb_id_or_source_is_deduplicated_at_once() {
    use cloudevent_runtime::dedupe::Claim;
    let server = RedisServer::start(free_port());
    let seen = RedisDeduplicator::connect(&server.url(), Duration::from_secs(60)).unwrap();
    let long_id = "i".repeat(3 * 1024);
    let long_source = format!("https://orders.example.com/{}", "s".repeat(3 * 1024));
    let started = Instant::now();
    for (source, id) in [("/orders", long_id.as_str()), (long_source.as_str(), "e1")] {
        assert_eq!(seen.check(source, id).unwrap(), Delivery::New);
        assert_eq!(seen.check(source, id).unwrap(), Delivery::Duplicate);
    }
    assert_eq!(
        seen.check("/orders", &format!("{long_id}x")).unwrap(),
        Delivery::New
    );
    let lease = Duration::from_secs(30);
    assert_eq!(seen.claim("/c", &long_id, lease).unwrap(), Claim::Claimed);
    assert_eq!(seen.claim("/c", &long_id, lease).unwrap(), Claim::InFlight);
    seen.commit("/c", &long_id).unwrap();
    assert_eq!(seen.claim("/c", &long_id, lease).unwrap(), Claim::Done);
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

/// The helper itself: a second server on a taken port is refused, never mistaken for the first
/// (stop 46's CI failure was a test talking to another test's server).
#[test]
fn a_server_on_a_taken_port_is_not_mistaken_for_ours() {
    let port = free_port();
    let first = RedisServer::start(port);
    let second = std::panic::catch_unwind(|| RedisServer::start(port));
    assert!(second.is_err(), "a second redis-server on port {port}");
    assert_eq!(answering_pid(first.port), Some(first.child.id()));
}
