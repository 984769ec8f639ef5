#!/usr/bin/env bash
# Fails (exit 1) when generated/ is not what codegen/generate.ts makes from openapi/ right now.
# Lints the contract first. Usage: codegen/check-fresh.sh   (from anywhere)
set -euo pipefail
cd "$(dirname "$0")/.."
npx --no-install redocly lint openapi/openapi.yaml --format=summary
npx --no-install tsx codegen/generate.ts --check
