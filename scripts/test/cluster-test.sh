#!/usr/bin/env bash
# Three instances on one PostgreSQL behind nginx round-robin, configured as deploy/ says, then
# scripts/test/cluster/rolling_restart_test.py restarts them one at a time under load with
# deploy/rolling-restart.sh, and scripts/test/cluster/cluster_test.py drives them: accounts, posts and limits across instances, the live
# stream across instances and after a reconnect, two courses across instances, and a kill -9 under write load.
#   scripts/test/cluster-test.sh .build/debug/onthemap
set -euo pipefail

binary="$(realpath "$1")"
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/test/cluster-helpers.sh"
work="$(mktemp -d)"
chmod 755 "$work"  # the postgres user reaches its data directory inside
nginx_pid=""
cleanup() {
    for pidfile in "$work"/instance-*.pid; do [ -e "$pidfile" ] && kill -9 "$(cat "$pidfile")" 2>/dev/null || true; done
    # nginx's master stops its workers on TERM (a SIGKILL would leave them running).
    if [ -n "$nginx_pid" ]; then kill -TERM "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; fi
    wait 2>/dev/null || true
    "$root/scripts/test/postgres-test.sh" stop "$work/pg" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT


database="$("$root/scripts/test/postgres-test.sh" start "$work/pg")"
nginx_port="$(free_port)"
ports=("$(free_port)" "$(free_port)" "$(free_port)")

# nginx with the deploy example's proxy settings, in plain HTTP on a free port.
nginx_cluster_conf "$work" "$nginx_port" "${ports[@]}"

# The instances, as the systemd unit starts them, with the settings of deploy/onthemap.env.example
# (and a low login limit, so that counting across instances shows). `start-instance PORT` starts
# one in the background (its pid in instance-PORT.pid); `restart-instance PORT` is what
# `systemctl restart onthemap@PORT` does: SIGTERM, wait for the exit (TimeoutStopSec=30), start.
cat >"$work/start-instance" <<SCRIPT
#!/usr/bin/env bash
ONTHEMAP_DATABASE="$database?sslmode=disable" ONTHEMAP_TRUST_PROXY=yes ONTHEMAP_PUBLIC_URL="http://127.0.0.1:$nginx_port" \\
    ONTHEMAP_DATABASE_READERS=4 ONTHEMAP_DATABASE_WRITERS=3 \\
    "$binary" serve --host 127.0.0.1 --port "\$1" --login-failure-limit 6 >>"$work/instance-\$1.log" 2>&1 </dev/null &
echo \$! >"$work/instance-\$1.pid"
SCRIPT
cat >"$work/restart-instance" <<SCRIPT
#!/usr/bin/env bash
pid="\$(cat "$work/instance-\$1.pid")"
kill -TERM "\$pid" 2>/dev/null || true
started=\$(date +%s%3N)
for _ in \$(seq 1 300); do
    # Gone, or a zombie waiting for init: either way its sockets are closed.
    case "\$(ps -o stat= -p "\$pid" 2>/dev/null)" in ""|Z*) break ;; esac
    sleep 0.05
done
echo "      stopped in \$(( \$(date +%s%3N) - started )) ms"
"$work/start-instance" "\$1"
SCRIPT
chmod +x "$work/start-instance" "$work/restart-instance"
for port in "${ports[@]}"; do "$work/start-instance" "$port"; done
instance_pids() { for port in "${ports[@]}"; do printf '%s ' "$(cat "$work/instance-$port.pid")"; done; }
nginx -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
# Ready (the geocoder loaded) before the load starts, as an operator's instances would be.
for port in "${ports[@]}" "$nginx_port"; do
    for _ in $(seq 1 1200); do curl -sf -o /dev/null "http://127.0.0.1:$port/readyz" && break; sleep 0.1; done
done

export CLUSTER_NGINX="http://127.0.0.1:$nginx_port"
export CLUSTER_INSTANCES="http://127.0.0.1:${ports[0]} http://127.0.0.1:${ports[1]} http://127.0.0.1:${ports[2]}"
export CLUSTER_DATABASE="$database"
export CLUSTER_PORTS="${ports[*]}"
export CLUSTER_RESTART="$work/restart-instance {port}"
status=0
python3 "$root/scripts/test/cluster/rolling_restart_test.py" || status=$?
# The instances restarted have new pids.
CLUSTER_PIDS="$(instance_pids)" python3 "$root/scripts/test/cluster/cluster_test.py" || status=$?

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
    for port in "${ports[@]}"; do echo "--- instance on $port"; tail -20 "$work/instance-$port.log"; done
    echo "--- nginx"; tail -20 "$work/nginx.err" 2>/dev/null || true
fi
exit "$status"
