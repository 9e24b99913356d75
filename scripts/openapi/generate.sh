#!/usr/bin/env bash
# Generates OnTheMapKit's types and client from the server's OpenAPI document with the pinned
# swift-openapi-generator. `generate.sh` writes Sources/OnTheMapKit/Generated; `generate.sh --check`
# generates into a temporary folder and fails, showing the difference, when the committed code is
# not what today's document gives (the document changed and the code was not regenerated, or the
# generated files were edited by hand).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
document="$root/Sources/OnTheMapServer/Public/openapi.json"
committed="$root/Sources/OnTheMapKit/Generated"

# A debug build: it compiles in half the time of a release one and still generates in under a second.
swift build --package-path "$here" --scratch-path "$root/.build-openapi" --product swift-openapi-generator >&2
generator="$root/.build-openapi/debug/swift-openapi-generator"

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# The client is generated from the document as a client reads it: `additionalProperties: false`
# describes what this server sends (Schemathesis holds it to that), but a client that refused a
# field it does not know would break every installed app the day the server adds one. Dropping it
# also spares decoding each object's keys twice (a fifth of a list's decoding time).
python3 - "$document" "$out/openapi.json" <<'PYTHON'
import json, sys
def lenient(node):
    if isinstance(node, dict):
        if node.get("additionalProperties") is False:
            del node["additionalProperties"]
        for value in node.values(): lenient(value)
    elif isinstance(node, list):
        for value in node: lenient(value)
    return node
with open(sys.argv[1]) as source, open(sys.argv[2], "w") as target:
    json.dump(lenient(json.load(source)), target, indent=1, ensure_ascii=False)
PYTHON
"$generator" generate --config "$here/openapi-generator-config.yaml" --output-directory "$out" "$out/openapi.json" \
    > "$out.log" 2>&1 || { cat "$out.log" >&2; rm -f "$out.log"; exit 1; }
rm -f "$out.log" "$out/openapi.json"
if [[ "${1:-}" == "--check" ]]; then
    if ! difference="$(diff -ru "$committed" "$out" 2>&1)"; then
        head -60 <<< "$difference" >&2
        echo "Sources/OnTheMapKit/Generated is stale: run 'make client-code' and commit the result." >&2
        exit 1
    fi
    echo "OnTheMapKit's generated code matches openapi.json."
else
    mkdir -p "$committed"
    rm -f "$committed"/*.swift
    cp "$out"/*.swift "$committed"/
    echo "Wrote $(ls "$committed" | wc -l) files to Sources/OnTheMapKit/Generated."
fi
