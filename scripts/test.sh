#!/usr/bin/env bash
# The whole suite from a fresh clone: installs what it needs (node_modules, the database servers,
# Chromium for the playground test), type-checks, runs the unit tier, then the e2e tier on each
# server in TEST_SERVERS (default: ferretdb; `npm run test:all` runs both), then, with RUN_FUZZ=1
# (`npm run test:all` sets it), the schemathesis fuzz step (scripts/fuzz.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SERVERS="${TEST_SERVERS:-ferretdb}"

bash scripts/ensure-deps.sh
for server in $SERVERS; do node scripts/db/servers.mjs install "$server"; done
if [[ -f scripts/install-chromium.sh ]]; then bash scripts/install-chromium.sh; fi

echo "== type check" >&2
npx tsc --noEmit -p tsconfig.json
REPORTS="$ROOT/.cache/test-reports"
rm -rf "$REPORTS" && mkdir -p "$REPORTS"
echo "== unit" >&2
npx jest --selectProjects unit --ci --json --outputFile="$REPORTS/unit.json"
for server in $SERVERS; do
  echo "== e2e on $server" >&2
  TEST_DB="$server" npx jest --selectProjects e2e --ci --json --outputFile="$REPORTS/e2e-$server.json"
done
if [[ "${RUN_FUZZ:-0}" == "1" ]]; then
  echo "== fuzz (schemathesis)" >&2
  bash scripts/fuzz.sh
fi
node scripts/test-summary.mjs "$REPORTS"
