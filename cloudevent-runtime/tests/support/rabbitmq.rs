//! A RabbitMQ node with its AMQP 1.0 plugin for the broker tests (`binding_fe2o3_amqp.rs`,
//! `interop_brokers.rs`, which include this file with `#[path]`): Debian's `rabbitmq-server`,
//! which `cargo xtask test` installs, started on free loopback ports in a fresh directory and
//! stopped on drop.

use std::os::unix::process::CommandExt;

use crate::ports::free_port;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A RabbitMQ node with the AMQP 1.0 plugin, in its own directory and on its own loopback
/// ports (AMQP, Erlang distribution, epmd), so it never meets another one; killed on drop.
pub struct RabbitMq {
    child: Child,
    dir: tempfile::TempDir,
    pub amqp_port: u16,
    epmd_port: u16,
}

fn rabbitmq_server() -> PathBuf {
    ["/usr/lib/rabbitmq/bin/rabbitmq-server", "/usr/sbin/rabbitmq-server"]
        .iter()
        .map(PathBuf::from)
        .find(|path| path.exists())
        .unwrap_or_else(|| {
            panic!(
                "rabbitmq-server is not installed: `cargo xtask test` installs it (apt-get install rabbitmq-server); the AMQP broker tests need it"
            )
        })
}

impl RabbitMq {
    pub fn start() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let (amqp_port, dist_port, epmd_port) = (free_port(), free_port(), free_port());
        let path = |name: &str| dir.path().join(name);
        std::fs::write(path("enabled_plugins"), "[rabbitmq_amqp1_0].\n").unwrap();
        std::fs::write(
            path("rabbitmq.conf"),
            format!("listeners.tcp.1 = 127.0.0.1:{amqp_port}\nloopback_users = none\n"),
        )
        .unwrap();
        let log = std::fs::File::create(path("server.log")).unwrap();
        let child = Command::new(rabbitmq_server())
            .current_dir(dir.path())
            // Its own Erlang cookie, node, ports and files: nothing shared with a system
            // broker or another test run.
            .env("HOME", dir.path())
            .env("RABBITMQ_NODENAME", format!("cetest{amqp_port}@localhost"))
            .env("RABBITMQ_NODE_IP_ADDRESS", "127.0.0.1")
            .env("RABBITMQ_NODE_PORT", amqp_port.to_string())
            .env("RABBITMQ_DIST_PORT", dist_port.to_string())
            .env("ERL_EPMD_PORT", epmd_port.to_string())
            .env("ERL_EPMD_ADDRESS", "127.0.0.1")
            // So `epmd -kill` on drop stops it even before it has noticed the node died.
            .env("ERL_EPMD_RELAXED_COMMAND_CHECK", "1")
            .env("RABBITMQ_CONFIG_FILE", path("rabbitmq"))
            .env("RABBITMQ_ENABLED_PLUGINS_FILE", path("enabled_plugins"))
            .env("RABBITMQ_MNESIA_BASE", path("mnesia"))
            .env("RABBITMQ_LOG_BASE", path("log"))
            .env("RABBITMQ_PLUGINS_EXPAND_DIR", path("plugins"))
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .process_group(0)
            .spawn()
            .expect("start rabbitmq-server");
        let broker = RabbitMq {
            child,
            dir,
            amqp_port,
            epmd_port,
        };
        broker.wait_until_ready(Duration::from_secs(90));
        broker
    }

    /// Ready once the AMQP listener accepts: the node opens it after the plugins started.
    /// A connection to itself is no listener: while nothing listens on a port of the
    /// ephemeral range, Linux can give the probe that very port as its own, and the connect
    /// succeeds alone (TCP simultaneous open). That once made a 1.6 s "ready" and a refused
    /// connection after it, so such a connection is treated as not ready.
    fn wait_until_ready(&self, limit: Duration) {
        let start = Instant::now();
        let listening = |port: u16| {
            std::net::TcpStream::connect(("127.0.0.1", port))
                .is_ok_and(|probe| probe.local_addr().ok() != probe.peer_addr().ok())
        };
        while !listening(self.amqp_port) {
            if start.elapsed() > limit {
                let log = std::fs::read_to_string(self.dir.path().join("server.log"));
                panic!("rabbitmq-server did not listen within {limit:?}: {log:?}");
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        eprintln!(
            "rabbitmq-server ready in {:.1} s",
            start.elapsed().as_secs_f64()
        );
    }

    pub fn url(&self) -> String {
        format!("amqp://guest:guest@127.0.0.1:{}", self.amqp_port)
    }
}

impl Drop for RabbitMq {
    fn drop(&mut self) {
        // The start script and the Erlang VM share the process group made at spawn; the
        // VM's helpers exit with it. epmd is a daemon of its own, on this node's port.
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.child.wait();
        let epmd = Path::new("/usr/bin/epmd");
        let _ = Command::new(if epmd.exists() {
            "/usr/bin/epmd"
        } else {
            "epmd"
        })
        .args(["-port", &self.epmd_port.to_string(), "-kill"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    }
}
