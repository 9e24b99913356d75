#!/usr/bin/env bash
# Bundles and minifies the web client's modules (Debian's esbuild) into Public/bundle/, which the
# server serves instead of the modules while it is current (WebClient/WebBundle.swift):
#   bundle/main-<hash>.js      the boot: every module main.js imports
#   bundle/chunk-<hash>.js     what the boot shares with the map's screens
#   bundle/map-screens-<hash>.js  the pin map and the post flow, loaded when a map is wanted
#   bundle/*.js.map            source maps: the browser's tools show the modules as written
#   bundle/meta.json           esbuild's metafile: which file imports which
#   bundle/sources.sha256      the digest of every module it was made from
# The catalogues (js/locales/, but English, which i18n.js imports) and the basemap's worker stay
# files of their own: a reader loads one catalogue, and a worker is a script of its own.
# Without esbuild it says so and leaves the modules to be served as they are (correct, slower on
# a phone network). Nothing is written when the bundle is already current.
set -euo pipefail
# This script's own digest: a change of how the bundle is made makes it again.
recipe="$(sha256sum < "$0")"
cd "$(dirname "$0")/../../Sources/OnTheMapServer/Public"

sources() { find js -name '*.js' | LC_ALL=C sort; }

if [ -f bundle/sources.sha256 ] && [ -f bundle/meta.json ] && [ "$(cat bundle/recipe 2>/dev/null)" = "$recipe" ] \
    && [ "$(sources)" = "$(awk '{ print $2 }' bundle/sources.sha256)" ] && sha256sum --status -c bundle/sources.sha256; then
    exit 0
fi
if ! command -v esbuild >/dev/null 2>&1; then
    echo "note: esbuild not found (Debian's esbuild; make deps installs it): the web client's modules are served unbundled" >&2
    rm -rf bundle
    exit 0
fi
rm -rf bundle.tmp
esbuild js/main.js --bundle --splitting --format=esm --minify --sourcemap --log-level=warning \
    --outdir=bundle.tmp --entry-names='[name]-[hash]' --chunk-names='[name]-[hash]' --metafile=bundle.tmp/meta.json
sources | xargs sha256sum > bundle.tmp/sources.sha256
echo "$recipe" > bundle.tmp/recipe
rm -rf bundle
mv bundle.tmp bundle
