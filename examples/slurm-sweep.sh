#!/usr/bin/env bash
# A load sweep on a Slurm cluster: one array task per shard, then a merge job that runs
# when every shard has finished. The merged table, CSV, plot and JSON are byte for byte what
# a single `emu sweep` with the same arguments prints (tests/sweep.rs checks it).
#
#   examples/slurm-sweep.sh                 # submit with the defaults below
#   SHARDS=200 LOAD=0.01:1.0:0.01 SEEDS=10 examples/slurm-sweep.sh
#
# Every shard runs its runs on the cores Slurm gives it (--threads), so size SHARDS to
# the number of nodes you want busy: 100 loads x 10 seeds = 1,000 runs over 200 shards
# is 5 runs per shard. emu must be on the PATH of the compute nodes (or set EMU), and
# OUT must be on a file system they share.
set -euo pipefail
EMU=${EMU:-emu}
TOPOLOGY=${TOPOLOGY:-hypercube8}
TRAFFIC=${TRAFFIC:-uniform}
LOAD=${LOAD:-0.05:1.0:0.05}
SEEDS=${SEEDS:-5}
SHARDS=${SHARDS:-20}
CPUS=${CPUS:-4}
OUT=${OUT:-sweep-$TOPOLOGY-$TRAFFIC}
mkdir -p "$OUT"
ARGS="--topology $TOPOLOGY --traffic $TRAFFIC --load $LOAD --seeds $SEEDS --quiet"

array=$(sbatch --parsable --job-name="emu-$TOPOLOGY" --array="1-$SHARDS" \
    --cpus-per-task="$CPUS" --output="$OUT/slurm-%A_%a.log" \
    --wrap="$EMU sweep $ARGS --threads $CPUS --shard \${SLURM_ARRAY_TASK_ID}/$SHARDS --out $OUT/part-\${SLURM_ARRAY_TASK_ID}.jsonl")

sbatch --job-name="emu-merge" --dependency="afterok:$array" --output="$OUT/merge.log" \
    --wrap="$EMU merge $OUT/part-*.jsonl --csv $OUT/runs.csv --table-csv $OUT/table.csv --plot $OUT/curve.svg --json $OUT/sweep.json > $OUT/table.txt"

echo "submitted array job $array ($SHARDS shards) and its merge; results in $OUT/"
