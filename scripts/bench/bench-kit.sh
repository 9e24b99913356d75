#!/usr/bin/env bash
# OnTheMapKit's cost per call over a bare URLSession call; prints a Markdown section.
#   scripts/bench/bench-kit.sh path/to/release/onthemap [calls per round] [rounds]
# Seeds 1,000 locations, starts the release server, and runs the release kit-bench (built by
# `make bench`): the latest 100 pins fetched one call at a time, in alternating rounds.
set -euo pipefail
source "$(dirname "$0")/bench-helpers.sh"

binary="$1"
calls="${2:-1000}"
rounds="${3:-7}"
work="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$work"' EXIT

seed_locations "$binary" "$work/bench.sqlite" 1000
"$binary" serve --port 0 --database "$work/bench.sqlite" >"$work/server.log" 2>&1 &
server=$!
port=""
for _ in $(seq 1 100); do
    port="$(grep -oE 'listening on 127\.0\.0\.1:[0-9]+' "$work/server.log" | grep -oE '[0-9]+$' | head -1 || true)"
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { echo "server did not start"; cat "$work/server.log"; exit 1; }
rows="$("$(dirname "$binary")/kit-bench" "http://127.0.0.1:$port" "$calls" "$rounds")"

cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
cat <<MARKDOWN
## OnTheMapKit: a call through the package against a bare URLSession call

- Date: $(date -u +%Y-%m-%dT%H:%MZ)
- Machine: $(nproc) cores ($cpu), $(uname -sr); release builds of the server (SQLite, 1,000 locations) and of \`kit-bench\`
- Work: ${calls} calls of the latest 100 pins, one at a time, in each of ${rounds} alternating rounds; medians of the rounds.
  Wall time per call, and the client process's CPU time per call (the server is another process).
- The bare call is \`URLSession.shared.data(for:)\` and \`JSONDecoder\` into Codable structs, dates left as strings.
  The generated client alone is swift-openapi-generator's code over swift-openapi-urlsession's transport, without
  OnTheMapKit's middleware or façade. Issue 30's target is under 5% over a bare URLSession call; the last two rows
  tell the package's whole cost from its façade's own.

| call | wall per call | client CPU per call |
|---|---|---|
$rows
MARKDOWN
