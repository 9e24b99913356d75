# Shared by the benchmark scripts (source it): the reference server they measure against.

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
