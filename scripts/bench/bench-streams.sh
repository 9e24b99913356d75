#!/usr/bin/env bash
# Live streams at the scale of a large course on one instance, as a Markdown section: for each count
# of streams asked for, a fresh release server on a fresh SQLite file with its default caps, the
# streams opened from as many loopback addresses (scripts/bench/stream-load.c), its memory before and
# after, then writes made while they are open: each write's answer and the delay from it to every
# stream's event. A count past the default cap shows what the instance refuses.
#   scripts/bench/bench-streams.sh path/to/release/onthemap [counts, default "0 10000 20000 20500"] [writes per count, default 3]
# STREAMS_SERVE_FLAGS adds flags to `serve` (e.g. --live-streams 50000, to see a build past its cap).
set -euo pipefail
source "$(dirname "$0")/bench-helpers.sh"

binary="$(realpath "$1")"
counts="${2:-0 10000 20000 20500}"
writes="${3:-3}"
# Every stream is a descriptor at both ends: as many as may be had (the client spreads its streams
# over processes). The server holds the connections its limit allows (EdgeLimits), and streams up
# to its cap or nine tenths of those connections, whichever is less (LiveStreamAdmission).
ulimit -n "$(ulimit -Hn)"
work="$(mktemp -d)"
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
cc -O2 -o "$work/stream-load" "$bench_root/scripts/bench/stream-load.c"
# The default cap, as `serve --help` states it.
cap="$("$binary" serve --help | awk '/--live-streams <count>/ { on = 1 } on && match($0, /default [0-9]+/) { print substr($0, RSTART + 8, RLENGTH - 8); exit }')"

# measure COUNT: one row of the table, from a fresh server.
measure() {
    local count="$1" port result
    rm -f "$work"/bench.sqlite*
    port="$(free_port)"
    # shellcheck disable=SC2086 # the flags are words
    "$binary" serve --port "$port" --database "$work/bench.sqlite" --log-level warning ${STREAMS_SERVE_FLAGS:-} >"$work/server.log" 2>&1 &
    server=$!
    # Ready: the geocoder has loaded, so that its memory is not counted as the streams'.
    wait_healthy "http://127.0.0.1:$port/readyz"
    token="$(sign_up_writers "http://127.0.0.1:$port" 1 "$work")"
    sleep 3
    result="$("$work/stream-load" "$port" "$count" "$token" "$server" "$writes")"
    kill "$server"; wait "$server" 2>/dev/null || true
    server=""
    jq -r '
        def ms: if . < 0 then "–" else (. * 10 | round / 10 | tostring) + " ms" end;
        (.rss_after_kb - .rss_before_kb) as $grown
        | [ (.streams | tostring),
            (.opened | tostring),
            (if .refused == 0 then "0" else "\(.refused) (\(.refused_statuses | to_entries | map("\(.value)× \(.key)") | join(", ")); \(.refused_retry_after) with Retry-After)" end),
            "\(.rss_before_kb / 1024 | round) → \(.rss_after_kb / 1024 | round) MB",
            (if .opened > 0 then "\($grown / .opened * 10 | round / 10) KB" else "–" end),
            (.writes | map("\(.status) in \(.answer_ms | ms)") | join(", ")),
            (if .fanout.expected > 0 then "\(.fanout.p50_ms | ms) / \(.fanout.p99_ms | ms) / \(.fanout.max_ms | ms)" else "–" end),
            "\(.fanout.received) / \(.fanout.expected)"
          ] | "| " + join(" | ") + " |"' <<<"$result"
}

# What the server makes of its descriptor limit (EdgeLimits, LiveStreamAdmission).
descriptors="$(ulimit -n)"
connections=$(( (descriptors < 65536 ? descriptors : 65536) - 128 ))
room=$(( connections - (connections / 10 > 1 ? connections / 10 : 1) ))
held=$(( ${cap:-0} < room ? ${cap:-0} : room ))

rows=""
for count in $counts; do rows+="$(measure "$count")"$'\n'; done

cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
cat <<MARKDOWN
## Live streams on one instance: a large course (issue 44)

- Date: $(date -u +%Y-%m-%dT%H:%MZ)
- Machine: $(nproc) cores ($cpu), $(free -h | awk '/^Mem:/ {print $2}') memory, $(uname -sr); everything on this one machine
- Server: release build, SQLite (WAL, synchronous=FULL), default settings, logging at warning; a
  fresh server and database for each row. Its cap is ${cap:-?} streams; with a descriptor limit of
  ${descriptors} it may hold ${connections} connections, and streams may take nine tenths of them:
  at most ${held} streams here
- Load: an epoll client in C (scripts/bench/stream-load.c, a process per 10,000 streams) opening each
  stream of the default map from its own loopback address, then ${writes} posts, 1 s apart, while they are open

| streams asked | open | refused | server memory (RSS) | per open stream | each post's answer | post to each stream's event: p50 / p99 / max | events received / expected |
|---|---|---|---|---|---|---|---|
$rows
Memory per stream is the growth of the server's resident memory from before the first stream to
2 s after the last opened, divided by the streams open. A post's answer is timed from its
connection to its status line, the delay to each stream's event from the same moment; the client
reads every stream on the same two cores as the server.
MARKDOWN
