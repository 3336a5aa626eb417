#!/usr/bin/env bash
# `npm test`: the whole suite from a fresh clone (P31, P32). Installs what it needs
# (node_modules by lockfile hash, the mongo-java-server launcher, Chromium for the playground
# test, schemathesis in a venv), then runs every tier and ends with ONE closing line that adds
# them all up — `Total: N passed, N failed, N skipped` (scripts/test-summary.mjs) — also when a
# tier fails; the exit code is non-zero if anything failed.
#   type check   tsc --noEmit (the service; and console/ with its DOM types)
#   artifacts    schema.gql, openapi.json and the client types are what their generators make now (P153)
#   unit         src/**/*.spec.ts
#   e2e          test/**/*.e2e-spec.ts on one mongo-java-server memory backend
#   persistent   test/persistent/**, each file on its own embedded H2 server, one file at a time
#   fuzz         schemathesis against the OpenAPI document (scripts/fuzz.sh); RUN_FUZZ=0 skips it
# Optional, not on the default path: TEST_SERVERS=ferretdb adds the e2e tier on FerretDB v1
# (SQLite), a compatibility check kept from before P29 (builds FerretDB with Go).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
REPORTS="$ROOT/.cache/test-reports"
rm -rf "$REPORTS" && mkdir -p "$REPORTS"

# Preparation failures stop the run (nothing could be tested), still with the closing line.
prepare() {
  if ! "$@"; then
    echo "setup step failed: $*" >&2
    node scripts/test-summary.mjs "$REPORTS" --setup-failed
    exit 1
  fi
}
prepare bash scripts/ensure-deps.sh
prepare bash scripts/install-mongo-java-server.sh
for server in ${TEST_SERVERS:-}; do prepare node scripts/db/servers.mjs install "$server"; done
if [[ -f scripts/install-chromium.sh ]]; then prepare bash scripts/install-chromium.sh; fi

# Each step leaves "<name>.exit" (its exit code) for the summary; after a failure the next steps still run.
step() {
  local name="$1"
  shift
  echo "test.sh: $name" >&2
  "$@"
  local code=$?
  echo "$code" >"$REPORTS/$name.exit"
}
jest_tier() {
  local name="$1"
  shift
  step "$name" npx jest "$@" --ci --json --outputFile="$REPORTS/$name.jest.json"
}

step typecheck npx tsc --noEmit -p tsconfig.json
step typecheck-console npx tsc --noEmit -p console/tsconfig.json
step artifacts npm run --silent artifacts:check
step lint npm run lint --silent
jest_tier unit --selectProjects unit
jest_tier e2e --selectProjects e2e
jest_tier persistent --selectProjects persistent --runInBand
for server in ${TEST_SERVERS:-}; do
  TEST_DB="$server" jest_tier "e2e-$server" --selectProjects e2e
done
if [[ "${RUN_FUZZ:-1}" != "0" ]]; then
  FUZZ_SUMMARY_FILE="$REPORTS/fuzz.summary.json" step fuzz bash scripts/fuzz.sh
fi
node scripts/test-summary.mjs "$REPORTS"
