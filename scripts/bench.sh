#!/usr/bin/env bash
# `make bench`: every benchmark on release builds, written to BENCHMARKS.md with machine and date.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
http="$("$root/scripts/bench-http.sh" "$root/.build/release/onthemap")"
geocoder="$("$root/.build/release/geocode-bench" 3)"
{
    echo "# Benchmarks"
    echo
    echo "Written by \`make bench\`. Numbers from a shared machine: compare runs on the same machine only."
    echo
    echo "$http"
    echo
    echo "$geocoder"
} >"$root/BENCHMARKS.md"
cat "$root/BENCHMARKS.md"
