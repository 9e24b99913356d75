# Shared by the shell test scripts (source it after setting $binary and $work): counting results
# and starting the server under test.

passed=0
failed=0
server_pids=()

pass() { passed=$((passed + 1)); echo "  ok    $1"; }
fail() { failed=$((failed + 1)); echo "  FAIL  $1"; [ -n "${2:-}" ] && sed 's/^/        /' <<<"$2"; }

# stop_everything: the EXIT trap of a script that starts servers, background jobs and perhaps a
# throwaway PostgreSQL in $postgres_dir (set it to "" first): stops them all and removes $work.
stop_everything() {
    for pid in "${server_pids[@]}"; do kill -TERM "$pid" 2>/dev/null; done
    jobs -p | xargs -r kill 2>/dev/null
    [ -n "${postgres_dir:-}" ] && "$scripts/postgres-test.sh" stop "$postgres_dir" >/dev/null 2>&1
    rm -rf "$work"
}

# free_port: a port nobody listens on at this moment.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# start_python_service NAME VENV SCRIPT PACKAGE: runs the project's SCRIPT with the python of .build/VENV
# in the background (stdout in $work/NAME.json, stderr in $work/NAME.log; stop_everything stops it) and
# waits up to 10 s for the one JSON line it prints once it serves, which it puts in $service_json.
# Returns 1, saying why, when the virtualenv is missing (scripts/setup/install-deps.sh test installs
# PACKAGE there) or no line comes. Needs $root, the project's root.
start_python_service() {
    local name="$1" python="$root/.build/$2/bin/python" script="$root/$3" package="$4"
    [ -x "$python" ] || { echo "error: $python is missing (scripts/setup/install-deps.sh test installs $package)" >&2; return 1; }
    "$python" "$script" >"$work/$name.json" 2>"$work/$name.log" &
    for _ in $(seq 1 100); do [ -s "$work/$name.json" ] && break; sleep 0.1; done
    service_json="$(head -1 "$work/$name.json")"
    [ -n "$service_json" ] || { echo "$name did not start:"; cat "$work/$name.log"; return 1; }
}

# start_server LOG ARGS...: starts `$binary serve --port 0 ARGS`, adds it to $server_pids and sets
# $port once it listens.
start_server() {
    local log="$1"; shift
    "$binary" serve --port 0 "$@" >"$log" 2>&1 &
    server_pids+=("$!")
    port=""
    for _ in $(seq 1 200); do
        port="$(grep -oE 'listening on 127\.0\.0\.1:[0-9]+' "$log" | grep -oE '[0-9]+$' | head -1)"
        [ -n "$port" ] && return 0
        kill -0 "${server_pids[-1]}" 2>/dev/null || break
        sleep 0.05
    done
    echo "server did not start:"; cat "$log"; return 1
}

# pin_writer N FIRST: student N (cookies in $work/jarN) overwrites their pin with "write FIRST",
# FIRST+1, … as fast as the server answers, until a request fails, recording in $work/ackedN the
# last number the server acknowledged. The crash and backup tests run several at once.
pin_writer() {
    local n="$1" i="$2" code
    while :; do
        code="$(curl -s -o /dev/null -w '%{http_code}' -b "$work/jar$n" -X POST "http://127.0.0.1:$port/v1/StudentLocation" \
            -d "{\"mapString\": \"write $i\", \"mediaURL\": \"https://example.com/$n/$i\", \"latitude\": 1, \"longitude\": 2}")" || break
        [ "$code" = "200" ] || break
        # Renamed into place: a reader mid-run never sees the file empty.
        echo "$i" >"$work/acked$n.new" && mv "$work/acked$n.new" "$work/acked$n"
        i=$((i + 1))
    done
}

# on_both_engines FUNCTION: runs `FUNCTION ENGINE DATABASE` on a new SQLite file, then on a throwaway
# PostgreSQL in $work/postgres (which stop_everything stops). $work must be readable by the
# postgres user (chmod 755).
on_both_engines() {
    echo "SQLite:"
    "$1" sqlite "$work/$1.sqlite"
    echo "PostgreSQL:"
    postgres_dir="$work/postgres"
    local url
    if url="$("$scripts/postgres-test.sh" start "$postgres_dir")"; then
        "$1" postgresql "$url"
    else
        fail "the throwaway PostgreSQL did not start"
    fi
}
