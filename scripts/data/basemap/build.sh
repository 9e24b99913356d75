#!/usr/bin/env bash
# `make basemap`: rebuilds the web client's committed offline basemap (Public/basemap): geometry by
# zoom and place from Natural Earth (Debian's libmagics++-data, pinned in
# scripts/data/lib/natural-earth-deb.sh), names by language from Natural Earth, iso-codes and the
# gazetteer (run `make geodata` first when that changed). Development time only. Running it twice
# gives identical bytes.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
out="$root/Sources/OnTheMapServer/Public/basemap"
python="$("$root/scripts/data/lib/python-venv.sh")"
"$python" "$root/scripts/data/basemap/build.py" "$("$root/scripts/data/lib/natural-earth-deb.sh")" "$out" \
    "$root/Sources/OnTheMapGeocoder/Resources"
echo "wrote $out: $(find "$out" -name '*.json' | wc -l) files, $(du -sh "$out" | cut -f1)"
for file in world.json labels/en/countries.json labels/en/regions.json; do
    echo "  $file: $(wc -c < "$out/$file") bytes, $(gzip -9 -c "$out/$file" | wc -c) gzipped"
done
