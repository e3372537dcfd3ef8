#!/usr/bin/env bash
# Fuzzes everything a user can feed emu: topology and traffic TOML, --set values,
# netlists, fabric traces and sweep shard files, and runs the cases it
# builds for a few thousand ticks. Builds the targets in fuzz/ with cargo-fuzz
# (libFuzzer, on stable Rust through RUSTC_BOOTSTRAP=1, no sanitizer, debug assertions
# and overflow checks on), seeds their corpora from the shipped files (and the shard
# files in fuzz/shards/), runs each target and prints, per target, the executions,
# crashes, timeouts and out-of-memory runs, and the peak RSS.
#
#   tools/fuzz.sh [--quick] [--time SECONDS] [--runs N] [--jobs N] [--keep-going] [--build-only] [TARGET...]
#
#   --quick       each target for 10 s (for CI), two at a time, built at opt-level 0
#                 with 16 codegen units in fuzz/target/quick (a build of 120 CPU s
#                 instead of 300, of targets about 9 times slower), each from at most 50
#                 of its seeds (docs/fuzzing.md)
#   --time S      each target for S seconds (default 300)
#   --runs N      each target for at most N executions (as well as the time limit)
#   --jobs N      fuzz N targets at a time, each on one core (default 1)
#   --keep-going  libFuzzer's fork mode: go on after a crash, timeout or OOM (every one
#                 is saved in fuzz/artifacts/TARGET/); default: stop at the first
#   --build-only  build the targets as the other options say, and stop (CI builds them
#                 beside its other stages, then fuzzes)
#   TARGET        case, sets, netlist, trace, fabric_trace, run, shard (default: all)
#
# Limits on every execution: -timeout=10 (seconds), -rss_limit_mb=2048 (which is also
# the largest single allocation allowed). Exits 1 if any target found a crash, timeout
# or OOM, 2 if it could not run. FUZZ_TARGET_DIR: where to build (default fuzz/target,
# with --quick fuzz/target/quick).
# Needs cargo-fuzz (`cargo install cargo-fuzz`) and a C++ compiler (libFuzzer is built
# from source by libfuzzer-sys).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
FUZZ=$ROOT/fuzz
TIME=300
RUNS=0
KEEP=0
BUILD_ONLY=0
QUICK=0
TARGETS=()
UNITS=()
JOBS=1
ALL=(run case sets netlist trace fabric_trace shard)  # run first: its executions are the longest
TIMEOUT=10
RSS_MB=2048

while [ $# -gt 0 ]; do
    case $1 in
        --quick) TIME=10; JOBS=2; UNITS=(--codegen-units 16); QUICK=1 ;;
        --jobs) JOBS=$2; shift ;;
        --time) TIME=$2; shift ;;
        --runs) RUNS=$2; shift ;;
        --keep-going) KEEP=1 ;;
        --build-only) BUILD_ONLY=1 ;;
        -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
        case|sets|netlist|trace|fabric_trace|run|shard) TARGETS+=("$1") ;;
        *) echo "fuzz.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=("${ALL[@]}")

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz.sh: cargo-fuzz is not installed: cargo install cargo-fuzz" >&2
    exit 2
fi

cd "$FUZZ"
echo "== building the fuzz targets"
TARGET_DIR=${FUZZ_TARGET_DIR:-$FUZZ/target}
if [ "$QUICK" -eq 1 ]; then
    TARGET_DIR=${FUZZ_TARGET_DIR:-$FUZZ/target/quick}
    export CARGO_PROFILE_RELEASE_OPT_LEVEL=0
fi
RUSTC_BOOTSTRAP=1 nice -n 10 cargo fuzz build --sanitizer none --debug-assertions \
    "${UNITS[@]}" --target-dir "$TARGET_DIR"
HOST=$(rustc -vV | sed -n 's/^host: //p')
BIN=$TARGET_DIR/$HOST/release
[ "$BUILD_ONLY" -eq 0 ] || exit 0

# --- seeds (regenerated every time for the targets run; the grown corpora in corpus/
# are kept). Each target's seeds and the dictionary are written apart, so that two
# instances of this script can fuzz different targets side by side.
mkdir -p seeds dict logs
TOPOS=("$ROOT"/topologies/*.toml)
TRAFS=("$ROOT"/traffic/*.toml)
SETS=(
    "link.buffer_tokens=8" "c104.output_buffer_tokens=8" "pattern.rotate=3"
    "injection.load=0.5" "network.dimensions=6" "message.bytes=64" "phases.measure_us=10"
    "network.routing=\"universal\"" "pattern.kind=\"transpose\"" "injection={kind=\"batch\", messages=3}"
    "topology.description=\"x\"" "terminals.senders=[0, 1]" "network.side=4" "packet.header_bytes=2"
    "vcp.channels=2" "faults.extra_initial_credit=1" "network.nodes=8" "network.ports=8"
)
# --set values of the SCI ring and switch-fabric families, each tried on every shipped
# topology of the family with every shipped traffic file of it (case, run).
SCI_SETS=(
    "network.nodes=8" "network.flow_control=true" "network.active_buffers=2" "network.sink_rate=0.5"
    "network.mix={address=0.5, data64=0.25, data256=0.25}" "injection.load=0.5"
    "terminals.saturated=[0, 1]" "terminals.senders=[0, 2]" "pattern={kind=\"starved\", node=1}"
)
FABRIC_SETS=(
    "network.ports=4" "network.rtt=8" "network.memory=\"60%\"" "network.architecture=\"cioq\""
    "network.flow_control=\"grant\"" "network.strategy=\"rr\"" "network.thresholds=[8, 16]"
    "network.packet_bytes=16" "network.voq_cap=4" "injection.load=1"
    "pattern={kind=\"non_uniform\", w=0.9}"
)
# One case file as the case and run targets read it (emu_fuzz::split): topology,
# traffic, --set lines, the trace if the traffic is a trace, seed 1.
case_file() { # TOPOLOGY TRAFFIC [SET]
    cat "$1"
    printf '\0'
    cat "$2"
    printf '\0%s\0' "${3:-}"
    if grep -q 'kind = "trace"' "$2"; then cat "$ROOT"/traffic/*.trace; fi
    printf '\0%s' 1
}
seed() {
    local t=$1 dir=seeds/$1 i=0
    rm -rf "$dir"
    mkdir -p "$dir"
    case $t in
        case | run)
            for tp in "${TOPOS[@]}"; do
                for r in "${TRAFS[@]}"; do
                    case_file "$tp" "$r" >"$dir/$(basename "$tp" .toml)--$(basename "$r" .toml)"
                done
            done
            local family sets tp r j f
            for family in sci fabric; do
                if [ $family = sci ]; then
                    sets=("${SCI_SETS[@]}")
                    tp=("$ROOT"/topologies/sci-*.toml)
                    r=("$ROOT"/traffic/sci-*.toml)
                else
                    sets=("${FABRIC_SETS[@]}")
                    tp=("$ROOT"/topologies/fabric*.toml)
                    r=("$ROOT"/traffic/fabric-*.toml "$ROOT"/traffic/uniform-rate.toml "$ROOT"/traffic/bursty30.toml)
                fi
                for f in "${tp[@]}"; do
                    for j in "${r[@]}"; do
                        for i in "${!sets[@]}"; do
                            case_file "$f" "$j" "${sets[$i]}" \
                                >"$dir/$(basename "$f" .toml)--$(basename "$j" .toml)--set$i"
                        done
                    done
                done
            done
            ;;
        sets)
            for ti in $(seq 0 $((${#TOPOS[@]} - 1))); do
                for ri in $(seq 0 $((${#TRAFS[@]} - 1))); do
                    {
                        printf "\\x$(printf %02x "$ti")\\x$(printf %02x "$ri")"
                        printf '%s\n' "${SETS[$((i % ${#SETS[@]}))]}"
                    } >"$dir/$ti-$ri"
                    i=$((i + 1))
                done
            done
            ;;
        trace | fabric_trace)
            cp "$ROOT"/traffic/*.trace "$dir/"
            printf '0 0 1 1\n5 3 2 4 # x\n\n' >"$dir/small"
            printf '18446744073709551615 15 15 4294967295\n' >"$dir/big"
            ;;
        netlist) ;; # structured (arbitrary): starts from nothing
        shard)
            # Real shard files (emu sweep --shard K/N, fuzz/shards/regenerate.sh): each
            # alone, each sweep's shards as separate files (NUL-separated) and as one
            # concatenated file (both merge), and two sweeps together (refused).
            local sweeps=() s f
            for f in "$FUZZ"/shards/*.jsonl; do
                cp "$f" "$dir/"
                s=$(basename "$f" .jsonl)
                s=${s%.*}
                [[ " ${sweeps[*]} " == *" $s "* ]] || sweeps+=("$s")
            done
            for s in "${sweeps[@]}"; do
                local parts=("$FUZZ"/shards/"$s".*.jsonl)
                for f in "${parts[@]}"; do cat "$f"; printf '\0'; done >"$dir/$s.files"
                cat "${parts[@]}" >"$dir/$s.joined"
            done
            cat "$FUZZ"/shards/ring4-uniform.1-2.jsonl "$FUZZ"/shards/sci-ring4-sci-uniform.2-3.jsonl >"$dir/two-sweeps"
            ;;
    esac
}
# The dictionary: keys, section names and words of the files, and of the schemas.
{
    grep -hoE '^\s*\[+[a-z_.]+\]+' "$ROOT"/topologies/*.toml "$ROOT"/traffic/*.toml | tr -d ' '
    grep -hoE '^\s*[a-z_]+\s*=' "$ROOT"/topologies/*.toml "$ROOT"/traffic/*.toml | tr -d ' ='
    grep -hoE '^\s*pub [a-z_]+:' "$ROOT"/crates/emu-core/src/config/*.rs "$ROOT"/crates/emu-core/src/parts/*/config.rs |
        sed -E 's/\s*pub ([a-z_]+):/\1/'
    grep -hoE '"[a-z0-9_.-]+"' "$ROOT"/topologies/*.toml "$ROOT"/traffic/*.toml
    printf '%s\n' '=' '[' ']' '{' '}' ',' '.' '"' 'true' 'false' '0' '1' '-1' '4294967295' \
        '18446744073709551615' '1e308' 'nan' 'inf' '1.5' '"packet"' 'topology.' 'traffic.'
} | sort -u | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/"/' >dict/toml.dict.$$
mv dict/toml.dict.$$ dict/toml.dict
# The shard files' dictionary: their keys and words, and a few numbers.
{
    cat "$FUZZ"/shards/*.jsonl | grep -oE '"[A-Za-z0-9_./ -]+"' | sort -u
    printf '%s\n' '{' '}' '[' ']' ':' ',' 'null' 'true' 'false' '0' '-0' '1' '-1' '0.5' '1e308' '-1e308' \
        '5e-324' '1e400' '4294967295' '4294967296' '18446744073709551615' '18446744073709551616' \
        '"emu-sweep-shard/1"' '"shard":[1,1]' '"measures":{"Err":0}' '"seeds":0' '"loads":[]'
} | sort -u | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/"/' >dict/shard.dict.$$
mv dict/shard.dict.$$ dict/shard.dict

declare -A MAXLEN=([case]=32768 [sets]=4096 [netlist]=8192 [trace]=65536 [fabric_trace]=65536
    [run]=32768 [shard]=16384)
declare -A DICT=([case]=-dict=dict/toml.dict [sets]=-dict=dict/toml.dict [netlist]= [trace]=
    [fabric_trace]= [run]=-dict=dict/toml.dict [shard]=-dict=dict/shard.dict)

status=0
summary=logs/summary.$$
printf '\n%-12s %12s %8s %9s %8s %8s %5s %11s\n' target executions seconds exec/s crashes timeouts ooms peak_rss_mb >"$summary"

# Fuzzes target $1 and writes its summary row to logs/$1.row, and logs/$1.found if it
# found a crash, timeout or OOM. Always succeeds, so that targets can run side by side.
fuzz_one() {
    local t=$1 stamp log args start end secs execs crashes timeouts ooms rss rss_time rate
    seed "$t"
    if [ "$QUICK" -eq 1 ]; then
        # At opt-level 0 a seed of `run` takes about 0.35 s and one of `case` 0.05 s:
        # at most 50 seeds, every k-th in name order (topology, then traffic).
        local n k
        n=$(find "seeds/$t" -type f | wc -l)
        k=$(((n + 49) / 50))
        find "seeds/$t" -type f | sort | awk -v k="$k" 'NR % k != 1 && k > 1' | xargs -r rm -f
    fi
    mkdir -p "corpus/$t" "artifacts/$t"
    stamp=$(mktemp)
    log=logs/$t.log
    args=(-timeout=$TIMEOUT -rss_limit_mb=$RSS_MB -max_total_time="$TIME" -max_len="${MAXLEN[$t]}"
        -print_final_stats=1 -artifact_prefix="artifacts/$t/")
    [ "$RUNS" -gt 0 ] && args+=(-runs="$RUNS")
    [ -n "${DICT[$t]}" ] && args+=("${DICT[$t]}")
    [ "$KEEP" -eq 1 ] && args+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
    echo "== $t: $BIN/$t ${args[*]} corpus/$t seeds/$t"
    start=$(date +%s.%N)
    # GNU time's %M: the peak RSS of the target and any fork-mode children.
    /usr/bin/time -f 'peak_rss_kb %M' -o "logs/$t.time" \
        nice -n 19 "$BIN/$t" "${args[@]}" "corpus/$t" "seeds/$t" >"$log" 2>&1 || true
    end=$(date +%s.%N)
    secs=$(echo "$end - $start" | bc)
    # Executions: the final stats, or in fork mode the last progress line's count.
    execs=$(sed -n 's/^stat::number_of_executed_units: //p' "$log" | tail -1)
    [ -n "$execs" ] || execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    [ -n "$execs" ] || execs=0
    crashes=$(find "artifacts/$t" -newer "$stamp" -name 'crash-*' | wc -l)
    timeouts=$(find "artifacts/$t" -newer "$stamp" -name 'timeout-*' | wc -l)
    ooms=$(find "artifacts/$t" -newer "$stamp" -name 'oom-*' | wc -l)
    rm -f "$stamp"
    rss=$(sed -n 's/^stat::peak_rss_mb: //p' "$log" | tail -1)
    rss_time=$(($(sed -n 's/^peak_rss_kb //p' "logs/$t.time" | tail -1) / 1024))
    [ -n "$rss" ] && [ "$rss" -ge "$rss_time" ] || rss=$rss_time
    rate=$(echo "$execs / $secs" | bc)
    printf '%-12s %12s %8.0f %9s %8s %8s %5s %11s\n' "$t" "$execs" "$secs" "$rate" \
        "$crashes" "$timeouts" "$ooms" "$rss" >"logs/$t.row"
    if [ $((crashes + timeouts + ooms)) -gt 0 ]; then
        touch "logs/$t.found"
        echo "   found: see $FUZZ/artifacts/$t/ and $FUZZ/$log"
    fi
    return 0
}

running=0
for t in "${TARGETS[@]}"; do
    rm -f "logs/$t.row" "logs/$t.found"
    fuzz_one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait
for t in "${TARGETS[@]}"; do
    if [ -f "logs/$t.row" ]; then
        cat "logs/$t.row" >>"$summary"
    else
        echo "   $t: no result (see $FUZZ/logs/$t.log)"
        status=2
    fi
    if [ -f "logs/$t.found" ]; then
        status=1
    fi
done
cat "$summary"
awk 'NR > 2 { n += $2 } END { printf "total executions: %d\n", n }' "$summary"
mv "$summary" logs/summary
exit $status
