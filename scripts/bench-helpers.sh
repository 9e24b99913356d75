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
