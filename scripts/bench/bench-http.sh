#!/usr/bin/env bash
# HTTP benchmark of the list endpoints on a release build; prints a Markdown section.
#   scripts/bench/bench-http.sh path/to/release/onthemap [seconds per run]
# Seeds 1,000 locations straight into a fresh SQLite file, starts the server on a free port, and
# measures with wrk from the same machine (2 threads, 32 connections): the cached default list, a
# list that must be read from SQLite and encoded, and the 304 answer to a revalidation.
set -euo pipefail
source "$(dirname "$0")/bench-helpers.sh"

binary="$1"
seconds="${2:-10}"
work="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$work"' EXIT

database="$work/bench.sqlite"
seed_locations "$binary" "$database" 1000

"$binary" serve --port 0 --database "$database" --log-level warning >"$work/server.log" 2>&1 &
server=$!
port=""
# --log-level warning hides the "listening on" line, so find the port from the process's sockets.
for _ in $(seq 1 100); do
    port="$(ss -ltnpH 2>/dev/null | grep "pid=$server," | grep -oE '127\.0\.0\.1:[0-9]+' | head -1 | cut -d: -f2 || true)"
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { echo "server did not start"; cat "$work/server.log"; exit 1; }
base="http://127.0.0.1:$port"
etag="$(curl -s -D - -o /dev/null "$base/v1/StudentLocation" | tr -d '\r' | awk -F': ' 'tolower($1) == "etag" {print $2}')"
bytes="$(curl -s "$base/v1/StudentLocation" | wc -c)"

run() {
    local name="$1"; shift
    local out
    out="$(wrk -t2 -c32 -d"${seconds}s" --latency "$@")"
    local rps p50 p99
    rps="$(awk '/Requests\/sec/ {printf "%.0f", $2}' <<<"$out")"
    p50="$(awk '$1 == "50%" {print $2}' <<<"$out")"
    p99="$(awk '$1 == "99%" {print $2}' <<<"$out")"
    printf '| %s | %s | %s | %s |\n' "$name" "$rps" "$p50" "$p99"
}

rows="$(
    run "GET /v1/StudentLocation (default list, cached, ${bytes} bytes)" "$base/v1/StudentLocation"
    run "GET /v1/StudentLocation?limit=100&order=createdAt (SQLite + encode)" "$base/v1/StudentLocation?limit=100&order=createdAt"
    run "GET /v1/StudentLocation with If-None-Match (304)" -H "If-None-Match: $etag" "$base/v1/StudentLocation"
)"

cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
memory="$(free -h | awk '/^Mem:/ {print $2}')"
cat <<MARKDOWN
## HTTP: the location list

- Date: $(date -u +%Y-%m-%dT%H:%MZ)
- Machine: $(nproc) cores ($cpu), $memory memory, $(uname -sr)
- Server: release build, SQLite (WAL, synchronous=FULL), 1,000 locations, logging at warning
- Load: wrk on the same machine, 2 threads, 32 connections, ${seconds} s per row

| request | requests/s | p50 | p99 |
|---|---|---|---|
$rows

The default list (the latest 100, which every app asks for on start) is kept encoded in memory with
its ETag and rebuilt only after a write, so most reads cost a memory copy; the second row shows what
every read would cost without that.
MARKDOWN
