#!/usr/bin/env bash
# Uncached reads with one primary against one primary plus one standby, as a Markdown section: a
# pg_auto_failover formation (scripts/test/failover/formation.sh, synchronous replication), the
# same data, two servers in one run: one reading from the primary, one given the standby for reads
# (--database-replicas), measured in interleaved rounds on the uncached 100-row page.
#   scripts/bench/bench-replicas.sh path/to/release/onthemap [seconds per run] [rows]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/bench/bench-helpers.sh"

binary="$(realpath "$1")"
seconds="${2:-8}"
rows="${3:-100000}"
work="$(mktemp -d)"
chmod 755 "$work"
pids=()
trap 'for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true
      "$root/scripts/test/failover/formation.sh" stop "$work/formation" 2>/dev/null || true; rm -rf "$work"' EXIT
database="$("$root/scripts/test/failover/formation.sh" start "$work/formation")"
seed_locations "$binary" "$work/bench.sqlite" "$rows"
"$binary" copy-data --from "$work/bench.sqlite" --to "$database" >/dev/null 2>&1
psql "$database" -qc "ANALYZE" >/dev/null 2>&1

serve_named primary --database "$database"; primary_port=$served_port
serve_named standby --database "$database" --database-replicas "${database/read-write/prefer-standby}"; standby_port=$served_port
page="/v1/StudentLocation?limit=100&order=-updatedAt,objectId"
for port in "$primary_port" "$standby_port"; do wait_healthy "http://127.0.0.1:$port$page"; done

run() {  # run URL: requests/s at 32 connections after a warm-up
    wrk -t2 -c32 -d2s "$1" >/dev/null
    rps "$(wrk -t2 -c32 -d"${seconds}s" "$1")"
}
# Reads each node answered during the run: their transactions committed in the database.
node_reads() { psql "postgres://onthemap:onthemap@127.0.0.1:$1/onthemap" -tAc "SELECT xact_commit FROM pg_stat_database WHERE datname = 'onthemap'"; }
ports=($(grep -oE '127\.0\.0\.1:[0-9]+' <<<"$database" | cut -d: -f2))
primary_total=0 standby_total=0
for _ in 1 2; do
    primary_total=$((primary_total + $(run "http://127.0.0.1:$primary_port$page")))
    before=($(node_reads "${ports[0]}") $(node_reads "${ports[1]}"))
    standby_total=$((standby_total + $(run "http://127.0.0.1:$standby_port$page")))
    after=($(node_reads "${ports[0]}") $(node_reads "${ports[1]}"))
done
primary_rps=$((primary_total / 2)); standby_rps=$((standby_total / 2))
served="$(awk -v a="${before[0]}" -v b="${after[0]}" -v c="${before[1]}" -v d="${after[1]}" 'BEGIN { printf "%d and %d", b - a, d - c }')"
cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
cat <<MARKDOWN
## Reads from a standby (issue 44)

- Date: $(date -u +%Y-%m-%dT%H:%MZ)
- Machine: $(nproc) cores ($cpu), $(free -h | awk '/^Mem:/ {print $2}') memory, $(uname -sr); the formation (monitor, primary, standby), both servers and wrk all on this one machine
- Data: $rows pins on a pg_auto_failover formation (PostgreSQL $(psql --version | grep -oE '[0-9]+\.[0-9]+' | head -1), synchronous replication). Two servers (release
  build, defaults) in one run: one reading from the primary, one with \`--database-replicas\` (the formation's hosts, prefer-standby).
- Load: wrk, 2 threads, 32 connections, anonymous, the uncached page \`$page\`, ${seconds} s per cell after a
  2 s warm-up, two interleaved rounds, the mean. In the last round with the standby, the two nodes committed $served
  transactions (node1, node2): the reads went to the standby.

| setup | uncached 100-row page: req/s |
|---|---|
| one primary | $primary_rps |
| one primary + one standby taking the reads | $standby_rps |
| ratio | $(awk -v a="$standby_rps" -v b="$primary_rps" 'BEGIN { printf "%.2f", a / b }') |

Both nodes share the two cores with the servers and wrk here, so a standby adds no CPU: this shows
that routing reads to it costs nothing, not the capacity a second machine adds.
MARKDOWN
