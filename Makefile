# Borealis. The two set-up commands are `make run` and `make test`; both install what they
# need first (npm packages, then the native tools in .cache/ and the Python venv in .venv/).
# See README.md and docs/DEVELOPMENT.md.

SHELL := /bin/bash
.DEFAULT_GOAL := help

# Local binaries without npx's wrapper process: npx does not pass SIGTERM on to its child, and
# `make run` must stop cleanly on it.
TSX := node_modules/.bin/tsx

.PHONY: help install deps tools generate check-generated lint typecheck run token coverage fuzz bench chaos test vitest

help:
	@echo "make run      start Postgres, Temporal, the worker and the API on :8000 (PORT=...), with a demo org and token"
	@echo "make test     install, lint, typecheck, check-generated, vitest, fuzz; ends with 'N passed, N failed'"
	@echo "make chaos    kill -9 the APIs, workers, Temporal and Postgres under load, then check the books (CHAOS_DURATION_S=120)"
	@echo "other targets: install generate check-generated lint typecheck vitest fuzz coverage bench token"

# npm packages: `npm ci` when node_modules is missing or older than the lock file.
node_modules/.package-lock.json: package-lock.json package.json
	npm ci --no-audit --no-fund
	@touch $@

deps: node_modules/.package-lock.json

install: deps tools

tools:
	@bash scripts/build-tools.sh

generate: deps
	$(TSX) codegen/generate.ts

# Lints the contract (redocly) and checks generated/ is what `make generate` would write.
check-generated: deps
	@bash codegen/check-fresh.sh

lint: deps
	node_modules/.bin/eslint .

typecheck: deps
	node_modules/.bin/tsc --noEmit -p tsconfig.json

run: install
	@exec $(TSX) scripts/run.ts

token: deps
	@$(TSX) server/cli/token.ts

coverage: deps
	$(TSX) codegen/coverage.ts

fuzz: install
	$(TSX) scripts/fuzz.ts

bench: deps
	$(TSX) bench/run.ts

# docs/RELIABILITY.md; a short form runs in make test (test/chaos/chaos.test.ts).
chaos: install
	@$(TSX) scripts/chaos.ts

# The test suites alone (Postgres and Temporal are started by test/setup/global.ts).
vitest: install
	node_modules/.bin/vitest run

# Everything, each step even if an earlier one failed; the last line is "N passed, N failed".
test:
	@bash scripts/test-all.sh
