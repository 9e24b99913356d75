#!/usr/bin/env bash
# The backup, export and import test on the real binary, on both engines: WRITERS students overwrite their pins
# as fast as they can while `onthemap backup` copies the database; the backup, restored into a new
# database, must hold each student's last write acknowledged before the backup began (or a later
# one). Also: what backup and restore refuse, and the messages they give.
#   scripts/test/backup-test.sh path/to/onthemap [WRITERS=10]
set -uo pipefail

binary="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
writers="${2:-10}"
work="$(mktemp -d)"
chmod 755 "$work"
scripts="$(cd "$(dirname "$0")" && pwd)"
source "$scripts/test-helpers.sh"
postgres_dir=""
trap stop_everything EXIT

# check_message NAME PATTERN CMD...: CMD must fail and say PATTERN.
check_refusal() {
    local name="$1" pattern="$2" output; shift 2
    if output="$("$@" 2>&1)"; then fail "$name: succeeded" "$output"
    elif grep -qE "$pattern" <<<"$output"; then pass "$name"
    else fail "$name: unexpected message" "$output"; fi
}

# under_load ENGINE DATABASE BACKUP RESTORED: the backup taken under write load, restored into RESTORED.
under_load() {
    local engine="$1" database="$2" backup="$3" restored="$4"
    rm -f "$work"/acked* "$work"/jar*
    start_server "$work/server-$engine.log" --database "$database" || return 1
    local pids=() n
    for n in $(seq 1 "$writers"); do
        curl -s -c "$work/jar$n" -X POST "http://127.0.0.1:$port/v1/accounts" \
            -d "{\"email\": \"writer$n@example.com\", \"password\": \"password-$n\", \"firstName\": \"W\", \"lastName\": \"$n\"}" >/dev/null
    done
    for n in $(seq 1 "$writers"); do pin_writer "$n" 1 & pids+=("$!"); done
    sleep 1
    # What was acknowledged before the backup began: the backup must hold at least that.
    before=(); local total=0
    for n in $(seq 1 "$writers"); do before[n]="$(cat "$work/acked$n" 2>/dev/null || echo 0)"; total=$((total + before[n])); done
    local output
    if output="$("$binary" backup --database "$database" "$backup" 2>&1)"; then
        pass "$engine: backup under load: $output"
    else
        fail "$engine: backup under load" "$output"
    fi
    sleep 0.5
    local during=0
    for n in $(seq 1 "$writers"); do during=$((during + $(cat "$work/acked$n") - before[n])); done
    kill -TERM "${server_pids[-1]}"; wait "${server_pids[-1]}" 2>/dev/null; unset 'server_pids[-1]'
    wait "${pids[@]}" 2>/dev/null
    [ "$during" -gt 0 ] && pass "$engine: $total writes before the backup began, $during more while it ran and after" \
        || fail "$engine: no writes were acknowledged while the backup ran ($during)"
    [ ! -e "$backup.partial" ] && pass "$engine: no partial file left" || fail "$engine: $backup.partial left behind"
    if output="$("$binary" restore --database "$restored" "$backup" 2>&1)"; then
        pass "$engine: restore into an empty database"
    else
        fail "$engine: restore" "$output"; return 1
    fi
}

# stored_values DATABASE: "lastName value" per pin, for SQLite files and postgres URLs.
stored_values() {
    local query="SELECT last_name, substr(map_string, 7) FROM student_locations"
    if [[ "$1" == postgres://* ]]; then psql -At -F ' ' "$1" -c "$query"; else sqlite3 -separator ' ' "$1" "$query"; fi
}

# every_acknowledged_write ENGINE RESTORED: each writer's pin in RESTORED is at least its `before`.
every_acknowledged_write() {
    local engine="$1" stored lost="" n have
    stored="$(stored_values "$2")"
    for n in $(seq 1 "$writers"); do
        have="$(awk -v n="$n" '$1 == n { print $2 }' <<<"$stored")"
        [ "${have:-0}" -ge "${before[n]}" ] || lost+="writer $n: acknowledged ${before[n]} before the backup, restored ${have:-nothing}"$'\n'
    done
    [ -z "$lost" ] && pass "$engine: the restored database has every write acknowledged before the backup began" \
        || fail "$engine: writes lost" "$lost"
}

echo "backup test: $writers writers"

# SQLite.
under_load sqlite "$work/live.sqlite" "$work/backup.sqlite" "$work/restored.sqlite"
every_acknowledged_write sqlite "$work/restored.sqlite"
[ "$(sqlite3 "$work/backup.sqlite" "PRAGMA integrity_check")" = ok ] && pass "sqlite: the backup passes integrity_check" || fail "sqlite: the backup is damaged"
[ ! -e "$work/backup.sqlite-wal" ] && pass "sqlite: the backup is one file" || fail "sqlite: the backup has a -wal file beside it"
check_refusal "sqlite: backup never overwrites" "already exists" "$binary" backup --database "$work/live.sqlite" "$work/backup.sqlite"
check_refusal "sqlite: backup of a missing database" "no database at" "$binary" backup --database "$work/nothing.sqlite" "$work/other.sqlite"
check_refusal "restore refuses a database with data" "not empty.*--replace" "$binary" restore --database "$work/restored.sqlite" "$work/backup.sqlite"
# Under a running server with a live stream open: the restore starts a new event
# epoch, so the open stream reloads, and so does one resuming from the newest id before it.
start_server "$work/server-restore.log" --database "$work/restored.sqlite" || exit 1
curl -sN --max-time 20 "http://127.0.0.1:$port/v1/StudentLocation/events" >"$work/stream.txt" &
stream_pid=$!
for _ in $(seq 1 100); do grep -q "^event: ready" "$work/stream.txt" && break; sleep 0.05; done
newest_before="$(grep -oE '^id: [0-9]+' "$work/stream.txt" | tail -1 | cut -c5-)"
output="$("$binary" restore --replace --database "$work/restored.sqlite" "$work/backup.sqlite" 2>&1)" \
    && pass "restore --replace over data, under a running server" || fail "restore --replace" "$output"
for _ in $(seq 1 100); do grep -q "^event: reload" "$work/stream.txt" && break; sleep 0.05; done
grep -q "^event: reload" "$work/stream.txt" && pass "the server's open stream is told to reload" \
    || fail "no reload on the open stream after the restore" "$(cat "$work/stream.txt")"
resumed="$(curl -sN --max-time 2 -H "Last-Event-ID: $newest_before" "http://127.0.0.1:$port/v1/StudentLocation/events")"
grep -q "^event: reload" <<<"$resumed" && pass "a stream resuming from before the restore reloads" \
    || fail "a stream resuming from $newest_before after the restore" "$resumed"
kill "$stream_pid" 2>/dev/null; wait "$stream_pid" 2>/dev/null
kill -TERM "${server_pids[-1]}"; wait "${server_pids[-1]}" 2>/dev/null; unset 'server_pids[-1]'
echo "not a database" >"$work/junk.bin"
check_refusal "restore of a file that is no backup" "not a backup" "$binary" restore --database "$work/x.sqlite" "$work/junk.bin"
check_refusal "restore of a missing file" "no file" "$binary" restore --database "$work/x.sqlite" "$work/missing.sqlite"
sqlite3 "$work/other-app.sqlite" "CREATE TABLE t (x)"
check_refusal "restore of another program's SQLite file" "not an On The Map database" "$binary" restore --database "$work/x.sqlite" "$work/other-app.sqlite"

# Export: every location, in each format, read back by other tools. A pin whose place holds a comma,
# quotes, a line break and a leading "=" (which a spreadsheet would run as a formula) is among them.
start_server "$work/server-export.log" --database "$work/restored.sqlite" || exit 1
curl -s -c "$work/jar-export" -X POST "http://127.0.0.1:$port/v1/accounts" \
    -d '{"email": "ada@example.com", "password": "correct horse battery", "firstName": "Ada", "lastName": "King, \"Lovelace\""}' >/dev/null
curl -s -b "$work/jar-export" -X POST "http://127.0.0.1:$port/v1/StudentLocation" \
    -d '{"mapString": "=London, \"UK\"\nline two", "mediaURL": "https://example.com/ada", "latitude": 51.5, "longitude": -0.12}' >/dev/null
kill -TERM "${server_pids[-1]}"; wait "${server_pids[-1]}" 2>/dev/null; unset 'server_pids[-1]'
expected="$(sqlite3 "$work/restored.sqlite" "SELECT COUNT(*) FROM student_locations")"
for format in geojson csv jsonl; do
    output="$("$binary" export --database "$work/restored.sqlite" --output "$work/map.$format" 2>&1)" \
        && pass "export $format: $output" || fail "export $format" "$output"
done
[ "$(jq '.features | length' "$work/map.geojson")" = "$expected" ] \
    && [ "$(jq -c '.features[] | select(.properties.firstName == "Ada") | .geometry.coordinates' "$work/map.geojson")" = "[-0.12,51.5]" ] \
    && [ "$(jq -r '.features[] | select(.properties.firstName == "Ada") | .properties.mapString' "$work/map.geojson")" = $'=London, "UK"\nline two' ] \
    && pass "GeoJSON: $expected features, each at its point, the text as stored" || fail "GeoJSON export" "$(head -c 600 "$work/map.geojson")"
[ "$(jq -s 'length' "$work/map.jsonl")" = "$expected" ] && [ "$(jq -r 'select(.firstName == "Ada") | .lastName' "$work/map.jsonl")" = 'King, "Lovelace"' ] \
    && pass "JSON lines: one location a line" || fail "JSON lines export" "$(head -c 600 "$work/map.jsonl")"
csv_check="$(python3 - "$work/map.csv" "$expected" <<'PY'
import csv, sys
with open(sys.argv[1], newline="", encoding="utf-8") as file:
    rows = list(csv.DictReader(file))
ada = [row for row in rows if row["firstName"] == "Ada"]
assert len(rows) == int(sys.argv[2]), f"{len(rows)} rows"
assert ada and ada[0]["mapString"] == "'=London, \"UK\"\nline two", repr(ada[0]["mapString"])
assert ada[0]["lastName"] == 'King, "Lovelace"' and ada[0]["latitude"] == "51.5", ada[0]
print("ok")
PY
)"
[ "$csv_check" = ok ] && pass "CSV: a header and a row each, quoted as RFC 4180, the formula defused" || fail "CSV export" "$csv_check"
check_refusal "export never overwrites" "already exists" "$binary" export --database "$work/restored.sqlite" --output "$work/map.csv"
[ "$("$binary" export --database "$work/restored.sqlite" --format jsonl | wc -l)" = "$expected" ] \
    && pass "export to standard output" || fail "export to standard output"
# The roster: every account, and never a password hash.
accounts="$(sqlite3 "$work/restored.sqlite" "SELECT COUNT(*) FROM accounts")"
output="$("$binary" export --database "$work/restored.sqlite" --accounts --output "$work/accounts.csv" 2>&1)" \
    && [ "$(head -1 "$work/accounts.csv")" = $'key,email,firstName,lastName,isAdmin,disabled,hasPassword,signInProviders,createdAt,lastLoginAt\r' ] \
    && [ "$(($(wc -l <"$work/accounts.csv") - 1))" = "$accounts" ] && grep -q '^[0-9]*,ada@example.com,Ada,"King, ""Lovelace""",false,false,true,' "$work/accounts.csv" \
    && pass "export --accounts: $output" || fail "export --accounts" "$output $(head -3 "$work/accounts.csv")"
"$binary" export --database "$work/restored.sqlite" --accounts --format jsonl >"$work/accounts.jsonl"
[ "$(jq -s length "$work/accounts.jsonl")" = "$accounts" ] && [ "$(jq -r 'select(.email == "ada@example.com") | .hasPassword' "$work/accounts.jsonl")" = true ] \
    && ! grep -q 'otm1\|\$2[aby]\$' "$work/accounts.csv" "$work/accounts.jsonl" \
    && pass "accounts as JSON lines; no password hash in either file" || fail "accounts export" "$(head -c 400 "$work/accounts.jsonl")"
check_refusal "accounts have no GeoJSON" "accounts have no place on a map" "$binary" export --database "$work/restored.sqlite" --accounts --format geojson

# Import: each export read back into an empty database gives the same rows; a Parse export too; a
# file with bad rows names each by line and imports nothing.
fields="SELECT object_id, unique_key, first_name, last_name, map_string, media_url, latitude, longitude, created_at, updated_at FROM student_locations ORDER BY object_id"
source_rows="$(sqlite3 "$work/restored.sqlite" "$fields")"
for format in geojson csv jsonl; do
    output="$("$binary" import --database "$work/imported-$format.sqlite" "$work/map.$format" 2>&1)" || fail "import $format" "$output"
    [ "$(sqlite3 "$work/imported-$format.sqlite" "$fields")" = "$source_rows" ] \
        && pass "export → import ($format) gives the same rows: $output" \
        || fail "import $format: rows differ" "$(diff <(echo "$source_rows") <(sqlite3 "$work/imported-$format.sqlite" "$fields") | head -5)"
done
# Into a database with the writers' accounts but no pins: each pin goes back to its account.
"$binary" restore --database "$work/accounts-only.sqlite" "$work/backup.sqlite" >/dev/null 2>&1
sqlite3 "$work/accounts-only.sqlite" "DELETE FROM student_locations"
output="$("$binary" import --database "$work/accounts-only.sqlite" "$work/map.jsonl" 2>&1)"
[ "$(sqlite3 "$work/accounts-only.sqlite" "SELECT COUNT(*) FROM student_locations WHERE owner_key = unique_key")" = "$writers" ] \
    && grep -q "$writers linked to their accounts" <<<"$output" \
    && pass "imported pins go back to their accounts: $output" || fail "owners on import" "$output"
check_refusal "import of objectIds the database holds" "already holds $expected of these objectIds" \
    "$binary" import --database "$work/imported-csv.sqlite" "$work/map.jsonl"
cat >"$work/parse.json" <<'JSON'
{"results": [
  {"objectId": "kj18GEaWD8", "uniqueKey": "1234", "firstName": "Jarrod", "lastName": "Parkes", "mapString": "Cupertino, CA",
   "mediaURL": "https://udacity.com", "latitude": 37.322998, "longitude": -122.032182,
   "createdAt": "2015-02-24T22:27:14.456Z", "updatedAt": "2015-03-11T02:48:18.321Z", "ACL": {"*": {"read": true}}},
  {"objectId": "8ZExGR5uX8", "uniqueKey": "5678", "firstName": "Gabrielle", "lastName": "Miller-Messner", "mapString": "Ireland",
   "mediaURL": "www.linkedin.com/in/gabriellemiller", "latitude": 53.3498, "longitude": -6.2603,
   "createdAt": {"__type": "Date", "iso": "2015-02-24T22:35:30.639Z"}, "updatedAt": "2015-03-10T17:20:31.828Z"}
]}
JSON
output="$("$binary" import --database "$work/parse.sqlite" "$work/parse.json" 2>&1)" \
    && [ "$(sqlite3 -separator ' ' "$work/parse.sqlite" "SELECT object_id, media_url, created_at FROM student_locations ORDER BY created_at")" \
         = "$(printf 'kj18GEaWD8 https://udacity.com 1424816834456\n8ZExGR5uX8 https://www.linkedin.com/in/gabriellemiller 1424817330639')" ] \
    && pass "a Parse export imports, objectIds and dates kept, links normalized as the API does: $output" || fail "Parse import" "$output"
printf '%s\r\n' "objectId,uniqueKey,firstName,lastName,mapString,mediaURL,latitude,longitude,createdAt,updatedAt" \
    ",k1,Ok,Row,Lima,https://example.com,-12.05,-77.04,," \
    ",k2,Bad,Latitude,Quito,https://example.com,north,-78.5,," \
    ",k3,Bad,Link,Bogotá,javascript:alert(1),4.7,-74.07,," \
    ",k4,No,Place,,https://example.com,1,2,," >"$work/bad.csv"
before_bad="$(sqlite3 "$work/parse.sqlite" "SELECT COUNT(*) FROM student_locations")"
if output="$("$binary" import --database "$work/parse.sqlite" "$work/bad.csv" 2>&1)"; then
    fail "a file with bad rows was imported" "$output"
elif grep -q "line 3: latitude must be a number" <<<"$output" && grep -q "line 4: mediaURL must be an http or https link" <<<"$output" \
    && grep -q "line 5: mapString" <<<"$output" && ! grep -q "line 2" <<<"$output" \
    && [ "$(sqlite3 "$work/parse.sqlite" "SELECT COUNT(*) FROM student_locations")" = "$before_bad" ]; then
    pass "bad rows are each named by line, and nothing is imported"
else
    fail "bad rows" "$output"
fi

# PostgreSQL: pg_dump under load, restored with pg_restore; a SQLite backup restores into PostgreSQL too.
postgres_dir="$work/postgres"
if url="$("$scripts/postgres-test.sh" start "$postgres_dir")"; then
    live="$url"
    restored="${url%/onthemap}/restored"
    # A second database to restore into (the cluster trusts local connections; postgres may create it).
    superuser="$(sed -E 's#//[^@]*@#//postgres@#; s#/onthemap$#/postgres#' <<<"$url")"
    psql -q "$superuser" -c "CREATE DATABASE restored OWNER onthemap" >/dev/null
    under_load postgres "$live" "$work/backup.pgdump" "$restored"
    every_acknowledged_write postgres "$restored"
    check_refusal "postgres: a pg_dump backup does not restore into SQLite" "restore it into a postgres://" \
        "$binary" restore --database "$work/y.sqlite" "$work/backup.pgdump"
    check_refusal "postgres: restore refuses a database with data" "not empty.*--replace" "$binary" restore --database "$restored" "$work/backup.pgdump"
    output="$("$binary" restore --replace --database "$restored" "$work/backup.sqlite" 2>&1)" \
        && pass "a SQLite backup restores into PostgreSQL" || fail "SQLite backup into PostgreSQL" "$output"
    held="$(psql -At "$restored" -c "SELECT COUNT(*) FROM student_locations")"
    [ "$("$binary" export --database "$restored" --format jsonl | jq -s length)" = "$held" ] \
        && pass "postgres: export of its $held locations" || fail "postgres: export"
    output="$("$binary" import --database "$restored" "$work/parse.json" 2>&1)" \
        && [ "$(psql -At "$restored" -c "SELECT COUNT(*) FROM student_locations")" = "$((held + 2))" ] \
        && pass "postgres: import" || fail "postgres: import" "$output"
else
    fail "PostgreSQL did not start"
fi

echo "backup: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
