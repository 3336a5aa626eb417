#!/usr/bin/env bash
# `npm start`: everything the service needs on a fresh clone, then the service itself on the
# embedded FerretDB (or on MONGODB_URI when set). Ctrl-C stops both.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/ensure-deps.sh
if [[ -z "${MONGODB_URI:-}" ]]; then bash scripts/install-ferretdb.sh; fi
if [[ ! -f dist/main.js ]] || [[ -n "$(find src -newer dist/main.js -name '*.ts' -print -quit)" ]]; then
  npx nest build
fi
exec node scripts/start.mjs
