#!/usr/bin/env bash
# `npm run fuzz` (issue 6, item 3): schemathesis against the served OpenAPI document, with every
# check it has (fuzz/schemathesis.toml, P144), on a throwaway
# mongo-java-server memory backend, with an admin key (every route reachable), on a bounded
# budget. Exits non-zero on any failure. Prints a compact result (`fuzz: N passed, N failed`);
# schemathesis's full output goes to .cache/fuzz/report/schemathesis.log (P36). Prepares, cached under .cache/: a Python venv with a pinned schemathesis, and a
# private build of the service (rebuilt when src/ changed). Knobs: see fuzz/run.mjs.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

SCHEMATHESIS_VERSION="4.32.5"
VENV="$ROOT/.cache/venv"
OUT="$ROOT/.cache/fuzz/dist"
PYTHON="${PYTHON:-python3}"

bash scripts/ensure-deps.sh
bash scripts/install-mongo-java-server.sh

# The venv is keyed by the pinned version: a marker file makes the second run instant.
MARKER="$VENV/.schemathesis-$SCHEMATHESIS_VERSION"
if [[ ! -f "$MARKER" ]]; then
  echo "fuzz: creating $VENV with schemathesis $SCHEMATHESIS_VERSION" >&2
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
  touch "$MARKER"
fi

# Same staleness rule as scripts/start.mjs, but into .cache/fuzz/dist: a concurrent `nest build`
# (deleteOutDir) of dist/ cannot pull the service away mid-run. Plain tsc is what `nest build`
# runs here (no CLI plugins, no assets).
if [[ ! -f "$OUT/main.js" ]] || [[ -n "$(find src tsconfig.json tsconfig.build.json package-lock.json -newer "$OUT/main.js" -print -quit)" ]]; then
  echo "fuzz: building the service into ${OUT#"$ROOT"/}" >&2
  rm -rf "$OUT"
  npx tsc -p tsconfig.build.json --outDir "$OUT" --incremental false --tsBuildInfoFile null
fi

SCHEMATHESIS="$VENV/bin/schemathesis" FUZZ_SERVICE_ENTRY="$OUT/main.js" exec node fuzz/run.mjs "$@"
