#!/usr/bin/env bash
# `make basemap`: rebuilds the web client's committed Natural Earth basemap.
# Development time only. Natural Earth comes from Debian's libmagics++-data package (pinned below;
# unpacked in .build-basemap, never installed). Running it twice gives identical bytes.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$root/.build-basemap"
package="libmagics++-data"
version="4.13.0-1"
sha256="0d199e0bb9faeb05bb77939c2112d49424b89d66026a727cf3afb95261cd64b0"
out="$root/Sources/OnTheMapServer/Web/basemap/natural-earth.json"

mkdir -p "$work"
deb="$work/${package}_${version}_all.deb"
if [ ! -f "$deb" ]; then
    (cd "$work" && apt-get download "$package=$version")
fi
echo "$sha256  $deb" | sha256sum --check --quiet
rm -rf "$work/unpacked" && dpkg-deb -x "$deb" "$work/unpacked"
mkdir -p "$(dirname "$out")"
/usr/bin/python3 "$root/scripts/basemap/build.py" "$work/unpacked/usr/share/magics" "$out"
echo "wrote $out ($(wc -c < "$out") bytes)"
