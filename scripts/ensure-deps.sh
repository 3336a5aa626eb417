#!/usr/bin/env bash
# Installs node_modules from the lockfile unless they already match it by content (the lockfile's
# hash in node_modules/.deps-hash; see scripts/ensure-deps.mjs, P33).
set -euo pipefail
exec node "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/ensure-deps.mjs"
