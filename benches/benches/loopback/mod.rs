//! The end-to-end contestants and their load generators, shared by the `e2e` bench and the
//! `e2e_smoke` test (`#[path]`-included: the SDK and the clients are dev-dependencies only).
//!
//! - [`http`]: the same axum service on our extractors and on `cloudevents-sdk` 0.9's axum
//!   binding, and a bounded HTTP/1.1 load generator (fixed request count, fixed number of
//!   keep-alive connections, 127.0.0.1 only).
//! - [`gateway`]: the documented INTG-STD-015 gateway, the all-checks gateway (profile,
//!   registry, `cesql!`) and the SDK's binding, each alone on one thread, for the 20 KB and
//!   1 KiB events-per-second-per-core rows.
//! - [`memory`]: a counting allocator, peak resident sets, and the protocol with the child
//!   process each peak is measured in (issue 40).
//! - [`nats`]: a `nats-server -js` started on a free loopback port with a temporary store, and
//!   JetStream publish / consume runs through our binding and through plain async-nats.

#![allow(dead_code, reason = "the bench and the smoke test each use a part")]

pub mod gateway;
pub mod http;
pub mod memory;
pub mod nats;

use std::time::Duration;

/// One timed run: how many operations, how long, and each one's latency when measured.
#[derive(Debug, Clone)]
pub struct Run {
    /// Operations completed (requests answered, events acknowledged).
    pub count: usize,
    /// Wall-clock time of the whole run.
    pub elapsed: Duration,
    /// Per-operation latencies in nanoseconds, sorted; empty when not measured.
    pub latencies_ns: Vec<u64>,
}

impl Run {
    /// Operations a second.
    pub fn per_second(&self) -> f64 {
        self.count as f64 / self.elapsed.as_secs_f64()
    }

    /// The `q` quantile (0..=1) of the latencies in microseconds, nearest rank.
    pub fn quantile_us(&self, q: f64) -> Option<f64> {
        if self.latencies_ns.is_empty() {
            return None;
        }
        let rank = ((q * self.latencies_ns.len() as f64).ceil() as usize).max(1) - 1;
        let index = rank.min(self.latencies_ns.len() - 1);
        Some(self.latencies_ns[index] as f64 / 1_000.0)
    }
}

/// The run with the median throughput (the upper median for an even count).
pub fn median(runs: &[Run]) -> &Run {
    let mut order: Vec<&Run> = runs.iter().collect();
    order.sort_by(|a, b| a.per_second().total_cmp(&b.per_second()));
    order[order.len() / 2]
}
