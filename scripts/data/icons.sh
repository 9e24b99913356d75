#!/usr/bin/env bash
# `make icons`: the web app's PNG icons, drawn from their SVGs with Debian's rsvg-convert, for the
# manifest (192 and 512 px, plain and maskable) and iOS's home screen (180 px). The PNGs are
# committed; run this after changing icon.svg or icons/maskable.svg.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
web="$root/Sources/OnTheMapServer/Public"
if ! command -v rsvg-convert >/dev/null; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends librsvg2-bin
fi
for size in 192 512; do
    rsvg-convert -w "$size" -h "$size" "$web/icon.svg" -o "$web/icons/icon-$size.png"
    # Maskable: the background fills the square and the pin keeps to the middle 80%, the part
    # every platform's mask leaves.
    rsvg-convert -w "$size" -h "$size" "$web/icons/maskable.svg" -o "$web/icons/maskable-$size.png"
done
rsvg-convert -w 180 -h 180 "$web/icons/maskable.svg" -o "$web/icons/apple-touch-icon.png"
ls -l "$web/icons"
