# mcpgauge: every target calls a zx stage script in scripts/; the scripts call the library.
# Dependencies install themselves when node_modules is missing or stale.
SHELL := /bin/bash
NODE ?= node

.PHONY: all deps build bench-discovery gate lint test test-quick prepare-tests freeze fetch bench-perf fixture-image typecheck clean sample-report screenshot

all: bench-discovery

deps: node_modules/.mcpgauge-installed

node_modules/.mcpgauge-installed: package.json package-lock.json
	@if [ -L node_modules ]; then echo "deps: node_modules is a symlink (to $$(readlink node_modules)): npm ci would empty the folder it points to; install there, or touch $@ if it is current" >&2; exit 2; fi
	@echo "deps: npm ci (the npm registry; ~45 s on a first run) ..." >&2
	@start=$$(date +%s); $(NODE) scripts/lib/heartbeat.mjs 'deps: npm ci' -- npm ci --no-audit --no-fund --loglevel=error && echo "deps: node_modules/ installed in $$(( $$(date +%s) - start )) s" >&2
	@touch $@

## Compile pipeline/**/*.ts and arms/**/*.ts to dist/ (tsc; scripts/build.mjs) when dist/ is missing or older than
## the sources; every target that runs code depends on it (the bins and spawned processes run dist/)
SOURCES := $(shell find pipeline arms -name '*.ts') tsconfig.json tsconfig.build.json package.json scripts/lib/bundle.mjs
build: dist/BUILD.json

dist/BUILD.json: node_modules/.mcpgauge-installed $(SOURCES)
	$(NODE) scripts/build.mjs
	@touch $@

## The main job: offline profile + live stage against the embedded default; writes results/
bench-discovery: deps build
	$(NODE) scripts/bench-discovery.mjs $(ARGS)

## Release gate: try to break the proxy build (cells x steps); writes results/gate/. Exit 0/1/2, passed
## through unchanged: make itself turns any failing recipe into 2, so `make gate` runs the gate while the
## Makefile is read (its output on stderr) and then exits with the gate's code: 0 green; 1 red (make's -q
## status, nothing else runs); anything else stops make with the gate's code in the message (make exits 2).
ifeq ($(MAKECMDGOALS),gate)
GATE_EXIT := $(shell { $(MAKE) -s --no-print-directory deps build && $(NODE) scripts/fixture-image.mjs --if-engine --no-smoke && $(NODE) scripts/gate.mjs $(ARGS); } >&2; echo $$?)
ifeq ($(GATE_EXIT),1)
MAKEFLAGS += -q
else ifneq ($(GATE_EXIT),0)
$(error mcpgauge gate exited $(GATE_EXIT) (2 = could not run as asked, 130/143 = interrupted))
endif
endif
gate:
	@exit 0

## Lint and format check (Biome, biome.json); the first thing make test runs
lint: deps
	./node_modules/.bin/biome ci --reporter=summary .

## The test suite (node:test; each file bundled by esbuild, scripts/lib/test-bundle.mjs), after the lint
test: deps build lint
	$(NODE) scripts/test.mjs $(ARGS)

## The suite's one-time builds made ahead, all at once (toxiproxy, actionlint, the conformance peer, the
## lap-score venv, the fixture image; scripts/prepare-tests.mjs): .ci/run runs it before make test
prepare-tests: deps build
	$(NODE) scripts/prepare-tests.mjs

## The unit layer only (scripts/lib/test-layers.mjs UNIT: no process, server, socket or browser; 40-50 s), for the inner loop
test-quick: deps build
	$(NODE) scripts/test-quick.mjs

## Boot the reference MCP servers over stdio and freeze a new versioned corpus into datasets/
freeze: deps build
	$(NODE) scripts/freeze.mjs $(ARGS)

## Fetch LiveMCPTool / ToolRet into .cache/ (FROM=dir uses an offline mirror)
fetch: deps build
	$(NODE) scripts/fetch.mjs $(ARGS)

## Regenerate test/data/report.json (the renderer/validator test report) from a real run
sample-report: deps build
	$(NODE) scripts/sample-report.mjs

## docs/img/dashboard.png, the README's picture: the dashboard of test/data/report.json in Debian Chromium
screenshot: deps build
	$(NODE) scripts/screenshot.mjs

## Speed and memory benchmarks, printed as ratios against a peer in the same run
bench-perf: deps build
	$(NODE) scripts/bench-perf.mjs $(ARGS)

## Build the fixture image mcpfixture:local (needs a Docker engine; without a registry a local base is made)
fixture-image: deps build
	$(NODE) scripts/fixture-image.mjs $(ARGS)

typecheck: deps
	npx tsc --noEmit -p .

clean:
	rm -rf results .cache .tmp
