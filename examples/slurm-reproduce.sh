#!/usr/bin/env bash
# The reproductions on a Slurm cluster: one array task per shard of the experiments,
# then a merge job that runs when every shard has finished. The merged text, JSON and
# HTML page are byte for byte what a single `emu reproduce` with the same experiments
# prints and writes (tests/reproduce_shard.rs checks it).
#
#   examples/slurm-reproduce.sh                         # every experiment, full form
#   NAMES="sci-bus sci-uniform" QUICK=--quick SHARDS=2 examples/slurm-reproduce.sh
#
# Every shard runs its share of the switch-fabric strategy grids (every N-th point),
# the longest experiments; every other experiment goes whole to one shard, by a plan
# that balances their wall times in the stored full run
# (docs/validation/provenance.toml). The merge job exits as one process would: 1
# if a row failed. emu must be on the PATH of the compute nodes (or set EMU), and OUT
# must be on a file system they share.
set -euo pipefail
EMU=${EMU:-emu}
NAMES=${NAMES:-all}
QUICK=${QUICK:-}
SHARDS=${SHARDS:-8}
OUT=${OUT:-reproduce}
mkdir -p "$OUT"
ARGS="$NAMES $QUICK --quiet"

array=$(sbatch --parsable --job-name="emu-reproduce" --array="1-$SHARDS" \
    --cpus-per-task=1 --output="$OUT/slurm-%A_%a.log" \
    --wrap="$EMU reproduce $ARGS --shard \${SLURM_ARRAY_TASK_ID}/$SHARDS --out $OUT/part-\${SLURM_ARRAY_TASK_ID}.jsonl")

sbatch --job-name="emu-merge" --dependency="afterok:$array" --output="$OUT/merge.log" \
    --wrap="$EMU merge $OUT/part-*.jsonl --json $OUT/results.json --report $OUT/reproduce.html > $OUT/reproduce.txt"

echo "submitted array job $array ($SHARDS shards) and its merge; results in $OUT/"
