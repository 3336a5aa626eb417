#!/usr/bin/env bash
# Installs Debian's `chromium` package (headless browser for test/playground.e2e-spec.ts, driven
# by playwright-core with executablePath /usr/bin/chromium). No-op when /usr/bin/chromium exists.
#
# Never `npx playwright install`: it downloads a browser build from a CDN, which fails on
# offline machines and would not be the distribution's patched package anyway.
#
# Needs: Debian/Ubuntu with apt-get, run as root (or with sudo available), and access to the
# distribution's package mirror.
set -euo pipefail

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"

log() { echo "install-chromium: $*" >&2; }

if [[ -x "$CHROMIUM" ]]; then
  exit 0
fi

command -v apt-get >/dev/null 2>&1 || { log "apt-get not found: install Chromium by hand so that $CHROMIUM exists"; exit 1; }

SUDO=()
if [[ "$(id -u)" -ne 0 ]]; then
  command -v sudo >/dev/null 2>&1 || { log "not root and no sudo: run this script as root"; exit 1; }
  SUDO=(sudo)
fi

export DEBIAN_FRONTEND=noninteractive
log "installing Debian's chromium (apt-get update, then apt-get install -y chromium)"
"${SUDO[@]}" apt-get update
"${SUDO[@]}" apt-get install -y chromium

if [[ ! -x "$CHROMIUM" ]]; then
  log "apt-get finished but $CHROMIUM is still missing"
  exit 1
fi
log "installed: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
