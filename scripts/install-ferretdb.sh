#!/usr/bin/env bash
# Builds FerretDB into <repo>/.cache/bin/ferretdb (git-ignored). No-op when that binary
# already exists and reports the wanted version.
#
# Why not `go install github.com/FerretDB/FerretDB/cmd/ferretdb@VERSION`: the module zip has no
# build/version/version.txt, and when the main module is github.com/FerretDB/FerretDB the
# binary panics at start ("Invalid build/version/version.txt file content"). So we copy the
# module source out of the module cache, write version.txt, and build it there.
#
# Needs: Go (>= the go.mod's 1.24; GOTOOLCHAIN=local, so the installed one is used) and the Go
# module proxy (or a warm module cache).
set -euo pipefail

FERRETDB_VERSION="${FERRETDB_VERSION:-v1.24.2}"
MODULE="github.com/FerretDB/FerretDB"

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
CACHE="$ROOT/.cache"
BIN="$CACHE/bin/ferretdb"
SRC="$CACHE/src/ferretdb-$FERRETDB_VERSION"

log() { echo "install-ferretdb: $*" >&2; }

installed_version() {
  # `ferretdb --version` prints e.g. "version: v1.24.2" among other lines.
  "$BIN" --version 2>/dev/null | awk '$1 == "version:" { print $2; exit }'
}

if [[ -x "$BIN" ]] && [[ "$(installed_version || true)" == "$FERRETDB_VERSION" ]]; then
  exit 0
fi

command -v go >/dev/null 2>&1 || { log "go not found on PATH"; exit 1; }

# One build at a time (parallel test workers may all call this); re-check once we hold the lock.
mkdir -p "$CACHE/bin" "$CACHE/src"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE/.install-ferretdb.lock"
  flock 9
  if [[ -x "$BIN" ]] && [[ "$(installed_version || true)" == "$FERRETDB_VERSION" ]]; then
    exit 0
  fi
fi

export GOTOOLCHAIN=local
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=mod -buildvcs=false"
export CGO_ENABLED="${CGO_ENABLED:-0}" # FerretDB's SQLite driver is pure Go

START=$(date +%s)
log "building FerretDB $FERRETDB_VERSION into $BIN"

# Outside any go.mod, so `go mod download` works on the bare module@version.
MOD_DIR="$(cd "$CACHE/src" && go mod download -json "$MODULE@$FERRETDB_VERSION" \
  | sed -n 's/^[[:space:]]*"Dir":[[:space:]]*"\(.*\)",\{0,1\}[[:space:]]*$/\1/p')"
if [[ -z "$MOD_DIR" || ! -d "$MOD_DIR" ]]; then
  log "go mod download did not give a module directory for $MODULE@$FERRETDB_VERSION"
  exit 1
fi

TMP_SRC="$SRC.tmp.$$"
trap 'rm -rf "$TMP_SRC" "$BIN.tmp.$$"' EXIT
rm -rf "$TMP_SRC"
cp -R "$MOD_DIR" "$TMP_SRC"
chmod -R u+w "$TMP_SRC"
printf '%s\n' "$FERRETDB_VERSION" > "$TMP_SRC/build/version/version.txt"
rm -rf "$SRC"
mv "$TMP_SRC" "$SRC"

(cd "$SRC" && go build -trimpath -o "$BIN.tmp.$$" ./cmd/ferretdb)
mv -f "$BIN.tmp.$$" "$BIN"

GOT="$(installed_version || true)"
if [[ "$GOT" != "$FERRETDB_VERSION" ]]; then
  log "built binary does not start or reports '$GOT' instead of $FERRETDB_VERSION:"
  "$BIN" --version >&2 || true
  exit 1
fi
log "done in $(( $(date +%s) - START ))s: $("$BIN" --version 2>&1 | head -1)"
