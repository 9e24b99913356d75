#!/usr/bin/env bash
# Three instances on one PostgreSQL behind nginx round-robin, configured as deploy/ says, then
# tests/cluster/cluster_test.py drives them: accounts, posts and limits across instances, the live
# stream across instances and after a reconnect, and a kill -9 under write load.
#   scripts/cluster-test.sh .build/debug/onthemap
set -euo pipefail

binary="$(realpath "$1")"
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/cluster-helpers.sh"
work="$(mktemp -d)"
chmod 755 "$work"  # the postgres user reaches its data directory inside
pids=()
nginx_pid=""
cleanup() {
    for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    # nginx's master stops its workers on TERM (a SIGKILL would leave them running).
    if [ -n "$nginx_pid" ]; then kill -TERM "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; fi
    wait 2>/dev/null || true
    "$root/scripts/postgres-test.sh" stop "$work/pg" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT


database="$("$root/scripts/postgres-test.sh" start "$work/pg")"
nginx_port="$(free_port)"
ports=("$(free_port)" "$(free_port)" "$(free_port)")

# nginx with the deploy example's proxy settings, in plain HTTP on a free port.
nginx_cluster_conf "$work" "$nginx_port" "${ports[@]}"

# The instances, as the systemd unit starts them, with the settings of deploy/onthemap.env.example
# (and a low login limit, so that counting across instances shows).
for index in 0 1 2; do
    ONTHEMAP_DATABASE="$database?sslmode=disable" ONTHEMAP_TRUST_PROXY=yes ONTHEMAP_PUBLIC_URL="http://127.0.0.1:$nginx_port" \
        ONTHEMAP_DATABASE_READERS=4 ONTHEMAP_DATABASE_WRITERS=3 \
        "$binary" serve --host 127.0.0.1 --port "${ports[$index]}" --login-failure-limit 6 >"$work/instance-$index.log" 2>&1 &
    pids+=($!)
    disown  # its kill -9 by the test is expected: no "Killed" line from the shell
done
nginx -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
for port in "${ports[@]}" "$nginx_port"; do
    for _ in $(seq 1 300); do curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
done

export CLUSTER_NGINX="http://127.0.0.1:$nginx_port"
export CLUSTER_INSTANCES="http://127.0.0.1:${ports[0]} http://127.0.0.1:${ports[1]} http://127.0.0.1:${ports[2]}"
export CLUSTER_PIDS="${pids[0]} ${pids[1]} ${pids[2]}"
export CLUSTER_DATABASE="$database"
status=0
python3 "$root/tests/cluster/cluster_test.py" || status=$?

# copy-data, the CLI as an operator runs it: the cluster's PostgreSQL → a SQLite file → a new
# schema in PostgreSQL; both copies verify, and report the same rows and checksums.
there="$("$binary" copy-data --from "$database?sslmode=disable" --to "$work/copy.sqlite" 2>&1)" || status=1
back="$("$binary" copy-data --from "$work/copy.sqlite" --to "$database?sslmode=disable&schema=roundtrip" 2>&1)" || status=1
if [ "$(grep rows <<<"$there")" = "$(grep rows <<<"$back")" ] && grep -q "student_locations: [1-9]" <<<"$there"; then
    echo "  ok    copy-data PostgreSQL → SQLite → PostgreSQL gives the same rows ($(grep -o 'student_locations: [0-9]* rows' <<<"$there"))"
else
    echo "  FAIL  copy-data round trip"; echo "$there"; echo "$back"; status=1
fi
if again="$("$binary" copy-data --from "$work/copy.sqlite" --to "$database?sslmode=disable&schema=roundtrip" 2>&1)"; then
    echo "  FAIL  copy-data into a non-empty target was not refused"; status=1
elif grep -q "the target is not empty .*--replace" <<<"$again"; then
    echo "  ok    copy-data refuses a non-empty target without --replace"
else
    echo "  FAIL  copy-data refusal: $again"; status=1
fi
if [ "$status" -ne 0 ]; then
    for index in 0 1 2; do echo "--- instance $index"; tail -20 "$work/instance-$index.log"; done
    echo "--- nginx"; tail -20 "$work/nginx.err" 2>/dev/null || true
fi
exit "$status"
