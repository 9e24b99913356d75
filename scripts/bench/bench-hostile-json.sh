#!/usr/bin/env bash
# The JSON parsing budget on a release build; prints a Markdown section: the server's CPU per
# request for the worst JSON body of each shape at the 64 KiB body limit, each refused with its
# family's 400 (scripts/test/hostile_json.py, which make test runs as a check on a debug build).
#   scripts/bench/bench-hostile-json.sh path/to/release/onthemap [requests per shape]
set -euo pipefail
binary="$1"
count="${2:-50}"
work="$(mktemp -d)"
server_pid=""
trap '[ -n "$server_pid" ] && { kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; }; rm -rf "$work"' EXIT

port=$((20000 + RANDOM % 20000))
"$binary" serve --port "$port" --database "$work/bench.sqlite" --log-level warning >"$work/server.log" 2>&1 &
server_pid=$!
base="http://127.0.0.1:$port"
until curl -sf -o /dev/null "$base/readyz"; do sleep 0.05; done
login="$(curl -s -X POST "$base/v1/accounts" -d '{"email": "bench@example.com", "password": "benching all day", "firstName": "B", "lastName": "T"}')"
token="$(grep -oE '"id":"[0-9a-f]{64}"' <<<"$login" | cut -d'"' -f4)"

echo "## Hostile JSON: the parsing budget"
echo
echo "$(date -u +%F), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); release build, SQLite."
echo "Each body is at the 64 KiB limit and refused with its family's 400; the figure is the server"
echo "process's CPU (its threads' run time) per request, over $count requests of each."
echo
python3 "$(dirname "$0")/../test/hostile_json.py" "$base" "$server_pid" "$token" --bench "$count"
