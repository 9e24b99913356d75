#!/usr/bin/env bash
# /metrics on the real binary, on both engines: the metrics listener is separate from
# the public one, its text passes promtool's checks and the Prometheus client's parser, and its
# counters move with the requests made here (scripts/test/metrics/check_scrape.py). Also the five alerts
# of deploy/prometheus, checked and unit-tested with promtool.
#   scripts/test/metrics-test.sh path/to/onthemap
set -uo pipefail

binary="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
work="$(mktemp -d)"
chmod 755 "$work"
scripts="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$scripts/../.." && pwd)"
source "$scripts/test-helpers.sh"
postgres_dir=""
trap stop_everything EXIT

# api METHOD PATH [BODY]: the status of one request to the public port, with the student's cookies.
api() {
    curl -s -o "$work/body" -w '%{http_code}' -b "$work/jar" -c "$work/jar" -X "$1" "http://127.0.0.1:$port$2" ${3:+-d "$3"}
}

# live_streams: the gauge's value now.
live_streams() {
    curl -s "http://127.0.0.1:$metrics_port/metrics" | awk '$1 == "onthemap_live_streams" { print $2 }'
}

# idempotency_keys: the gauge's value now.
idempotency_keys() {
    curl -s "http://127.0.0.1:$metrics_port/metrics" | awk '$1 == "onthemap_idempotency_keys" { print $2 }'
}

# exercise ENGINE DATABASE: one server with metrics on, requests of every kind, two scrapes checked.
exercise() {
    local engine="$1" database="$2"
    metrics_port="$(free_port)"
    start_server "$work/server-$engine.log" --database "$database" --metrics-address "127.0.0.1:$metrics_port" \
        --login-failure-limit 3 || return 1
    # start_server reads the first "listening on" line, which may be the metrics listener's.
    for _ in $(seq 1 100); do
        port="$(grep -oE 'listening on 127\.0\.0\.1:[0-9]+' "$work/server-$engine.log" | grep -oE '[0-9]+$' | grep -vx "$metrics_port" | head -1)"
        [ -n "$port" ] && break; sleep 0.05
    done
    curl -s "http://127.0.0.1:$metrics_port/metrics" >"$work/before"
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics")" = 404 ] \
        && pass "$engine: /metrics is not served on the public address" || fail "$engine: /metrics answered on the public address"
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$metrics_port/v1/StudentLocation")" = 404 ] \
        && pass "$engine: the metrics address serves nothing else" || fail "$engine: the metrics address serves the API"

    api POST /v1/accounts '{"email": "metrics@example.com", "password": "metrics-password-1", "firstName": "M", "lastName": "T"}' >/dev/null
    api POST /v1/session '{"udacity": {"username": "metrics@example.com", "password": "metrics-password-1"}}' >/dev/null
    local n
    # Three wrong passwords, then the throttle (--login-failure-limit 3) refuses the fourth.
    for n in 1 2 3 4; do
        curl -s -o /dev/null -X POST "http://127.0.0.1:$port/v1/session" -d '{"udacity": {"username": "metrics@example.com", "password": "wrong"}}'
    done
    api POST /v1/StudentLocation '{"mapString": "Lyon, France", "mediaURL": "https://example.com", "latitude": 45.75, "longitude": 4.85}' >/dev/null
    local object_id
    object_id="$(jq -r .objectId "$work/body")"
    api GET "/v1/StudentLocation/$object_id" >/dev/null
    for n in 1 2 3; do api GET /v1/StudentLocation >/dev/null; done
    for n in 1 2; do api GET /parse/classes/StudentLocation >/dev/null; done
    api GET /no-such-page >/dev/null
    # The geocoder loads in the background: seconds on a busy machine. Wait for it, then ask.
    for _ in $(seq 1 600); do [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")" = 200 ] && break; sleep 0.1; done
    api GET '/v1/geocode?q=Lyon' >/dev/null

    # A live stream open: the gauge says 1; closed: back to 0.
    curl -s -N "http://127.0.0.1:$port/v1/StudentLocation/events" >/dev/null &
    local stream=$!
    local open=""
    for _ in $(seq 1 50); do open="$(live_streams)"; [ "$open" = "1.0" ] && break; sleep 0.1; done
    kill "$stream" 2>/dev/null; wait "$stream" 2>/dev/null
    local closed=""
    for _ in $(seq 1 100); do closed="$(live_streams)"; [ "$closed" = "0.0" ] && break; sleep 0.1; done
    [ "$open" = "1.0" ] && [ "$closed" = "0.0" ] && pass "$engine: live streams gauge: 1 while a stream is open, 0 after" \
        || fail "$engine: live streams gauge: $open while open, $closed after"

    # A write kept under its Idempotency-Key shows in the table's gauge (sampled every 10 s).
    local keys_before keys_after=""
    keys_before="$(idempotency_keys)"
    curl -s -o /dev/null -b "$work/jar" -H "Idempotency-Key: metrics-$engine" -X POST "http://127.0.0.1:$port/v1/StudentLocation" \
        -d '{"mapString": "Lyon, France", "mediaURL": "https://example.com", "latitude": 45.75, "longitude": 4.85}'
    for _ in $(seq 1 150); do keys_after="$(idempotency_keys)"; [ "$keys_after" = "1.0" ] && break; sleep 0.1; done
    [ "$keys_before" = "0.0" ] && [ "$keys_after" = "1.0" ] && pass "$engine: idempotency keys gauge: 0, then 1 after a keyed write" \
        || fail "$engine: idempotency keys gauge: $keys_before before a keyed write, $keys_after after"

    curl -s "http://127.0.0.1:$metrics_port/metrics" >"$work/after"
    local output
    if output="$(promtool check metrics <"$work/after" 2>&1)"; then pass "$engine: promtool check metrics finds nothing to fix"
    else fail "$engine: promtool check metrics" "$output"; fi
    /usr/bin/python3 "$root/scripts/test/metrics/check_scrape.py" "$engine" "$work/before" "$work/after" && passed=$((passed + 1)) || failed=$((failed + 1))
    # Every metric the alerts use is one the server exports.
    local missing=""
    for name in $(grep -oE 'onthemap_[a-z_]+' "$root/deploy/prometheus/alerts.yml" | sort -u); do
        grep -q "^$name" "$work/after" || missing+=" $name"
    done
    [ -z "$missing" ] && pass "$engine: every metric the alerts use is exported" || fail "$engine: alerts use metrics never exported:$missing"
    kill -TERM "${server_pids[-1]}"; wait "${server_pids[-1]}" 2>/dev/null; unset 'server_pids[-1]'
}

echo "Alerts (deploy/prometheus):"
output="$(promtool check rules "$root/deploy/prometheus/alerts.yml" 2>&1)" && grep -q "SUCCESS: 5 rules found" <<<"$output" \
    && pass "promtool check rules: the five alerts" || fail "promtool check rules" "$output"
output="$(cd "$root/deploy/prometheus" && promtool test rules alerts-test.yml 2>&1)" \
    && pass "promtool test rules: each alert fires when it should and not on a healthy instance" || fail "promtool test rules" "$output"
output="$(promtool check config "$root/deploy/prometheus/prometheus.yml" 2>&1)" \
    && pass "promtool check config: the example scrape configuration" || fail "promtool check config" "$output"

on_both_engines exercise

"$binary" serve --metrics-address "no-port" >"$work/bad" 2>&1 && fail "a bad --metrics-address was accepted" \
    || { grep -q "metrics-address must be host:port" "$work/bad" && pass "a bad --metrics-address is refused with what to write" \
        || fail "bad --metrics-address message" "$(cat "$work/bad")"; }

echo "metrics-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
