#!/usr/bin/env bash
# The figures of many instances, as a Markdown section: the latest 100 (cached and uncached) and 32 concurrent
# writers on SQLite (one instance), PostgreSQL with one instance, and PostgreSQL with three instances
# behind nginx (deploy/'s proxy settings); then the live map with 1,000 idle streams over the three
# instances: the delay from a post to every stream's event (p50, p99), and memory per idle stream.
#   scripts/bench/bench-cluster.sh path/to/release/onthemap [seconds per run]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/bench/bench-helpers.sh"
source "$root/scripts/test/cluster-helpers.sh"

binary="$(realpath "$1")"
seconds="${2:-10}"
ulimit -n "$(ulimit -Hn)"  # 1,000 streams, on both ends
start_postgres_work  # sets work, pids and postgres_url

# The same 1,000 pins in both engines (PostgreSQL with its durable defaults, like SQLite's FULL).
database="$postgres_url?sslmode=disable"
seed_locations "$binary" "$work/bench.sqlite" 1000
"$binary" copy-data --from "$work/bench.sqlite" --to "$database" >/dev/null 2>&1

sqlite_port="$(free_port)"
"$binary" serve --port "$sqlite_port" --database "$work/bench.sqlite" --log-level warning >"$work/sqlite.log" 2>&1 &
pids+=("$!")
ports=("$(free_port)" "$(free_port)" "$(free_port)")
instance_pids=()
for port in "${ports[@]}"; do
    ONTHEMAP_TRUST_PROXY=yes "$binary" serve --port "$port" --database "$database" --log-level warning \
        --database-readers 4 --database-writers 4 --live-streams-per-address 1000 >"$work/pg-$port.log" 2>&1 &
    pids+=("$!"); instance_pids+=("$!")
done
nginx_port="$(free_port)"
nginx_cluster_conf "$work" "$nginx_port" "${ports[@]}"
nginx -c "$work/nginx.conf" -p "$work" &
pids+=("$!")
sqlite_base="http://127.0.0.1:$sqlite_port"
pg_base="http://127.0.0.1:${ports[0]}"
cluster_base="http://127.0.0.1:$nginx_port"
for base in "$sqlite_base" "$pg_base" "http://127.0.0.1:${ports[1]}" "http://127.0.0.1:${ports[2]}" "$cluster_base"; do wait_healthy "$base/healthz"; done

mapfile -t sqlite_tokens < <(sign_up_writers "$sqlite_base" 32 "$work")
writers_lua "$work/sqlite-writers.lua" "${sqlite_tokens[@]}"
mapfile -t pg_tokens < <(sign_up_writers "$pg_base" 32 "$work")
writers_lua "$work/pg-writers.lua" "${pg_tokens[@]}"

rps() { awk '/Requests\/sec/ {printf "%.0f", $2}' <<<"$1"; }
p99() { awk '$1 == "99%" {print $2}' <<<"$1"; }
measure() {
    local label="$1" base="$2" writers="$3" cached uncached writes
    cached="$(wrk -t2 -c32 -d"${seconds}s" --latency "$base/v1/StudentLocation")"
    uncached="$(wrk -t2 -c32 -d"${seconds}s" --latency "$base/v1/StudentLocation?limit=100&order=createdAt")"
    writes="$(wrk -t2 -c32 -d"${seconds}s" --latency -s "$writers" "$base")"
    printf '| %s | %s (p99 %s) | %s (p99 %s) | %s (p99 %s) |\n' "$label" \
        "$(rps "$cached")" "$(p99 "$cached")" "$(rps "$uncached")" "$(p99 "$uncached")" "$(rps "$writes")" "$(p99 "$writes")"
}
rows="$(
    measure "SQLite, 1 instance" "$sqlite_base" "$work/sqlite-writers.lua"
    measure "PostgreSQL, 1 instance" "$pg_base" "$work/pg-writers.lua"
    measure "PostgreSQL, 3 instances behind nginx" "$cluster_base" "$work/pg-writers.lua"
)"

live="$(python3 "$root/scripts/test/cluster/bench_live.py" "${pg_tokens[0]}" 1000 20 \
    "http://127.0.0.1:${ports[0]} http://127.0.0.1:${ports[1]} http://127.0.0.1:${ports[2]}" "${instance_pids[*]}" 0.5)"
field() { jq -r ".$1" <<<"$live"; }
per_stream_kb="$(jq -r '((.rss_after_kb - .rss_before_kb) / 1000 * 10 | round) / 10' <<<"$live")"

cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
cat <<MARKDOWN
## Many instances: PostgreSQL and the live map (issue 11)

- Date: $(date -u +%Y-%m-%dT%H:%MZ)
- Machine: $(nproc) cores ($cpu), $(free -h | awk '/^Mem:/ {print $2}') memory, $(uname -sr); everything on this one machine
- Servers: release build, logging at warning. SQLite in WAL with synchronous=FULL; PostgreSQL
  $(psql "$database" -tAc 'SHOW server_version' | cut -d' ' -f1) with its durable defaults (fsync, synchronous_commit on), 4 read and 4 write
  connections per instance; nginx with deploy/'s proxy settings. 1,000 locations.
- Load: wrk, 2 threads, 32 connections, ${seconds} s per cell. Writes: 32 students posting (each
  overwrites their own pin), by bearer token.

| setup | latest 100, cached: req/s | latest 100 read and encoded: req/s | writes/s |
|---|---|---|---|
$rows

Three instances share two cores with PostgreSQL, nginx and wrk here, so the third row shows what
the proxy and the shared database cost, not what three machines would gain.

### The live map: 1,000 idle streams over the three instances

| what | figure |
|---|---|
| delay from sending a post to each stream's event, p50 | $(field p50 | xargs printf '%.1f') ms |
| p99 | $(field p99 | xargs printf '%.1f') ms |
| slowest | $(field max | xargs printf '%.1f') ms |
| events received / missed | $(field events) / $(field missed) (20 posts × 1,000 streams) |
| memory per idle stream (instances' RSS after opening them, less before, ÷ 1,000) | ${per_stream_kb} KB |

The delay includes the post's own commit (PostgreSQL fsync) and, for streams on the two other
instances, the NOTIFY hop; every stream is read by one asyncio client on the same two cores.
MARKDOWN
