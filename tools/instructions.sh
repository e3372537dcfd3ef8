#!/usr/bin/env bash
# The instruction-count gate: runs each case of benches/instructions.toml under
# callgrind (`valgrind --tool=callgrind`, whole process), reads the work it simulated
# from its JSON report (the top-level `token_hops`: token-, symbol- or cell-hops by
# family), and fails when a case's instructions per unit of work exceed its ceiling,
# or when its work count differs from the file's (the count is deterministic: if it
# changed, the case's reports changed). Instruction counts are repeatable for one
# binary and input, whatever the machine's load; the cases run with
# `--memory-limit 0 --time-limit 0`, which leave out the run guard's thread, whose
# instructions grow with the wall time of its 50 ms polls (docs/architecture.md).
#
#   tools/instructions.sh [--update] [--file FILE] [--emu PATH] [--from DIR] [--out DIR] [CASE...]
#
#   --update    measure, print, and rewrite FILE: each case's work, instructions and
#               per-unit figure, its ceiling (the figure × the file's margin), and the
#               commit, date and machine measured on; commit the file with the change
#   --file F    the cases and ceilings (default benches/instructions.toml)
#   --emu PATH  the binary to measure (default: target/release/emu, built first by
#               `cargo build --release`)
#   --from DIR  read DIR/CASE.callgrind and DIR/CASE.json (an earlier --out) instead
#               of running anything
#   --out DIR   keep each case's callgrind output, report and log in DIR
#   CASE        the sections of FILE to run (default: all)
#
# Prints one line per case. Exits 0 if every case is within its ceiling, 1 if one is
# over it or its work changed, 2 if the gate could not run (valgrind missing, a run
# failed, an unreadable file). Under valgrind the three shipped cases take about
# 10-25 s each on the project's 2-core VM (BENCHMARKS.md "Instruction gate").
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
FILE=$ROOT/benches/instructions.toml
EMU=
FROM=
OUT=
UPDATE=0
ONLY=()

die() {
    echo "instructions.sh: $*" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case $1 in
        --update) UPDATE=1 ;;
        --file) [ $# -ge 2 ] || die "--file needs a file"; FILE=$2; shift ;;
        --emu) [ $# -ge 2 ] || die "--emu needs a path"; EMU=$2; shift ;;
        --from) [ $# -ge 2 ] || die "--from needs a directory"; FROM=$2; shift ;;
        --out) [ $# -ge 2 ] || die "--out needs a directory"; OUT=$2; shift ;;
        -h | --help) sed -n '2,28p' "$0"; exit 0 ;;
        -*) die "unknown option $1 (see --help)" ;;
        *) ONLY+=("$1") ;;
    esac
    shift
done
[ -r "$FILE" ] || die "cannot read $FILE"

# --- the file: top-level keys, then one [section] per case with its keys. Values are
# numbers or double-quoted strings without escapes; # starts a comment outside strings.
declare -A TOP=()
declare -A KEY=()
CASES=()
section=
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
    lineno=$((lineno + 1))
    trimmed=$(sed -E 's/^[[:space:]]+//; s/[[:space:]]+$//' <<<"$line")
    case $trimmed in
        '' | '#'*) continue ;;
        '['*']')
            section=${trimmed#[}
            section=${section%]}
            [[ $section =~ ^[A-Za-z0-9_-]+$ ]] || die "$FILE:$lineno: a case's name is letters, digits, - and _: [$section]"
            [[ " ${CASES[*]} " != *" $section "* ]] || die "$FILE:$lineno: case $section twice"
            CASES+=("$section")
            continue
            ;;
    esac
    if [[ $trimmed =~ ^([a-z_]+)[[:space:]]*=[[:space:]]*(\"[^\"]*\"|[0-9][0-9.]*)[[:space:]]*(#.*)?$ ]]; then
        k=${BASH_REMATCH[1]}
        v=${BASH_REMATCH[2]}
        v=${v#\"}
        v=${v%\"}
        if [ -z "$section" ]; then TOP[$k]=$v; else KEY[$section.$k]=$v; fi
    else
        die "$FILE:$lineno: not a key = number or key = \"text\" line: $trimmed"
    fi
done <"$FILE"
[ ${#CASES[@]} -gt 0 ] || die "$FILE: no cases"
MARGIN=${TOP[margin]:-}
[[ $MARGIN =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "$FILE: margin = a number (e.g. 1.10) is missing"
for c in "${CASES[@]}"; do
    for k in args unit; do
        [ -n "${KEY[$c.$k]:-}" ] || die "$FILE: case $c has no $k"
    done
    if [ "$UPDATE" -eq 0 ]; then
        for k in work ceiling; do
            [[ ${KEY[$c.$k]:-} =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
                die "$FILE: case $c has no $k (measure it: tools/instructions.sh --update)"
        done
    fi
done
for c in "${ONLY[@]}"; do
    [[ " ${CASES[*]} " == *" $c "* ]] || die "no case $c in $FILE (it has ${CASES[*]})"
done
[ ${#ONLY[@]} -gt 0 ] || ONLY=("${CASES[@]}")

# --- measuring.
if [ -n "$FROM" ]; then
    DIR=$FROM
else
    command -v valgrind >/dev/null || die "valgrind is not installed (apt-get install valgrind)"
    if [ -z "$EMU" ]; then
        (cd "$ROOT" && cargo build --release --quiet --bin emu) || die "cargo build --release failed"
        EMU=$ROOT/target/release/emu
    fi
    [ -x "$EMU" ] || die "$EMU is not an executable"
    # Each case runs in an empty directory of its own, so that its names find the
    # shipped files and not a topologies/ or traffic/ directory that happens to be
    # there; the binary is a copy, which a build running meanwhile cannot replace.
    SCRATCH=$(mktemp -d)
    trap 'rm -rf "$SCRATCH"' EXIT
    cp "$EMU" "$SCRATCH/emu"
    EMU=$SCRATCH/emu
    if [ -n "$OUT" ]; then
        mkdir -p "$OUT"
        DIR=$(cd "$OUT" && pwd)
    else
        DIR=$SCRATCH/out
        mkdir "$DIR"
    fi
fi

# The whole process's instructions in a callgrind output: its summary line (totals:
# when there is none).
instructions_of() {
    local n
    n=$(sed -n 's/^summary: \([0-9][0-9]*\)$/\1/p' "$1" | head -1)
    [ -n "$n" ] || n=$(sed -n 's/^totals: \([0-9][0-9]*\)$/\1/p' "$1" | head -1)
    echo "$n"
}
# The top-level token_hops of a JSON report (two-space indented, as emu writes it).
work_of() {
    sed -n 's/^  "token_hops": \([0-9][0-9]*\),\{0,1\}$/\1/p' "$1" | head -1
}
# 1234567 -> 1,234,567; 1351.62 -> 1,351.62
group() {
    sed -e ':a' -e 's/\B[0-9]\{3\}\>/,&/' -e 'ta' <<<"$1"
}

status=0
declare -A GOT_WORK=() GOT_INS=() GOT_PER=()
for c in "${ONLY[@]}"; do
    unit=${KEY[$c.unit]}
    if [ -z "$FROM" ]; then
        read -ra args <<<"${KEY[$c.args]}"
        start=$(date +%s)
        mkdir "$SCRATCH/$c"
        if ! (cd "$SCRATCH/$c" && valgrind --tool=callgrind --callgrind-out-file="$DIR/$c.callgrind" \
            "$EMU" "${args[@]}" --memory-limit 0 --time-limit 0 --json "$DIR/$c.json" \
            >"$DIR/$c.stdout" 2>"$DIR/$c.log"); then
            tail -5 "$DIR/$c.log" >&2
            die "$c: emu ${KEY[$c.args]} failed under valgrind (above: the end of its log)"
        fi
        secs=$(($(date +%s) - start))
    fi
    [ -r "$DIR/$c.callgrind" ] || die "$c: no callgrind output $DIR/$c.callgrind"
    [ -r "$DIR/$c.json" ] || die "$c: no report $DIR/$c.json"
    ins=$(instructions_of "$DIR/$c.callgrind")
    [ -n "$ins" ] || die "$c: no summary: or totals: line in $DIR/$c.callgrind"
    work=$(work_of "$DIR/$c.json")
    [ -n "$work" ] || die "$c: no top-level \"token_hops\" in $DIR/$c.json"
    [ "$work" -gt 0 ] || die "$c: the run simulated no $unit"
    per=$(awk -v i="$ins" -v w="$work" 'BEGIN { printf "%.2f", i / w }')
    GOT_WORK[$c]=$work
    GOT_INS[$c]=$ins
    GOT_PER[$c]=$per
    took=
    [ -z "$FROM" ] && took=", ${secs} s under valgrind"
    if [ "$UPDATE" -eq 1 ]; then
        ceiling=$(awk -v p="$per" -v m="$MARGIN" 'BEGIN { printf "%.2f", p * m }')
        echo "$c: $(group "$per") instructions per ${unit%s}, new ceiling $(group "$ceiling") ($(group "$ins") instructions for $(group "$work") $unit$took)"
        continue
    fi
    ceiling=${KEY[$c.ceiling]}
    want=${KEY[$c.work]}
    then=${KEY[$c.per_unit]:-}
    at="measured at ${KEY[$c.commit]:-?} on ${KEY[$c.date]:-?}"
    figures="$(group "$ins") instructions for $(group "$work") $unit"
    if [ "$work" != "$want" ]; then
        echo "FAIL $c: $(group "$work") $unit, not the $(group "$want") $at: the case simulates something else now, so its reports changed; if that is intended, run tools/instructions.sh --update and commit $(basename "$FILE")"
        status=1
        continue
    fi
    change=
    if [[ $then =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
        change=$(awk -v p="$per" -v t="$then" 'BEGIN { x = (p / t - 1) * 100; if (x > -0.05 && x < 0.05) x = 0; printf "%+.1f", x }')
        change="; $change % on the $(group "$then") $at"
    fi
    if awk -v p="$per" -v c="$ceiling" 'BEGIN { exit !(p > c) }'; then
        echo "FAIL $c: $(group "$per") instructions per ${unit%s}, over its ceiling of $(group "$ceiling") ($figures$change); if that cost is intended, run tools/instructions.sh --update and commit $(basename "$FILE")"
        status=1
    else
        echo "ok   $c: $(group "$per") instructions per ${unit%s}, ceiling $(group "$ceiling") ($figures$change$took)"
    fi
done

if [ "$UPDATE" -eq 1 ]; then
    commit=$(git -C "$ROOT" rev-parse --short=7 HEAD 2>/dev/null || echo unknown)
    # The commit of the code measured: "+changes" if emu's sources differ from it.
    if [ "$commit" != unknown ] && [ -n "$(git -C "$ROOT" status --porcelain -- src crates Cargo.toml Cargo.lock 2>/dev/null)" ]; then
        commit="$commit+changes"
    fi
    date=$(date -u +%F)
    machine=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
    machine=${machine:-unknown}
    machine=${machine//\"/}
    tmp=$(mktemp "$FILE.XXXXXX")
    # Every line is kept but the measured keys of the cases measured, which are written
    # again after their unit line.
    section=
    while IFS= read -r line || [ -n "$line" ]; do
        trimmed=$(sed -E 's/^[[:space:]]+//' <<<"$line")
        if [[ $trimmed =~ ^\[([A-Za-z0-9_-]+)\] ]]; then
            section=${BASH_REMATCH[1]}
        elif [ -n "$section" ] && [ -n "${GOT_PER[$section]:-}" ] &&
            [[ $trimmed =~ ^(commit|date|machine|work|instructions|per_unit|ceiling)[[:space:]]*= ]]; then
            continue
        fi
        printf '%s\n' "$line"
        if [ -n "$section" ] && [ -n "${GOT_PER[$section]:-}" ] && [[ $trimmed =~ ^unit[[:space:]]*= ]]; then
            printf 'commit = "%s"\ndate = "%s"\nmachine = "%s"\n' "$commit" "$date" "$machine"
            printf 'work = %s\ninstructions = %s\nper_unit = %s\n' \
                "${GOT_WORK[$section]}" "${GOT_INS[$section]}" "${GOT_PER[$section]}"
            awk -v p="${GOT_PER[$section]}" -v m="$MARGIN" 'BEGIN { printf "ceiling = %.2f\n", p * m }'
        fi
    done <"$FILE" >"$tmp" || { rm -f "$tmp"; die "could not write $tmp"; }
    mv "$tmp" "$FILE"
    echo "wrote $FILE: ${ONLY[*]} measured at $commit on $date ($machine), ceilings = figure × $MARGIN"
fi
exit $status
