#!/usr/bin/env bash
# The PostgreSQL URL's sslmode, against a throwaway cluster that takes TCP connections over TLS only
# (scripts/test/postgres-test.sh with POSTGRES_TLS=1, a self-signed certificate for 127.0.0.1):
#   scripts/test/postgres-tls-test.sh .build/debug/onthemap
set -euo pipefail
binary="$(realpath "$1")"
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="$(mktemp -d)"
trap '"$root/scripts/test/postgres-test.sh" stop "$dir" 2>/dev/null || true; rm -rf "$dir"' EXIT
url="$(POSTGRES_TLS=1 "$root/scripts/test/postgres-test.sh" start "$dir")"
passed=0; failed=0
expect() {  # expect NAME ok|PATTERN URL: `user list` on URL succeeds, or fails saying PATTERN
    local name="$1" want="$2" output status
    output="$("$binary" user list --database "$3" 2>&1)" && status=0 || status=$?
    if { [ "$want" = ok ] && [ "$status" -eq 0 ]; } || { [ "$want" != ok ] && [ "$status" -ne 0 ] && grep -qE -- "$want" <<<"$output"; }; then
        echo "  ok    $name"; passed=$((passed + 1))
    else
        echo "  FAIL  $name (exit $status): $output"; failed=$((failed + 1))
    fi
}
echo "postgres TLS: $url"
expect "sslmode=verify-full with the server's CA connects" ok "$url?sslmode=verify-full&sslrootcert=$dir/server.crt"
expect "sslmode=verify-ca with the server's CA connects" ok "$url?sslmode=verify-ca&sslrootcert=$dir/server.crt"
expect "sslmode=require connects without checking the certificate" ok "$url?sslmode=require"
expect "the default (prefer) uses TLS when offered" ok "$url"
expect "sslmode=verify-full refuses a certificate no trusted CA signed" "CERTIFICATE_VERIFY_FAILED" "$url?sslmode=verify-full"
expect "sslmode=disable is refused by a server that insists on TLS, in its words" "no encryption" "$url?sslmode=disable"
expect "a wrong password is reported as such" "password authentication failed" "${url/onthemap:onthemap@/onthemap:wrong@}?sslmode=require"
expect "an unknown sslmode is refused before connecting" "sslmode=sometimes" "$url?sslmode=sometimes"
echo "postgres TLS: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
