#!/usr/bin/env bash
# Writes the shard files that seed the `shard` fuzz target (tools/fuzz.sh): tiny sweeps
# of each family (C104 ring with deadlocks, SCI rings, fabrics, a hypercube with three
# seeds), cut into shards with `emu sweep --shard K/N`, one file per shard, named
# TOPOLOGY-TRAFFIC.K-N.jsonl. Takes well under a second.
#
#   fuzz/shards/regenerate.sh [EMU]    (default: target/release/emu)
set -euo pipefail
cd "$(dirname "$0")"
EMU=${1:-../../target/release/emu}
short=(--set phases.warmup_us=5 --set phases.measure_us=20)
sweep() { # TOPOLOGY TRAFFIC N ARGS...
    local t=$1 p=$2 n=$3 k
    shift 3
    for k in $(seq 1 "$n"); do
        "$EMU" sweep -q --threads 1 -t "$t" -p "$p" "${short[@]}" "$@" --shard "$k/$n" --out "$t-$p.$k-$n.jsonl"
    done
}
rm -f ./*.jsonl
sweep ring4 uniform 2 --load 0.2:0.6:0.2 --seeds 2
sweep sci-ring4 sci-uniform 3 --load 0.1:0.3:0.1 --seeds 2
sweep sci-ring16-fc sci-request-response 1 --load 0.2
sweep fabric16-cioq fabric-nonuniform 2 --load 0.5:1.0:0.25
sweep fabric16-grant uniform-rate 1 --load 0.9 --seeds 2
sweep hypercube6 uniform 1 --load 0.3 --seeds 3
