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
INSERT INTO student_locations
SELECT printf('b%09d', (i * 7919) % $3), NULL, CAST(1000000000 + i AS TEXT), 'First' || (i % 997), 'Last' || (i % 4999),
       'City ' || (i % 50000) || ', Country', 'https://example.com/' || i, (i % 180) - 89.75, (i % 360) - 179.5,
       1700000000000 + ((i * 7919) % $3) * 1000, 1700000000000 + i * 7
FROM n;
SQL
}
