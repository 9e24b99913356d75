# Shared by scripts/test/cluster-test.sh and scripts/bench/bench-cluster.sh (source it).

# free_port: a TCP port on 127.0.0.1 nobody listens on (the kernel picks it).
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# nginx_cluster_conf WORK NGINX_PORT INSTANCE_PORT...: WORK/nginx.conf, nginx in front of the
# instances in plain HTTP on NGINX_PORT, with deploy/nginx's proxy snippets (copied to WORK/snippets)
# and the deploy example's upstream settings. Run it with `nginx -c WORK/nginx.conf -p WORK`.
nginx_cluster_conf() {
    local work="$1" nginx_port="$2" root port servers=""
    shift 2
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    mkdir -p "$work/snippets"
    cp "$root"/deploy/nginx/onthemap-{http,proxy,events}.conf "$work/snippets/"
    for port in "$@"; do servers+="        server 127.0.0.1:$port max_fails=0;"$'\n'; done
    cat >"$work/nginx.conf" <<CONF
worker_processes 2;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx.err;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $work/body;
    proxy_temp_path $work/proxy;
    include $work/snippets/onthemap-http.conf;
    upstream onthemap {
$servers        keepalive 64;
    }
    server {
        listen 127.0.0.1:$nginx_port;
        location / { include $work/snippets/onthemap-proxy.conf; }
        location = /v1/StudentLocation/events {
            include $work/snippets/onthemap-proxy.conf;
            include $work/snippets/onthemap-events.conf;
        }
    }
}
CONF
}
