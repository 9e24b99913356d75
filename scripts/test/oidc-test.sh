#!/usr/bin/env bash
# Sign-in with OpenID Connect, on the real binary and both engines, against real
# providers run here (PyPI's oidc-provider-mock, scripts/test/oidc/providers.py): first sign-in makes the
# account, the next finds it, a password account links by verified email; a replayed state, a
# callback in another browser, another login's nonce, a token changed on its way, an expired token,
# an unverified email, a cancel, a provider down and a disabled account are each refused and
# explained (scripts/test/oidc/check_sign_in.py). Also what `serve` says about bad provider settings.
#   scripts/test/oidc-test.sh path/to/onthemap
set -uo pipefail

binary="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
work="$(mktemp -d)"
chmod 755 "$work"
scripts="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$scripts/../.." && pwd)"
source "$scripts/test-helpers.sh"
postgres_dir=""
trap stop_everything EXIT

start_python_service providers venv-oidc scripts/test/oidc/providers.py oidc-provider-mock || exit 1
python="$root/.build/venv-oidc/bin/python"
providers="$service_json"
provider_port() { jq -r ".$1" <<<"$providers"; }
echo "onthemap-secret" >"$work/client-secret"

# exercise ENGINE DATABASE: a server with four providers (one down), the checks, then stop it.
exercise() {
    local engine="$1" database="$2" port log="$work/server-$1.log"
    printf 'admin-password-1\n' | "$binary" user add --email admin@school.example --first Ada --last Admin --admin --database "$database" >/dev/null \
        || { fail "$engine: could not make the admin"; return; }
    port="$(free_port)"
    local issuer="http://127.0.0.1"
    "$binary" serve --port "$port" --database "$database" --public-url "http://127.0.0.1:$port" \
        --oidc-provider "id=school,name=School account,issuer=$issuer:$(provider_port school),client-id=onthemap,client-secret-file=$work/client-secret" \
        --oidc-provider "id=expired,name=Expired tokens,issuer=$issuer:$(provider_port expired),client-id=onthemap,client-secret=s" \
        --oidc-provider "id=tampered,name=Tampered tokens,issuer=$issuer:$(provider_port tampered),client-id=onthemap,client-secret=s" \
        --oidc-provider "id=down,name=Nobody home,issuer=$issuer:$(free_port),client-id=onthemap,client-secret=s" \
        >"$log" 2>&1 &
    server_pids+=("$!")
    for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.05; done
    "$python" "$root/scripts/test/oidc/check_sign_in.py" "$engine" "http://127.0.0.1:$port" "$providers" admin@school.example admin-password-1 \
        >"$work/checks" 2>&1
    local status=$?
    cat "$work/checks"
    passed=$((passed + $(grep -c '^  ok' "$work/checks")))
    failed=$((failed + $(grep -c '^  FAIL' "$work/checks")))
    # A check that crashed rather than failed (a traceback above) counts as one failure.
    [ "$status" -ne 0 ] && ! grep -q '^  FAIL' "$work/checks" && fail "$engine: the checks stopped" "$(tail -20 "$log")"
    grep -q 'reason=invalid-token.*Sign-in with a provider failed' "$log" && pass "$engine: refusals are logged with their reason" \
        || fail "$engine: no refusal in the server's log" "$(tail -5 "$log")"
    grep -q 'code=[A-Za-z0-9]' "$log" && fail "$engine: an authorization code reached the log" || pass "$engine: no authorization code in the log"
    kill -TERM "${server_pids[-1]}"; wait "${server_pids[-1]}" 2>/dev/null; unset 'server_pids[-1]'
}

on_both_engines exercise

echo "Settings:"
"$binary" serve --database "$work/x.sqlite" --oidc-provider "id=school,name=S,issuer=https://id.example.edu,client-id=c,client-secret=s" >"$work/bad" 2>&1 \
    && fail "a provider without --public-url was accepted" \
    || { grep -q "needs --public-url" "$work/bad" && pass "a provider without --public-url is refused, saying why" || fail "no-public-url message" "$(cat "$work/bad")"; }
"$binary" serve --database "$work/x.sqlite" --public-url https://map.example.org \
    --oidc-provider "id=School,name=S,issuer=https://id.example.edu,client-id=c,client-secret=s" >"$work/bad" 2>&1 \
    && fail "a provider id with capitals was accepted" \
    || { grep -q "id must be 1 to 32 of a-z" "$work/bad" && pass "a bad provider id is refused with what to write" || fail "bad id message" "$(cat "$work/bad")"; }
"$binary" serve --database "$work/x.sqlite" --public-url https://map.example.org \
    --oidc-provider "id=school,name=S,issuer=http://id.example.edu,client-id=c,client-secret=s" >"$work/bad" 2>&1 \
    && fail "a plain-http issuer elsewhere than this machine was accepted" \
    || { grep -q "issuer must be an https URL" "$work/bad" && pass "a plain-http issuer is refused" || fail "http issuer message" "$(cat "$work/bad")"; }

echo "oidc-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
