#!/usr/bin/env bash
# Installs what the project needs and is missing; installs nothing that is already there.
#   scripts/setup/install-deps.sh run    what `make run` needs
#   scripts/setup/install-deps.sh test   what `make test` needs (adds curl, jq and sqlite3 for the CLI, crash and README tests,
#                                  Chromium, its driver and Selenium for the browser tests, PostgreSQL's server for
#                                  the throwaway clusters of scripts/test/postgres-test.sh, pg_auto_failover and PgBouncer
#                                  for scripts/test/failover/; Schemathesis and axe-core from PyPI under .build)
#   scripts/setup/install-deps.sh bench  what `make bench` needs (wrk, a C compiler for the streams load client, and the browser for the web client's figures)
set -euo pipefail

purpose="${1:-run}"

# Swift is not packaged for Debian 12: it must already be on the machine (it is at /opt/swift here).
if ! command -v swift >/dev/null 2>&1; then
    if [ -x /opt/swift/usr/bin/swift ]; then
        echo "Swift found at /opt/swift/usr/bin; add it to PATH (the Makefile does this for you)." >&2
    else
        echo "error: Swift 6.1 or newer is required and was not found. Install it from https://www.swift.org/install/linux/ and retry." >&2
        exit 1
    fi
fi

# Leaflet and markercluster (the map), and qrcode-generator (a course invite link's QR code), are
# served to the web client from Debian's packages; esbuild bundles
# and minifies its modules (make web-bundle).
packages=(ca-certificates git zlib1g-dev libsqlite3-dev libjs-leaflet libjs-leaflet.markercluster node-qrcode-generator esbuild)
# The CJK and Devanagari fonts let screenshots in Chinese, Japanese, Korean or Hindi show the text,
# not boxes (DejaVu has Arabic). Node runs the message-catalogue checks.
browser=(chromium chromium-driver python3-selenium fonts-wqy-zenhei fonts-lohit-deva nodejs)
case "$purpose" in
    run) ;;
    test) packages+=(curl jq procps sqlite3 e2fsprogs util-linux mount python3-venv postgresql postgresql-15-auto-failover pgbouncer nginx-light prometheus python3-prometheus-client "${browser[@]}") ;;
    bench) packages+=(curl jq wrk gcc libc6-dev sqlite3 iproute2 procps strace nginx-light postgresql postgresql-15-auto-failover pgbouncer python3-venv "${browser[@]}") ;;
    *) echo "usage: $0 run|test|bench" >&2; exit 2 ;;
esac

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ "${#missing[@]}" -gt 0 ]; then
    echo "Installing: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The PostgreSQL benchmark's reference app (FastAPI + asyncpg + orjson, PyPI), in a virtualenv of its own.
if [ "$purpose" = bench ]; then
    bench_venv="$(cd "$(dirname "$0")/../.." && pwd)/.build/venv-bench"
    if [ ! -x "$bench_venv/bin/uvicorn" ]; then
        echo "Installing the benchmark's reference app into $bench_venv"
        python3 -m venv "$bench_venv"
        "$bench_venv/bin/pip" install --quiet --disable-pip-version-check -r "$(cd "$(dirname "$0")/../.." && pwd)/scripts/bench/bench-reference/requirements.txt"
    fi
fi

# Schemathesis (PyPI) for `make api-fuzz`, in a virtualenv of its own under .build/.
if [ "$purpose" = test ]; then
    venv="$(cd "$(dirname "$0")/../.." && pwd)/.build/venv-test"
    if [ ! -x "$venv/bin/schemathesis" ]; then
        echo "Installing schemathesis into $venv"
        python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==4.32.5"
    fi
    # oidc-provider-mock (PyPI), a real OpenID Connect provider for the sign-in tests, with the
    # versions of its dependencies it was tested with, in a virtualenv of its own.
    oidc_venv="$(cd "$(dirname "$0")/../.." && pwd)/.build/venv-oidc"
    if [ ! -x "$oidc_venv/bin/oidc-provider-mock" ]; then
        echo "Installing oidc-provider-mock into $oidc_venv"
        python3 -m venv "$oidc_venv"
        "$oidc_venv/bin/pip" install --quiet --disable-pip-version-check -r "$(cd "$(dirname "$0")/../.." && pwd)/scripts/test/oidc/requirements.txt"
    fi
    # lti1p3platform (PyPI), a real LTI 1.3 platform for the LTI tests, served by FastAPI and
    # uvicorn (scripts/test/lti/lti_platform.py), with the versions it was tested with, in a
    # virtualenv of its own. The browser checks run on Debian's python3 (python3-selenium).
    lti_venv="$(cd "$(dirname "$0")/../.." && pwd)/.build/venv-lti"
    if [ ! -x "$lti_venv/bin/uvicorn" ]; then
        echo "Installing lti1p3platform into $lti_venv"
        python3 -m venv "$lti_venv"
        "$lti_venv/bin/pip" install --quiet --disable-pip-version-check -r "$(cd "$(dirname "$0")/../.." && pwd)/scripts/test/lti/requirements.txt"
    fi
    # axe-core for the browser tests' accessibility checks: the PyPI wheel of axe-playwright-python
    # 0.1.8 bundles axe 4.12.1 (only its axe.min.js is used; the package itself is not installed).
    axe_dir="$(cd "$(dirname "$0")/../.." && pwd)/.build/axe"
    if [ ! -f "$axe_dir/axe.min.js" ]; then
        echo "Fetching axe-core into $axe_dir"
        "$venv/bin/pip" download --quiet --disable-pip-version-check --no-deps -d "$axe_dir" "axe-playwright-python==0.1.8"
        "$venv/bin/python" -c 'import glob, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/axe_playwright_python-0.1.8-*.whl")[0]
open(sys.argv[1] + "/axe.min.js", "wb").write(zipfile.ZipFile(wheel).read("axe_playwright_python/axe.min.js"))' "$axe_dir"
    fi
fi
