#!/usr/bin/env bash
# Restarts On The Map instances one at a time, the next only once the last is back and ready, so
# that nginx always has instances to send requests to: an upgrade or a configuration change with
# no failed request (README.md, "Upgrading").
#
#   deploy/rolling-restart.sh 8081 8082 8083
#
# Each instance is restarted with `systemctl restart onthemap@PORT` (SIGTERM: it stops taking
# connections, finishes the requests in flight, ends its live streams with a `reconnect` event and
# exits; then the new binary starts). ONTHEMAP_RESTART replaces that command ("{port}" in it is
# the port). ONTHEMAP_READY_TIMEOUT (seconds, default 120) bounds how long an instance may take to
# answer /readyz; past it the script stops there, leaving the instances not yet restarted on the
# version they run. ONTHEMAP_SETTLE (seconds, default 5: nginx's fail_timeout in onthemap.conf)
# is the wait before the next instance, so that nginx sends to the restarted one again first.
set -euo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: $0 PORT... (the instances' ports, as in onthemap@PORT)" >&2
    exit 2
fi
default_restart='systemctl restart onthemap@{port}'
restart="${ONTHEMAP_RESTART:-$default_restart}"
ready_timeout="${ONTHEMAP_READY_TIMEOUT:-120}"
settle="${ONTHEMAP_SETTLE:-5}"

index=0
for port in "$@"; do
    index=$((index + 1))
    echo "[$index/$#] restarting the instance on port $port"
    started=$SECONDS
    bash -c "${restart//\{port\}/$port}"
    until curl -sf -o /dev/null --max-time 2 "http://127.0.0.1:$port/readyz"; do
        if (( SECONDS - started >= ready_timeout )); then
            echo "the instance on port $port is not ready after ${ready_timeout} s; stopping here (see its log:" \
                 "journalctl -u onthemap@$port). The instances after it were not restarted." >&2
            exit 1
        fi
        sleep 0.2
    done
    echo "      ready after $((SECONDS - started)) s"
    if [ "$index" -lt "$#" ]; then sleep "$settle"; fi
done
echo "all $# instances restarted"
