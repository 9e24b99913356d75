#!/usr/bin/env bash
# Prints the folder of Natural Earth shapefiles (10m, 50m, 110m) unpacked from Debian's
# libmagics++-data, pinned by version and SHA-256. Downloaded once into .build-naturalearth and
# never installed. Used by `make basemap` and `make geodata`.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
work="$root/.build-naturalearth"
package="libmagics++-data"
version="4.13.0-1"
sha256="0d199e0bb9faeb05bb77939c2112d49424b89d66026a727cf3afb95261cd64b0"

mkdir -p "$work"
deb="$work/${package}_${version}_all.deb"
if [ ! -f "$deb" ]; then
    (cd "$work" && apt-get download "$package=$version" >&2)
fi
echo "$sha256  $deb" | sha256sum --check --quiet >&2
if [ ! -f "$work/unpacked/.complete-$sha256" ]; then
    rm -rf "$work/unpacked" && dpkg-deb -x "$deb" "$work/unpacked"
    touch "$work/unpacked/.complete-$sha256"
fi
echo "$work/unpacked/usr/share/magics"
