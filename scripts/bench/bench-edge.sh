#!/usr/bin/env bash
# The HTTP edge's speed figures on a release build; prints a Markdown section.
#   scripts/bench/bench-edge.sh path/to/release/onthemap [seconds per run]
# 1. start: from exec to answering /healthz, and to /readyz ready (geocoder loaded);
# 2. the cached default list, plain and gzip, against nginx serving the same bytes (same run), and
#    bare Hummingbird serving them (edge-reference, built beside the binary): the framework's ceiling;
# 3. the server's CPU per uncached 100-row page (process CPU time over requests served);
# 4. one student's login while another address bursts 80 login attempts.
set -euo pipefail
source "$(dirname "$0")/bench-helpers.sh"

binary="$1"
seconds="${2:-10}"
work="$(mktemp -d)"
server_pids=()
trap 'for p in "${server_pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT

seed_locations "$binary" "$work/bench.sqlite" 1000
milliseconds() { date +%s%3N; }

# 1. Start: three starts, the middle time of each.
listen_times=(); ready_times=()
for _ in 1 2 3; do
    port=$((20000 + RANDOM % 20000))
    started=$(milliseconds)
    "$binary" serve --port "$port" --database "$work/bench.sqlite" --log-level warning >"$work/start.log" 2>&1 &
    pid=$!
    until curl -sf -o /dev/null "http://127.0.0.1:$port/healthz"; do sleep 0.005; done
    listen_times+=($(( $(milliseconds) - started )))
    until curl -sf -o /dev/null "http://127.0.0.1:$port/readyz"; do sleep 0.005; done
    ready_times+=($(( $(milliseconds) - started )))
    kill "$pid"; wait "$pid" 2>/dev/null || true
done
median() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
listen_ms="$(median "${listen_times[@]}")"
ready_ms="$(median "${ready_times[@]}")"

port=$((20000 + RANDOM % 20000))
"$binary" serve --port "$port" --database "$work/bench.sqlite" --log-level notice --trust-proxy yes >"$work/server.log" 2>&1 &
server_pid=$!
server_pids+=("$server_pid")
base="http://127.0.0.1:$port"
until curl -sf -o /dev/null "$base/readyz"; do sleep 0.05; done
rps() { awk '/Requests\/sec/ {printf "%.0f", $2}' <<<"$1"; }

# 2. The cached list, plain and gzip, beside nginx (gzip_static for the gzip form) and bare
#    Hummingbird serving the same bytes. All three run at once and are measured in turn, three
#    rounds: this machine's speed drifts from minute to minute, so each figure is the middle round.
mkdir -p "$work/www"
curl -s "$base/v1/StudentLocation" >"$work/www/list.json"
curl -s -H "Accept-Encoding: gzip" "$base/v1/StudentLocation" >"$work/www/list.json.gz"
plain_bytes="$(wc -c <"$work/www/list.json")"; gzip_bytes="$(wc -c <"$work/www/list.json.gz")"
nginx_port=$((20000 + RANDOM % 20000))
nginx_static_conf "$work" "$nginx_port"
nginx -c "$work/nginx.conf" -p "$work" &
server_pids+=("$!")
reference_port=$((20000 + RANDOM % 20000))
"$(dirname "$binary")/edge-reference" "$reference_port" "$work/www/list.json" >/dev/null 2>&1 &
server_pids+=("$!")
until curl -sf -o /dev/null "http://127.0.0.1:$reference_port/plain" && curl -sf -o /dev/null "http://127.0.0.1:$nginx_port/list.json"; do
    sleep 0.05
done
gz=(-H "Accept-Encoding: gzip")
load() { rps "$(wrk -t2 -c32 -d"${seconds}s" "$@")"; }
ours_plain=(); ours_gzip=(); nginx_plain=(); nginx_gzip=(); reference_plain=(); reference_gzip=()
for _ in 1 2 3; do
    ours_plain+=("$(load "$base/v1/StudentLocation")")
    nginx_plain+=("$(load "http://127.0.0.1:$nginx_port/list.json")")
    reference_plain+=("$(load "http://127.0.0.1:$reference_port/plain")")
    ours_gzip+=("$(load "${gz[@]}" "$base/v1/StudentLocation")")
    nginx_gzip+=("$(load "${gz[@]}" "http://127.0.0.1:$nginx_port/list.json")")
    reference_gzip+=("$(load "http://127.0.0.1:$reference_port/gzip")")
done
for name in ours_plain ours_gzip nginx_plain nginx_gzip reference_plain reference_gzip; do
    declare -n rounds="$name"
    printf -v "${name}_middle" '%s' "$(median "${rounds[@]}")"
    printf -v "${name}_all" '%s' "$(IFS=/; echo "${rounds[*]}")"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# 3. CPU per request: the server's user+system time over the requests wrk completed, for an
#    uncached 100-row page (plain and gzip) and, to show where the time goes, a 1-row page and a
#    request that reads nothing.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server_pid/stat"; }
ticks_per_second="$(getconf CLK_TCK)"
cpu_per_request() {  # prints "requests milliseconds"
    local before after out
    before="$(cpu_ticks)"
    out="$(wrk -t1 -c4 -d"${seconds}s" "$@")"
    after="$(cpu_ticks)"
    awk -v t="$((after - before))" -v hz="$ticks_per_second" '/requests in/ { printf "%d %.3f", $1, t / hz * 1000 / $1 }' <<<"$out"
}
read -r page_requests page_cpu_ms <<<"$(cpu_per_request "$base/v1/StudentLocation?limit=100&order=createdAt")"
read -r gzip_requests page_gzip_cpu_ms <<<"$(cpu_per_request "${gz[@]}" "$base/v1/StudentLocation?limit=100&order=createdAt")"
read -r _ one_row_cpu_ms <<<"$(cpu_per_request "$base/v1/StudentLocation?limit=1&order=createdAt")"
read -r _ health_cpu_ms <<<"$(cpu_per_request "$base/healthz")"

# 4. A login from one address while another bursts 80 attempts at once (bcrypt cost 12).
echo "a long password 1" | "$binary" user add --email student@example.com --first Ada --last Lovelace --database "$work/bench.sqlite" >/dev/null
login() {  # login ADDRESS EMAIL PASSWORD: prints seconds taken and the status
    curl -s -o /dev/null -w '%{time_total} %{http_code}\n' -H "X-Forwarded-For: $1" -X POST "$base/v1/session" \
        -d "{\"udacity\": {\"username\": \"$2\", \"password\": \"$3\"}}"
}
alone=(); for _ in 1 2 3; do alone+=("$(login 198.51.100.7 student@example.com 'a long password 1' | awk '{print $1 * 1000}')"); done
alone_ms="$(median "${alone[@]}" | awk '{printf "%.0f", $1}')"
for n in $(seq 1 80); do login 203.0.113.66 "guess$n@example.com" "wrong password $n" >>"$work/burst.txt" & done
sleep 0.3
during="$(login 198.51.100.7 student@example.com 'a long password 1')"
wait_for_burst() { while [ "$(wc -l <"$work/burst.txt")" -lt 80 ]; do sleep 0.05; done; }
wait_for_burst
during_ms="$(awk '{printf "%.0f", $1 * 1000}' <<<"$during")"
during_status="$(awk '{print $2}' <<<"$during")"
burst_checked="$(awk '$2 == 403' "$work/burst.txt" | wc -l)"
burst_refused="$(awk '$2 == 429' "$work/burst.txt" | wc -l)"

cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
cat <<MARKDOWN
## The HTTP edge (issue 10)

- Date: $(date -u +%Y-%m-%dT%H:%MZ)
- Machine: $(nproc) cores ($cpu), $(uname -sr); release build, 1,000 locations, logging at notice
- Load: wrk on the same machine, ${seconds} s per row

### Start

| from exec to | ms (middle of 3) |
|---|---|
| answering \`/healthz\` | $listen_ms |
| \`/readyz\` ready (gazetteer loaded) | $ready_ms |

Before this issue: 1.1 s to listening, 0.6 s of it compressing the basemap and 0.26 s a decoy hash.

### The cached default list beside nginx serving the same bytes (2 threads, 32 connections)

| | plain ($plain_bytes bytes) req/s | gzip ($gzip_bytes bytes) req/s |
|---|---|---|
| this server | $ours_plain_middle ($ours_plain_all) | $ours_gzip_middle ($ours_gzip_all) |
| nginx, the same bytes from files (\`gzip_static\`) | $nginx_plain_middle ($nginx_plain_all) | $nginx_gzip_middle ($nginx_gzip_all) |
| bare Hummingbird, the same bytes from memory (no middleware) | $reference_plain_middle ($reference_plain_all) | $reference_gzip_middle ($reference_gzip_all) |
| this server ÷ nginx (target ≥ 0.8×) | $(ratio "$ours_plain_middle" "$nginx_plain_middle")× | $(ratio "$ours_gzip_middle" "$nginx_gzip_middle")× |
| bare Hummingbird ÷ nginx: the framework's own ratio | $(ratio "$reference_plain_middle" "$nginx_plain_middle")× | $(ratio "$reference_gzip_middle" "$nginx_gzip_middle")× |

Each figure is the middle of three rounds (all three rounds in brackets), the three servers
measured in turn within each round. The server answers this list on the connection's event loop
(\`CachedListFastPath\`), without the hand-over to Swift concurrency that every routed request
makes. What is left is NIO's HTTP/1 codec (the head converted and encoded for every answer) and the
kernel's loopback TCP, which nginx (C, one \`writev\` of prepared bytes) does with less.

### CPU per uncached page (\`?limit=100&order=createdAt\`: SQLite read and encode, 4 connections)

| | requests | server CPU per request (target ≤ 0.25 ms plain) |
|---|---|---|
| plain | $page_requests | $page_cpu_ms ms |
| gzip (level 5, as it leaves) | $gzip_requests | $page_gzip_cpu_ms ms |
| for comparison: a 1-row page | | $one_row_cpu_ms ms |
| for comparison: \`/healthz\` (routed, reads nothing) | | $health_cpu_ms ms |

Before this issue: about 1.1 ms per plain page, mostly Foundation's JSON writer. Most of the target
goes before the first row: routing and middleware (the \`/healthz\` row), then the read's fixed cost
(query, lane, SQLKit serialization, GRDB's transaction and the hand-over to the reader's queue).

### A login while another address bursts 80 attempts (bcrypt cost 12)

| | |
|---|---|
| one login, alone (middle of 3) | $alone_ms ms |
| the same login during the burst | $during_ms ms (status $during_status) |
| the burst: checked (403) / refused before any hash (429) | $burst_checked / $burst_refused |

Before this issue the burst was checked in full (80 hashes, first come first served) and delayed
the other student's login by 8.3 s. Now 30 attempts reach bcrypt (the per-address failure limit),
and the other address's login waits for at most one hash in progress before its own.
MARKDOWN
