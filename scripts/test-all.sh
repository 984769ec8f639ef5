#!/usr/bin/env bash
# `make test`: install, then lint (ESLint and Prettier), typecheck, check-generated, the vitest suites and the fuzz run.
# Every step runs even when an earlier one failed, so the summary is complete. The last line is
# the one summary of the whole run:
#
#   N passed, N failed[, N skipped]
#
# counting each vitest test, each fuzzed operation, and lint / deps-graph / typecheck / check-generated as
# one each. Exits non-zero if anything failed. Step logs: .cache/test-results/.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
RESULTS=.cache/test-results
mkdir -p "$RESULTS"
rm -f "$RESULTS"/vitest*.json "$RESULTS"/fuzz.json

PASSED=0
FAILED=0
SKIPPED=0
ROWS=()
START=$SECONDS

banner() { printf '\n==== %s ====\n' "$*"; }
row() { ROWS+=("$(printf '%-16s %-6s %6ss  %s' "$1" "$2" "$3" "$4")"); }

# --- install: nothing else can run without it ---------------------------------------------------
banner "install: make install"
t=$SECONDS
if ! make --no-print-directory -j4 install; then
  row install FAILED $((SECONDS - t)) ""
  printf '\n==== summary ====\n%s\n' "${ROWS[@]}"
  echo "0 passed, 1 failed"
  exit 1
fi
row install ok $((SECONDS - t)) "(not counted)"

# --- one-count steps, at once (each mostly one core; they read and write nothing the others do) ---
CHECKS=(
  # Lint and format: ESLint, then Prettier over the whole tree.
  "lint|node_modules/.bin/eslint . && node_modules/.bin/prettier --check --log-level warn ."
  # The import rules of .dependency-cruiser.cjs: no circles, the server reaches Temporal through one door.
  "deps-graph|node_modules/.bin/depcruise server workflows scripts bench codegen emails --config .dependency-cruiser.cjs --output-type err"
  "typecheck|node_modules/.bin/tsc --noEmit -p tsconfig.json"
  "typecheck-admin|admin/node_modules/.bin/tsc --noEmit -p admin/tsconfig.json"
  # check-generated lints the contract (redocly) too, then compares generated/ with a fresh run.
  "check-generated|bash codegen/check-fresh.sh"
)
for check in "${CHECKS[@]}"; do
  name=${check%%|*}
  (
    s=$SECONDS
    bash -c "${check#*|}" >"$RESULTS/$name.log" 2>&1
    echo "$? $((SECONDS - s))" >"$RESULTS/$name.rc"
  ) &
done
wait
for check in "${CHECKS[@]}"; do
  name=${check%%|*}
  banner "$name: ${check#*|}"
  cat "$RESULTS/$name.log"
  read -r rc secs <"$RESULTS/$name.rc"
  if [ "$rc" = 0 ]; then
    PASSED=$((PASSED + 1))
    row "$name" ok "$secs" ""
  else
    FAILED=$((FAILED + 1))
    row "$name" FAILED "$secs" "exit $rc"
  fi
done

# --- vitest: every test counts ------------------------------------------------------------------
# Each project (vitest.config.ts) with the files it can run at once on this 2-core machine.
# A fresh clone on CI keeps no screenshots: the browser suites check every screen without writing them.
if [ "${CI:-}" = true ]; then export SCREENSHOTS=${SCREENSHOTS:-0}; fi
banner "vitest: vitest run --project api|browser|alone"
t=$SECONDS
vrc=0
for run in api:3 browser:2 alone:1; do
  name=${run%%:*}
  VITEST_MAX_WORKERS=${run##*:} node_modules/.bin/vitest run --project "$name" --reporter=default --reporter=json \
    --outputFile.json="$RESULTS/vitest-$name.json" || vrc=$?
done
read -r vp vf vs vnote < <(node 2>"$RESULTS/vitest-failed.txt" -e '
  const fs = require("fs");
  const rc = Number(process.argv[1]);
  let [passed, failed, skipped, brokenFiles, tests] = [0, 0, 0, 0, 0];
  const notes = [];
  for (const file of process.argv.slice(2)) {
    let r;
    try { r = JSON.parse(fs.readFileSync(file, "utf8")); } catch { r = undefined; }
    if (!r) { failed += 1; notes.push(`no-json-report:${file.split("/").pop()}`); continue; }
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests || 0);
    tests += r.numTotalTests;
    // Which ones, on stderr: the summary prints them, where the tail of a log shows them. A file
    // that failed without a failing test (import error, hook failure) counts as one failure.
    for (const f of r.testResults || []) {
      const name = f.name.replace(process.cwd() + "/", "");
      const bad = (f.assertionResults || []).filter((a) => a.status === "failed");
      if (f.status === "failed" && !bad.length) {
        brokenFiles += 1;
        console.error(`${name}: ${(f.message || "did not run").split("\n")[0].slice(0, 160)}`);
      }
      for (const a of bad) console.error(`${name} > ${a.fullName}`.slice(0, 200));
    }
  }
  failed += brokenFiles;
  if (brokenFiles) notes.push(`${brokenFiles}-file(s)-failed-to-run`);
  if (rc !== 0 && failed === 0) { failed = 1; notes.push(`exit-${rc}`); }
  if (tests === 0 && failed === 0) { failed = 1; notes.push("no-tests-ran"); }
  console.log(`${passed} ${failed} ${skipped} ${notes.join(",") || "-"}`);
' "$vrc" "$RESULTS"/vitest-{api,browser,alone}.json)
PASSED=$((PASSED + vp)); FAILED=$((FAILED + vf)); SKIPPED=$((SKIPPED + vs))
row vitest "$([ "$vf" = 0 ] && echo ok || echo FAILED)" $((SECONDS - t)) "$vp passed, $vf failed, $vs skipped$([ "$vnote" != "-" ] && echo " ($vnote)")"

# --- fuzz: every fuzzed operation counts --------------------------------------------------------
banner "fuzz: scripts/fuzz.ts"
t=$SECONDS
node_modules/.bin/tsx scripts/fuzz.ts
frc=$?
read -r fp ff fs < <(node -e '
  const fs = require("fs");
  let r;
  try { r = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); } catch { r = undefined; }
  const rc = Number(process.argv[2]);
  if (!r) { console.log(`0 1 0`); process.exit(0); }
  let failed = r.failed;
  if (rc !== 0 && failed === 0) failed = 1;
  console.log(`${r.passed} ${failed} ${r.skipped}`);
' "$RESULTS/fuzz.json" "$frc")
PASSED=$((PASSED + fp)); FAILED=$((FAILED + ff)); SKIPPED=$((SKIPPED + fs))
row fuzz "$([ "$ff" = 0 ] && echo ok || echo FAILED)" $((SECONDS - t)) "$fp operations passed, $ff failed, $fs skipped"

# --- summary ------------------------------------------------------------------------------------
printf '\n==== summary (%ss) ====\n' $((SECONDS - START))
printf '%s\n' "${ROWS[@]}"
if [ -s "$RESULTS/vitest-failed.txt" ]; then
  echo "failed tests:"
  sed 's/^/  /' "$RESULTS/vitest-failed.txt" | head -20
fi
if [ "$SKIPPED" -gt 0 ]; then
  echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
else
  echo "$PASSED passed, $FAILED failed"
fi
[ "$FAILED" -eq 0 ]
