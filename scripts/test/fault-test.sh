#!/usr/bin/env bash
# Database faults on the real binary (scripts/test/faults/check_database_faults.py says what
# is checked): writers and readers under load while
#   - PostgreSQL (durable, the project's throwaway cluster) restarts, then crashes and stays away
#     10 s, then comes back;
#   - SQLite's file sits on a 16 MB tmpfs that fills up, then gets its space back;
#   - SQLite's file sits on a loop-mounted ext4 (errors=remount-ro) that meets a disk error and goes
#     read-only; the operator repairs it (stop, e2fsck, mount, start);
# and, last, SIGTERM while PostgreSQL is unreachable stops the server within a few seconds.
#   scripts/test/fault-test.sh path/to/onthemap
#   scripts/test/fault-test.sh --step postgres DIR restart|crash|back   (the checker's faults)
#   scripts/test/fault-test.sh --step sqlite DIR fill|free
#   scripts/test/fault-test.sh --step sqlite-readonly DIR readonly|repair
set -uo pipefail
scripts="$(cd "$(dirname "$0")" && pwd)"

if [ "${1:-}" = --step ]; then
    case "$2:$4" in
        postgres:restart) exec "$scripts/postgres-test.sh" restart "$3" ;;
        # pg_ctl says the crashed cluster's PID file is gone before it starts it anyway.
        postgres:back) exec "$scripts/postgres-test.sh" restart "$3" 2>/dev/null ;;
        postgres:crash) exec "$scripts/postgres-test.sh" crash "$3" ;;
        # Every byte the file system has left, then gone again.
        sqlite:fill) dd if=/dev/zero of="$3/filler" bs=64k 2>/dev/null; exit 0 ;;
        sqlite:free) rm -f "$3/filler"; exit 0 ;;
        # What ext4 does on a disk error with errors=remount-ro, through its own test hook.
        sqlite-readonly:readonly) echo "fault test" >"/sys/fs/ext4/$(basename "$(findmnt -no SOURCE "$3")")/trigger_fs_error"; exit 0 ;;
        sqlite-readonly:repair) exec "$3.repair" ;;
        *) echo "unknown step $*" >&2; exit 2 ;;
    esac
fi

binary="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
work="$(mktemp -d)"
chmod 755 "$work"  # the postgres user reaches its data directory inside
postgres_dir="$work/pg"
source "$scripts/test-helpers.sh"
cleanup() {
    # FAULT_TEST_KEEP_LOGS=DIR keeps the servers' logs for a look afterwards.
    [ -n "${FAULT_TEST_KEEP_LOGS:-}" ] && cp "$work"/*.log "$FAULT_TEST_KEEP_LOGS"/ 2>/dev/null
    for pid in "${server_pids[@]}"; do kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
    if [ -f "$work/rodisk.pid" ] && kill -KILL "$(cat "$work/rodisk.pid")" 2>/dev/null; then
        while kill -0 "$(cat "$work/rodisk.pid")" 2>/dev/null; do sleep 0.1; done
    fi
    umount "$work/disk" "$work/rodisk" 2>/dev/null
    stop_everything
}
trap cleanup EXIT

echo "fault test: PostgreSQL restarts, crashes and stays away 10 s under load"
database="$(POSTGRES_DURABLE=1 "$scripts/postgres-test.sh" start "$postgres_dir")?sslmode=disable"
start_server "$work/postgres.log" --database "$database" || exit 1
python3 "$scripts/faults/check_database_faults.py" "http://127.0.0.1:$port" postgres "$0" --step postgres "$postgres_dir"
failed=$((failed + $?))
grep -q "Database unavailable: " "$work/postgres.log" \
    && pass "the log says why requests were refused ($(grep -m1 -o 'Database unavailable: .*' "$work/postgres.log" | cut -c1-90))" \
    || fail "no log line says the database was unavailable" "$(tail -5 "$work/postgres.log")"

echo "fault test: SIGTERM while PostgreSQL is away"
"$scripts/postgres-test.sh" crash "$postgres_dir"
pid="${server_pids[-1]}"
stopping="$(date +%s%N)"
kill -TERM "$pid"
for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
    fail "the server still runs 10 s after SIGTERM"
    kill -KILL "$pid"
else
    pass "the server stopped $(( ($(date +%s%N) - stopping) / 1000000 )) ms after SIGTERM"
fi
unset 'server_pids[-1]'

echo "fault test: SQLite's disk fills up under load, then gets its space back"
mkdir -p "$work/disk"
if mount -t tmpfs -o size=16m tmpfs "$work/disk"; then
    start_server "$work/sqlite.log" --database "$work/disk/onthemap.sqlite" || exit 1
    python3 "$scripts/faults/check_database_faults.py" "http://127.0.0.1:$port" sqlite "$0" --step sqlite "$work/disk"
    failed=$((failed + $?))
    grep -q "Database unavailable: the disk holding the database is full" "$work/sqlite.log" \
        && pass "the log says the disk is full" || fail "no log line says the disk is full" "$(tail -5 "$work/sqlite.log")"

else
    fail "could not mount a small tmpfs for the disk-full run (needs root)"
fi

echo "fault test: SQLite's file system goes read-only under load, then the operator repairs it"
mkdir -p "$work/rodisk"
truncate -s 64M "$work/rodisk.img"
if mkfs.ext4 -q -F "$work/rodisk.img" && mount -o loop,errors=remount-ro "$work/rodisk.img" "$work/rodisk"; then
    start_server "$work/readonly.log" --database "$work/rodisk/onthemap.sqlite" || exit 1
    echo "${server_pids[-1]}" >"$work/rodisk.pid"
    unset 'server_pids[-1]'
    # The operator's repair: the file system can only be checked and mounted again once nothing
    # holds it open.
    cat >"$work/rodisk.repair" <<REPAIR
#!/usr/bin/env bash
set -e
pid="\$(cat "$work/rodisk.pid")"
kill -TERM "\$pid"
while kill -0 "\$pid" 2>/dev/null; do sleep 0.1; done
umount "$work/rodisk"
e2fsck -fy "$work/rodisk.img" >/dev/null 2>&1 || [ "\$?" -le 2 ]
mount -o loop,errors=remount-ro "$work/rodisk.img" "$work/rodisk"
"$binary" serve --port $port --database "$work/rodisk/onthemap.sqlite" >>"$work/readonly.log" 2>&1 &
echo "\$!" >"$work/rodisk.pid"
REPAIR
    chmod +x "$work/rodisk.repair"
    python3 "$scripts/faults/check_database_faults.py" "http://127.0.0.1:$port" sqlite-readonly "$0" --step sqlite-readonly "$work/rodisk"
    failed=$((failed + $?))
    grep -q "Database unavailable: the file system holding the database is read-only" "$work/readonly.log" \
        && pass "the log says the file system is read-only" || fail "no log line says the file system is read-only" "$(grep -m3 'Database unavailable' "$work/readonly.log")"
else
    fail "could not loop-mount a small ext4 for the read-only run (needs root and a loop device)"
fi

echo "fault test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
