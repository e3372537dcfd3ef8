#!/usr/bin/env bash
# Regenerates the screenshots of `--report` pages in book/src/images/report-*.png: a
# hypercube run, a deadlocked torus, an SCI ring, a switch fabric and a sweep, each
# rendered offline by tools/render-report.sh (headless Chromium) at 1200 pixels wide
# and cut to the height given here: tools/report-images.sh [EMU]
set -euo pipefail
cd "$(dirname "$0")/.."
emu=$(realpath "${1:-target/release/emu}")
out=book/src/images
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
"$emu" -t hypercube8 -p bitrev -q --report "$tmp/hypercube.html" > /dev/null
if "$emu" -t torus4-single -p torus4-ring -q --report "$tmp/deadlock.html" 2> /dev/null; then
    echo "torus4-single under torus4-ring did not deadlock" >&2
    exit 1
fi
"$emu" -t sci-ring4 -p sci-uniform -q --report "$tmp/sci.html" > /dev/null
"$emu" -t fabric16-grant -p uniform-rate -q --report "$tmp/fabric.html" > /dev/null
# From the scratch directory, so that the page's command line names sweep.html only.
(cd "$tmp" && "$emu" sweep -t hypercube6 -p uniform --load 0.1:0.9:0.1 -q --report sweep.html > /dev/null)
for shot in hypercube:1700 deadlock:1120 sci:1500 fabric:1500 sweep:1400; do
    name=${shot%%:*}
    tools/render-report.sh "$tmp/$name.html" "$out/report-$name.png" 1200 "${shot##*:}" > /dev/null
    echo "$out/report-$name.png"
done
