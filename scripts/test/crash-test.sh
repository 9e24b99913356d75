#!/usr/bin/env bash
# The crash test on the real binary: WRITERS students overwrite their pins as fast as they can
# while the server is killed with SIGKILL at a random moment, ROUNDS times over the same file. After
# every crash, each student's last acknowledged write (or a later one) must be in the file, and
# `PRAGMA integrity_check` must say ok.
#   scripts/test/crash-test.sh path/to/onthemap [ROUNDS=10] [WRITERS=20]
set -uo pipefail

binary="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
rounds="${2:-10}"
writers="${3:-20}"
work="$(mktemp -d)"
database="$work/crash.sqlite"
source "$(dirname "$0")/test-helpers.sh"

cleanup() {
    for pid in "${server_pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done
    jobs -p | xargs -r kill 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

# crash_server: SIGKILL, as a crash would.
crash_server() {
    kill -KILL "${server_pids[-1]}"; wait "${server_pids[-1]}" 2>/dev/null
    unset 'server_pids[-1]'
}

echo "crash test: $rounds rounds of $writers writers"
start_server "$work/server.log" --database "$database" || exit 1
pids=()
for n in $(seq 1 "$writers"); do
    curl -s -c "$work/jar$n" -X POST "http://127.0.0.1:$port/v1/accounts" \
        -d "{\"email\": \"writer$n@example.com\", \"password\": \"password-$n\", \"firstName\": \"W\", \"lastName\": \"$n\"}" >/dev/null &
    pids+=("$!")
done
wait "${pids[@]}"
total=0
for round in $(seq 1 "$rounds"); do
    pids=()
    for n in $(seq 1 "$writers"); do pin_writer "$n" $((round * 1000000)) & pids+=("$!"); done
    # A random moment between 0.3 and 2.3 seconds into the writes.
    sleep "$(awk -v seed="$RANDOM" 'BEGIN { srand(seed); printf "%.2f", 0.3 + rand() * 2 }')"
    crash_server
    wait "${pids[@]}"
    integrity="$(sqlite3 "$database" "PRAGMA integrity_check")"
    stored="$(sqlite3 -separator ' ' "$database" "SELECT last_name, substr(map_string, 7) FROM student_locations")"
    lost=""
    acknowledged=0
    for n in $(seq 1 "$writers"); do
        acked="$(cat "$work/acked$n" 2>/dev/null || echo 0)"
        [ "$acked" -ge $((round * 1000000)) ] && acknowledged=$((acknowledged + acked - round * 1000000 + 1))
        have="$(awk -v n="$n" '$1 == n { print $2 }' <<<"$stored")"
        [ "${have:-0}" -ge "$acked" ] || lost+="writer $n: acknowledged $acked, stored ${have:-nothing}"$'\n'
    done
    total=$((total + acknowledged))
    pins="$(sqlite3 "$database" "SELECT COUNT(*) FROM student_locations")"
    if [ "$integrity" = "ok" ] && [ -z "$lost" ] && [ "$pins" -eq "$writers" ]; then
        pass "round $round: $acknowledged acknowledged writes all stored after SIGKILL, integrity ok, one pin each"
    else
        fail "round $round: integrity $integrity, $pins pins" "$lost"
    fi
    [ "$round" -lt "$rounds" ] && { start_server "$work/server.log" --database "$database" || exit 1; }
done
[ "$total" -gt $((rounds * writers)) ] && pass "$total writes acknowledged in all" || fail "too few writes acknowledged to mean anything ($total)"

echo "crash: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
