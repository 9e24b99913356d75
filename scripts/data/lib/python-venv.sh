#!/usr/bin/env bash
# Prints the Python of the data builds' virtual environment (.build-geodata/venv), made and filled
# with the pinned packages of scripts/data/geodata/requirements.txt on first use. Used by `make geodata`
# and `make basemap`; development time only (needs PyPI).
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
venv="$root/.build-geodata/venv"
if ! python3 -c "import venv, ensurepip" 2>/dev/null; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv >&2
fi
[ -x "$venv/bin/python" ] || python3 -m venv "$venv" >&2
"$venv/bin/pip" install -q --disable-pip-version-check --no-deps -r "$root/scripts/data/geodata/requirements.txt" >&2
echo "$venv/bin/python"
