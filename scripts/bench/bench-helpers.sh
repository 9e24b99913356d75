# Shared by the benchmark scripts (source it): the seeded database and the reference server they
# measure against.

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

# seed_locations BINARY FILE ROWS: a database with ROWS pins, objectIds and creation dates in no particular order.
seed_locations() {
    "$1" user list --database "$2" >/dev/null   # creates the schema
    sqlite3 "$2" <<SQL
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $3)
INSERT INTO student_locations (object_id, owner_key, unique_key, first_name, last_name, map_string, media_url,
                               latitude, longitude, created_at, updated_at)
SELECT printf('b%09d', (i * 7919) % $3), NULL, CAST(1000000000 + i AS TEXT), 'First' || (i % 997), 'Last' || (i % 4999),
       'City ' || (i % 50000) || ', Country', 'https://example.com/' || i, (i % 180) - 89.75, (i % 360) - 179.5,
       1700000000000 + ((i * 7919) % $3) * 1000, 1700000000000 + i * 7
FROM n;
SQL
}

# seed_locations_postgres BINARY URL ROWS: the same pins in the PostgreSQL schema that URL names
# (`?schema=`, made by the server's migrations), then VACUUM ANALYZE as an operator's would be.
seed_locations_postgres() {
    "$1" user list --database "$2" >/dev/null   # creates the schema
    local schema="${2##*schema=}" plain="${2%%\?*}"
    PGOPTIONS="-c search_path=${schema%%&*}" psql -q "$plain" <<SQL
INSERT INTO student_locations (object_id, owner_key, unique_key, first_name, last_name, map_string, media_url,
                               latitude, longitude, created_at, updated_at)
SELECT 'b' || lpad(((i * 7919) % $3)::text, 9, '0'), NULL, (1000000000 + i)::text, 'First' || (i % 997), 'Last' || (i % 4999),
       'City ' || (i % 50000) || ', Country', 'https://example.com/' || i, (i % 180) - 89.75, (i % 360) - 179.5,
       1700000000000 + ((i * 7919) % $3) * 1000, 1700000000000 + i * 7
FROM generate_series(1::bigint, $3::bigint) AS i;
VACUUM ANALYZE;
SQL
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

# percentile NAME OUTPUT: a latency percentile (50%, 99%) from wrk --latency, in milliseconds.
percentile() {
    awk -v p="$1" '$1 == p { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 } printf "%.2f", v }' <<<"$2"
}

where() { printf '%s' "$1" | jq -sRr @uri; }

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

# p50s: the p50 of each query against $base, one connection, $seconds s each; one line each.
p50s() {
    local entry query out
    for entry in "${queries[@]}"; do
        query="${entry#*|}"
        out="$(wrk -t1 -c1 -d"${seconds}s" --latency "$base/v1/StudentLocation?$query")"
        if grep -q "Non-2xx" <<<"$out"; then echo "error"; else percentile 50% "$out"; echo; fi
    done
}

# p50_comparison SMALL LARGE: from two arrays of p50s (by name), the Markdown rows of the 1k → 1M
# table in query_rows, and how many missed the 1.5× target in missed.
p50_comparison() {
    local -n small_p50s="$1" large_p50s="$2"
    local i ratio verdict
    query_rows=""
    missed=0
    for i in "${!queries[@]}"; do
        ratio="$(awk -v a="${large_p50s[$i]}" -v b="${small_p50s[$i]}" 'BEGIN { printf "%.2f", a / b }')"
        verdict="met"; awk -v r="$ratio" 'BEGIN { exit !(r > 1.5) }' && { verdict="**missed**"; missed=$((missed + 1)); }
        query_rows+="| ${queries[$i]%%|*} | ${small_p50s[$i]} ms | ${large_p50s[$i]} ms | ${ratio}× | $verdict |"$'\n'
    done
}
