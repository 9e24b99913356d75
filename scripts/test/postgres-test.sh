#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: Debian's server, run as the `postgres` user (initdb
# refuses root), on 127.0.0.1 and a free port, with durability off (fsync=off: the data dies with
# the directory anyway).
#   scripts/test/postgres-test.sh start DIR   starts it in DIR; prints postgres://onthemap:onthemap@127.0.0.1:PORT/onthemap
#   scripts/test/postgres-test.sh stop DIR    stops it (DIR is left for the caller to remove)
#   scripts/test/postgres-test.sh restart DIR restarts it (or starts it again after a crash)
#   scripts/test/postgres-test.sh crash DIR   stops it as a crash would (pg_ctl stop -m immediate)
#   scripts/test/postgres-test.sh check       starts one, asks it a question as the onthemap role, stops it
#   scripts/test/postgres-test.sh with CMD…    runs CMD with ONTHEMAP_TEST_POSTGRES set to a new cluster's URL,
#                                         then stops and removes the cluster; exits with CMD's status
set -euo pipefail
source "$(dirname "$0")/cluster-helpers.sh"

bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
[ -x "$bin/initdb" ] || { echo "error: PostgreSQL's server is not installed (scripts/setup/install-deps.sh test installs it)" >&2; exit 1; }
as_postgres() {
    if [ "$(id -un)" = postgres ]; then "$@"
    elif [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"
    else sudo -u postgres -- "$@"
    fi
}

start() {
    local dir="$1" port
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; else sudo chown postgres: "$dir"; fi
    as_postgres "$bin/initdb" --pgdata="$dir/data" --username=postgres --auth=trust --encoding=UTF8 --no-sync >"$dir/initdb.log"
    # A port nobody listens on: the kernel picks it, and the cluster takes it a moment later.
    port="$(free_port)"
    # Durability off for tests; POSTGRES_DURABLE=1 (the benchmarks) keeps PostgreSQL's defaults, so
    # that its commits are compared with SQLite's synchronous=FULL on equal terms.
    local durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    [ "${POSTGRES_DURABLE:-0}" = 1 ] && durability=""
    # POSTGRES_TLS=1: TCP connections must use TLS, with a certificate for 127.0.0.1 that
    # $dir/server.crt signs itself (the TLS tests verify against it).
    local tls=""
    if [ "${POSTGRES_TLS:-0}" = 1 ]; then
        openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" \
            -keyout "$dir/server.key" -out "$dir/server.crt" 2>/dev/null
        chmod 600 "$dir/server.key"
        if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir/server.key" "$dir/server.crt"; else sudo chown postgres: "$dir/server.key" "$dir/server.crt"; fi
        printf 'local all all trust\nhostssl all all 127.0.0.1/32 scram-sha-256\nhostnossl all all 127.0.0.1/32 reject\n' \
            | as_postgres tee "$dir/data/pg_hba.conf" >/dev/null
        tls="-c ssl=on -c ssl_cert_file=$dir/server.crt -c ssl_key_file=$dir/server.key"
    fi
    as_postgres "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait --silent start \
        --options="-c listen_addresses=127.0.0.1 -p $port -k $dir $durability $tls -c max_connections=1500"
    as_postgres psql --quiet --host="$dir" --port="$port" --username=postgres --dbname=postgres --set=ON_ERROR_STOP=1 \
        --command="CREATE ROLE onthemap LOGIN PASSWORD 'onthemap'" --command="CREATE DATABASE onthemap OWNER onthemap" >/dev/null
    echo "postgres://onthemap:onthemap@127.0.0.1:$port/onthemap"
}

stop() {
    as_postgres "$bin/pg_ctl" --pgdata="$1/data" --wait --silent --mode=fast stop
}

# The fault tests' operations on a running cluster. `restart` also starts a stopped or crashed one,
# with the options it was first started with (pg_ctl keeps them in postmaster.opts).
restart() { as_postgres "$bin/pg_ctl" --pgdata="$1/data" --log="$1/server.log" --wait --silent --mode=fast restart; }
crash() { as_postgres "$bin/pg_ctl" --pgdata="$1/data" --wait --silent --mode=immediate stop; }

case "${1:-}" in
    start) start "$2" ;;
    stop) stop "$2" ;;
    restart) restart "$2" ;;
    crash) crash "$2" ;;
    check)
        dir="$(mktemp -d)"
        trap 'stop "$dir" 2>/dev/null || true; rm -rf "$dir"' EXIT
        url="$(start "$dir")"
        answer="$(psql "$url" --tuples-only --no-align --command="SELECT current_user || ' on ' || current_setting('server_version_num')")"
        case "$answer" in
            "onthemap on "*) echo "postgres: a throwaway cluster answers at $url ($answer)" ;;
            *) echo "postgres: unexpected answer: $answer" >&2; exit 1 ;;
        esac
        ;;
    with)
        shift
        dir="$(mktemp -d)"
        trap 'stop "$dir" 2>/dev/null || true; rm -rf "$dir"' EXIT
        ONTHEMAP_TEST_POSTGRES="$(start "$dir")"
        export ONTHEMAP_TEST_POSTGRES
        echo "postgres: running on $ONTHEMAP_TEST_POSTGRES: $*"
        "$@"
        ;;
    *) echo "usage: $0 start DIR | stop DIR | restart DIR | crash DIR | check | with CMD..." >&2; exit 2 ;;
esac
