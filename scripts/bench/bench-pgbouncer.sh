#!/usr/bin/env bash
# Through PgBouncer against direct, as a Markdown section: one PostgreSQL (durable defaults) with
# PgBouncer 1.18 in transaction mode in front of it (scripts/test/failover/pgbouncer.sh, the
# settings of deploy/pgbouncer/pgbouncer.ini), two servers on the same database, one direct and one
# with --database-pooler, measured in interleaved rounds: the uncached 100-row page and 32
# students overwriting their pins.
#   scripts/bench/bench-pgbouncer.sh path/to/release/onthemap [seconds per run] [rows]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/bench/bench-helpers.sh"

binary="$(realpath "$1")"
seconds="${2:-8}"
rows="${3:-100000}"
start_postgres_work  # sets work, pids and postgres_url
trap '"$root/scripts/test/failover/pgbouncer.sh" stop "$work/bouncer" 2>/dev/null || true; stop_postgres_work' EXIT
database="$postgres_url"
seed_locations "$binary" "$work/bench.sqlite" "$rows"
"$binary" copy-data --from "$work/bench.sqlite" --to "$database?sslmode=disable" >/dev/null 2>&1
psql "$database" -qc "VACUUM ANALYZE" >/dev/null
pg_port="$(grep -oE ':[0-9]+/' <<<"$database" | tr -d ':/')"
bouncer="$("$root/scripts/test/failover/pgbouncer.sh" start "$work/bouncer" 127.0.0.1 "$pg_port")"

serve_named direct --database "$database?sslmode=disable"; direct_port=$served_port
serve_named pooled --database "$database?sslmode=disable" --database-pooler "$bouncer?sslmode=disable"; pooled_port=$served_port
page="/v1/StudentLocation?limit=100&order=-updatedAt,objectId"
for port in "$direct_port" "$pooled_port"; do wait_healthy "http://127.0.0.1:$port$page"; done

# run URL [wrk args...]: "requests/s non-2xx" of a wrk run at 32 connections, after a warm-up.
run() {
    local url="$1" out
    shift
    wrk -t2 -c32 -d2s "$@" "$url" >/dev/null
    out="$(wrk -t2 -c32 -d"${seconds}s" "$@" "$url")"
    echo "$(rps "$out") $(refused "$out")"
}
mapfile -t tokens < <(sign_up_writers "http://127.0.0.1:$direct_port" 32 "$work")
writers_lua "$work/writers.lua" "${tokens[@]}"

declare -A total=() bad=()
for round in 1 2; do
    for setup in direct pooled; do
        port="$direct_port"; [ "$setup" = pooled ] && port="$pooled_port"
        read -r r n < <(run "http://127.0.0.1:$port$page"); total[$setup-page]=$(( ${total[$setup-page]:-0} + r )); bad[$setup-page]=$(( ${bad[$setup-page]:-0} + n ))
        read -r r n < <(run "http://127.0.0.1:$port" -s "$work/writers.lua"); total[$setup-write]=$(( ${total[$setup-write]:-0} + r )); bad[$setup-write]=$(( ${bad[$setup-write]:-0} + n ))
    done
done
mean() { echo $(( ${total[$1]} / 2 )); }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# What PgBouncer itself counted: proof the pooled server's queries went through it.
through="$(psql "postgres://onthemap:onthemap@$(grep -oE '127\.0\.0\.1:[0-9]+' <<<"$bouncer")/pgbouncer?sslmode=disable" -tAc "SHOW STATS" 2>/dev/null \
    | awk -F'|' '$1 == "onthemap" {print $3}' || true)"
cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
cat <<MARKDOWN
## Through PgBouncer against direct (issue 44)

- Date: $(date -u +%Y-%m-%dT%H:%MZ)
- Machine: $(nproc) cores ($cpu), $(free -h | awk '/^Mem:/ {print $2}') memory, $(uname -sr); everything on this one machine
- Data: $rows pins. PostgreSQL $(psql "$database" -tAc 'SHOW server_version' | cut -d' ' -f1) with its durable defaults; PgBouncer $(/usr/sbin/pgbouncer --version | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -1)
  in transaction mode, default_pool_size 20 (deploy/pgbouncer/pgbouncer.ini). Two servers (release build, defaults) on the same
  database: one direct, one with \`--database-pooler\` (no named prepared statements, no startup settings; \`LISTEN\` direct).
  PgBouncer counted ${through:-?} queries from the pooled server.
- Load: wrk, 2 threads, 32 connections, ${seconds} s per cell after a 2 s warm-up, two interleaved rounds, the mean.

| what | direct: req/s | through PgBouncer: req/s | PgBouncer / direct |
|---|---|---|---|
| uncached 100-row page | $(mean direct-page) | $(mean pooled-page) | $(ratio "$(mean pooled-page)" "$(mean direct-page)") |
| 32 students overwriting their pins | $(mean direct-write) | $(mean pooled-write) | $(ratio "$(mean pooled-write)" "$(mean direct-write)") |

Answers other than 2xx: direct ${bad[direct-page]} + ${bad[direct-write]}, through PgBouncer ${bad[pooled-page]} + ${bad[pooled-write]}.
On one machine PgBouncer shares the two cores with everything else, so this shows what the extra hop
and the unprepared statements cost, not what pooling saves when many instances share one database.
Writes pay most: a pin's write is one statement with its event, which PostgreSQL plans anew each
time when it cannot be prepared (PgBouncer 1.18 keeps no prepared statement across transactions),
about four times the database's work of the prepared one here; PgBouncer 1.21's
\`max_prepared_statements\` would lift that.
MARKDOWN
