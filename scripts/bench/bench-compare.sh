#!/usr/bin/env bash
# Two release builds side by side in one run, for a change that must not cost speed ("within
# noise, ±5%"); prints a Markdown section.
#   scripts/bench/bench-compare.sh BEFORE_BINARY AFTER_BINARY [rounds] [seconds per run]
# Each round measures both binaries, one after the other, on fresh copies of the same data, so that
# the machine's drift falls on both alike; the table gives each figure's median over the rounds:
# 1. the cached default list: requests/s (wrk, 2 threads, 32 connections);
# 2. an uncached 100-row page (`?limit=100&order=createdAt`): the server's CPU per request, 4 connections;
# 3. the write path: 32 students overwriting their pins over HTTP, writes/s.
set -euo pipefail
source "$(dirname "$0")/bench-helpers.sh"

before="$1"
after="$2"
rounds="${3:-3}"
seconds="${4:-8}"
work="$(mktemp -d)"
server=""
trap '[ -n "$server" ] && { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; }; rm -rf "$work"' EXIT

seed_locations "$after" "$work/seed.sqlite" 1000

# start BINARY DATABASE: serves DATABASE on a free port; sets $server and $base.
start() {
    local port=$((20000 + RANDOM % 20000))
    "$1" serve --port "$port" --database "$2" --log-level warning >"$work/server.log" 2>&1 &
    server=$!
    base="http://127.0.0.1:$port"
    wait_healthy "$base/healthz"
}

stop() { kill "$server"; wait "$server" 2>/dev/null || true; server=""; }

requests_per_second() { awk '/Requests\/sec/ {printf "%.0f", $2}'; }

# measure BINARY: prints "cached_rps page_cpu_ms writes_per_s".
measure() {
    local binary="$1"
    cp "$work/seed.sqlite" "$work/run.sqlite"
    rm -f "$work/run.sqlite-wal" "$work/run.sqlite-shm"
    start "$binary" "$work/run.sqlite"
    curl -s -o /dev/null "$base/v1/StudentLocation"   # fills the cache
    local cached
    cached="$(wrk -t2 -c32 -d"${seconds}s" "$base/v1/StudentLocation" | requests_per_second)"
    local ticks_before ticks_after page_out page_requests
    ticks_before="$(awk '{print $14 + $15}' "/proc/$server/stat")"
    page_out="$(wrk -t2 -c4 -d"${seconds}s" "$base/v1/StudentLocation?limit=100&order=createdAt")"
    ticks_after="$(awk '{print $14 + $15}' "/proc/$server/stat")"
    page_requests="$(awk '/requests in/ {print $1}' <<<"$page_out")"
    local page_cpu
    page_cpu="$(awk -v t="$((ticks_after - ticks_before))" -v n="$page_requests" -v hz="$(getconf CLK_TCK)" \
        'BEGIN { printf "%.3f", t * 1000 / hz / n }')"
    mapfile -t tokens < <(sign_up_writers "$base" 32 "$work")
    writers_lua "$work/writers.lua" "${tokens[@]}"
    local writes
    writes="$(wrk -t2 -c32 -d"${seconds}s" -s "$work/writers.lua" "$base" | requests_per_second)"
    stop
    echo "$cached $page_cpu $writes"
}

declare -a before_cached before_cpu before_writes after_cached after_cpu after_writes
for round in $(seq 1 "$rounds"); do
    read -r c p w <<<"$(measure "$before")"
    before_cached+=("$c"); before_cpu+=("$p"); before_writes+=("$w")
    read -r c2 p2 w2 <<<"$(measure "$after")"
    after_cached+=("$c2"); after_cpu+=("$p2"); after_writes+=("$w2")
    echo "round $round of $rounds (cached req/s, page CPU ms, writes/s): before $c $p $w, after $c2 $p2 $w2" >&2
done

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f%%", (b / a - 1) * 100 }'; }
row() {  # name, unit, before values..., after values... (as two names of arrays)
    local name="$1" unit="$2"; local -n b="$3" a="$4"
    local mb ma
    mb="$(median "${b[@]}")"; ma="$(median "${a[@]}")"
    echo "| $name | $mb $unit | $ma $unit | $(ratio "$mb" "$ma") | ${b[*]} → ${a[*]} |"
}

cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
cat <<MARKDOWN
- Date: $(date -u +%Y-%m-%dT%H:%MZ)
- Machine: $(nproc) cores ($cpu), $(uname -sr); release builds, SQLite, 1,000 locations, logging at warning
- $rounds rounds of ${seconds} s per figure; each round measures the build before, then the build after, on fresh copies of the same file

| figure | before | after | change | every round (before → after) |
|---|---|---|---|---|
$(row "cached default list (32 connections)" "req/s" before_cached after_cached)
$(row "uncached 100-row page, server CPU per request" "ms" before_cpu after_cpu)
$(row "writes, 32 students overwriting their pins" "writes/s" before_writes after_writes)
MARKDOWN
