#!/usr/bin/env bash
# Builds the native tools the stack and the test suites need, all cached under .cache/
# (and the Python venv under .venv/). Idempotent: a second run only checks and exits.
#
#   .cache/bin/temporal               Temporal CLI (dev server: `temporal server start-dev`)
#   .cache/bin/temporal-test-server   Java time-skipping test server (wrapper around .cache/temporal-test-server/lib)
#   .cache/bin/stripe-mock            Stripe API mock
#   .cache/bin/versitygw              S3-compatible server for the S3 file storage tests
#   .cache/bin/mailpit                SMTP server with a web inbox and API (email in `make run` and tests)
#   .venv/                            Python venv with schemathesis (scripts/requirements-fuzz.txt) and
#                                     Polar's Python client (scripts/requirements-sdk.txt)
#   /usr/bin/chromium-headless-shell  Debian's Chromium headless shell for the browser tests (apt-get, as root)
#
# Everything comes from the Go module proxy, Maven Central, PyPI and Debian's packages at build
# time; nothing is downloaded at run time. Logs of each build go to .cache/logs/.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
CACHE=$ROOT/.cache
BIN=$CACHE/bin
LOGS=$CACHE/logs
mkdir -p "$BIN" "$LOGS"

TEMPORAL_CLI_VERSION=v1.5.1          # later tags can't be `go install`ed (replace directives)
STRIPE_MOCK_VERSION=v0.203.0         # was @latest when pinned
VERSITYGW_VERSION=v1.8.0             # checks SigV4 presigned URLs, part checksums, bucket policies
TEMPORAL_TEST_SERVER_VERSION=1.38.0  # io.temporal:temporal-test-server, Java 8 bytecode, runs on JDK 17
SLF4J_VERSION=1.7.36                 # the slf4j-api that test server depends on
MAILPIT_VERSION=v1.33.1

say() { printf '[build-tools] %s\n' "$*"; }

# Runs "$@" with output to a log, printing a "still building" line every 20 s so that a slow
# cold build (the Temporal CLI takes several minutes on 2 cores) visibly makes progress.
run_logged() {
  local what=$1 log=$2
  shift 2
  local start=$SECONDS
  "$@" >"$log" 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
      kill -0 "$pid" 2>/dev/null || break
      sleep 1
    done
    if kill -0 "$pid" 2>/dev/null; then
      say "  still building $what… $((SECONDS - start))s, $(wc -l <"$log" | tr -d ' ') log lines (tail: $(tail -n 1 "$log" | cut -c1-80))"
    fi
  done
  if ! wait "$pid"; then
    say "FAILED building $what after $((SECONDS - start))s; last lines of $log:"
    tail -n 30 "$log" >&2
    return 1
  fi
  say "  built $what in $((SECONDS - start))s"
}

# True if the Go binary $1 was built from module $2 at version $3.
go_bin_is() {
  [ -x "$1" ] && go version -m "$1" 2>/dev/null | grep -Eq "^[[:space:]]+mod[[:space:]]+$2[[:space:]]+$3([[:space:]]|$)"
}

need() {
  command -v "$1" >/dev/null 2>&1 || { say "ERROR: '$1' is not installed (needed for $2)"; exit 1; }
}

# Waits for another process (e.g. a build started by hand) that is writing the same binary.
wait_for_other_go_install() {
  local pattern=$1
  while pgrep -f "$pattern" >/dev/null 2>&1; do
    say "  another '$pattern' is running; waiting for it…"
    sleep 10
  done
}

# --- (a) Temporal CLI --------------------------------------------------------------------------
build_temporal() {
  if go_bin_is "$BIN/temporal" github.com/temporalio/cli "$TEMPORAL_CLI_VERSION"; then
    say "temporal CLI $TEMPORAL_CLI_VERSION: cached ($BIN/temporal)"
    return
  fi
  need go "the Temporal CLI"
  wait_for_other_go_install "go install .*temporalio/cli/cmd/temporal"
  if go_bin_is "$BIN/temporal" github.com/temporalio/cli "$TEMPORAL_CLI_VERSION"; then
    say "temporal CLI $TEMPORAL_CLI_VERSION: built by the other process"
    return
  fi
  say "building temporal CLI $TEMPORAL_CLI_VERSION with go install (cold: ~4-8 min on 2 cores; log $LOGS/temporal-build.log)"
  run_logged "temporal CLI" "$LOGS/temporal-build.log" \
    env GOBIN="$BIN" go install -v "github.com/temporalio/cli/cmd/temporal@$TEMPORAL_CLI_VERSION"
}

# --- (b) Java time-skipping test server --------------------------------------------------------
build_test_server() {
  local dir=$CACHE/temporal-test-server
  local stamp=$dir/.version
  local wrapper=$BIN/temporal-test-server
  if [ -x "$wrapper" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$TEMPORAL_TEST_SERVER_VERSION+slf4j-$SLF4J_VERSION+cds" ] \
    && [ -f "$dir/lib/temporal-test-server-$TEMPORAL_TEST_SERVER_VERSION.jar" ]; then
    say "temporal-test-server $TEMPORAL_TEST_SERVER_VERSION: cached ($wrapper)"
    return
  fi
  need mvn "the Temporal test server"
  need java "the Temporal test server"
  say "fetching io.temporal:temporal-test-server:$TEMPORAL_TEST_SERVER_VERSION and its runtime deps with Maven (log $LOGS/temporal-test-server.log)"
  mkdir -p "$dir"
  rm -rf "$dir/lib" "$dir/classes.jsa" "$stamp"
  cat >"$dir/pom.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by scripts/build-tools.sh: only used to copy the test server and its deps into lib/. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.borealis</groupId>
  <artifactId>temporal-test-server-deps</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>io.temporal</groupId>
      <artifactId>temporal-test-server</artifactId>
      <version>$TEMPORAL_TEST_SERVER_VERSION</version>
    </dependency>
    <!-- A logger binding for the server's slf4j-api 1.7, so it does not warn on every start. -->
    <dependency>
      <groupId>org.slf4j</groupId>
      <artifactId>slf4j-nop</artifactId>
      <version>$SLF4J_VERSION</version>
    </dependency>
  </dependencies>
</project>
EOF
  run_logged "temporal-test-server" "$LOGS/temporal-test-server.log" \
    mvn -B -q -f "$dir/pom.xml" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$dir/lib"
  cat >"$wrapper" <<EOF
#!/bin/sh
# Temporal's Java test server (time-skipping). Usage: temporal-test-server PORT [--enable-time-skipping]
# Generated by scripts/build-tools.sh. With the class archive of its first run (CDS) and the
# first JIT tier only, the JVM listens in a fraction of the time (the SDK waits only 5 s).
lib=\$(cd "\$(dirname "\$0")/../temporal-test-server/lib" && pwd)
fast=""
[ -f "\$lib/../classes.jsa" ] && fast="-XX:SharedArchiveFile=\$lib/../classes.jsa -XX:TieredStopAtLevel=1"
exec java \$fast \${TEMPORAL_TEST_SERVER_JAVA_OPTS:-} -cp "\$lib/*" io.temporal.testserver.TestServer "\$@"
EOF
  chmod +x "$wrapper"
  verify_test_server "$dir/classes.jsa"
  echo "$TEMPORAL_TEST_SERVER_VERSION+slf4j-$SLF4J_VERSION+cds" >"$stamp"
}

# Starts the server once; on its exit the JVM writes the classes it loaded to $1 (a CDS archive).
verify_test_server() {
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  say "  verifying: starting temporal-test-server on port $port"
  TEMPORAL_TEST_SERVER_JAVA_OPTS="-XX:ArchiveClassesAtExit=$1" \
    "$BIN/temporal-test-server" "$port" --enable-time-skipping >"$LOGS/temporal-test-server-verify.log" 2>&1 &
  local pid=$! ok=""
  for _ in $(seq 1 60); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then ok=1; break; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 1
  done
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [ -z "$ok" ]; then
    say "ERROR: temporal-test-server did not listen on $port; log:"
    cat "$LOGS/temporal-test-server-verify.log" >&2
    exit 1
  fi
  say "  temporal-test-server listens: OK"
}

# --- (c) stripe-mock ---------------------------------------------------------------------------
build_stripe_mock() {
  if go_bin_is "$BIN/stripe-mock" github.com/stripe/stripe-mock "$STRIPE_MOCK_VERSION"; then
    say "stripe-mock $STRIPE_MOCK_VERSION: cached ($BIN/stripe-mock)"
    return
  fi
  need go "stripe-mock"
  say "building stripe-mock $STRIPE_MOCK_VERSION with go install (log $LOGS/stripe-mock-build.log)"
  run_logged "stripe-mock" "$LOGS/stripe-mock-build.log" \
    env GOBIN="$BIN" go install -v "github.com/stripe/stripe-mock@$STRIPE_MOCK_VERSION"
}

# --- (c2) versitygw (S3-compatible server, posix backend) --------------------------------------
build_versitygw() {
  if go_bin_is "$BIN/versitygw" github.com/versity/versitygw "$VERSITYGW_VERSION"; then
    say "versitygw $VERSITYGW_VERSION: cached ($BIN/versitygw)"
    return
  fi
  need go "versitygw"
  wait_for_other_go_install "go install .*versity/versitygw"
  say "building versitygw $VERSITYGW_VERSION with go install (log $LOGS/versitygw-build.log)"
  run_logged "versitygw" "$LOGS/versitygw-build.log" \
    env GOBIN="$BIN" go install -v "github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION"
}

# --- (c3) Mailpit (SMTP server + inbox; the API's email in make run and the tests) -------------
build_mailpit() {
  if go_bin_is "$BIN/mailpit" github.com/axllent/mailpit "$MAILPIT_VERSION"; then
    say "mailpit $MAILPIT_VERSION: cached ($BIN/mailpit)"
    return
  fi
  need go "Mailpit"
  wait_for_other_go_install "go install .*axllent/mailpit"
  say "building mailpit $MAILPIT_VERSION with go install (log $LOGS/mailpit-build.log)"
  run_logged "mailpit" "$LOGS/mailpit-build.log" \
    env GOBIN="$BIN" go install -v "github.com/axllent/mailpit@$MAILPIT_VERSION"
}

# --- (d) Python venv with schemathesis and polar-sdk -------------------------------------------
build_venv() {
  local reqs=("$ROOT/scripts/requirements-fuzz.txt" "$ROOT/scripts/requirements-sdk.txt")
  local stamp=$ROOT/.venv/.requirements.sha256
  local want
  want=$(cat "${reqs[@]}" | sha256sum | cut -d' ' -f1)
  if [ -x "$ROOT/.venv/bin/schemathesis" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    say "python venv (.venv, schemathesis, polar-sdk): cached"
    return
  fi
  need python3 "the Python venv"
  if [ ! -x "$ROOT/.venv/bin/python" ]; then
    say "creating python venv .venv"
    python3 -m venv "$ROOT/.venv"
  fi
  say "installing scripts/requirements-fuzz.txt and requirements-sdk.txt into .venv (log $LOGS/venv.log)"
  run_logged "python venv" "$LOGS/venv.log" \
    "$ROOT/.venv/bin/pip" install --disable-pip-version-check --no-input -r "${reqs[0]}" -r "${reqs[1]}"
  echo "$want" >"$stamp"
}

# --- (e) Chromium for the browser tests (test/browser/) -----------------------------------------
# Debian's headless shell (the same Blink without the browser's UI; a seventh less CPU in the console
# suites), driven by playwright-core (a test tool's own browser download is not reachable here).
# CHROMIUM_PATH points the tests at another build and skips this step.
CHROMIUM_BIN=/usr/bin/chromium-headless-shell
build_chromium() {
  if [ -n "${CHROMIUM_PATH:-}" ]; then
    say "chromium: CHROMIUM_PATH=$CHROMIUM_PATH (not installing)"
    return
  fi
  if [ -x "$CHROMIUM_BIN" ]; then
    say "chromium: installed ($CHROMIUM_BIN)"
    return
  fi
  need apt-get "Chromium's headless shell (or set CHROMIUM_PATH to a Chromium binary)"
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    need sudo "installing Chromium as a non-root user"
    sudo="sudo"
  fi
  say "installing Debian's chromium-headless-shell with apt-get (log $LOGS/chromium-apt.log)"
  # The package lists may be missing or stale on a new machine: install, and on failure update them once and retry.
  local install=(env DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y chromium-headless-shell)
  if ! run_logged "chromium" "$LOGS/chromium-apt.log" "${install[@]}"; then
    run_logged "apt package lists" "$LOGS/chromium-apt-update.log" $sudo apt-get update
    run_logged "chromium" "$LOGS/chromium-apt.log" "${install[@]}"
  fi
  [ -x "$CHROMIUM_BIN" ] || { say "ERROR: apt-get installed chromium-headless-shell but $CHROMIUM_BIN is missing"; exit 1; }
}

start=$SECONDS
build_chromium
build_temporal
build_test_server
build_stripe_mock
build_versitygw
build_mailpit
build_venv
say "tools ready in $((SECONDS - start))s"
