#!/usr/bin/env bash
# emu beside two peer simulators where their models coincide: 256 routers with one
# terminal each, dimension-order routing, one virtual channel, one-packet messages of 34
# tokens (1 header byte, 32 data bytes, end of packet), Bernoulli arrivals, from light load
# past saturation, in four cases:
#
#   hypercube8-uniform  the binary 8-cube, uniform destinations (never the source)
#   hypercube8-bitcomp  the binary 8-cube, bit complement (terminal i sends to 255 - i)
#   grid16-uniform      the 16 x 16 mesh, uniform destinations
#   grid16-bitcomp      the 16 x 16 mesh, bit complement ((x, y) sends to (15-x, 15-y))
#
# The peers run the configurations in benches/throughput (hc256.* for the cube, the speed
# bench's; mesh256.* for the mesh) with only the pattern, the offered load, the seed and the
# run length changed.
#
# Writes docs/validation/peers/CASE/TOOL.csv, one line per run, in common units (offered
# and accepted messages per terminal per token time, mean message latency in token times;
# one token time = 100 ns = 10 emu ticks = one BookSim or CAMINOS cycle), and
# docs/validation/peers/CASE/TOOL.toml (version or commit, command, seeds, date, CPU).
# Every load runs once per seed (SEEDS, default "1 2 3": emu's --seed, BookSim's seed,
# CAMINOS's random_seed), so the page shows the seeds' spread. The offered loads are
# fractions of a link's tokens (a message of 34 tokens every 34/L token times): 0.05 to
# 0.9 on the cube, 0.02 to 0.25 on the mesh, which saturates near a quarter (uniform)
# and an eighth (bit complement) of a link.
#
#   BOOKSIM=/path/to/booksim CAMINOS=/path/to/caminos tools/peers.sh [emu] [booksim] [caminos]
#
# With no tool named, all three run; CASES (default all four) chooses the cases.
#
# BookSim 2: commit 28f4329 of https://github.com/booksim/booksim2, `make -C src`
# (needs flex and bison). CAMINOS: `cargo install caminos --version 0.6.3 --locked
# --root DIR`. Neither is part of this repository. LOADS overrides every case's offered
# loads; SEEDS the seeds.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=${*:-emu booksim caminos}
wants() { case " $tools " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
wants booksim && : "${BOOKSIM:?set BOOKSIM to a BookSim 2 binary}"
wants caminos && : "${CAMINOS:?set CAMINOS to a CAMINOS 0.6.3 binary}"
seeds=${SEEDS:-"1 2 3"}
cases=${CASES:-"hypercube8-uniform hypercube8-bitcomp grid16-uniform grid16-bitcomp"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
emu=target/release/emu
header="load,seed,offered,accepted,latency,status"
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
wants emu && cargo build --release -q

# case_spec CASE: sets topology (emu's), pattern (emu's and BookSim's name), booksim and
# caminos (the peers' configurations), caminos_pattern (CAMINOS's pattern) and loads.
case_spec() {
    case $1 in
    hypercube8-*)
        topology=hypercube8
        booksim=benches/throughput/hc256.booksim
        caminos=benches/throughput/hc256.caminos
        sides="2, 2, 2, 2, 2, 2, 2, 2"
        complement="true, true, true, true, true, true, true, true"
        loads=${LOADS:-"0.05 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9"}
        ;;
    grid16-*)
        topology=grid16
        booksim=benches/throughput/mesh256.booksim
        caminos=benches/throughput/mesh256.caminos
        sides="16, 16"
        complement="true, true"
        loads=${LOADS:-"0.02 0.04 0.06 0.08 0.1 0.12 0.14 0.17 0.2 0.25"}
        ;;
    *)
        echo "tools/peers.sh: unknown case $1" >&2
        exit 2
        ;;
    esac
    case $1 in
    *-uniform)
        pattern=uniform
        caminos_pattern=Uniform
        ;;
    *-bitcomp)
        pattern=bitcomp
        caminos_pattern="CartesianTransform { sides: [$sides], complement: [$complement] }"
        ;;
    *)
        echo "tools/peers.sh: unknown case $1" >&2
        exit 2
        ;;
    esac
}

# provenance CASE TOOL VERSION COMMAND: TOOL.toml beside TOOL.csv.
provenance() {
    {
        echo "# Where $2.csv came from; written by tools/peers.sh."
        echo "version = \"$3\""
        echo "command = \"$4\""
        echo "loads = \"$loads\""
        echo "seeds = \"$seeds\""
        echo "date = \"$(date -u '+%Y-%m-%d %H:%M UTC')\""
        echo "cpu = \"${cpu:-unknown}\""
    } > "docs/validation/peers/$1/$2.toml"
}

# emu: its load counts data bytes (32 per 34-token message), so the same message rate
# is load × 32/34. Message latency from creation to delivery, ticks / 10.
# emu_run LOAD SEED [--set K=V ...]: one run, its JSON in $tmp/emu.json.
emu_run() {
    local el
    el=$(awk -v l="$1" 'BEGIN { printf "%.6f", l * 32 / 34 }')
    "$emu" -t "$topology" -p "$pattern" --set injection.kind=rate --set "injection.load=$el" \
        --seed "$2" "${@:3}" --json "$tmp/emu.json" -q > /dev/null
}
# emu_fields: load, offered, accepted, latency and status of $tmp/emu.json as CSV
# (delivered_pct is % of a link's data bytes; a message carries 32).
emu_fields() {
    jq -r --arg l "$1" '
        [($l | tonumber) / 34, .throughput.delivered_pct.mean / 100 / 32,
         .latency.message_latency.ticks.mean / 10,
         (if .run.complete then "ok" else "undelivered" end)] | @csv' "$tmp/emu.json" \
        | tr -d '"'
}

run_emu() {
    local out=docs/validation/peers/$1
    echo "$header" > "$tmp/emu.csv"
    for seed in $seeds; do
        for l in $loads; do
            emu_run "$l" "$seed"
            echo "$l,$seed,$(emu_fields "$l")" >> "$tmp/emu.csv"
        done
    done
    cp "$tmp/emu.csv" "$out/"
    provenance "$1" emu "emu $(git rev-parse HEAD)" \
        "emu -t $topology -p $pattern --set injection.kind=rate --set injection.load=LOAD*32/34 --seed SEED"
    # The same emu with one mechanism switched, at the lightest and the heaviest load
    # (emu-switched.csv, for the page's comparison): the per-hop delay at the least the
    # model allows (header time 110 ns: the header byte's 100 ns and 10 of switch and
    # wire; wire 10 ns, one bit period), and output buffers of 8 tokens instead of a
    # packet's 34; seed 1.
    echo "variant,sets,load,offered,accepted,latency,status" > "$tmp/emu-switched.csv"
    local first=${loads%% *} last=${loads##* } name sets args
    for variant in "shipped|" "short hops|link.wire_delay_ns=10 c104.header_time_ns=110" \
        "8-token output buffers|c104.output_buffer_tokens=8"; do
        name=${variant%%|*}
        sets=${variant#*|}
        args=()
        for kv in $sets; do args+=(--set "$kv"); done
        for l in $first $last; do
            emu_run "$l" 1 "${args[@]}"
            echo "$name,$sets,$l,$(emu_fields "$l")" >> "$tmp/emu-switched.csv"
        done
    done
    cp "$tmp/emu-switched.csv" "$out/"
}

# BookSim 2: latency mode, 3 warm-up and up to 10 measured periods of 2,000 cycles; past
# saturation it stops and says the simulation is unstable.
run_booksim() {
    local out=docs/validation/peers/$1 rate lat acc status
    echo "$header" > "$tmp/booksim.csv"
    for seed in $seeds; do
        for l in $loads; do
            rate=$(awk -v l="$l" 'BEGIN { printf "%.7f", l / 34 }')
            sed -e "s/^injection_rate = .*/injection_rate = $rate;/" \
                -e "s/^traffic = .*/traffic = $pattern;/" \
                -e "s/^seed = .*/seed = $seed;/" \
                -e "s/^warmup_periods = .*/warmup_periods = 3;/" \
                -e "s/^sample_period = .*/sample_period = 2000;/" \
                -e "s/^max_samples = .*/max_samples = 10;/" \
                "$booksim" > "$tmp/b.cfg"
            (cd "$tmp" && "$BOOKSIM" b.cfg > b.out 2>&1) || true
            lat=$(sed -n 's/^Packet latency average = \([0-9.e+-]*\).*/\1/p' "$tmp/b.out" | tail -n 1)
            acc=$(sed -n 's/^Accepted packet rate average = \([0-9.e+-]*\).*/\1/p' "$tmp/b.out" | tail -n 1)
            status=ok
            grep -q unstable "$tmp/b.out" && status=unstable
            echo "$l,$seed,$rate,${acc:-},${lat:-},$status" >> "$tmp/booksim.csv"
        done
    done
    cp "$tmp/booksim.csv" "$out/"
    provenance "$1" booksim \
        "BookSim 2 $(git -C "$(dirname "$BOOKSIM")/.." rev-parse HEAD 2> /dev/null || echo unknown)" \
        "booksim $(basename "$booksim") with traffic = $pattern, injection_rate = LOAD/34, seed = SEED, warmup_periods = 3, sample_period = 2000, max_samples = 10"
}

# CAMINOS 0.6.3: 2,000 warm-up and 20,000 measured cycles.
run_caminos() {
    local out=docs/validation/peers/$1 acc lat status accm rate
    echo "$header" > "$tmp/caminos.csv"
    for seed in $seeds; do
        for l in $loads; do
            sed -e "s/^\(\t*\)load: 0.3,/\1load: $l,/" \
                -e "s/^\(\t*\)pattern: Uniform,/\1pattern: $caminos_pattern,/" \
                -e "s/^\(\t*\)random_seed: [0-9]*,/\1random_seed: $seed,/" \
                -e "s/^\(\t*\)warmup: [0-9]*,/\1warmup: 2000,/" \
                -e "s/^\(\t*\)measured: [0-9]*,/\1measured: 20000,/" \
                "$caminos" > "$tmp/c.cfg"
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
    provenance "$1" caminos \
        "CAMINOS $("$CAMINOS" --version 2>&1 | sed -n 's/.*version_number=\([^ ]*\).*/\1/p')" \
        "caminos $(basename "$caminos") --results=result with pattern: $caminos_pattern, load: LOAD, random_seed: SEED, warmup: 2000, measured: 20000"
}

for c in $cases; do
    case_spec "$c"
    mkdir -p "docs/validation/peers/$c"
    for t in emu booksim caminos; do
        if wants "$t"; then "run_$t" "$c"; fi
    done
done
