#!/usr/bin/env bash
# A deadlock search on a Slurm cluster: one array task per shard of the cases, then a
# merge job that runs when every shard has finished. Each shard searches every
# SHARDS-th case in order and stops at its first deadlock; the merge takes the lowest,
# shrinks it and prints, writes (deadlock.toml, stress.json) and exits as a single
# `emu stress` with the same flags does (tests/stress.rs checks it): 0 no deadlock,
# 3 a deadlock, 4 a flow-control violation.
#
#   examples/slurm-stress.sh                                 # torus8-single, 256 seeds
#   TOPOLOGY=kary4-3 SEEDS=1000 BUFFERS=small SHARDS=50 examples/slurm-stress.sh
#
# emu must be on the PATH of the compute nodes (or set EMU), and OUT must be on a file
# system they share; the merge reads the topology as the shards did.
set -euo pipefail
EMU=${EMU:-emu}
TOPOLOGY=${TOPOLOGY:-torus8-single}
SEEDS=${SEEDS:-256}
BUFFERS=${BUFFERS:-topology}
RUN_US=${RUN_US:-100}
SHARDS=${SHARDS:-16}
CPUS=${CPUS:-2}
OUT=${OUT:-stress-$TOPOLOGY}
mkdir -p "$OUT"
ARGS="--topology $TOPOLOGY --seeds $SEEDS --buffers $BUFFERS --run-us $RUN_US --quiet"

array=$(sbatch --parsable --job-name="emu-stress" --array="1-$SHARDS" \
    --cpus-per-task="$CPUS" --output="$OUT/slurm-%A_%a.log" \
    --wrap="$EMU stress $ARGS --threads $CPUS --shard \${SLURM_ARRAY_TASK_ID}/$SHARDS --out $OUT/part-\${SLURM_ARRAY_TASK_ID}.jsonl")

sbatch --job-name="emu-merge" --dependency="afterok:$array" --output="$OUT/merge.log" \
    --wrap="$EMU merge $OUT/part-*.jsonl --out $OUT/deadlock.toml --json $OUT/stress.json > $OUT/stress.txt"

echo "submitted array job $array ($SHARDS shards) and its merge; results in $OUT/"
