#!/usr/bin/env bash
# emu beside two peer simulators where their models coincide: the binary 8-cube (256
# routers, one terminal each), dimension-order routing, one virtual channel, uniform
# destinations, one-packet messages of 34 tokens (1 header byte, 32 data bytes, end of
# packet), Bernoulli arrivals, from light load past saturation. The peers run the
# shipped configurations of the speed bench (benches/throughput/hc256.booksim and
# hc256.caminos) with only the offered load and the run length changed.
#
# Writes docs/validation/peers/TOOL.csv, one line per offered load, in common units
# (offered and accepted messages per terminal per token time, mean message latency in
# token times; one token time = 100 ns = 10 emu ticks = one BookSim or CAMINOS cycle),
# and docs/validation/peers/TOOL.toml (version or commit, command, seeds, date, CPU).
# Every load runs once per seed (SEEDS, default "1 2 3": emu's --seed, BookSim's seed,
# CAMINOS's random_seed); each run is one line, so the page shows the seeds' spread.
#
#   BOOKSIM=/path/to/booksim CAMINOS=/path/to/caminos tools/peers.sh [emu] [booksim] [caminos]
#
# With no tool named, all three run.
#
# BookSim 2: commit 28f4329 of https://github.com/booksim/booksim2, `make -C src`
# (needs flex and bison). CAMINOS: `cargo install caminos --version 0.6.3 --locked
# --root DIR`. Neither is part of this repository. LOADS overrides the offered loads
# (fractions of a link's tokens: a message of 34 tokens every 34/L token times); SEEDS
# the seeds.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=${*:-emu booksim caminos}
wants() { case " $tools " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
wants booksim && : "${BOOKSIM:?set BOOKSIM to a BookSim 2 binary}"
wants caminos && : "${CAMINOS:?set CAMINOS to a CAMINOS 0.6.3 binary}"
loads=${LOADS:-"0.05 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9"}
seeds=${SEEDS:-"1 2 3"}
out=docs/validation/peers
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
emu=target/release/emu
header="load,seed,offered,accepted,latency,status"
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
# provenance TOOL VERSION COMMAND: TOOL.toml beside TOOL.csv.
provenance() {
    {
        echo "# Where $1.csv came from; written by tools/peers.sh."
        echo "version = \"$2\""
        echo "command = \"$3\""
        echo "loads = \"$loads\""
        echo "seeds = \"$seeds\""
        echo "date = \"$(date -u '+%Y-%m-%d %H:%M UTC')\""
        echo "cpu = \"${cpu:-unknown}\""
    } > "$out/$1.toml"
}

# emu: its load counts data bytes (32 per 34-token message), so the same message rate
# is load × 32/34. Message latency from creation to delivery, ticks / 10.
if wants emu; then
cargo build --release -q
echo "$header" > "$tmp/emu.csv"
for seed in $seeds; do
for l in $loads; do
    el=$(awk -v l="$l" 'BEGIN { printf "%.6f", l * 32 / 34 }')
    "$emu" -t hypercube8 -p uniform --set injection.kind=rate --set "injection.load=$el" \
        --seed "$seed" --json "$tmp/emu.json" -q > /dev/null
    # delivered_pct: % of a link's data bytes; a message carries 32.
    jq -r --arg l "$l" --arg s "$seed" '
        [$l, $s, ($l | tonumber) / 34, .throughput.delivered_pct.mean / 100 / 32,
         .latency.message_latency.ticks.mean / 10,
         (if .run.complete then "ok" else "undelivered" end)] | @csv' "$tmp/emu.json" \
        | tr -d '"' >> "$tmp/emu.csv"
done
done
cp "$tmp/emu.csv" "$out/"
provenance emu "emu $(git rev-parse HEAD)" \
    "emu -t hypercube8 -p uniform --set injection.kind=rate --set injection.load=LOAD*32/34 --seed SEED"
# The same emu with one mechanism switched, at the lightest and the heaviest load
# (emu-switched.csv, for the page's comparison): the per-hop delay at the least the model
# allows (header time 110 ns: the header byte's 100 ns and 10 of switch and wire; wire
# 10 ns, one bit period), and output buffers of 8 tokens instead of a packet's 34; seed 1.
echo "variant,sets,load,offered,accepted,latency,status" > "$tmp/emu-switched.csv"
first=${loads%% *}
last=${loads##* }
for variant in "shipped|" "short hops|link.wire_delay_ns=10 c104.header_time_ns=110" \
    "8-token output buffers|c104.output_buffer_tokens=8"; do
    name=${variant%%|*}
    sets=${variant#*|}
    for l in $first $last; do
        el=$(awk -v l="$l" 'BEGIN { printf "%.6f", l * 32 / 34 }')
        args=()
        for kv in $sets; do args+=(--set "$kv"); done
        "$emu" -t hypercube8 -p uniform --set injection.kind=rate --set "injection.load=$el" \
            "${args[@]}" --seed 1 --json "$tmp/emu.json" -q > /dev/null
        jq -r --arg n "$name" --arg s "$sets" --arg l "$l" '
            [$n, $s, $l, ($l | tonumber) / 34, .throughput.delivered_pct.mean / 100 / 32,
             .latency.message_latency.ticks.mean / 10,
             (if .run.complete then "ok" else "undelivered" end)] | @csv' "$tmp/emu.json" \
            | tr -d '"' >> "$tmp/emu-switched.csv"
    done
done
cp "$tmp/emu-switched.csv" "$out/"
fi

# BookSim 2: latency mode, 3 warm-up and up to 10 measured periods of 2,000 cycles; past
# saturation it stops and says the simulation is unstable.
if wants booksim; then
echo "$header" > "$tmp/booksim.csv"
for seed in $seeds; do
for l in $loads; do
    rate=$(awk -v l="$l" 'BEGIN { printf "%.7f", l / 34 }')
    sed -e "s/^injection_rate = .*/injection_rate = $rate;/" \
        -e "s/^seed = .*/seed = $seed;/" \
        -e "s/^warmup_periods = .*/warmup_periods = 3;/" \
        -e "s/^sample_period = .*/sample_period = 2000;/" \
        -e "s/^max_samples = .*/max_samples = 10;/" \
        benches/throughput/hc256.booksim > "$tmp/b.cfg"
    (cd "$tmp" && "$BOOKSIM" b.cfg > b.out 2>&1) || true
    lat=$(sed -n 's/^Packet latency average = \([0-9.e+-]*\).*/\1/p' "$tmp/b.out" | tail -n 1)
    acc=$(sed -n 's/^Accepted packet rate average = \([0-9.e+-]*\).*/\1/p' "$tmp/b.out" | tail -n 1)
    status=ok
    grep -q unstable "$tmp/b.out" && status=unstable
    echo "$l,$seed,$rate,${acc:-},${lat:-},$status" >> "$tmp/booksim.csv"
done
done
cp "$tmp/booksim.csv" "$out/"
provenance booksim "BookSim 2 $(git -C "$(dirname "$BOOKSIM")/.." rev-parse HEAD 2> /dev/null || echo unknown)" \
    "booksim hc256.booksim with injection_rate = LOAD/34, seed = SEED, warmup_periods = 3, sample_period = 2000, max_samples = 10"
fi

# CAMINOS 0.6.3: 2,000 warm-up and 20,000 measured cycles.
if wants caminos; then
echo "$header" > "$tmp/caminos.csv"
for seed in $seeds; do
for l in $loads; do
    sed -e "s/^\(\t*\)load: 0.3,/\1load: $l,/" \
        -e "s/^\(\t*\)random_seed: [0-9]*,/\1random_seed: $seed,/" \
        -e "s/^\(\t*\)warmup: [0-9]*,/\1warmup: 2000,/" \
        -e "s/^\(\t*\)measured: [0-9]*,/\1measured: 20000,/" \
        benches/throughput/hc256.caminos > "$tmp/c.cfg"
    rm -f "$tmp/result"
    (cd "$tmp" && "$CAMINOS" c.cfg --results=result > c.out 2>&1) || true
    field() { awk -v k="$1:" '$1 == k { getline; gsub(/[ \t,]/, ""); print; exit }' "$tmp/result" 2> /dev/null; }
    acc=$(field accepted_load)
    lat=$(field average_message_delay)
    status=ok
    [ -s "$tmp/result" ] || status=failed
    # accepted_load is phits per server per cycle: /34 gives messages.
    accm=$(awk -v a="${acc:-0}" 'BEGIN { printf "%.7f", a / 34 }')
    rate=$(awk -v l="$l" 'BEGIN { printf "%.7f", l / 34 }')
    echo "$l,$seed,$rate,$accm,${lat:-},$status" >> "$tmp/caminos.csv"
done
done
cp "$tmp/caminos.csv" "$out/"
provenance caminos "CAMINOS $("$CAMINOS" --version 2>&1 | sed -n 's/.*version_number=\([^ ]*\).*/\1/p')" \
    "caminos hc256.caminos --results=result with load: LOAD, random_seed: SEED, warmup: 2000, measured: 20000"
fi
