#!/usr/bin/env bash
# Drives the real `onthemap` binary: flags and environment variables, error messages and exit codes,
# the user subcommands, and the README's curl walkthrough word for word against a live server.
#   scripts/test/cli-test.sh path/to/onthemap
set -uo pipefail

binary="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
readme="$(cd "$(dirname "$0")/../.." && pwd)/README.md"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
source "$(dirname "$0")/test-helpers.sh"

cleanup() {
    for pid in "${server_pids[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT

# expect_failure NAME PATTERN CMD...: CMD must exit non-zero and print a line matching PATTERN.
expect_failure() {
    local name="$1" pattern="$2"; shift 2
    local output status
    output="$("$@" 2>&1 </dev/null)"; status=$?
    if [ "$status" -ne 0 ] && grep -qE -- "$pattern" <<<"$output"; then pass "$name"; else fail "$name (exit $status)" "$output"; fi
}

# expect_success NAME PATTERN CMD...: CMD must exit 0 and print a line matching PATTERN.
expect_success() {
    local name="$1" pattern="$2"; shift 2
    local output status
    output="$("$@" 2>&1)"; status=$?
    if [ "$status" -eq 0 ] && grep -qE -- "$pattern" <<<"$output"; then pass "$name"; else fail "$name (exit $status)" "$output"; fi
}

# stop_last_server: SIGTERM must shut the server down gracefully, with exit status 0.
stop_last_server() {
    local pid="${server_pids[-1]}" status
    kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; status=$?
    unset 'server_pids[-1]'
    [ "$status" -eq 0 ] && pass "SIGTERM stops the server cleanly" || fail "SIGTERM stops the server cleanly (exit $status)"
}

cd "$work"
echo "onthemap CLI tests"

expect_success "--help lists the subcommands" "serve.*|user" "$binary" --help
expect_success "course --help lists its subcommands" "invite.*|members" "$binary" course --help
expect_success "serve --help documents every flag" "--public-url" "$binary" serve --help
# The README's configuration table is what `onthemap settings` prints from the settings' one declaration.
readme_table="$(awk '/^\| flag \| variable \| default \| meaning \|$/ { on = 1 } on && /^$/ { exit } on' "$readme")"
if [ -n "$readme_table" ] && diff <("$binary" settings) <(cat <<<"$readme_table") >"$work/settings.diff"; then
    pass "the README's configuration table is the settings' declaration (onthemap settings)"
else
    fail "the README's configuration table differs from onthemap settings: paste its output into README.md" "$(cat "$work/settings.diff")"
fi
expect_success "user add --help says the password comes from stdin" "standard input" "$binary" user add --help
expect_failure "a bad --port is refused with a clear error" "--port must be a port number" "$binary" serve --port abc
expect_failure "a bad ONTHEMAP_WRITES names the variable" "ONTHEMAP_WRITES must be accounts or open" env ONTHEMAP_WRITES=maybe "$binary" serve
expect_failure "a bad --public-url is refused" "--public-url must be an origin" "$binary" serve --public-url "ftp://x"
expect_failure "a bad ONTHEMAP_SESSION_DAYS is refused" "ONTHEMAP_SESSION_DAYS must be a whole number of days" env ONTHEMAP_SESSION_DAYS=0 "$binary" serve
expect_failure "a bad --geocoder-upstream is refused" "--geocoder-upstream must be an http or https URL" "$binary" serve --geocoder-upstream ftp://example.org
expect_failure "--tiles-url needs --tiles-attribution" "needs its partner" "$binary" serve --tiles-url "https://tile.example.org/{z}/{x}/{y}.png"
expect_failure "a tiles URL without {z}/{x}/{y} is refused" "--tiles-url must be an http.s. URL template" "$binary" serve --tiles-url "https://tile.example.org/tile.png" --tiles-attribution "© Example"
expect_failure "a missing Leaflet names the Debian packages" "install Debian's libjs-leaflet" "$binary" serve --leaflet-dir "$work/no-leaflet" --database "$work/leaflet.sqlite" --port 0
expect_failure "a bad --database-readers is refused" "--database-readers must be a whole number from 1 to 64" "$binary" serve --database-readers 0
expect_failure "a bad ONTHEMAP_READ_BUDGET_MS names the variable" "ONTHEMAP_READ_BUDGET_MS must be a whole number of milliseconds" env ONTHEMAP_READ_BUDGET_MS=soon "$binary" serve
expect_failure "a bad --expensive-queries is refused" "--expensive-queries must be a whole number from 1 to 64" "$binary" serve --expensive-queries 0
expect_failure "a bad ONTHEMAP_WRITE_QUEUE names the variable" "ONTHEMAP_WRITE_QUEUE must be a whole number" env ONTHEMAP_WRITE_QUEUE=lots "$binary" serve

# The server's secret: created beside the SQLite file, readable by its owner only, kept
# across starts; a database served with another secret is refused until --adopt-secret.
mkdir -p "$work/secret"
secret_file="$work/secret/onthemap.secret"
start_server "$work/secret/first.log" --database "$work/secret/map.sqlite" && stop_last_server
first_secret="$(cat "$secret_file" 2>/dev/null)"
[ "$(stat -c %a "$secret_file" 2>/dev/null)" = 600 ] && [ "${#first_secret}" -ge 64 ] \
    && pass "a new server makes its secret file beside the database, readable by its owner only" \
    || fail "the secret file beside the database" "$(ls -l "$work/secret")"
start_server "$work/secret/again.log" --database "$work/secret/map.sqlite" && stop_last_server
[ "$(cat "$secret_file")" = "$first_secret" ] && pass "the secret is kept across starts" || fail "the secret changed on a restart"
python3 -c 'import secrets; print(secrets.token_hex(32))' >"$work/secret/other"
expect_failure "a database served with another secret is refused, saying what to do" "same secret file.*--adopt-secret|--adopt-secret" \
    "$binary" serve --port 0 --database "$work/secret/map.sqlite" --secret-file "$work/secret/other"
start_server "$work/secret/adopt.log" --database "$work/secret/map.sqlite" --secret-file "$work/secret/other" --adopt-secret && stop_last_server
start_server "$work/secret/adopted.log" --database "$work/secret/map.sqlite" --secret-file "$work/secret/other" \
    && pass "--adopt-secret makes another secret the database's own" && stop_last_server
echo "short" >"$work/secret/short"
expect_failure "a secret file of fewer than 32 characters is refused" "at least 32 characters" \
    "$binary" serve --port 0 --database "$work/secret/map.sqlite" --secret-file "$work/secret/short"
expect_failure "an unwritable secret path names the flag" "give a writable path with --secret-file" \
    env ONTHEMAP_SECRET_FILE=/proc/onthemap.secret "$binary" serve --port 0 --database "$work/secret/map.sqlite"
expect_failure "a bad --max-skip is refused" "--max-skip must be a whole number" "$binary" serve --max-skip many
expect_failure "a bad --signup-limit is refused" "--signup-limit must be a whole number" "$binary" serve --signup-limit 0
expect_failure "a bad ONTHEMAP_LOGIN_FAILURE_LIMIT is refused" "ONTHEMAP_LOGIN_FAILURE_LIMIT must be a whole number" env ONTHEMAP_LOGIN_FAILURE_LIMIT=many "$binary" serve
expect_failure "a bad --log-format is refused" "--log-format must be text or json" "$binary" serve --log-format xml
expect_failure "an unknown flag is refused" "Unknown option" "$binary" serve --colour
expect_failure "a database in a missing folder is refused" "cannot open database .*does not exist" "$binary" serve --database "$work/missing/db.sqlite"
printf 'this is not a database, just text that is long enough to fill a page header' >"$work/garbage.sqlite"
expect_failure "a file that is not a database is refused" "cannot open database" "$binary" serve --database "$work/garbage.sqlite"

# The offline geocoder, with no server and no database.
expect_success "geocode prints the best answer for a person" "Paris, TX → Paris, Texas, United States .* city" "$binary" geocode "Paris, TX"
expect_success "geocode says when nothing matches" "asdf → no match" "$binary" geocode asdf
expect_failure "geocode needs a query" "at least one query" "$binary" geocode
printf 'Seattle, WA\n\n  Paris  \nasdf\nnear Toronto\n' | "$binary" geocode --jsonl >"$work/geo.jsonl" 2>"$work/geo.err"
if [ "$(wc -l <"$work/geo.jsonl")" -eq 5 ] \
    && [ "$(jq -r '.result.name' <(sed -n 1p "$work/geo.jsonl"))" = "Seattle, Washington, United States" ] \
    && [ "$(sed -n 2p "$work/geo.jsonl")" = '{"doubts":[],"query":"","result":null}' ] \
    && [ "$(jq -r '.query' <(sed -n 3p "$work/geo.jsonl"))" = "  Paris  " ] \
    && [ "$(jq -c '.result' <(sed -n 4p "$work/geo.jsonl"))" = "null" ] \
    && [ "$(jq -c '.doubts' <(sed -n 5p "$work/geo.jsonl"))" = '["context"]' ]; then
    pass "geocode --jsonl keeps every line as written, empty ones included, and says why an answer is less sure"
else
    fail "geocode --jsonl" "$(cat "$work/geo.jsonl" "$work/geo.err")"
fi

# Users.
echo "secret-password-1" | "$binary" user add --email Ada@Example.com --first Ada --last Lovelace --database "$work/users.sqlite" >"$work/add.out" 2>&1 \
    && grep -q "Added ada@example.com with key [0-9]\{10\}" "$work/add.out" && pass "user add reads the password from stdin" || fail "user add" "$(cat "$work/add.out")"
expect_failure "user add refuses a duplicate email" "already exists" bash -c "echo other-password | '$binary' user add --email ada@example.com --first A --last B --database '$work/users.sqlite'"
expect_failure "user add refuses a short password" "at least 8" bash -c "echo short | '$binary' user add --email b@example.com --first A --last B --database '$work/users.sqlite'"
expect_failure "user add refuses a common password" "most common passwords" bash -c "echo Password123 | '$binary' user add --email b@example.com --first A --last B --database '$work/users.sqlite'"
expect_failure "user add refuses a repetitive password, as sign-up does" "repeated or consecutive" bash -c "echo zzzzzzzzzzzz | '$binary' user add --email b@example.com --first A --last B --database '$work/users.sqlite'"
expect_failure "serve refuses metrics on its own port" "give metrics a port of their own" "$binary" serve --port 18999 --metrics-address 127.0.0.1:18999
echo "admin-password-1" | "$binary" user add --email root@example.com --first Root --last Admin --admin --database "$work/users.sqlite" >/dev/null 2>&1
expect_success "user list shows accounts and the admin flag" "root@example.com.*Root Admin.*yes" "$binary" user list --database "$work/users.sqlite"
expect_success "ONTHEMAP_DATABASE is read too" "ada@example.com" env ONTHEMAP_DATABASE="$work/users.sqlite" "$binary" user list
expect_failure "user remove needs --email or --key" "exactly one of --email or --key" "$binary" user remove --database "$work/users.sqlite"

# A live server on the users database: the CLI's account logs in.
start_server "$work/users.log" --database "$work/users.sqlite" || exit 1
ready=""
# The geocoder is optimized in debug builds too: it loads in about 2 s; allow a minute on a busy machine.
for _ in $(seq 1 600); do
    ready="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")"
    [ "$ready" = "200" ] && break
    sleep 0.1
done
[ "$ready" = "200" ] && pass "/readyz turns ready once the geocoder has loaded" || fail "/readyz after start: $ready"
grep -q "Web app: open http://127.0.0.1:$port/ in a browser" "$work/users.log" && pass "the log says where to open the web app" || fail "web app line in the log" "$(cat "$work/users.log")"
page="$(curl -s "http://127.0.0.1:$port/")"
grep -q "<title>On The Map</title>" <<<"$page" && pass "the web app is served at /" || fail "GET /" "$page"
geocoded="$(curl -s "http://127.0.0.1:$port/v1/geocode?q=M%C3%BCnchen")"
[ "$(jq -r '.results[0].name' <<<"$geocoded")" = "Munich, Bavaria, Germany" ] && pass "/v1/geocode answers on a live server" || fail "/v1/geocode" "$geocoded"
login="$(curl -s -X POST "http://127.0.0.1:$port/v1/session" -d '{"udacity": {"username": "ada@example.com", "password": "secret-password-1"}}')"
grep -q '"registered":true' <<<"$login" && pass "an account added by the CLI logs in over HTTP" || fail "CLI account login" "$login"
token="$(grep -oE '[0-9a-f]{64}' <<<"$login" | head -1)"
curl -s -o /dev/null "http://127.0.0.1:$port/v1/users/$token"
curl -s -o /dev/null -H "Authorization: Bearer $token" "http://127.0.0.1:$port/v1/me"
sleep 0.2
grep -q '/v1/users/\[redacted\]' "$work/users.log" && [ -n "$token" ] && ! grep -q "$token" "$work/users.log" \
    && pass "the request log names no session id" || fail "session id in the log" "$(grep -c "$token" "$work/users.log")"

# Courses, made by the operator's CLI beside the live server, which serves them at /c/{slug}/ at once.
courses=(--database "$work/users.sqlite")
expect_success "course add makes a course taught by an account" "Added course cs101-spring \(CS 101, spring\), taught by ada@example.com" \
    "$binary" course add --slug cs101-spring --title "CS 101, spring" --instructor Ada@Example.com "${courses[@]}"
expect_failure "course add refuses a slug that is not one" "2 to 48 lower-case letters" "$binary" course add --slug CS_101 --title T --instructor ada@example.com "${courses[@]}"
expect_failure "course add refuses a slug taken" "Another course already has this address" "$binary" course add --slug cs101-spring --title T --instructor ada@example.com "${courses[@]}"
expect_failure "course add needs an existing instructor" "no account with email nobody@example.com" "$binary" course add --slug art --title T --instructor nobody@example.com "${courses[@]}"
expect_success "course list shows the default course and the new one" "cs101-spring.CS 101, spring.members.open" "$binary" course list "${courses[@]}"
printf 'Root Admin <ROOT@example.com>\nLovelace; Ada; ada@example.com\nnew@example.com\nno address on this line\n' \
    | "$binary" course members cs101-spring --add - "${courses[@]}" >"$work/members.out" 2>&1
grep -q "Added root@example.com as student" "$work/members.out" && grep -q "ada@example.com was a member" "$work/members.out" \
    && grep -q "new@example.com has no account yet" "$work/members.out" && grep -q "Skipped (no email): no address on this line" "$work/members.out" \
    && pass "course members --add reads a pasted class list" || fail "course members --add" "$(cat "$work/members.out")"
expect_success "course members lists the roster and who waits for an account" "new@example.com.*waiting for an account" "$binary" course members cs101-spring "${courses[@]}"
expect_failure "the last instructor cannot be removed" "keeps at least one instructor" "$binary" course members cs101-spring --remove ada@example.com "${courses[@]}"
expect_failure "the default course is never archived" "cannot be archived" "$binary" course archive default "${courses[@]}"
expect_failure "an unknown course is named as such" "No course has this address" "$binary" course show nope "${courses[@]}"
first_link="$("$binary" course invite cs101-spring --on --public-url https://map.example.org "${courses[@]}")"
grep -qE '^Invite link \(on\): https://map.example.org/c/cs101-spring/join/[A-Za-z0-9_-]{22}$' <<<"$first_link" \
    && [ "$("$binary" course invite cs101-spring --public-url https://map.example.org "${courses[@]}")" = "$first_link" ] \
    && pass "course invite prints the same link each time" || fail "course invite" "$first_link"
[ "$("$binary" course invite cs101-spring --new --public-url https://map.example.org "${courses[@]}")" != "$first_link" ] \
    && pass "course invite --new replaces the link" || fail "course invite --new"
openssl rand -hex 32 >"$work/other.secret"
expect_failure "course invite needs the servers' secret" "served with another secret file" \
    "$binary" course invite cs101-spring --secret-file "$work/other.secret" "${courses[@]}"
expect_failure "course invite names a missing secret file" "no secret file at .*start the server once" \
    "$binary" course invite cs101-spring --secret-file "$work/missing.secret" "${courses[@]}"
expect_success "course show sums the course up" "invite link:  on" "$binary" course show cs101-spring "${courses[@]}"

# LTI 1.3: a platform registered from the shell, and the tool's keys, which the live server publishes.
moodle=(--issuer https://moodle.example.edu --client-id abc --authorization-url https://moodle.example.edu/mod/lti/auth.php
        --token-url https://moodle.example.edu/mod/lti/token.php)
expect_success "lti values prints what a platform asks of the tool" "Login initiation URL.*https://map.example.org/lti/login" \
    "$binary" lti values --public-url https://map.example.org
expect_success "lti platform add registers a platform" "Registered platform [0-9]+: Moodle" \
    "$binary" lti platform add --name Moodle "${moodle[@]}" --deployment 1 --jwks-url https://moodle.example.edu/mod/lti/certs.php "${courses[@]}"
expect_failure "lti platform add refuses plain http to another machine" "--jwks-url must be an https URL" \
    "$binary" lti platform add "${moodle[@]}" --client-id other --deployment 1 --jwks-url http://moodle.example.edu/certs "${courses[@]}"
expect_failure "lti platform add refuses a second registration of one client id" "registered with client id abc already" \
    "$binary" lti platform add "${moodle[@]}" --deployment 1 --jwks-url https://moodle.example.edu/mod/lti/certs.php "${courses[@]}"
expect_success "lti platform list lists it" "Moodle.https://moodle.example.edu.abc.1" "$binary" lti platform list "${courses[@]}"
expect_success "lti keys --rotate makes a new key sign" "signs from now on" "$binary" lti keys --rotate "${courses[@]}"
[ "$(curl -s "http://127.0.0.1:$port/lti/jwks" | jq '.keys | length')" = 2 ] \
    && pass "the server publishes the new key and the one it retired" || fail "lti keys published" "$(curl -s "http://127.0.0.1:$port/lti/jwks")"
expect_failure "lti keys needs the servers' secret" "cannot be opened with this server's secret" \
    "$binary" lti keys --secret-file "$work/other.secret" "${courses[@]}"
platform="$("$binary" lti platform list "${courses[@]}" | awk -F '\t' 'NR == 2 { print $1 }')"
expect_success "lti platform remove removes it" "Removed platform $platform." "$binary" lti platform remove "$platform" "${courses[@]}"
posted="$(curl -s -X POST -H "Authorization: Bearer $token" "http://127.0.0.1:$port/c/cs101-spring/v1/StudentLocation" \
    -d '{"mapString": "Lima, Peru", "mediaURL": "https://example.com", "latitude": -12.05, "longitude": -77.04}')"
listed="$(curl -s -H "Authorization: Bearer $token" "http://127.0.0.1:$port/c/cs101-spring/v1/StudentLocation")"
[ "$(jq -r '.results[0].mapString' <<<"$listed")" = "Lima, Peru" ] && [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/c/cs101-spring/v1/StudentLocation")" = "401" ] \
    && pass "the live server serves the course the CLI made, to its members" || fail "a CLI course on the live server" "$posted $listed"
expect_success "course members shows who has posted" "ada@example.com.*instructor.*[0-9]{4}-[0-9]{2}-[0-9]{2}T.*[0-9]{4}-[0-9]{2}-[0-9]{2}T" "$binary" course members cs101-spring "${courses[@]}"
"$binary" export --course cs101-spring --format jsonl "${courses[@]}" >"$work/course.jsonl" 2>&1
[ "$(wc -l <"$work/course.jsonl")" -eq 1 ] && grep -q "Lima, Peru" "$work/course.jsonl" \
    && pass "export --course writes that course's pins only" || fail "export --course" "$(cat "$work/course.jsonl")"
expect_failure "export names a course that is not there" "no course has the slug nope" "$binary" export --course nope "${courses[@]}"
expect_failure "import names a course that is not there, and imports nothing" "no course has the slug nope" \
    "$binary" import --course nope "$work/course.jsonl" "${courses[@]}"
"$binary" export --course cs101-spring --output "$work/course.geojson" "${courses[@]}" >/dev/null 2>&1
expect_failure "a GeoJSON export names its course: imported into another course, nothing is" "is the map of the course cs101-spring, not of default" \
    "$binary" import "$work/course.geojson" "${courses[@]}"
expect_failure "--any-course puts it into another course all the same (here refused for its objectIds, which are taken)" "already holds 1 of these objectIds" \
    "$binary" import --any-course "$work/course.geojson" "${courses[@]}"
expect_success "course archive makes the map read-only" "archived: its map is read-only" "$binary" course archive cs101-spring "${courses[@]}"
expect_failure "course delete needs the slug confirmed" "confirm by giving its address" "$binary" course delete cs101-spring --confirm cs101 "${courses[@]}"
expect_success "course delete deletes the course with its pins" "Deleted course cs101-spring" "$binary" course delete cs101-spring --confirm cs101-spring "${courses[@]}"
# Another process's change reaches the server within the 5 s it remembers a course for.
gone=""
for _ in $(seq 1 100); do
    gone="$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "http://127.0.0.1:$port/c/cs101-spring/v1/StudentLocation")"
    [ "$gone" = "404" ] && break
    sleep 0.1
done
[ "$gone" = "404" ] && pass "the live server stops serving a course the CLI deleted within seconds" || fail "a deleted course on the live server: $gone"
expect_failure "a port in use is refused with a clear error" "already in use" "$binary" serve --port "$port" --database "$work/other.sqlite"
stop_last_server
expect_success "user remove deletes the account" "Removed ada@example.com" "$binary" user remove --email ada@example.com --database "$work/users.sqlite"
expect_failure "user remove of a missing account fails" "no account with email" "$binary" user remove --email ada@example.com --database "$work/users.sqlite"

# --log-format json: every line a JSON object; a request's line has its method, redacted path,
# status and time, and nothing that grants access.
ONTHEMAP_LOG_FORMAT=json start_server "$work/json.log" --database "$work/json.sqlite" || exit 1
curl -s -o /dev/null "http://127.0.0.1:$port/v1/users/0123456789abcdef0123456789abcdef"
curl -s -o /dev/null "http://127.0.0.1:$port/v1/StudentLocation"
stop_last_server
if ! jq -e . "$work/json.log" >/dev/null 2>&1; then
    fail "--log-format json: a line is not JSON" "$(head -5 "$work/json.log")"
elif [ "$(jq -r 'select(.message == "Request" and .["hb.request.path"] == "/v1/StudentLocation") | [.level, .["hb.request.method"], .status, (.ms | tonumber >= 0), (.time | test("^20..-..-..T..:..:..[.]...Z$"))] | map(tostring) | join(" ")' "$work/json.log")" = "info GET 200 true true" ] \
    && jq -s -e 'any(.[]; .message == "Request" and (.["hb.request.path"] | startswith("/v1/users/[redacted]")))' "$work/json.log" >/dev/null \
    && ! grep -q 0123456789abcdef0123456789abcdef "$work/json.log"; then
    pass "--log-format json writes one JSON object a line, requests with method, redacted path, status and ms"
else
    fail "--log-format json request lines" "$(grep Request "$work/json.log" | head -3)"
fi

# Environment variables configure serve; open mode warns at start.
ONTHEMAP_WRITES=open ONTHEMAP_SESSION_DAYS=2 start_server "$work/open.log" --database "$work/open.sqlite" || exit 1
grep -q "Write mode is OPEN" "$work/open.log" && pass "open mode logs a warning at start" || fail "open mode warning" "$(cat "$work/open.log")"
login="$(curl -s -X POST "http://127.0.0.1:$port/v1/accounts" -d '{"email": "e@example.com", "password": "password-e", "firstName": "E", "lastName": "F"}')"
expires="$(jq -r .session.expiration <<<"$login")"
[[ "$expires" == "$(date -u -d '+2 days' +%Y-%m-%d)"* ]] && pass "ONTHEMAP_SESSION_DAYS sets the session lifetime" || fail "session lifetime from env: $expires"
anonymous="$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/v1/StudentLocation" \
    -d '{"uniqueKey": "1", "firstName": "A", "lastName": "B", "mapString": "Oslo", "mediaURL": "https://example.com", "latitude": 59.9, "longitude": 10.7}')"
[ "$anonymous" = "200" ] && pass "ONTHEMAP_WRITES=open lets an anonymous client post" || fail "anonymous post in open mode: $anonymous"
# The live map: a post through HTTP and a deletion by the CLI (another process) reach an open
# stream, and SIGTERM ends the stream rather than waiting for it.
curl -sN --max-time 60 "http://127.0.0.1:$port/v1/StudentLocation/events" >"$work/stream.txt" & stream_pid=$!
sleep 0.5
token="$(jq -r .session.id <<<"$login")"
curl -s -o /dev/null -X POST "http://127.0.0.1:$port/v1/StudentLocation" -H "Authorization: Bearer $token" \
    -d '{"mapString": "Bergen", "mediaURL": "https://example.com", "latitude": 60.4, "longitude": 5.3}'
"$binary" user remove --email e@example.com --database "$work/open.sqlite" >/dev/null 2>&1
for _ in $(seq 1 50); do grep -q "event: deleted" "$work/stream.txt" && break; sleep 0.1; done
grep -q '"mapString":"Bergen"' "$work/stream.txt" && grep -q "event: deleted" "$work/stream.txt" \
    && pass "the live stream shows a post and a deletion made by the CLI" || fail "live stream" "$(cat "$work/stream.txt")"
started="$(date +%s%N)"
stop_last_server
wait "$stream_pid"; stream_status=$?
elapsed_ms=$(( ($(date +%s%N) - started) / 1000000 ))
[ "$stream_status" -eq 0 ] && [ "$elapsed_ms" -lt 5000 ] && pass "SIGTERM ends open live streams at once (${elapsed_ms} ms)" \
    || fail "live stream at shutdown: curl exit $stream_status after ${elapsed_ms} ms"
[ -s "$work/open.sqlite" ] && pass "the SQLite file is written" || fail "the SQLite file is written"

# Crashes mid-write are tested by scripts/test/crash-test.sh.

# The README walkthrough, word for word, against a fresh server; only the port differs.
start_server "$work/walkthrough.log" --database "$work/walkthrough.sqlite" || exit 1
awk '/<!-- walkthrough:start -->/{on=1; next} /<!-- walkthrough:end -->/{on=0} on && !/^```/' "$readme" \
    | sed "s#http://127.0.0.1:8080#http://127.0.0.1:$port#g" >"$work/walkthrough.sh"
if [ "$(grep -c curl "$work/walkthrough.sh")" -lt 6 ]; then
    fail "the README walkthrough was found" "$(cat "$work/walkthrough.sh")"
elif (cd "$work" && bash -euo pipefail "$work/walkthrough.sh") >"$work/walkthrough.out" 2>&1; then
    pass "the README walkthrough runs as written"
else
    fail "the README walkthrough runs as written" "$(tail -20 "$work/walkthrough.out")"
fi
stop_last_server

source "$here/client-cli-test.sh"

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
