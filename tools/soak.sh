#!/usr/bin/env bash
# Soak test: one long run, its resident memory sampled every
# INTERVAL seconds, to show that memory stays flat once the run has warmed up.
#
#   tools/soak.sh [MEASURE_US] [OUT.csv]
#
# Default: hypercube6, uniform Bernoulli traffic at 50 % load, 1,000,000 µs measured
# (10^8 ticks of 10 ns), one thread. Prints the samples' summary: RSS at the end of the
# first tenth of the run (after warm-up), at the end, the largest, and the growth from
# the first to the last in percent (the goal: at most 5 %). Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
measure_us=${1:-1000000}
out=${2:-soak.csv}
interval=${INTERVAL:-2}
emu=${EMU:-target/release/emu}
[ -x "$emu" ] || cargo build --release
start=$(date +%s)
"$emu" -q --threads 1 -t hypercube6 -p uniform-rate --set injection.load=0.5 \
    --set "phases.measure_us=$measure_us" > soak-report.txt &
pid=$!
echo "seconds,rss_kib" > "$out"
while kill -0 "$pid" 2>/dev/null; do
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$rss" ] && echo "$(( $(date +%s) - start )),$rss" >> "$out"
    sleep "$interval"
done
wait "$pid"
python3 - "$out" <<'PY'
import csv, sys
rows = [(int(r["seconds"]), int(r["rss_kib"])) for r in csv.DictReader(open(sys.argv[1]))]
if len(rows) < 10:
    sys.exit(f"only {len(rows)} samples: run longer")
warm = rows[len(rows) // 10][1]
last = rows[-1][1]
print(f"samples {len(rows)} over {rows[-1][0]} s; RSS after warm-up {warm} KiB, "
      f"at the end {last} KiB, largest {max(r[1] for r in rows)} KiB; "
      f"growth {100 * (last - warm) / warm:+.2f} %")
PY
head -3 soak-report.txt
