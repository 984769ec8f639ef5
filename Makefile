# Borealis. The two set-up commands are `make run` and `make test`; both install what they
# need first (npm packages, then the native tools in .cache/ and the Python venv in .venv/).
# See README.md and docs/DEVELOPMENT.md.

SHELL := /bin/bash
.DEFAULT_GOAL := help

# Local binaries without npx's wrapper process: npx does not pass SIGTERM on to its child, and
# `make run` must stop cleanly on it.
TSX := node_modules/.bin/tsx

.PHONY: help install deps tools ui generate check-generated lint deps-graph domain-pairs repository-tables typecheck run token coverage fuzz bench bench-pipeline bench-console bench-portal bench-shapes chaos test vitest

help:
	@echo "make run      start Postgres, Temporal, the worker and the API on :8000 (PORT=...), with a demo org and token"
	@echo "make test     install, lint, deps-graph, typecheck, check-generated, vitest, fuzz; ends with 'N passed, N failed'"
	@echo "make chaos    kill -9 the APIs, workers, Temporal and Postgres under load, then check the books (CHAOS_DURATION_S=120)"
	@echo "other targets: install ui generate check-generated lint deps-graph domain-pairs repository-tables typecheck vitest fuzz coverage bench bench-pipeline bench-console bench-portal bench-shapes token"

# npm packages: `npm ci` when node_modules is missing or older than the lock file.
node_modules/.package-lock.json: package-lock.json package.json
	npm ci --no-audit --no-fund
	@touch $@

deps: node_modules/.package-lock.json

# The merchant console (admin/) is its own npm package (react-admin, MUI, recharts: kept out of the
# API's dependencies): `npm ci` in admin/ when its node_modules is missing or older than its lock
# file. `make ui` builds it (with the other browser apps of server/ui-apps.ts).
admin/node_modules/.package-lock.json: admin/package-lock.json admin/package.json
	npm ci --prefix admin --no-audit --no-fund
	@touch $@

# Polar's framework integrations that test/integrations/ runs unchanged (@polar-sh/express with
# express 4, @polar-sh/nextjs with next, @polar-sh/better-auth with the 0.47 client) are their own
# npm package: their peers conflict with the root's (express 5, the 0.34 client).
test/integrations/node_modules/.package-lock.json: test/integrations/package-lock.json test/integrations/package.json
	npm ci --prefix test/integrations --no-audit --no-fund
	@touch $@

install: deps tools admin/node_modules/.package-lock.json test/integrations/node_modules/.package-lock.json

tools:
	@bash scripts/build-tools.sh

# The browser apps of server/ui-apps.ts, built with Vite when their sources changed.
ui: deps admin/node_modules/.package-lock.json
	@$(TSX) scripts/build-ui.ts

generate: deps
	$(TSX) codegen/generate.ts
	$(TSX) codegen/config-docs.ts

# Lints the contract (redocly) and checks generated/ is what `make generate` would write.
check-generated: deps
	@bash codegen/check-fresh.sh

# eslint's rules, then Prettier's formatting (.prettierrc.json) over the whole tree.
lint: deps
	node_modules/.bin/eslint .
	node_modules/.bin/prettier --check --log-level warn .

# The import graph: no circles, server/ never imports workflow code or activities (.dependency-cruiser.cjs).
deps-graph: deps
	node_modules/.bin/depcruise server workflows scripts bench codegen emails --config .dependency-cruiser.cjs --output-type err

# Measures (does not enforce): each pair of server/<domain>/ folders that import each other, and the count.
domain-pairs: deps
	@$(TSX) scripts/domain-pairs.ts

# Fails on a repository statement started on another domain's table (scripts/repository-tables.ts declares each table's owner).
repository-tables: deps
	@$(TSX) scripts/repository-tables.ts

typecheck: deps admin/node_modules/.package-lock.json test/integrations/node_modules/.package-lock.json
	node_modules/.bin/tsc --noEmit -p tsconfig.json
	admin/node_modules/.bin/tsc --noEmit -p admin/tsconfig.json

run: install ui
	@exec $(TSX) scripts/run.ts

token: deps
	@$(TSX) server/cli/token.ts

coverage: deps
	$(TSX) codegen/coverage.ts

fuzz: install
	$(TSX) scripts/fuzz.ts

bench: deps
	$(TSX) bench/run.ts

# The request pipelines of issue 33 (Express with generated routes, Fastify 5) against node+pg, interleaved.
bench-pipeline: deps
	$(TSX) bench/pipeline.ts

# The console's budgets: its JavaScript gzipped, and the API calls each list page makes (counts, not times).
bench-console: deps ui
	LOG_LEVEL=warn $(TSX) bench/console.ts

# toProduct built with Object.assign vs with spread-then-properties, ns/op and the ratio (no database).
bench-shapes: deps
	$(TSX) bench/object-shapes.ts

# The hosted checkout's budgets in Chromium: JS size, navigation → interactive pay button (vs a baseline page), API calls.
bench-portal: install
	LOG_LEVEL=$${LOG_LEVEL:-warn} $(TSX) bench/portal.ts

# docs/RELIABILITY.md; a short form runs in make test (test/chaos/chaos.test.ts).
chaos: install
	@$(TSX) scripts/chaos.ts

# The test suites alone (Postgres and Temporal are started by test/setup/global.ts).
vitest: install
	node_modules/.bin/vitest run

# Everything, each step even if an earlier one failed; the last line is "N passed, N failed".
test:
	@bash scripts/test-all.sh
