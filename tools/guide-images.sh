#!/usr/bin/env bash
# Regenerates the pictures of the guide (book/src/images/*.svg) with the emulator, and with
# --look renders each to PNG in headless Chromium (Debian's chromium package) so that
# they can be looked at: tools/guide-images.sh [--look] [EMU]
set -euo pipefail
cd "$(dirname "$0")/.."
look=0; [ "${1:-}" = --look ] && { look=1; shift; }
emu=${1:-target/release/emu}
out=book/src/images
mkdir -p "$out"
"$emu" sweep -t hypercube8 -p uniform --load 0.1:0.9:0.1 --replications 5 --quiet \
    --plot "$out/sweep-hypercube8-uniform.svg" > /dev/null
tmp=$(mktemp -d)
"$emu" -t hypercube8 -p bitrev -q --plot "$tmp/hc8" > /dev/null
cp "$tmp/hc8/latency-message.svg" "$out/latency-hypercube8-bitrev.svg"
cp "$tmp/hc8/terminals.svg" "$out/terminals-hypercube8-bitrev.svg"
"$emu" -t grid8 -p uniform-rate --set injection.load=0.4 -q --plot "$tmp/g8" > /dev/null
cp "$tmp/g8/links.svg" "$out/links-grid8-uniform40.svg"
# emu stress exits 3 when it finds (and draws) a deadlock.
code=0
"$emu" stress -t torus8-single -q --plot "$tmp/t8" > /dev/null || code=$?
[ "$code" = 3 ] || { echo "emu stress -t torus8-single: exit $code, expected 3" >&2; exit 1; }
cp "$tmp/t8/deadlock.svg" "$out/deadlock-torus8-single.svg"
rm -rf "$tmp"
if [ $look = 1 ]; then
    for f in "$out"/*.svg; do
        size=$(sed -nE '1s/.*width="([0-9]+)" height="([0-9]+)".*/\1,\2/p' "$f")
        chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
            --disable-background-networking --disable-component-update --disable-sync \
            --user-data-dir="$(mktemp -d)" --window-size="$size" \
            --screenshot="${f%.svg}.png" "file://$PWD/$f" > /dev/null 2>&1
        echo "rendered ${f%.svg}.png ($size)"
    done
fi
