#!/usr/bin/env bash
# `make bench`: every benchmark on release builds, written to BENCHMARKS.md with machine and date.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
http="$("$root/scripts/bench/bench-http.sh" "$root/.build/release/onthemap")"
data_path="$("$root/scripts/bench/bench-data-path.sh" "$root/.build/release/onthemap")"
edge="$("$root/scripts/bench/bench-edge.sh" "$root/.build/release/onthemap")"
hostile="$("$root/scripts/bench/bench-hostile-json.sh" "$root/.build/release/onthemap")"
cluster="$("$root/scripts/bench/bench-cluster.sh" "$root/.build/release/onthemap")"
failover="$("$root/scripts/bench/bench-failover.sh" "$root/.build/release/onthemap")"
pgbouncer="$("$root/scripts/bench/bench-pgbouncer.sh" "$root/.build/release/onthemap")"
replicas="$("$root/scripts/bench/bench-replicas.sh" "$root/.build/release/onthemap")"
postgres="$("$root/scripts/bench/bench-postgres.sh" "$root/.build/release/onthemap")"
writes="$("$root/scripts/bench/bench-writes.sh" "$root/.build/release/onthemap")"
courses="$("$root/scripts/bench/bench-courses.sh" "$root/.build/release/onthemap")"
streams="$("$root/scripts/bench/bench-streams.sh" "$root/.build/release/onthemap")"
geocoder="$("$root/.build/release/geocode-bench" 3)"
# Debian's python3 sees python3-selenium (a python3 earlier on PATH may not).
web="$(/usr/bin/python3 "$root/scripts/test/browser/bench_web_client.py" "$root/.build/release/onthemap" 5)"
kit="$("$root/scripts/bench/bench-kit.sh" "$root/.build/release/onthemap")"
first_visit="$(/usr/bin/python3 "$root/scripts/test/browser/bench_first_visit.py" "$root/.build/release/onthemap" 3)"
# Before-and-after comparisons of past changes (scripts/bench/bench-compare.sh) are kept as they are.
kept_heading="## Before and after: changes that must not cost speed"
kept="$(sed -n "/^$kept_heading\$/,\$p" "$root/BENCHMARKS.md" 2>/dev/null || true)"
{
    echo "# Benchmarks"
    echo
    echo "Written by \`make bench\`. Numbers from a shared machine: compare runs on the same machine only."
    echo
    echo "$http"
    echo
    echo "$data_path"
    echo
    echo "$edge"
    echo
    echo "$hostile"
    echo
    echo "$cluster"
    echo
    echo "$failover"
    echo
    echo "$pgbouncer"
    echo
    echo "$replicas"
    echo
    echo "$postgres"
    echo
    echo "$writes"
    echo
    echo "$courses"
    echo
    echo "$streams"
    echo
    echo "$geocoder"
    echo
    echo "$web"
    echo
    echo "$first_visit"
    echo
    echo "$kit"
    if [ -n "$kept" ]; then echo; echo "$kept"; fi
} >"$root/BENCHMARKS.md"
cat "$root/BENCHMARKS.md"
