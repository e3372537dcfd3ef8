#!/bin/sh
# Renders an HTML page (an `emu --report` file) to PNG with headless Chromium, offline.
#   tools/render-report.sh report.html out.png [WIDTH [HEIGHT]]
# Default size 1200x2400. Needs chromium (Debian: /usr/bin/chromium).
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 FILE.html OUT.png [WIDTH [HEIGHT]]" >&2
    exit 2
fi
html=$(realpath "$1")
out=$(realpath -m "$2")
width=${3:-1200}
height=${4:-2400}
chromium=${CHROMIUM:-chromium}
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --hide-scrollbars --user-data-dir="$profile" --screenshot="$out" \
    --window-size="$width,$height" "file://$html" >/dev/null 2>&1
echo "$out"
