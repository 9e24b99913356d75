#!/usr/bin/env bash
# Writes at the primary's speed (issue 44, item 7), as a Markdown section. On one PostgreSQL cluster
# with its durable defaults and the same data (STUDENTS students, each with an account, a session and a
# pin), in interleaved rounds at 32 clients:
# (a) the server answering `PUT /v1/StudentLocation/{id}` over HTTP (wrk; each request a student of
#     its own among 128, each wrk thread its own half of them);
# (b) pgbench sending exactly the statements the server sent for one such PUT, captured with
#     log_statement=all and made into a script whose student (session, account, pin) is drawn at random;
#     the ones the server shares between PUTs (the notification, the live map's read of the event log,
#     the session's read) in the share of PUTs it sent them for under the same load;
# (c) pgbench's bare one-row UPDATE by primary key on the same table (touching `updated_at`, which
#     the partial `WHERE hidden_at IS NULL` indexes hold, as the server's writes do).
# Targets: (b) ≥ 0.5× (c), and (a) ≥ 0.8× (b).
#   scripts/bench/bench-writes.sh path/to/release/onthemap [seconds per run] [rounds] [students]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/bench/bench-helpers.sh"

binary="$(realpath "$1")"
seconds="${2:-8}"
rounds="${3:-3}"
students="${4:-100000}"
start_postgres_work  # sets work, pids and postgres_url
database="$postgres_url"
pg_port="${database##*:}"; pg_port="${pg_port%%/*}"
superuser() { runuser -u postgres -- psql -qtA --host="$work/pg" --port="$pg_port" --username=postgres --dbname=onthemap "$@"; }

# The students: key 1000000000 + i, session token `bench-token-i` (stored as its SHA-256, as the server
# stores tokens), a session that neither expires nor idles out during the run, and a pin `w` + 9 digits.
"$binary" user list --database "$database?sslmode=disable" >/dev/null  # the schema
now_ms="$(date +%s%3N)"
psql -q -v ON_ERROR_STOP=1 "$database" >/dev/null <<SQL
INSERT INTO accounts (key, email, password_hash, first_name, last_name, is_admin, created_at)
SELECT (1000000000 + i)::text, 'w' || i || '@example.com', 'x', 'First' || i, 'Last' || i, FALSE, $now_ms
FROM generate_series(1, $students) i;
INSERT INTO course_members (course_id, account_key, role, joined_at)
SELECT 1, (1000000000 + i)::text, 'student', $now_ms FROM generate_series(1, $students) i;
INSERT INTO sessions (token_hash, account_key, created_at, expires_at, idle_expires_at)
SELECT encode(sha256(convert_to('bench-token-' || i, 'UTF8')), 'hex'), (1000000000 + i)::text, $now_ms * 1000,
       ($now_ms + 86400000::bigint * 30) * 1000, ($now_ms + 86400000::bigint * 14) * 1000
FROM generate_series(1, $students) i;
INSERT INTO student_locations (object_id, owner_key, unique_key, first_name, last_name, map_string, media_url,
                               latitude, longitude, created_at, updated_at, course_id)
SELECT 'w' || lpad(i::text, 9, '0'), (1000000000 + i)::text, (1000000000 + i)::text, 'First' || i, 'Last' || i,
       'City ' || i, 'https://example.com/' || i, (i % 180) - 89.75, (i % 360) - 179.5, $now_ms, $now_ms + i, 1
FROM generate_series(1, $students) i;
VACUUM ANALYZE;
SQL

served_port="$(free_port)"
"$binary" serve --port "$served_port" --database "$database?sslmode=disable" --log-level warning >"$work/server.log" 2>&1 &
server_pid=$!
pids+=("$server_pid")
wait_healthy "http://127.0.0.1:$served_port/healthz"

# The HTTP clients: 128 students spread over the table.
clients=128
{
    echo "local students = {"
    for n in $(seq 0 $((clients - 1))); do
        i=$((n * (students / clients) + 1))
        printf '{"bench-token-%d", "w%09d"},\n' "$i" "$i"
    done
    echo "}"
    cat <<'LUA'
local threads = 0
function setup(thread)
    thread:set("offset", threads)
    threads = threads + 1
end
local counter = 0
request = function()
    counter = counter + 1
    local half = #students / 2
    local student = students[offset * half + (counter % half) + 1]
    local body = '{"uniqueKey": "x", "firstName": "x", "lastName": "x", "mapString": "Moved ' .. counter ..
        '", "mediaURL": "https://example.com/' .. counter .. '", "latitude": 12.5, "longitude": -45.25}'
    return wrk.format("PUT", "/v1/StudentLocation/" .. student[2],
        {["Authorization"] = "Bearer " .. student[1], ["Content-Type"] = "application/json"}, body)
end
LUA
} >"$work/put.lua"

put_as() {  # put_as I: one PUT as student I; prints the status
    curl -s -o /dev/null -w '%{http_code}' -X PUT "http://127.0.0.1:$served_port/v1/StudentLocation/$(printf 'w%09d' "$1")" \
        -H "Authorization: Bearer bench-token-$1" -H 'Content-Type: application/json' \
        -d '{"mapString": "Captured", "mediaURL": "https://example.com/captured", "latitude": 12.5, "longitude": -45.25}'
}
# Warm: the instance has seen writes, its prepared statements and caches are made.
for i in 2 3 4 5; do [ "$(put_as "$i")" = 200 ] || { echo "a PUT was not answered 200" >&2; exit 1; }; done

# The statements of one PUT, between two markers, from the server's backends (not the markers' own).
captured_student=7
superuser -c "ALTER SYSTEM SET log_statement = 'all'" -c "SELECT pg_reload_conf()" >/dev/null
sleep 0.5
superuser -c "SELECT 'bench-writes: capture begins'" >/dev/null
[ "$(put_as "$captured_student")" = 200 ] || { echo "the captured PUT was not answered 200" >&2; exit 1; }
sleep 1  # what follows the answer (the live map's read of the event log)
superuser -c "SELECT 'bench-writes: capture ends'" >/dev/null
# Under load, what each PUT costs besides its write: notifications and the live map's reads of the
# event log are shared by the writes that commit together, sessions come from memory. Counted over a
# 2 s burst at 32 clients, still logging every statement.
logged_before="$(wc -l <"$work/pg/server.log")"
burst="$(wrk -t2 -c32 -d2s -s "$work/put.lua" "http://127.0.0.1:$served_port")"
sleep 1
superuser -c "ALTER SYSTEM RESET log_statement" -c "SELECT pg_reload_conf()" >/dev/null
count() { tail -n +"$((logged_before + 1))" "$work/pg/server.log" | grep -c "$1" || true; }
burst_writes="$(count 'UPDATE student_locations SET')"
per_write() { awk -v n="$1" -v w="$burst_writes" 'BEGIN { printf "%.2f", (w ? n / w : 0) }'; }
burst_notifies="$(per_write "$(count 'pg_notify')")"
burst_hub_reads="$(per_write "$(count 'SELECT id, kind, object_id, payload')")"
burst_session_reads="$(per_write "$(count 'FROM sessions JOIN accounts')")"
# (b) replays them in those shares: what the server sends per PUT under this load.
python3 "$root/scripts/bench/captured-statements.py" "$work/pg/server.log" "$captured_student" "$work/captured.sql" \
    "pg_notify=$burst_notifies" "SELECT id, kind, object_id, payload=$burst_hub_reads" "FROM sessions JOIN accounts=$burst_session_reads" \
    >"$work/captured.md"

cat >"$work/bare.sql" <<SQL
\set i random(1, $students)
UPDATE student_locations SET updated_at = updated_at + 1 WHERE object_id = 'w' || lpad(:i::text, 9, '0');
SQL

tps() { pgbench -n -M prepared -D students="$students" -c 32 -j 2 -T "$1" -f "$2" "$database" 2>&1 | awk '/^tps/ {printf "%.0f", $3}'; }
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2)) }'; }

# Warm-up of each, then the rounds, interleaved.
wrk -t2 -c32 -d2s -s "$work/put.lua" "http://127.0.0.1:$served_port" >/dev/null
tps 2 "$work/captured.sql" >/dev/null
tps 2 "$work/bare.sql" >/dev/null
http=(); captured=(); bare=(); non2xx=0
for round in $(seq 1 "$rounds"); do
    out="$(wrk -t2 -c32 -d"${seconds}s" -s "$work/put.lua" "http://127.0.0.1:$served_port")"
    http+=("$(rps "$out")")
    non2xx=$((non2xx + $(refused "$out" | grep . || echo 0)))
    captured+=("$(tps "$seconds" "$work/captured.sql")")
    bare+=("$(tps "$seconds" "$work/bare.sql")")
done
http_rps="$(median "${http[@]}")"; captured_tps="$(median "${captured[@]}")"; bare_tps="$(median "${bare[@]}")"

statements_vs_bare="$(ratio "$captured_tps" "$bare_tps")"
server_vs_statements="$(ratio "$http_rps" "$captured_tps")"
cat <<MARKDOWN
## Writes at the primary's speed (issue 44, item 7)

- Date: $(date -u +%Y-%m-%dT%H:%MZ)
$(machine)
- Data: $students students, each with an account, a live session and a pin, on PostgreSQL
  $(psql "$database" -tAc 'SHOW server_version' | cut -d' ' -f1) with its durable defaults (fsync, synchronous_commit on).
  Server: release build, defaults, logging at warning.
- Load: 32 clients, ${rounds} interleaved rounds of ${seconds} s each after a 2 s warm-up of each; the median round.
  HTTP: wrk, 2 threads, PUTs with the full create body as 128 students (each thread its own 64), by bearer token.
  pgbench: \`-M prepared -c 32 -j 2\`, a student drawn at random per transaction.

| what | per second (median) | rounds |
|---|---|---|
| (a) the server answering \`PUT /v1/StudentLocation/{id}\` over HTTP | $http_rps | ${http[*]} |
| (b) pgbench running the statements the server sent for one PUT | $captured_tps | ${captured[*]} |
| (c) pgbench's bare one-row UPDATE by primary key, same table | $bare_tps | ${bare[*]} |

| target | measured | |
|---|---|---|
| the server's statements ≥ 0.5× the bare UPDATE, (b) / (c) | ${statements_vs_bare}× | $(verdict "$statements_vs_bare" 0.5) |
| the server ≥ 0.8× pgbench running its statements, (a) / (b) | ${server_vs_statements}× | $(verdict "$server_vs_statements" 0.8) |

Under load (a 2 s burst at 32 clients, $(rps "$burst") PUTs/s while PostgreSQL logged every statement), per PUT:
$burst_notifies notifications, $burst_hub_reads reads of the event log by the live map,
$burst_session_reads reads of a session.

Non-2xx answers: $non2xx. The statements of one PUT, as PostgreSQL logged them (\`log_statement=all\`),
each a round trip (an empty query is the commit's confirmation, \`PostgresWriter\`); (b) sends the
shared ones in the share of PUTs counted above:

$(cat "$work/captured.md")
MARKDOWN
