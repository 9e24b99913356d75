# Shared by the benchmark scripts (source it): the seeded database and the reference server they
# measure against.

bench_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$bench_root/scripts/test/cluster-helpers.sh"  # free_port

# start_postgres_work: $work, a temporary directory the postgres user can reach, with the project's
# throwaway PostgreSQL cluster in $work/pg keeping PostgreSQL's durable defaults (so that its commits
# are compared with SQLite's synchronous=FULL on equal terms), its URL in $postgres_url; $pids, the
# processes to end at exit. At exit they end, the cluster stops and $work goes.
start_postgres_work() {
    work="$(mktemp -d)"
    chmod 755 "$work"
    pids=()
    trap stop_postgres_work EXIT
    postgres_url="$(POSTGRES_DURABLE=1 "$bench_root/scripts/test/postgres-test.sh" start "$work/pg")"
}
stop_postgres_work() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    "$bench_root/scripts/test/postgres-test.sh" stop "$work/pg" 2>/dev/null || true
    rm -rf "$work"
}

# nginx_static_conf WORK PORT: writes WORK/nginx.conf serving WORK/www on 127.0.0.1:PORT, with
# precompressed `.gz` files served as they are (gzip_static) to clients that accept gzip.
nginx_static_conf() {
    cat >"$1/nginx.conf" <<CONF
user root;
worker_processes auto;
daemon off;
pid $1/nginx.pid;
error_log $1/nginx.err;
events {}
http {
    access_log off;
    server {
        listen 127.0.0.1:$2;
        root $1/www;
        gzip_static on;
        location / { default_type application/json; }
    }
}
CONF
}

# wait_healthy URL: waits up to 30 s for URL to answer 2xx; ends the benchmark otherwise.
wait_healthy() { for _ in $(seq 1 300); do curl -sf -o /dev/null "$1" && return; sleep 0.1; done; echo "no answer from $1" >&2; exit 1; }

# pins_sql COURSE COURSES PINS PREFIX: SQL that both engines run, inserting PINS pins into each of
# COURSES courses numbered from COURSE. Pin j (1…PINS) of the c-th course (0…) is what seed_locations
# makes of a map of PINS pins as row j, its objectId (PREFIX and 9 digits) moved on by c × PINS so that
# every objectId is unique: objectIds and creation dates in no particular order, the newest updates last.
pins_sql() {
    local course="$1" courses="$2" pins="$3" prefix="$4"
    cat <<SQL
WITH RECURSIVE n(i) AS (SELECT CAST(1 AS BIGINT) UNION ALL SELECT i + 1 FROM n WHERE i < $((courses * pins))),
     pin(i, c, j) AS (SELECT i, (i - 1) / $pins, (i - 1) % $pins + 1 FROM n)
INSERT INTO student_locations (object_id, owner_key, unique_key, first_name, last_name, map_string, media_url,
                               latitude, longitude, created_at, updated_at, course_id)
SELECT '$prefix' || substr(CAST(1000000000 + c * $pins + (j * 7919) % $pins AS TEXT), 2), NULL, CAST(1000000000 + i AS TEXT),
       'First' || (i % 997), 'Last' || (i % 4999), 'City ' || (i % 50000) || ', Country', 'https://example.com/' || i,
       (i % 180) - 89.75, (i % 360) - 179.5, 1700000000000 + ((j * 7919) % $pins) * 1000, 1700000000000 + j * 7, $course + c
FROM pin;
SQL
}

# seed_sql BINARY DATABASE: DATABASE (a SQLite file, or a PostgreSQL URL whose `?schema=` the server's
# migrations make) with the server's schema, then the SQL on stdin run in it; on PostgreSQL followed by
# VACUUM ANALYZE of the schema's tables, as an operator's would be.
seed_sql() {
    "$1" user list --database "$2" >/dev/null   # creates the schema
    case "$2" in
        postgres://* | postgresql://*)
            local schema="${2##*schema=}"
            {
                cat
                echo "SELECT format('VACUUM ANALYZE %I', tablename) FROM pg_tables WHERE schemaname = current_schema() \\gexec"
            } | PGOPTIONS="-c search_path=${schema%%&*}" psql -q -v ON_ERROR_STOP=1 "${2%%\?*}" >/dev/null ;;
        *) sqlite3 -bail "$2" ;;
    esac
}

# seed_locations BINARY DATABASE ROWS: a single map (the default course) of ROWS pins (pins_sql), in a
# SQLite file or a PostgreSQL schema (seed_sql).
seed_locations() { pins_sql 1 1 "$3" b | seed_sql "$1" "$2"; }

# seed_courses BINARY DATABASE COURSES PINS DEFAULT_PINS: COURSES courses besides the default one,
# slugs course-1, course-2, …, each readable by anyone with the link and showing full names, with PINS
# pins each; DEFAULT_PINS pins in the default course (objectIds starting with d).
seed_courses() {
    local overriding="" numbering=""
    case "$2" in postgres://* | postgresql://*)
        overriding="OVERRIDING SYSTEM VALUE"
        numbering="SELECT setval(pg_get_serial_sequence('courses', 'id'), (SELECT MAX(id) FROM courses));" ;;
    esac
    {
        cat <<SQL
WITH RECURSIVE k(n) AS (SELECT CAST(1 AS BIGINT) UNION ALL SELECT n + 1 FROM k WHERE n < $3)
INSERT INTO courses (id, slug, title, created_at, visibility, names_shown) $overriding
SELECT 1 + n, 'course-' || n, 'Course ' || n, 1700000000000, 'link', 'full' FROM k;
$numbering
SQL
        pins_sql 2 "$3" "$4" b
        pins_sql 1 1 "$5" d
    } | seed_sql "$1" "$2"
}

# sign_up_writers BASE COUNT DIR: COUNT accounts signed up at once on BASE; prints their session tokens.
sign_up_writers() {
    local base="$1" count="$2" dir="$3" n pids=()
    for n in $(seq 1 "$count"); do
        curl -s -X POST "$base/v1/accounts" -o "$dir/signup$n.json" \
            -d "{\"email\": \"w$n-$RANDOM@example.com\", \"password\": \"password-$n\", \"firstName\": \"W\", \"lastName\": \"$n\"}" &
        pids+=("$!")
    done
    wait "${pids[@]}"
    for n in $(seq 1 "$count"); do jq -r .session.id "$dir/signup$n.json"; done
}

# writers_lua OUT TOKEN...: a wrk script in which each request posts a location as the next token's
# student (overwriting their pin), by bearer token.
writers_lua() {
    local out="$1"; shift
    {
        echo "local tokens = {"; printf '"%s",\n' "$@"; echo "}"
        cat <<'LUA'
local counter = 0
request = function()
    counter = counter + 1
    local token = tokens[(counter % #tokens) + 1]
    local body = '{"mapString": "Write ' .. counter .. '", "mediaURL": "https://example.com/' .. counter .. '", "latitude": 1, "longitude": 2}'
    return wrk.format("POST", "/v1/StudentLocation", {["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json"}, body)
end
LUA
    } >"$out"
}

# percentile NAME OUTPUT [DECIMALS]: a latency percentile (50%, 99%) from wrk --latency, in
# milliseconds with 2 decimals (or DECIMALS).
percentile() {
    awk -v p="$1" -v d="${3:-2}" '$1 == p { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 } printf "%." d "f", v }' <<<"$2"
}

where() { printf '%s' "$1" | jq -sRr @uri; }

# From wrk's output: requests/s (whole), and how many answers were not 2xx (empty when all were).
rps() { awk '/Requests\/sec/ {printf "%.0f", $2}' <<<"$1"; }
refused() { awk '/Non-2xx/ {s += $5} END {print s + 0}' <<<"$1"; }  # wrk's non-2xx answers, 0 when none

# serve_named NAME ARGS...: starts `$binary serve` on a free port with ARGS, its log in $work/NAME.log;
# sets served_port and served_pid, and adds the process to $pids.
serve_named() {
    local name="$1"
    shift
    served_port="$(free_port)"
    "$binary" serve --port "$served_port" --log-level warning "$@" >"$work/$name.log" 2>&1 &
    served_pid=$!
    pids+=("$served_pid")
}
# machine: the Markdown line that says which machine measured.
machine() {
    local cpu
    cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
    echo "- Machine: $(nproc) cores ($cpu), $(free -h | awk '/^Mem:/ {print $2}') memory, $(uname -sr); everything on this one machine"
}
# ratio A B: A / B with 2 decimals; verdict RATIO TARGET: "met" when RATIO ≥ TARGET.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
verdict() { awk -v r="$1" -v t="$2" 'BEGIN { print (r >= t ? "met" : "**missed**") }'; }

# The documented queries that return at most 100 rows (docs/API.md, "StudentLocation"), "name|query", on the
# data seed_locations makes.
queries=(
    "default list, uncached|limit=100&order=-updatedAt,objectId"
    "order=updatedAt|order=updatedAt"
    "order=createdAt|order=createdAt"
    "order=-createdAt|order=-createdAt"
    "order=lastName|order=lastName"
    "order=-lastName|order=-lastName"
    "order=firstName|order=firstName"
    "order=objectId|order=objectId"
    "count=1|count=1&limit=100"
    "uniqueKey=…|uniqueKey=1000000500"
    "where uniqueKey|where=$(where '{"uniqueKey":"1000000500"}')"
    "where uniqueKey \$in|where=$(where '{"uniqueKey":{"$in":["1000000500","1000000501"]}}')"
    "where objectId|where=$(where '{"objectId":"b000007919"}')"
    "where updatedAt \$gt (newest 100)|where=$(where '{"updatedAt":{"$gt":"2023-11-14T22:13:20.000Z"}}')"
    "where createdAt \$lt, order=-createdAt|where=$(where '{"createdAt":{"$lt":"2023-11-14T22:15:00.000Z"}}')&order=-createdAt"
    "skip=10000 (the ceiling)|skip=10000&order=createdAt"
)

# p50 URL: the p50 of URL, one connection, $seconds s, in milliseconds; "error" when an answer was not
# 2xx (how many, on stderr). One request first, unmeasured: the first read of a deep page after seeding
# reads cold pages from disk and can outlast the read budget (503), which is not the query's cost.
p50() {
    local out
    curl -s -o /dev/null "$1" || true
    out="$(wrk -t1 -c1 -d"${seconds}s" --latency "$1")"
    if grep -q "Non-2xx" <<<"$out"; then
        echo "error"
        echo "$(awk '/Non-2xx/ {print $5}' <<<"$out") of $(awk '/requests in/ {print $1}' <<<"$out") answers not 2xx: $1" >&2
    else
        percentile 50% "$out"; echo
    fi
}

# p50s: the p50 of each query against $base; one line each.
p50s() {
    local entry
    for entry in "${queries[@]}"; do p50 "$base/v1/StudentLocation?${entry#*|}"; done
}

# within_target MEASURED REFERENCE: "ratio× | met", or "ratio× | **missed**" where MEASURED is more
# than 1.5 times REFERENCE (or either is not a number: "error", some answers were not 2xx).
within_target() {
    local ratio
    [[ "$1$2" =~ ^[0-9.]+$ ]] || { echo "– | **missed** (not every answer 2xx)"; return; }
    ratio="$(awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }')"
    if awk -v r="$ratio" 'BEGIN { exit !(r > 1.5) }'; then echo "${ratio}× | **missed**"; else echo "${ratio}× | met"; fi
}

# p50_comparison SMALL LARGE: from two arrays of p50s (by name), the Markdown rows of the 1k → 1M
# table in query_rows, and how many missed the 1.5× target in missed.
p50_comparison() {
    local -n small_p50s="$1" large_p50s="$2"
    local i verdict
    query_rows=""
    missed=0
    for i in "${!queries[@]}"; do
        verdict="$(within_target "${large_p50s[$i]}" "${small_p50s[$i]}")"
        [[ "$verdict" == *missed* ]] && missed=$((missed + 1))
        query_rows+="| ${queries[$i]%%|*} | ${small_p50s[$i]} ms | ${large_p50s[$i]} ms | $verdict |"$'\n'
    done
}
