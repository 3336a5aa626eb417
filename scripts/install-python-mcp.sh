#!/usr/bin/env bash
# The Python `mcp` SDK (pinned) in its own venv under .cache/, for test/mcp-python.e2e-spec.ts
# (P136): a client no one here wrote, against /mcp. A marker file keyed by the version makes
# the second run instant; a clean clone installs it on the first test run. Prints the venv's python.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MCP_VERSION="2.3.0"
VENV="$ROOT/.cache/venv-mcp"
PYTHON="${PYTHON:-python3}"
MARKER="$VENV/.mcp-$MCP_VERSION"
if [[ ! -f "$MARKER" ]]; then
  echo "install-python-mcp: creating ${VENV#"$ROOT"/} with mcp $MCP_VERSION" >&2
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "mcp==$MCP_VERSION" >&2
  touch "$MARKER"
fi
echo "$VENV/bin/python"
