#!/usr/bin/env bash
# A real pg_auto_failover formation on this one machine, for the failover tests: a monitor and two
# PostgreSQL 15 nodes (node1, node2) with synchronous replication, all run as the `postgres` user
# (initdb refuses root) on 127.0.0.1 and free ports, everything (data, config, logs) inside DIR.
#   formation.sh start DIR              creates and starts it; prints the multi-host URL
#   formation.sh primary DIR            prints the current primary's name and port: `node1 54321`
#   formation.sh kill-primary DIR       kill -9 the primary's keeper and postgres; prints its name
#   formation.sh kill-standby DIR       the same for the secondary (the primary goes on alone); prints its name
#   formation.sh rejoin DIR NODE        starts NODE's keeper again: it rejoins as secondary
#   formation.sh wait-healthy DIR [S]   waits (120 s by default) for one healthy primary + secondary
#   formation.sh switchover DIR         planned switchover, waits until the formation is healthy
#   formation.sh stop DIR               stops everything started in DIR (also after kill-primary)
#   formation.sh settings               prints the failover timeouts this recipe sets
#   formation.sh standby-sql DIR SQL    runs SQL on the standby as postgres, prints its answer
# See NOTES.md beside this file for the timings measured with these settings.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../cluster-helpers.sh"

bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"

# The failover timeouts (see `settings` and NOTES.md). pg_auto_failover's defaults take 30-60 s
# from a lost primary to a writable new one; these take about 15-20 s.
# On the monitor (ALTER SYSTEM, then a reload):
monitor_settings=(
    "pgautofailover.health_check_period=2000ms"               # default 5000ms: probe each node every 2 s
    "pgautofailover.health_check_timeout=2000ms"              # default 5000ms: connect timeout of a probe
    "pgautofailover.health_check_max_retries=2"               # default 2: a failed probe is retried twice...
    "pgautofailover.health_check_retry_delay=1000ms"          # default 2000ms: ...1 s apart
    "pgautofailover.node_considered_unhealthy_timeout=6000ms" # default 20000ms: the node's keeper silent for 6 s
    "pgautofailover.primary_demote_timeout=10000ms"           # default 30000ms: how long a lost primary gets to stop itself
)
# On each keeper (seconds, `pg_autoctl config set`). A primary that can reach neither the monitor
# nor its standby stops PostgreSQL after network_partition_timeout: 8 s, well before the monitor
# can have promoted the standby (6 s unhealthy + promotion steps + 10 s demote timeout).
keeper_settings=(
    "timeout.network_partition_timeout=8"                  # default 20
    "timeout.postgresql_restart_failure_timeout=10"        # default 20: restarts of a crashed postgres before asking for failover
)

# The command prefix that runs a command as postgres (an array, so that setsid can run it too).
if [ "$(id -un)" = postgres ]; then as_postgres_prefix=()
elif [ "$(id -u)" -eq 0 ]; then as_postgres_prefix=(runuser -u postgres --)
else as_postgres_prefix=(sudo -u postgres --)
fi
as_postgres() { "${as_postgres_prefix[@]}" "$@"; }

# pg_autoctl keeps its configuration and state under XDG_CONFIG_HOME and XDG_DATA_HOME (the
# postgres user's home by default) and its pid file under XDG_RUNTIME_DIR (or /tmp): all in DIR,
# so that a test leaves nothing behind and two formations never meet.
autoctl() {
    local dir="$1"
    shift
    as_postgres env XDG_CONFIG_HOME="$dir/xdg/config" XDG_DATA_HOME="$dir/xdg/data" XDG_RUNTIME_DIR="$dir/xdg/run" \
        /usr/bin/pg_autoctl "$@"
}

# SQL on the monitor, as postgres over 127.0.0.1 (its pg_hba trusts local TCP, from initdb --auth=trust).
monitor_sql() { psql --host=127.0.0.1 --port="$(cat "$1/monitor.port")" --username=postgres --dbname=pg_auto_failover \
    --no-psqlrc --quiet --tuples-only --no-align --set=ON_ERROR_STOP=1 --command="$2"; }
node_sql() { psql --host=127.0.0.1 --port="$(cat "$1/$2.port")" --username=postgres --dbname=postgres \
    --no-psqlrc --quiet --tuples-only --no-align --set=ON_ERROR_STOP=1 --command="$3"; }

# `pg_autoctl run` in the background, in a session of its own (setsid: its process group is the
# keeper, its services and the postmaster; PostgreSQL's own children start sessions of their own).
run_service() {
    local dir="$1" name="$2"
    setsid nohup "${as_postgres_prefix[@]}" env XDG_CONFIG_HOME="$dir/xdg/config" XDG_DATA_HOME="$dir/xdg/data" \
        XDG_RUNTIME_DIR="$dir/xdg/run" /usr/bin/pg_autoctl run --pgdata "$dir/$name" >>"$dir/$name.log" 2>&1 </dev/null &
    echo $! >"$dir/$name.pid"
}

# Every process of one service: its session (runuser, pg_autoctl and its services, the
# postmaster), plus the postmaster's children, found before anything is killed.
service_pids() {
    local dir="$1" name="$2" group postmaster
    group="$(cat "$dir/$name.pid" 2>/dev/null || true)"
    [ -n "$group" ] && ps -o pid= --sid "$group" 2>/dev/null || true
    postmaster="$(head -1 "$dir/$name/postmaster.pid" 2>/dev/null || true)"
    # Only a postmaster of this data directory (a stale pid file may name a reused pid).
    if [ -n "$postmaster" ] && tr '\0' ' ' <"/proc/$postmaster/cmdline" 2>/dev/null | grep -q -- "-D $dir/$name "; then
        echo "$postmaster"
        ps -o pid= --ppid "$postmaster" || true
    fi
}

kill_service() {
    local pids
    pids="$(service_pids "$1" "$2" | sort -u | tr '\n' ' ')"
    # shellcheck disable=SC2086  # one kill for all of them, as a machine would die
    [ -n "${pids// /}" ] && kill -KILL $pids 2>/dev/null || true
}

# name reportedstate goalstate health, one node a line.
node_states() { monitor_sql "$1" "SELECT nodename, reportedstate, goalstate, health FROM pgautofailover.node ORDER BY nodename"; }

healthy() {
    local states
    states="$(node_states "$1" 2>/dev/null)" || return 1
    [ "$(grep -c '^node[12]|primary|primary|1$' <<<"$states")" -eq 1 ] &&
        [ "$(grep -c '^node[12]|secondary|secondary|1$' <<<"$states")" -eq 1 ]
}

wait_healthy() {
    local dir="$1" timeout="${2:-120}" deadline
    deadline=$((SECONDS + timeout))
    until healthy "$dir"; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "error: the formation in $dir is not primary + secondary after $timeout s:" >&2
            node_states "$dir" >&2 || true
            return 1
        fi
        sleep 0.5
    done
}

create_node() {
    local dir="$1" name="$2" port setting
    port="$(free_port)"
    echo "$port" >"$dir/$name.port"
    autoctl "$dir" create postgres --pgdata "$dir/$name" --pgctl "$bin/pg_ctl" --name "$name" \
        --hostname 127.0.0.1 --listen 127.0.0.1 --pghost 127.0.0.1 --pgport "$port" \
        --monitor "postgres://autoctl_node@127.0.0.1:$(cat "$dir/monitor.port")/pg_auto_failover?sslmode=disable" \
        --auth trust --no-ssl >>"$dir/create-$name.log" 2>&1 ||
        { echo "error: pg_autoctl create postgres $name failed, see $dir/create-$name.log" >&2; return 1; }
    for setting in "${keeper_settings[@]}"; do
        autoctl "$dir" config set --pgdata "$dir/$name" "${setting%%=*}" "${setting#*=}" >/dev/null
    done
}

start() {
    local dir="$1" setting
    [ -x "$bin/initdb" ] && [ -x /usr/bin/pg_autoctl ] ||
        { echo "error: PostgreSQL or pg_auto_failover is not installed (scripts/setup/install-deps.sh test)" >&2; exit 1; }
    mkdir -p "$dir"
    chmod 755 "$dir"
    chown postgres: "$dir" 2>/dev/null || sudo chown postgres: "$dir"
    as_postgres test -w "$dir" || { echo "error: the postgres user cannot reach $dir (its parents must be world-searchable)" >&2; exit 1; }
    as_postgres mkdir -p -m 700 "$dir/xdg/config" "$dir/xdg/data" "$dir/xdg/run"

    # The monitor: a PostgreSQL of its own with the pgautofailover extension.
    free_port >"$dir/monitor.port"
    autoctl "$dir" create monitor --pgdata "$dir/monitor" --pgctl "$bin/pg_ctl" --pgport "$(cat "$dir/monitor.port")" \
        --hostname 127.0.0.1 --auth trust --no-ssl >"$dir/create-monitor.log" 2>&1 ||
        { echo "error: pg_autoctl create monitor failed, see $dir/create-monitor.log" >&2; exit 1; }
    # create monitor has no --listen: it would listen on every address.
    autoctl "$dir" config set --pgdata "$dir/monitor" postgresql.listen_addresses 127.0.0.1 >/dev/null
    run_service "$dir" monitor
    for _ in $(seq 1 100); do monitor_sql "$dir" "SELECT 1" >/dev/null 2>&1 && break; sleep 0.2; done
    for setting in "${monitor_settings[@]}"; do
        monitor_sql "$dir" "ALTER SYSTEM SET ${setting%%=*} = '${setting#*=}'"
    done
    monitor_sql "$dir" "SELECT pg_reload_conf()" >/dev/null

    # node1, the first primary. pg_autoctl tunes PostgreSQL for a machine of its own (shared_buffers a
    # quarter of the memory): two nodes and a monitor share this one, so smaller. postgresql.conf
    # includes pg_autoctl's settings on its first line, so lines at its end win; pg_basebackup copies
    # the file to node2.
    create_node "$dir" node1
    printf '\n# On The Map tests: three clusters share this machine\nshared_buffers = 128MB\nmax_connections = 300\n' \
        | as_postgres tee -a "$dir/node1/postgresql.conf" >/dev/null
    # pg_autoctl writes pg_hba lines for its own roles only; the application's role signs in with its
    # password from 127.0.0.1. First in the file, so that initdb's `trust` lines never match it.
    # pg_basebackup and pg_rewind copy the file, so node2 has it too, whichever node is primary.
    as_postgres sed -i '1i host all onthemap 127.0.0.1/32 scram-sha-256  # On The Map: the application role, with its password' \
        "$dir/node1/pg_hba.conf"
    run_service "$dir" node1
    local deadline=$((SECONDS + 60))
    # The monitor may still say single from `create`; PostgreSQL answering is what counts.
    until [ "$(node_states "$dir" 2>/dev/null)" = "node1|single|single|1" ] && node_sql "$dir" node1 "SELECT 1" >/dev/null 2>&1; do
        [ "$SECONDS" -lt "$deadline" ] || { echo "error: node1 did not start, see $dir/node1.log" >&2; exit 1; }
        sleep 0.5
    done
    node_sql "$dir" node1 "CREATE ROLE onthemap LOGIN PASSWORD 'onthemap'"
    node_sql "$dir" node1 "CREATE DATABASE onthemap OWNER onthemap"
    # pg_basebackup asks for a spread checkpoint (pg_autoctl gives no --checkpoint=fast), which
    # takes a minute and a half after CREATE DATABASE dirtied the buffers; one now leaves it nothing.
    node_sql "$dir" node1 "CHECKPOINT"

    # node2: pg_basebackup from node1, then streaming; the monitor makes it the synchronous standby.
    create_node "$dir" node2
    run_service "$dir" node2
    wait_healthy "$dir" 120
    echo "postgres://onthemap:onthemap@127.0.0.1:$(cat "$dir/node1.port"),127.0.0.1:$(cat "$dir/node2.port")/onthemap?target_session_attrs=read-write"
}

# The node the monitor names primary (the one in a writable goal state).
primary() {
    local name
    name="$(monitor_sql "$1" "SELECT primary_name FROM pgautofailover.get_primary('default', 0)")"
    [ -n "$name" ] || { echo "error: the monitor names no primary now" >&2; return 1; }
    echo "$name $(cat "$1/$name.port")"
}

kill_primary() {
    local dir="$1" name
    name="$(primary "$dir" | cut -d' ' -f1)"
    kill_service "$dir" "$name"
    echo "$name"
}

kill_standby() {
    local dir="$1" name
    name="$(monitor_sql "$dir" "SELECT nodename FROM pgautofailover.node WHERE reportedstate = 'secondary'")"
    [ -n "$name" ] || { echo "error: the monitor names no secondary now" >&2; return 1; }
    kill_service "$dir" "$name"
    echo "$name"
}

rejoin() {
    local dir="$1" name="$2"
    case "$name" in node1|node2) ;; *) echo "error: no node $name (node1 or node2)" >&2; exit 2 ;; esac
    run_service "$dir" "$name"
}

switchover() {
    local dir="$1"
    wait_healthy "$dir" 60
    autoctl "$dir" perform switchover --pgdata "$dir/monitor" --wait 60 >>"$dir/switchover.log" 2>&1 ||
        { echo "error: pg_autoctl perform switchover failed, see $dir/switchover.log" >&2; return 1; }
    wait_healthy "$dir" 60
}

# Keepers first (SIGTERM: pg_autoctl stops its PostgreSQL with a fast shutdown), the monitor last;
# then SIGKILL for whatever is still there after 20 s (a killed node's orphaned postgres children).
stop() {
    local dir="$1" name group
    for name in node1 node2 monitor; do
        group="$(cat "$dir/$name.pid" 2>/dev/null || true)"
        [ -n "$group" ] && kill -TERM -- "-$group" 2>/dev/null || true
    done
    for _ in $(seq 1 40); do
        [ -z "$(for name in node1 node2 monitor; do service_pids "$dir" "$name"; done)" ] && break
        sleep 0.5
    done
    for name in node1 node2 monitor; do kill_service "$dir" "$name"; done
}

settings() {
    local setting
    for setting in "${monitor_settings[@]}"; do echo "${setting%%=*} = ${setting#*=}"; done
    for setting in "${keeper_settings[@]}"; do echo "${setting%%=*} = ${setting#*=}s"; done
}

case "${1:-}" in
    start) start "$2" ;;
    primary) primary "$2" ;;
    kill-primary) kill_primary "$2" ;;
    kill-standby) kill_standby "$2" ;;
    rejoin) rejoin "$2" "$3" ;;
    wait-healthy) wait_healthy "$2" "${3:-120}" ;;
    switchover) switchover "$2" ;;
    stop) stop "$2" ;;
    settings) settings ;;
    # The replica test pauses and resumes the standby's replay this way.
    standby-sql) node_sql "$2" "$(monitor_sql "$2" "SELECT nodename FROM pgautofailover.node WHERE reportedstate = 'secondary'")" "$3" ;;
    *) echo "usage: $0 start DIR | primary DIR | kill-primary DIR | kill-standby DIR | rejoin DIR NODE | wait-healthy DIR [SECONDS] | switchover DIR | stop DIR | settings" >&2
       exit 2 ;;
esac
