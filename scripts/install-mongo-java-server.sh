#!/usr/bin/env bash
# Builds the mongo-java-server launcher (tools/mongo-java-server) into
# <repo>/.cache/mongo-java-server/mongo-java-server-launcher.jar (git-ignored).
# No-op when the jar exists and is newer than every file of tools/mongo-java-server.
# Needs: Java >= 17 and Maven (dependencies come from Maven Central into ~/.m2).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
TOOL_DIR="$ROOT/tools/mongo-java-server"
OUT_DIR="$ROOT/.cache/mongo-java-server"
JAR="$OUT_DIR/mongo-java-server-launcher.jar"
BUILD_DIR="$OUT_DIR/build"

log() { echo "install-mongo-java-server: $*" >&2; }

up_to_date() {
  [[ -f "$JAR" ]] && [[ -z "$(find "$TOOL_DIR" -path "$TOOL_DIR/target" -prune -o -type f -newer "$JAR" -print -quit)" ]]
}

if up_to_date; then
  exit 0
fi

command -v java >/dev/null 2>&1 || { log "java not found on PATH (Java 17 or newer is needed)"; exit 1; }
command -v mvn >/dev/null 2>&1 || { log "mvn not found on PATH"; exit 1; }
JAVA_MAJOR="$(java -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/ { print $2; exit }')"
if [[ -z "$JAVA_MAJOR" || "${JAVA_MAJOR%%.*}" -lt 17 ]]; then
  log "Java 17 or newer is needed, found '${JAVA_MAJOR:-unknown}'"
  exit 1
fi

# One build at a time (parallel test workers may all call this); re-check once we hold the lock.
mkdir -p "$OUT_DIR"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$OUT_DIR/.install.lock"
  flock 9
  if up_to_date; then
    exit 0
  fi
fi

START=$(date +%s)
log "building $JAR"
rm -rf "$BUILD_DIR"
# Maven 3.8 prints bare ANSI resets even with -B and -q: strip them (pipefail keeps mvn's status).
mvn -q -B -Dstyle.color=never -f "$TOOL_DIR/pom.xml" -Dlauncher.buildDir="$BUILD_DIR" package 2>&1 \
  | sed -e 's/\x1b\[[0-9;]*m//g' >&2
cp "$BUILD_DIR/mongo-java-server-launcher.jar" "$JAR.tmp.$$"
mv -f "$JAR.tmp.$$" "$JAR"
rm -rf "$BUILD_DIR"
log "done in $(( $(date +%s) - START ))s"
