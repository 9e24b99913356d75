#!/usr/bin/env bash
# The PostgreSQL figures, as a Markdown section: the PostgreSQL path against references measured in the
# same run on the same data (100,000 pins; PostgreSQL with its durable defaults):
# 1. an uncached 100-row page at 32 connections: the server on PostgreSQL, the same server on SQLite,
#    FastAPI + asyncpg + orjson (2 uvicorn workers) running the same query on the same database, and
#    bare Hummingbird + PostgresNIO running it (postgres-reference, built beside the binary): the
#    ceiling of the Swift stack the server is built on;
# 2. 32 students overwriting their pins over HTTP, against pgbench's durable one-row UPDATE by
#    primary key at 32 clients on the same table;
# with the server's CPU time per request (user + system, from /proc) beside each;
# 3. every documented query of at most 100 rows at 1,000 and 1,000,000 rows (p50 ratio ≤ 1.5).
#   scripts/bench/bench-postgres.sh path/to/release/onthemap [seconds per run] [rows]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/scripts/bench/bench-helpers.sh"
source "$root/scripts/test/cluster-helpers.sh"

binary="$(realpath "$1")"
seconds="${2:-10}"
rows="${3:-100000}"
start_postgres_work  # sets work, pids and postgres_url
database="$postgres_url"
seed_locations "$binary" "$work/bench.sqlite" "$rows"
"$binary" copy-data --from "$work/bench.sqlite" --to "$database?sslmode=disable" >/dev/null 2>&1
psql "$database" -qc "VACUUM ANALYZE" >/dev/null

serve() {  # serve NAME DATABASE: starts the server; sets served_port and served_pid
    served_port="$(free_port)"
    "$binary" serve --port "$served_port" --database "$2" --log-level warning >"$work/$1.log" 2>&1 &
    served_pid=$!
    pids+=("$served_pid")
}
serve postgres "$database?sslmode=disable"; pg_port=$served_port; pg_pid=$served_pid
serve sqlite "$work/bench.sqlite"; sqlite_port=$served_port; sqlite_pid=$served_pid
reference_port="$(free_port)"
DATABASE_URL="$database" "$root/.build/venv-bench/bin/uvicorn" --app-dir "$root/scripts/bench/bench-reference" fastapi_app:app \
    --host 127.0.0.1 --port "$reference_port" --workers 2 --loop uvloop --http httptools --log-level warning >"$work/reference.log" 2>&1 &
pids+=("$!")
reference_pid=$!
stack_port="$(free_port)"
"$(dirname "$binary")/postgres-reference" "$stack_port" "$database" >"$work/stack.log" 2>&1 &
pids+=("$!")
stack_pid=$!
page="/v1/StudentLocation?limit=100&order=-updatedAt,objectId"
for port in "$pg_port" "$sqlite_port" "$reference_port" "$stack_port"; do wait_healthy "http://127.0.0.1:$port$page"; done

# cpu_ticks PID...: user + system clock ticks of the processes and their children so far.
cpu_ticks() {
    local total=0 pid child
    for pid in "$@"; do
        for child in "$pid" $(pgrep -P "$pid" || true); do
            total=$((total + $(awk '{print $14 + $15}' "/proc/$child/stat")))
        done
    done
    echo "$total"
}
requests() { awk '/requests in/ {print $1}' <<<"$1"; }
ticks_per_second="$(getconf CLK_TCK)"
postmaster="$(head -1 "$work/pg/data/postmaster.pid")"
# measure PID URL [wrk args...]: "requests/s server-CPU-ms-per-request non-2xx PostgreSQL-CPU-ms-per-request"
# for a wrk run at 32 connections (PostgreSQL's: the postmaster and its backends, whatever they serve).
measure() {
    local pid="$1" url="$2" before after pg_before pg_after out n
    shift 2
    wrk -t2 -c32 -d2s "$@" "$url" >/dev/null  # warm-up: connections, caches, prepared statements
    before="$(cpu_ticks "$pid")"; pg_before="$(cpu_ticks "$postmaster")"
    out="$(wrk -t2 -c32 -d"${seconds}s" "$@" "$url")"
    after="$(cpu_ticks "$pid")"; pg_after="$(cpu_ticks "$postmaster")"
    n="$(requests "$out")"
    printf '%s %s %s %s\n' "$(rps "$out")" \
        "$(awk -v t="$((after - before))" -v n="$n" -v hz="$ticks_per_second" 'BEGIN { printf "%.2f", t * 1000 / hz / n }')" \
        "$(refused "$out" | grep . || echo 0)" \
        "$(awk -v t="$((pg_after - pg_before))" -v n="$n" -v hz="$ticks_per_second" 'BEGIN { printf "%.2f", t * 1000 / hz / n }')"
}

read -r pg_page pg_page_cpu pg_page_refused pg_page_db < <(measure "$pg_pid" "http://127.0.0.1:$pg_port$page")
read -r sqlite_page sqlite_page_cpu _ _ < <(measure "$sqlite_pid" "http://127.0.0.1:$sqlite_port$page")
read -r reference_page reference_page_cpu _ reference_page_db < <(measure "$reference_pid" "http://127.0.0.1:$reference_port$page")
read -r stack_page stack_page_cpu _ stack_page_db < <(measure "$stack_pid" "http://127.0.0.1:$stack_port$page")

mapfile -t tokens < <(sign_up_writers "http://127.0.0.1:$pg_port" 32 "$work")
writers_lua "$work/writers.lua" "${tokens[@]}"
read -r pg_writes pg_writes_cpu pg_writes_refused pg_writes_db < <(measure "$pg_pid" "http://127.0.0.1:$pg_port" -s "$work/writers.lua")

# pgbench: the durable one-row UPDATE by primary key, on the same table, at 32 clients.
cat >"$work/update.sql" <<SQL
\set i random(0, $((rows - 1)))
UPDATE student_locations SET updated_at = updated_at + 1 WHERE object_id = 'b' || lpad(:i::text, 9, '0');
SQL
pgbench -n -c 32 -j 2 -T 2 -f "$work/update.sql" "$database" >/dev/null 2>&1
pgbench_tps="$(pgbench -n -c 32 -j 2 -T "$seconds" -f "$work/update.sql" "$database" 2>/dev/null | awk '/^tps/ {printf "%.0f", $3}')"

# 3. Every documented query of at most 100 rows, p50 at 1,000 and at 1,000,000 rows, each in its
#    own schema of the same cluster, one connection.
for size in small large; do
    count=1000; [ "$size" = large ] && count=1000000
    seed_locations "$binary" "$database?sslmode=disable&schema=scale_$size" "$count"
done
kill "$pg_pid" "$sqlite_pid" "$reference_pid" "$stack_pid" 2>/dev/null || true
scale_seconds=3
for size in small large; do
    serve "scale-$size" "$database?sslmode=disable&schema=scale_$size"
    base="http://127.0.0.1:$served_port"
    wait_healthy "$base/healthz"
    seconds="$scale_seconds" p50s >"$work/p50-$size"
    kill "$served_pid"; wait "$served_pid" 2>/dev/null || true
done
mapfile -t small <"$work/p50-small"
mapfile -t large <"$work/p50-large"
p50_comparison small large  # sets query_rows and missed

page_vs_reference="$(ratio "$pg_page" "$reference_page")"
page_vs_sqlite="$(ratio "$pg_page" "$sqlite_page")"
stack_vs_reference="$(ratio "$stack_page" "$reference_page")"
stack_vs_sqlite="$(ratio "$stack_page" "$sqlite_page")"
page_vs_stack="$(ratio "$pg_page" "$stack_page")"
writes_vs_pgbench="$(ratio "$pg_writes" "$pgbench_tps")"
cat <<MARKDOWN
## The PostgreSQL path against its references (issue 26)

- Date: $(date -u +%Y-%m-%dT%H:%MZ)
$(machine)
- Data: $rows pins, the same in both engines. PostgreSQL $(psql "$database" -tAc 'SHOW server_version' | cut -d' ' -f1) with its durable defaults
  (fsync, synchronous_commit on); SQLite in WAL with synchronous=FULL. Servers: release build, defaults, logging at warning.
- Reference: FastAPI $(awk -F== '/^fastapi/ {print $2}' "$root/scripts/bench/bench-reference/requirements.txt") + asyncpg + orjson under uvicorn (2 workers, uvloop),
  running the server's query (\`WHERE hidden_at IS NULL ORDER BY updated_at DESC, object_id LIMIT 100\`) and writing the same JSON.
- Load: wrk, 2 threads, 32 connections, ${seconds} s per row after a 2 s warm-up. CPU: the process's user + system time during the run
  over the requests answered.

| what | requests/s | server CPU per request | PostgreSQL CPU per request |
|---|---|---|---|
| uncached 100-row page, server on PostgreSQL | $pg_page | $pg_page_cpu ms | $pg_page_db ms |
| the same page, server on SQLite | $sqlite_page | $sqlite_page_cpu ms | – |
| the same page, FastAPI + asyncpg + orjson, same database | $reference_page | $reference_page_cpu ms (both workers) | $reference_page_db ms |
| the same page, bare Hummingbird + PostgresNIO (the stack's ceiling), same database | $stack_page | $stack_page_cpu ms | $stack_page_db ms |
| 32 students overwriting their pins, server on PostgreSQL (durable) | $pg_writes | $pg_writes_cpu ms | $pg_writes_db ms |
| pgbench, durable one-row UPDATE by primary key, 32 clients | $pgbench_tps | – | – |

The ceiling CPU sets on $(nproc) cores, server and PostgreSQL together: a page on PostgreSQL at most
$(awk -v a="$pg_page_cpu" -v b="$pg_page_db" -v c="$(nproc)" 'BEGIN { printf "%.0f", c * 1000 / (a + b) }')/s, FastAPI's at most $(awk -v a="$reference_page_cpu" -v b="$reference_page_db" -v c="$(nproc)" 'BEGIN { printf "%.0f", c * 1000 / (a + b) }')/s; an overwrite at most $(awk -v a="$pg_writes_cpu" -v b="$pg_writes_db" -v c="$(nproc)" 'BEGIN { printf "%.0f", c * 1000 / (a + b) }')/s (wrk's own CPU not counted).

| target | measured | |
|---|---|---|
| page on PostgreSQL ≥ 2× the FastAPI reference | ${page_vs_reference}× | $(verdict "$page_vs_reference" 2) |
| page on PostgreSQL ≥ 0.6× the same server on SQLite | ${page_vs_sqlite}× | $(verdict "$page_vs_sqlite" 0.6) |
| overwrites ≥ 0.7× pgbench's one-row UPDATE | ${writes_vs_pgbench}× | $(verdict "$writes_vs_pgbench" 0.7) |

The stack's ceiling (\`postgres-reference\`: Hummingbird with no middleware, PostgresNIO's pool of 8
connections, the query prepared, each cell read once from its bytes, the JSON written by the server's own
writer; no sessions, limits, deadlines, metrics or logging) runs the page at ${stack_vs_reference}× FastAPI
and ${stack_vs_sqlite}× the server on SQLite; the server on PostgreSQL reaches ${page_vs_stack}× of that ceiling.

Non-2xx answers: ${pg_page_refused:-0} pages, ${pg_writes_refused:-0} writes.

### Every documented query of at most 100 rows on PostgreSQL: p50 at 1,000 and at 1,000,000 rows (target ≤ 1.5×)

One connection (wrk -t1 -c1), ${scale_seconds} s per query and size; each size in its own schema of the same
cluster, after VACUUM ANALYZE.

| query | 1k rows | 1M rows | ratio | target |
|---|---|---|---|---|
${query_rows}
$missed of ${#queries[@]} missed. \`skip=10000\` is excepted by design: at 1k rows it runs past the end of
the table and returns nothing, while at 1M it walks 10,000 index entries, the cost the ceiling bounds.
MARKDOWN
