#!/usr/bin/env bash
# Reads from a standby (scripts/test/cluster/replica_test.py says what is checked): a
# pg_auto_failover formation (scripts/test/failover/formation.sh), two instances given its hosts
# for writes and, with target_session_attrs=prefer-standby, for reads (--database-replicas, a 1 s
# lag bound), and the standby's replay paused and resumed. REPLICA_PGBOUNCER=1: the same with the
# instances' reads and writes to the primary going through a PgBouncer in front of each node.
#   scripts/test/replica-test.sh .build/debug/onthemap
set -euo pipefail

binary="$(realpath "$1")"
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/test/cluster-helpers.sh"
work="$(mktemp -d)"
chmod 755 "$work"  # the postgres user reaches its data directories inside
cleanup() {
    for pidfile in "$work"/instance-*.pid; do [ -e "$pidfile" ] && kill -9 "$(cat "$pidfile")" 2>/dev/null || true; done
    wait 2>/dev/null || true
    "$root/scripts/test/failover/formation.sh" stop "$work/formation" 2>/dev/null || true
    "$root/scripts/test/failover/pgbouncer.sh" stop-all "$work" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

echo "replicas: starting a pg_auto_failover formation (a monitor and two nodes)"
database="$("$root/scripts/test/failover/formation.sh" start "$work/formation")"
replicas="${database/target_session_attrs=read-write/target_session_attrs=prefer-standby}"
pooler=""
if [ "${REPLICA_PGBOUNCER:-0}" = 1 ]; then
    pooler="$("$root/scripts/test/failover/pgbouncer.sh" in-front "$work" "$database")"
    echo "replicas: the primary through PgBouncer, $pooler"
fi
lag_ms=1000
instances=() metrics=() logs=()
for _ in 1 2; do
    port="$(free_port)"; metrics_port="$(free_port)"
    ONTHEMAP_DATABASE="$database" ONTHEMAP_DATABASE_POOLER="$pooler" ONTHEMAP_DATABASE_REPLICAS="$replicas" \
        ONTHEMAP_DATABASE_REPLICA_LAG_MS="$lag_ms" ONTHEMAP_DATABASE_READERS=4 ONTHEMAP_DATABASE_WRITERS=3 \
        "$binary" serve --host 127.0.0.1 --port "$port" --metrics-address "127.0.0.1:$metrics_port" >>"$work/instance-$port.log" 2>&1 </dev/null &
    echo $! >"$work/instance-$port.pid"
    instances+=("http://127.0.0.1:$port"); metrics+=("http://127.0.0.1:$metrics_port"); logs+=("$work/instance-$port.log")
done
for base in "${instances[@]}"; do
    for _ in $(seq 1 1200); do curl -sf -o /dev/null "$base/readyz" && break; sleep 0.1; done
done

status=0
REPLICA_INSTANCES="${instances[*]}" REPLICA_METRICS="${metrics[*]}" REPLICA_LOGS="${logs[*]}" REPLICA_LAG_MS="$lag_ms" \
    FAILOVER_FORMATION="$root/scripts/test/failover/formation.sh" FAILOVER_FORMATION_DIR="$work/formation" \
    python3 "$root/scripts/test/cluster/replica_test.py" || status=$?
if [ "$status" -ne 0 ]; then
    for log in "${logs[@]}"; do echo "--- $log"; grep -v " info " "$log" | tail -20; done
fi
exit "$status"
