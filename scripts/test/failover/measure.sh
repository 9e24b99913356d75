#!/usr/bin/env bash
# Measures failovers of a formation.sh formation with a tiny writer: one INSERT every 100 ms
# through the multi-host URL (a new psql each time, so libpq finds the read-write node itself).
# Each round: kill -9 the primary (keeper and postgres), wait for the standby's promotion, rejoin
# the old primary (pg_rewind), wait until healthy, then a planned switchover back. Prints, per
# round, the longest time with no acknowledged write around the kill and around the switchover,
# the time to promotion and to rejoin; last, checks every acknowledged row is on the primary.
#   scripts/test/failover/measure.sh [ROUNDS]     (3 by default; about a minute a round)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
formation="$here/formation.sh"
rounds="${1:-3}"

work="$(mktemp -d)"
chmod 755 "$work"
dir="$work/formation"
writer=""
cleanup() {
    [ -n "$writer" ] && kill "$writer" 2>/dev/null && wait "$writer" 2>/dev/null
    "$formation" stop "$dir" || true
    # MEASURE_KEEP=1 keeps the logs for a look afterwards.
    if [ "${MEASURE_KEEP:-0}" = 1 ]; then echo "logs kept in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

now_ms() { date +%s%3N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1000 }'; }

url="$("$formation" start "$dir")"
echo "formation: $url"
"$formation" settings | sed 's/^/  /'
psql "$url" --quiet --set=ON_ERROR_STOP=1 --command="CREATE TABLE beat (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())"

# The writer: `MS ok ID` for an acknowledged INSERT, `MS fail` otherwise. connect_timeout bounds
# a connection to a host that does not answer (here a dead port refuses at once).
write_loop() {
    local id
    while true; do
        if id="$(psql "$url&connect_timeout=2" --no-psqlrc --quiet --tuples-only --no-align \
            --command="INSERT INTO beat DEFAULT VALUES RETURNING id" 2>/dev/null)" && [ -n "$id" ]; then
            echo "$(now_ms) ok $id"
        else
            echo "$(now_ms) fail"
        fi
        sleep 0.1
    done
}
write_loop >"$work/writes.log" &
writer=$!

# The longest time between two acknowledged writes from FROM_MS on (a gap still open counts to now).
longest_gap() {
    awk -v from="$1" -v now="$(now_ms)" '$2 == "ok" && $1 >= from { if (last) { g = $1 - last; if (g > max) max = g } last = $1 }
        END { if (now - last > max) max = now - last; printf "%.1f", max / 1000 }' "$work/writes.log"
}
# Waits until the writer has had N acknowledged writes since FROM_MS.
wait_writes() {
    until [ "$(awk -v from="$1" '$2 == "ok" && $1 >= from' "$work/writes.log" | wc -l)" -ge "$2" ]; do sleep 0.2; done
}
state_of() { psql --host=127.0.0.1 --port="$(cat "$dir/monitor.port")" --username=postgres --dbname=pg_auto_failover \
    --no-psqlrc --tuples-only --no-align --command="SELECT reportedstate FROM pgautofailover.node WHERE nodename = '$1'"; }

for round in $(seq 1 "$rounds"); do
    sleep 3
    read -r victim _ <<<"$("$formation" primary "$dir")"
    survivor=node1; [ "$victim" = node1 ] && survivor=node2
    killed="$(now_ms)"
    "$formation" kill-primary "$dir" >/dev/null
    until [ "$(state_of "$survivor")" = wait_primary ]; do sleep 0.2; done
    promoted="$(now_ms)"
    wait_writes "$killed" 10
    gap="$(longest_gap "$((killed - 1000))")"
    rejoining="$(now_ms)"
    "$formation" rejoin "$dir" "$victim"
    "$formation" wait-healthy "$dir" 180
    rejoined="$(now_ms)"
    sleep 3
    switched="$(now_ms)"
    "$formation" switchover "$dir"
    wait_writes "$(now_ms)" 10
    switch_gap="$(longest_gap "$((switched - 1000))")"
    echo "round $round: killed $victim; $survivor promoted after $(seconds "$killed" "$promoted") s;" \
        "longest time with no acknowledged write $gap s; $victim rejoined as secondary $(seconds "$rejoining" "$rejoined") s" \
        "after its keeper started; switchover back: longest time with no acknowledged write $switch_gap s"
done

kill "$writer"; wait "$writer" 2>/dev/null || true; writer=""
acknowledged="$(awk '$2 == "ok" { print $3 }' "$work/writes.log" | sort -n | uniq | wc -l)"
present="$(awk '$2 == "ok" { print $3 }' "$work/writes.log" | sort -n | uniq | tr '\n' ',' | sed 's/,$//' \
    | xargs -I{} psql "$url" --no-psqlrc --tuples-only --no-align --command="SELECT count(*) FROM beat WHERE id IN ({})")"
failed="$(grep -c ' fail$' "$work/writes.log" || true)"
echo "writes: $acknowledged acknowledged, $present of them on the primary at the end, $failed attempts failed"
[ "$acknowledged" = "$present" ]
