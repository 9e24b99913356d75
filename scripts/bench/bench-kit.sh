#!/usr/bin/env bash
# OnTheMapKit's cost per call over a bare URLSession call; prints a Markdown section.
#   scripts/bench/bench-kit.sh path/to/release/onthemap [calls per round] [rounds]
# Seeds 1,000 locations, starts the release server, and runs the release kit-bench (built by
# `make bench`): the latest 100 pins fetched one call at a time, each kind of call interleaved with the others.
set -euo pipefail
source "$(dirname "$0")/bench-helpers.sh"

binary="$1"
calls="${2:-1000}"
rounds="${3:-21}"
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
canned="$("$(dirname "$binary")/kit-bench" "http://127.0.0.1:$port" "$calls" 9 canned)"

cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
cat <<MARKDOWN
## OnTheMapKit: a call through the package against a bare URLSession call

- Date: $(date -u +%Y-%m-%dT%H:%MZ)
- Machine: $(nproc) cores ($cpu), $(uname -sr); release builds of the server (SQLite, 1,000 locations) and of \`kit-bench\`
- Work: ${calls} calls of the latest 100 pins of each kind, one at a time, the kinds interleaved call by call (the order
  turning every step) so that the machine's drift falls on all alike; ${rounds} rounds, medians of the rounds. Wall time
  per call, and the client process's CPU time per call (the server is another process).
- The bare calls are \`URLSession.shared.data(for:)\` and \`JSONDecoder\` into Codable structs: one reads the dates as
  the façade does (same work, same values; with Foundation's \`Date.ISO8601FormatStyle\`, since the \`.iso8601\`
  strategy refuses milliseconds), the other leaves them as strings, the least an app can do. The generated client alone
  is swift-openapi-generator's code over swift-openapi-urlsession's transport, without OnTheMapKit's middleware or
  façade. Issue 30's target is under 5% over a bare URLSession call; the reference doing the same work is the one the
  project's rule for benchmarks asks for, and the other row says what the generated stack costs over the least an app
  can do. The last row is how far single rounds stray.

| call | wall per call | client CPU per call |
|---|---|---|
$rows

The package's own work, without the network: each call answered in-process by a transport holding one list
fetched beforehand, ${calls} calls of each kind interleaved in each of 9 rounds, CPU per call (median), against
decoding that list (a copy of its own each time) with \`JSONDecoder\` alone, as the bare call above also does.

| work | CPU per call | over JSONDecoder alone |
|---|---|---|
$canned
MARKDOWN
