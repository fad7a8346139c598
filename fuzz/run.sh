#!/bin/sh
# Runs one fuzz target for a while with its committed seeds: ./fuzz/run.sh <target> [seconds]
# Works on stable Rust through RUSTC_BOOTSTRAP=1 (cargo-fuzz passes nightly -Z flags).
# New corpus entries go to fuzz/corpus/<target> (ignored by git), crashes to fuzz/artifacts/.
set -eu
target=$1
seconds=${2:-600}
cd "$(dirname "$0")/.."
mkdir -p "fuzz/corpus/$target"
RUSTC_BOOTSTRAP=1 exec cargo fuzz run -O "$target" "fuzz/corpus/$target" "fuzz/seeds/$target" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 -timeout=10 -print_final_stats=1
