#!/usr/bin/env bash
# Memory-limit probe: runs, sweeps and stress searches on a saturated hypercube10
# under `ulimit -v` from FROM to TO MB in steps of STEP MB, and counts how they end.
# Every one should end with exit 2 and exactly one `error:` line (refused for its size,
# or stopped by the run guard); an abort (134), a kill (137), a panic or a second line
# is a failure, and a run that finishes (0) or outlasts the time limit (124) is counted
# apart.
#
#   tools/memory-probe.sh [FROM TO STEP [EMU]]    defaults: 30 200 10 target/release/emu
#
# Each case has TIMEOUT s (environment, default 120); the saturated run is long (100 ms
# of virtual time), so that its projected growth stops it within seconds. A sweep's and
# a search's runs in flight are projected from their progress too, so they stop within
# seconds as well. Prints one line per case, then the counts by kind and outcome; exits
# 1 if any case failed.
set -u
cd "$(dirname "$0")/.."
from=${1:-30}; to=${2:-200}; step=${3:-10}; emu=${4:-target/release/emu}
saturated=(-t hypercube10 -p uniform --set phases.measure_us=100000)
declare -A count
failed=0
err=$(mktemp)
trap 'rm -f "$err"' EXIT
for mb in $(seq "$from" "$step" "$to"); do
  for kind in run sweep stress; do
    case $kind in
      run) args=(-q "${saturated[@]}") ;;
      sweep) args=(sweep -q "${saturated[@]}" --load 0.9:1.0:0.1) ;;
      stress) args=(stress -q -t hypercube10 --seeds 4 --run-us 2000) ;;
    esac
    start=$(date +%s.%N)
    (ulimit -v $((mb * 1024)) && exec timeout "${TIMEOUT:-120}" "$emu" "${args[@]}") > /dev/null 2> "$err"
    rc=$?
    took=$(printf '%.1f' "$(echo "$(date +%s.%N) - $start" | bc)")
    lines=$(wc -l < "$err")
    errors=$(grep -c '^error: ' "$err")
    if [[ $rc == 2 && $lines == 1 && $errors == 1 ]]; then
      outcome="2, one line"
    elif [[ $rc == 0 || $rc == 124 ]]; then
      outcome="$rc"
    else
      outcome="FAILED: exit $rc, $lines lines"
      failed=1
    fi
    count["$kind: $outcome"]=$(( ${count["$kind: $outcome"]:-0} + 1 ))
    printf '%4d MB  %-6s  exit %3d  %5s s  %s\n' "$mb" "$kind" "$rc" "$took" "$(head -c 150 "$err" | head -n 1)"
  done
done
echo
echo "counts (kind: outcome):"
for k in "${!count[@]}"; do printf '  %-32s %d\n' "$k" "${count[$k]}"; done | sort
exit $failed
