#!/usr/bin/env bash
# Schemathesis against a live server, from the OpenAPI description it serves at /openapi.json:
# no 5xx, no answer outside the description, no request that hangs. Then the hostile JSON corpus:
# the worst body of each shape at the body limit, refused in each family's shape for little CPU.
#   scripts/test/api-fuzz.sh path/to/onthemap [examples per operation]
# The Udacity family's bodies start with the 5-byte )]}' prefix, which no JSON schema can parse:
# those operations are checked for status codes and content types only.
set -euo pipefail
source "$(dirname "$0")/test-helpers.sh"

binary="$1"
examples="${2:-40}"
schemathesis="${SCHEMATHESIS:-$(cd "$(dirname "$0")/../.." && pwd)/.build/venv-test/bin/schemathesis}"
work="$(mktemp -d)"

trap 'for p in "${server_pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT

start_server "$work/server.log" --database "$work/fuzz.sqlite" --writes accounts || exit 1
base="http://127.0.0.1:$port"
# Fuzz the service as it runs, not while the gazetteer loads (503 then is expected, and described).
for _ in $(seq 1 600); do [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/readyz")" = 200 ] && break; sleep 0.1; done
# A student to act as: writes then reach validation and ownership, not only "log in first".
login="$(curl -s -X POST "$base/v1/accounts" -d '{"email": "fuzz@example.com", "password": "fuzzing all day", "firstName": "Fuzz", "lastName": "Tester"}')"
token="$(grep -oE '"id":"[0-9a-f]{64}"' <<<"$login" | cut -d'"' -f4)"
[ -n "$token" ] || { echo "sign-up failed: $login"; exit 1; }
curl -s -o /dev/null -X POST "$base/v1/StudentLocation" -H "Authorization: Bearer $token" \
    -d '{"mapString": "Oslo", "mediaURL": "https://example.com", "latitude": 59.9, "longitude": 10.7}'

status=0
# The worst JSON bodies of each shape at the body limit: each family's 400, little CPU.
# First, while the student's session lives (Schemathesis logs it out).
echo "hostile JSON bodies (scripts/test/hostile_json.py)"
python3 "$(dirname "$0")/hostile_json.py" "$base" "${server_pids[-1]}" "$token" || status=1

common=(--url "$base" --max-examples "$examples" --request-timeout 10 --seed 1 --generation-deterministic
        --phases examples,coverage,fuzzing -H "Authorization: Bearer $token" --suppress-health-check all)
udacity='^/(v1|api)/(session|users)'
# The live stream never ends by design: its tests are LiveEventsTests and cli-test.sh.
"$schemathesis" run "$base/openapi.json" "${common[@]}" --exclude-path-regex "$udacity|/events$" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
    || status=1
"$schemathesis" run "$base/openapi.json" "${common[@]}" --include-path-regex "$udacity" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance \
    || status=1
exit $status
