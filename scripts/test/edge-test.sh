#!/usr/bin/env bash
# The HTTP edge at scale on the real binary: with few file descriptors, 1,100 idle
# connections, then 50 slowloris connections, must not stop another client being served.
#   scripts/test/edge-test.sh path/to/onthemap
set -euo pipefail
binary="$1"
work="$(mktemp -d)"
source "$(dirname "$0")/test-helpers.sh"
trap 'for p in "${server_pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT

# 512 descriptors: the server holds at most 384 connections (the limit less 128).
(ulimit -n 512 && exec "$binary" serve --port 0 --database "$work/edge.sqlite" --header-timeout 2 \
    >"$work/server.log" 2>&1) &
server_pids+=("$!")
port=""
for _ in $(seq 1 200); do
    port="$(grep -oE 'listening on 127\.0\.0\.1:[0-9]+' "$work/server.log" | grep -oE '[0-9]+$' | head -1 || true)"
    [ -n "$port" ] && break
    sleep 0.05
done
[ -n "$port" ] || { echo "server did not start"; cat "$work/server.log"; exit 1; }

# served PORT: the status of one request from a fresh client at another address, within 5 s.
served() { curl -s -m 5 --interface 127.0.0.2 -o /dev/null -w "%{http_code}" "http://127.0.0.1:$1/healthz" || true; }

# 1,100 idle keep-alive connections (each made one request) from five addresses, so that the
# per-address limit (256) lets them all in and the server's own limit (384) must make room.
python3 - "$port" <<'PY' >"$work/idle.out" &
import socket, sys, time
port = int(sys.argv[1]); held = []
for i in range(1100):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(f"127.0.0.{10 + i % 5}", 0))
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"); s.recv(4096); held.append(s)
    except OSError:
        pass
print(len(held), flush=True)
time.sleep(6)
PY
idle_pid=$!
for _ in $(seq 1 200); do [ -s "$work/idle.out" ] && break; sleep 0.1; done
status="$(served "$port")"
[ "$status" = 200 ] && pass "1,100 idle connections on 512 descriptors: another client is served" \
    || fail "another client beside 1,100 idle connections: $status" "$(tail -5 "$work/server.log")"
wait "$idle_pid" 2>/dev/null || true

# 50 slowloris connections: a header line every half second, never finished.
python3 - "$port" <<'PY' >"$work/slow.out" &
import socket, sys, time
port = int(sys.argv[1]); conns = [socket.create_connection(("127.0.0.1", port)) for _ in range(50)]
for s in conns: s.sendall(b"GET /v1/StudentLocation HTTP/1.1\r\nHost: x\r\n")
closed = 0
start = time.time()
while time.time() - start < 6:
    for s in conns:
        try: s.sendall(b"X-Slow: 1\r\n")
        except OSError: pass
    time.sleep(0.5)
answers = []
for s in conns:
    s.settimeout(1)
    try: answers.append(s.recv(64).split(b" ")[1].decode())
    except Exception: answers.append("none")
print(" ".join(sorted(set(answers))), flush=True)
PY
slow_pid=$!
sleep 1
status="$(served "$port")"
[ "$status" = 200 ] && pass "50 slowloris connections: another client is served" || fail "another client beside slowloris: $status"
wait "$slow_pid" 2>/dev/null || true
[ "$(cat "$work/slow.out")" = "408" ] && pass "slowloris connections get 408 after --header-timeout" \
    || fail "slowloris answers: $(cat "$work/slow.out")"

echo "edge: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
