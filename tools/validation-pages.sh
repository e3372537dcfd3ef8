#!/usr/bin/env bash
# Regenerates the validation pages (book/src/validation/) from a fresh run of every
# experiment: docs/validation/results.json (`emu reproduce all --json`), then
# docs/validation/provenance.toml (commit, UTC date, command, each experiment's wall
# time, CPU), then the pages, through the test that checks them.
#
# The full form takes an hour or more on 2 cores. --quick runs the scaled-down form
# (minutes), and the provenance and every page say so.
#
#   tools/validation-pages.sh [--quick]
#   tools/validation-pages.sh --only NAME[,NAME...]
#
# --only runs the named experiments again in the stored run's form, puts their reports
# in place of the stored ones in results.json (the others are kept as they are),
# appends a [[rerun]] entry (experiments, commit, UTC date, command, wall times) to
# provenance.toml, and renders the pages. For a change that touches a few experiments'
# rows or marks, when the full run would take too long.
#
# Refuses a tree with uncommitted changes (the commit would not be what ran) unless
# EMU_ALLOW_DIRTY=1, which only warns.
set -euo pipefail
cd "$(dirname "$0")/.."
form=full; quick=""; only=""
case "${1:-}" in
    --quick) form=quick; quick=" --quick" ;;
    --only)
        only="${2:?--only needs experiment names, comma-separated}"
        grep -q '^form = "quick"' docs/validation/provenance.toml && { form=quick; quick=" --quick"; }
        ;;
    "") ;;
    *) echo "usage: tools/validation-pages.sh [--quick | --only NAME[,NAME...]]" >&2; exit 2 ;;
esac
if [ -n "$(git status --porcelain)" ]; then
    if [ "${EMU_ALLOW_DIRTY:-}" = 1 ]; then
        echo "warning: uncommitted changes: the commit recorded is not all that ran" >&2
    else
        echo "error: uncommitted changes: commit them, or set EMU_ALLOW_DIRTY=1" >&2
        exit 2
    fi
fi
commit=$(git rev-parse HEAD)
date=$(date -u '+%Y-%m-%d %H:%M UTC')
cargo build --release
out=docs/validation
mkdir -p "$out"
err=$(mktemp)
trap 'rm -f "$err"' EXIT
# Exit 1 means a row failed (or a run broke): the JSON is still written, and the
# pages show the failure; the errors are shown here.
if [ -n "$only" ]; then
    names=${only//,/ }
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp" "$err"' EXIT
    command=""
    for name in $names; do
        code=0
        # shellcheck disable=SC2086
        target/release/emu reproduce "$name"$quick --json "$tmp/$name.json" -q > /dev/null 2>> "$err" || code=$?
        [ "$code" -le 1 ] || { cat "$err" >&2; exit "$code"; }
        command="${command:+$command; }emu reproduce $name$quick --json $name.json"
    done
    grep -v ': wall time ' "$err" >&2 || true
    {
        echo
        echo "[[rerun]]"
        echo "experiments = [$(for name in $names; do printf '"%s", ' "$name"; done | sed 's/, $//')]"
        echo "commit = \"$commit\""
        echo "date = \"$date\""
        echo "command = \"$command\""
        echo "wall_time_s = { $(sed -n 's/^\([a-z0-9-]*\): wall time \([0-9.]*\) s$/"\1" = \2/p' "$err" | paste -sd, - | sed 's/,/, /g') }"
    } >> "$out/provenance.toml"
    # The test puts each rerun report in place of the stored one (in place, the other
    # reports byte for byte), then renders the pages.
    EMU_STORE_RERUN="$tmp" EMU_WRITE_VALIDATION_PAGES=1 \
        cargo test --release --test integration validation_pages::the_checked_in_pages
    exit 0
fi
code=0
# shellcheck disable=SC2086
target/release/emu reproduce all$quick --json "$out/results.json" -q > /dev/null 2> "$err" || code=$?
grep -v ': wall time ' "$err" >&2 || true
[ "$code" -le 1 ] || exit "$code"
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
{
    echo "# Where results.json came from; written by tools/validation-pages.sh."
    echo "form = \"$form\""
    echo "commit = \"$commit\""
    echo "date = \"$date\""
    echo "command = \"emu reproduce all$quick --json results.json\""
    echo "cpu = \"${cpu:-unknown}\""
    echo "cores = $(nproc)"
    echo
    echo "[wall_time_s]"
    sed -n 's/^\([a-z0-9-]*\): wall time \([0-9.]*\) s$/\1 = \2/p' "$err"
} > "$out/provenance.toml"
EMU_WRITE_VALIDATION_PAGES=1 cargo test --release --test integration validation_pages::
