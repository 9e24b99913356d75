#!/usr/bin/env bash
# Past one database machine, with real processes: a pg_auto_failover formation on this machine
# (scripts/test/failover/formation.sh: a monitor and two nodes, synchronous replication, the
# failover timeouts of deploy/pg_auto_failover), three instances behind deploy/'s nginx given the
# formation's hosts for writes and, for reads, its standbys (--database-replicas, a 1 s lag bound).
#   1. scripts/test/cluster/replica_test.py: reads from the standby, read-your-writes with its
#      replay paused, out of rotation past the bound and back;
#   2. scripts/test/cluster/failover_test.py: writers, readers and live streams through nginx
#      while the primary is killed -9, rejoins as standby, and is switched back.
# FAILOVER_PGBOUNCER=1: the same with a PgBouncer (transaction pooling) in front of each node, the
# instances reading and writing the primary through it (--database-pooler).
#   scripts/test/failover-test.sh .build/debug/onthemap
set -euo pipefail

binary="$(realpath "$1")"
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/test/cluster-helpers.sh"
work="$(mktemp -d)"
chmod 755 "$work"  # the postgres user reaches its data directories inside
nginx_pid=""
cleanup() {
    for pidfile in "$work"/instance-*.pid; do [ -e "$pidfile" ] && kill -9 "$(cat "$pidfile")" 2>/dev/null || true; done
    if [ -n "$nginx_pid" ]; then kill -TERM "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; fi
    wait 2>/dev/null || true
    "$root/scripts/test/failover/formation.sh" stop "$work/formation" 2>/dev/null || true
    "$root/scripts/test/failover/pgbouncer.sh" stop-all "$work" 2>/dev/null || true
    # FAILOVER_TEST_KEEP_LOGS=DIR keeps the instances' and the formation's logs for a look afterwards.
    if [ -n "${FAILOVER_TEST_KEEP_LOGS:-}" ]; then mkdir -p "$FAILOVER_TEST_KEEP_LOGS"; cp -r "$work"/*.log "$work/formation" "$FAILOVER_TEST_KEEP_LOGS"/ 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

echo "failover: starting a pg_auto_failover formation (a monitor and two nodes)${FAILOVER_PGBOUNCER:+, a PgBouncer in front of each}"
database="$("$root/scripts/test/failover/formation.sh" start "$work/formation")"
echo "failover: $database"
# The second variant: a PgBouncer (transaction pooling) in front of each node, in the URL's order.
pooler=""
if [ "${FAILOVER_PGBOUNCER:-0}" = 1 ]; then
    pooler="$("$root/scripts/test/failover/pgbouncer.sh" in-front "$work" "$database")"
    echo "failover: through PgBouncer, $pooler"
fi
replicas="${database/target_session_attrs=read-write/target_session_attrs=prefer-standby}"
lag_ms=1000
nginx_port="$(free_port)"
ports=("$(free_port)" "$(free_port)" "$(free_port)")
metrics=()
nginx_cluster_conf "$work" "$nginx_port" "${ports[@]}"
for port in "${ports[@]}"; do
    metrics_port="$(free_port)"
    metrics+=("http://127.0.0.1:$metrics_port")
    ONTHEMAP_DATABASE="$database" ONTHEMAP_DATABASE_POOLER="$pooler" ONTHEMAP_DATABASE_REPLICAS="$replicas" \
        ONTHEMAP_DATABASE_REPLICA_LAG_MS="$lag_ms" ONTHEMAP_TRUST_PROXY=yes ONTHEMAP_PUBLIC_URL="http://127.0.0.1:$nginx_port" \
        ONTHEMAP_DATABASE_READERS=4 ONTHEMAP_DATABASE_WRITERS=3 \
        "$binary" serve --host 127.0.0.1 --port "$port" --metrics-address "127.0.0.1:$metrics_port" >>"$work/instance-$port.log" 2>&1 </dev/null &
    echo $! >"$work/instance-$port.pid"
done
nginx -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
for port in "${ports[@]}" "$nginx_port"; do
    for _ in $(seq 1 1200); do curl -sf -o /dev/null "http://127.0.0.1:$port/readyz" && break; sleep 0.1; done
done

status=0
REPLICA_INSTANCES="http://127.0.0.1:${ports[0]} http://127.0.0.1:${ports[1]}" REPLICA_METRICS="${metrics[*]}" \
    REPLICA_LOGS="$(for port in "${ports[@]}"; do printf '%s ' "$work/instance-$port.log"; done)" REPLICA_LAG_MS="$lag_ms" \
    FAILOVER_FORMATION="$root/scripts/test/failover/formation.sh" FAILOVER_FORMATION_DIR="$work/formation" \
    python3 "$root/scripts/test/cluster/replica_test.py" || status=$?
CLUSTER_NGINX="http://127.0.0.1:$nginx_port" CLUSTER_PIDS="$(for port in "${ports[@]}"; do printf '%s ' "$(cat "$work/instance-$port.pid")"; done)" \
    FAILOVER_FORMATION="$root/scripts/test/failover/formation.sh" FAILOVER_FORMATION_DIR="$work/formation" \
    python3 "$root/scripts/test/cluster/failover_test.py" || status=$?
# What each instance said about the primary moving, for the record.
for port in "${ports[@]}"; do
    grep -h -o "The PostgreSQL primary .*" "$work/instance-$port.log" | cut -c1-160 | sed "s/^/      instance $port: /" || true
done
if [ "$status" -ne 0 ]; then
    for port in "${ports[@]}"; do echo "--- instance on $port"; tail -20 "$work/instance-$port.log"; done
    echo "--- nginx"; tail -20 "$work/nginx.err" 2>/dev/null || true
fi
exit "$status"
