#!/usr/bin/env bash
# `make basemap`: rebuilds the web client's committed Natural Earth basemap.
# Development time only. Natural Earth comes from Debian's libmagics++-data package (pinned in
# scripts/lib/natural-earth-deb.sh). Running it twice gives identical bytes.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$root/Sources/OnTheMapServer/Web/basemap/natural-earth.json"
source_dir="$("$root/scripts/lib/natural-earth-deb.sh")"
mkdir -p "$(dirname "$out")"
/usr/bin/python3 "$root/scripts/basemap/build.py" "$source_dir" "$out"
echo "wrote $out ($(wc -c < "$out") bytes)"
