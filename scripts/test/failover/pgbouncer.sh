#!/usr/bin/env bash
# PgBouncer for the tests: Debian's pgbouncer (1.18) in transaction pooling mode in front of one
# PostgreSQL, on 127.0.0.1 and a free port, everything in DIR. PgBouncer refuses to run as root,
# so it runs as the `postgres` user, like the test clusters.
#   scripts/test/failover/pgbouncer.sh start DIR UPSTREAM_HOST UPSTREAM_PORT
#        starts it; prints postgres://onthemap:onthemap@127.0.0.1:PORT/onthemap
#   scripts/test/failover/pgbouncer.sh stop DIR
#   scripts/test/failover/pgbouncer.sh in-front DIR DATABASE_URL
#        one in front of each host of a (multi-host) URL, in DIR/bouncer-PORT; prints the pooler URL
#   scripts/test/failover/pgbouncer.sh stop-all DIR   stops those
# The settings are deploy/pgbouncer/pgbouncer.ini's; NOTES.md beside this file says what
# transaction pooling breaks (named prepared statements, LISTEN, session advisory locks) and
# which startup parameters PgBouncer 1.18 refuses.
set -euo pipefail
source "$(dirname "$0")/../cluster-helpers.sh"

if [ "$(id -un)" = postgres ]; then as_postgres_prefix=()
elif [ "$(id -u)" -eq 0 ]; then as_postgres_prefix=(runuser -u postgres --)
else as_postgres_prefix=(sudo -u postgres --)
fi
as_postgres() { "${as_postgres_prefix[@]}" "$@"; }

start() {
    local dir="$1" host="$2" upstream="$3" port
    [ -x /usr/sbin/pgbouncer ] ||
        { echo "error: pgbouncer is not installed (scripts/setup/install-deps.sh test installs it)" >&2; exit 1; }
    mkdir -p "$dir"
    chmod 755 "$dir"
    chown postgres: "$dir" 2>/dev/null || sudo chown postgres: "$dir"
    port="$(free_port)"
    # The password in plain text: PgBouncer checks the client's SCRAM answer against it, and
    # signs in to PostgreSQL with it (a SCRAM secret could do the first only).
    printf '"onthemap" "onthemap"\n' | as_postgres tee "$dir/userlist.txt" >/dev/null
    as_postgres chmod 600 "$dir/userlist.txt"
    as_postgres tee "$dir/pgbouncer.ini" >/dev/null <<INI
[databases]
onthemap = host=$host port=$upstream dbname=onthemap

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
; no Unix socket: the tests connect over TCP, and /var/run/postgresql is the system's.
unix_socket_dir =
pidfile = $dir/pgbouncer.pid
logfile = $dir/pgbouncer.log
auth_type = scram-sha-256
auth_file = $dir/userlist.txt
; A server connection goes back to the pool at the end of each transaction.
pool_mode = transaction
; The benchmark reads SHOW STATS from the admin console as onthemap.
stats_users = onthemap
; Every instance's pool connections, and then some: PgBouncer holds idle clients cheaply.
max_client_conn = 5000
; Server connections per database and user: what PostgreSQL actually serves at once.
default_pool_size = 20
; PgBouncer 1.18 refuses any startup parameter it does not track (client_encoding, DateStyle,
; TimeZone, standard_conforming_strings, application_name) unless told to ignore it, and ignored
; means dropped (NOTES.md). On The Map's pooled connections (--database-pooler) send none; its
; direct ones send statement_timeout and search_path, so an instance given PgBouncer as its
; --database is refused loudly rather than run without its read budget and schema. JDBC sends
; extra_float_digits.
ignore_startup_parameters = extra_float_digits
; DISCARD ALL between clients is for session pooling; transaction mode resets nothing.
server_reset_query =
server_check_delay = 10
INI
    as_postgres /usr/sbin/pgbouncer --daemon "$dir/pgbouncer.ini"
    # Ready when it accepts TCP connections (whether PostgreSQL is up is the caller's business).
    for _ in $(seq 1 50); do
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
        sleep 0.1
    done
    echo "postgres://onthemap:onthemap@127.0.0.1:$port/onthemap"
}

# SIGINT: PgBouncer waits for the transactions in flight (a "safe shutdown"); SIGKILL after 10 s.
stop() {
    local dir="$1" pid
    pid="$(cat "$dir/pgbouncer.pid" 2>/dev/null || true)"
    [ -n "$pid" ] || return 0
    kill -INT "$pid" 2>/dev/null || return 0
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
}

# One PgBouncer in front of each 127.0.0.1 host of a database URL, in DIR/bouncer-PORT; prints the
# pooler URL naming them in the same order (the server's --database-pooler).
in_front() {
    local dir="$1" database="$2" port bouncer hosts=""
    for port in $(grep -oE '127\.0\.0\.1:[0-9]+' <<<"$database" | cut -d: -f2); do
        bouncer="$(start "$dir/bouncer-$port" 127.0.0.1 "$port")"
        hosts+="${hosts:+,}$(grep -oE '127\.0\.0\.1:[0-9]+' <<<"$bouncer")"
    done
    echo "postgres://onthemap:onthemap@$hosts/onthemap?sslmode=disable"
}

stop_all() {
    local bouncer
    for bouncer in "$1"/bouncer-*; do [ -d "$bouncer" ] && stop "$bouncer"; done
    return 0
}

case "${1:-}" in
    start) start "$2" "$3" "$4" ;;
    stop) stop "$2" ;;
    in-front) in_front "$2" "$3" ;;
    stop-all) stop_all "$2" ;;
    *) echo "usage: $0 start DIR UPSTREAM_HOST UPSTREAM_PORT | stop DIR | in-front DIR DATABASE_URL | stop-all DIR" >&2; exit 2 ;;
esac
