#!/usr/bin/env bash
# Fails (exit 1) when the contract does not lint clean (redocly, rules in redocly.yaml) or when
# generated/ is not what codegen/generate.ts makes from openapi/ right now, or when README.md's
# configuration tables are not what codegen/config-docs.ts makes from server/config.ts. `make check-generated`
# and the check-generated step of `make test` run it. Usage: codegen/check-fresh.sh (from anywhere)
set -euo pipefail
cd "$(dirname "$0")/.."
# The local binaries, not npx: npx adds a wrapper process and its "npm warn" noise.
node_modules/.bin/redocly lint openapi/openapi.yaml --format=summary
node_modules/.bin/tsx codegen/generate.ts --check
node_modules/.bin/tsx codegen/config-docs.ts --check
