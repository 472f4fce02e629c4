#!/usr/bin/env bash
# `bin/python-sandbox-mcp dist`, after the build: makes the release files in target/dist/ from the build's outputs.
#   python-sandbox-mcp-VERSION-linux-x64.tar.gz   the server, its workers' Java runtime (linked by the build with
#                                                 jlink) and AOT caches, the bubblewrap the build bundled
#                                                 (bin/lib/bwrap.sh), config/, README, LICENSE (Apache-2.0) and
#                                                 THIRD-PARTY.txt (the bundled components' licences): unpacked
#                                                 anywhere, bin/python-sandbox-mcp runs with no JDK, Maven or network
#   python-sandbox-mcp-VERSION-linux-x64.mcpb     the same as an MCP Bundle for desktop hosts (src/dist/manifest.json),
#                                                 validated and packed by the mcpb CLI, pinned and installed under
#                                                 target/tools/ from npm
#   server.json                                   the MCP registry's entry for the bundle (src/dist/server.json),
#                                                 which it points at on the release page of the GitHub repository
#                                                 --repository names (origin's when that is on GitHub); the
#                                                 registry's schema (2025-12-11) has no licence field, so the
#                                                 licence reaches it only as the repository's LICENSE
# Every copy keeps its file's modification time: the JVM takes an AOT cache only with the very jars it was
# trained on, and checks them by size and time (BENCHMARKS.md, "Release").
set -euo pipefail
ROOT=$1
shift
TARGET="$ROOT/target"
JAR="$TARGET/python-sandbox-mcp.jar"
RUNTIME="$TARGET/worker-runtime/jdk"
MCPB_VERSION=2.1.2
PLATFORM=linux-x64

fail() {
  echo "dist: $*" >&2
  exit 1
}

# The registry names a server after the GitHub account that publishes it (io.github.OWNER/NAME), and a bundle's
# entry points at the file on that repository's release page.
REPOSITORY_URL=""
while [ $# -gt 0 ]; do
  case $1 in
    --repository) [ $# -ge 2 ] || fail "--repository needs a value: https://github.com/OWNER/NAME"
                  REPOSITORY_URL=$2; shift 2 ;;
    --repository=*) REPOSITORY_URL=${1#*=}; shift ;;
    *) fail "unknown argument '$1': dist takes --repository https://github.com/OWNER/NAME" ;;
  esac
done
github_repository() { # URL: https://github.com/OWNER/NAME, from the https or ssh form, or nothing
  printf '%s\n' "${1%/}" | sed -n -E 's#^(https://github\.com/|git@github\.com:|ssh://git@github\.com/)([A-Za-z0-9-]+)/([A-Za-z0-9._-]+)$#https://github.com/\2/\3#p' \
    | sed -E 's#\.git$##'
}
if [ -n "$REPOSITORY_URL" ]; then
  PUBLISHED_FROM=$(github_repository "$REPOSITORY_URL")
  [ -n "$PUBLISHED_FROM" ] || fail "--repository $REPOSITORY_URL is not a GitHub repository's address (https://github.com/OWNER/NAME)"
else
  ORIGIN=$(git -C "$ROOT" remote get-url origin 2>/dev/null || true)
  PUBLISHED_FROM=$(github_repository "$ORIGIN")
fi

[ -x "$RUNTIME/bin/java" ] || fail "no linked Java runtime in $RUNTIME: the build links it only when it runs on JDK 25" \
  "(bin/python-sandbox-mcp finds one by itself; set JAVA_HOME to a JDK 25 if it found another)"
[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || fail "the runtime linked here is for $(uname -s)-$(uname -m); releases are made on Linux x86_64"
# A Linux release carries the workers' OS layer (README, "Security model"): the build bundles it, and tries again
# here if it could not then.
bash "$ROOT/bin/lib/bwrap.sh" "$TARGET"
[ -f "$TARGET/bwrap/THIRD-PARTY" ] || fail "no bubblewrap in $TARGET/bwrap (above: bin/lib/bwrap.sh needs apt-get and the Debian archive)"
VERSION=$("$RUNTIME/bin/java" -jar "$JAR" --version | awk '{print $2}')
[ -n "$VERSION" ] || fail "the jar did not say its version"
NAME="python-sandbox-mcp-$VERSION"
DIST="$TARGET/dist"
STAGE="$DIST/$NAME"
echo "dist: $NAME for $PLATFORM" >&2
rm -rf "$DIST"
mkdir -p "$STAGE/bin/lib" "$STAGE/config" "$STAGE/lib/worker-runtime"

# Hard links where the file system allows (nothing is copied twice), copies otherwise; times kept either way.
place() {
  cp -al "$@" 2>/dev/null || cp -a "$@"
}
place "$ROOT/bin/python-sandbox-mcp" "$STAGE/bin/"
place "$ROOT/config/python-sandbox-mcp.properties" "$STAGE/config/"
place "$ROOT/README.md" "$ROOT/SECURITY.md" "$ROOT/LICENSE" "$STAGE/"
place "$JAR" "$TARGET/lib" "$STAGE/lib/"
[ -f "$TARGET/server.aot" ] && place "$TARGET/server.aot" "$STAGE/lib/"
place "$TARGET/bwrap" "$STAGE/lib/"
for part in jdk compiler jit-lib worker-interpreter.aot worker-interpreter.aot.classpath worker-jit.aot worker-jit.aot.classpath; do
  [ -e "$TARGET/worker-runtime/$part" ] && place "$TARGET/worker-runtime/$part" "$STAGE/lib/worker-runtime/"
done

# What is bundled, under which licences: each jar's own POM (or the nearest parent that names them), from the
# local Maven repository the build resolved them into. The Java runtime's are in lib/worker-runtime/jdk/legal/.
MAVEN_LOCAL=${MAVEN_REPOSITORY:-$HOME/.m2/repository}
# Every POM there by file name, from one walk of the repository: a walk for each of the 120 jars, and a sed for
# each value read, took 17.6 s of dist's 56 before the archives could start (BENCHMARKS.md, "Release").
declare -A POM_NAMED=()
while IFS= read -r pom; do
  POM_NAMED[${pom##*/}]=$pom
done < <(find "$MAVEN_LOCAL" -name '*.pom' 2>/dev/null)
pom_licences() { # POM: its licences' names, separated by "; ", or "parent GROUP ARTIFACT VERSION" when it names none
  awk '
    /<licenses>/ { inside = "licenses" } /<\/licenses>/ { inside = "" }
    /<parent>/ { inside = "parent" } /<\/parent>/ { inside = "" }
    inside == "licenses" && match($0, /<name>[^<]*<\/name>/) { names = names (names ? "; " : "") substr($0, RSTART + 6, RLENGTH - 13) }
    inside == "parent" && !group && match($0, /<groupId>[^<]*<\/groupId>/) { group = substr($0, RSTART + 9, RLENGTH - 19) }
    inside == "parent" && !artifact && match($0, /<artifactId>[^<]*<\/artifactId>/) { artifact = substr($0, RSTART + 12, RLENGTH - 25) }
    inside == "parent" && !version && match($0, /<version>[^<]*<\/version>/) { version = substr($0, RSTART + 9, RLENGTH - 19) }
    END { print names ? names : (artifact ? "parent " group " " artifact " " version : "") }' "$1"
}
declare -A LICENCES_OF=()
licences_of() { # POM: sets LICENCES to the licences it or its nearest parent names; each POM is read once
  local pom=$1 found kind group artifact version
  if [ -z "${LICENCES_OF[$pom]+known}" ]; then
    LICENCES="not named in its POM: see the licence files inside the jar"
    LICENCES_OF[$pom]=$LICENCES # so that a POM that is its own ancestor ends the walk
    if [ -f "$pom" ]; then
      found=$(pom_licences "$pom")
      read -r kind group artifact version <<< "$found"
      if [ "$kind" = parent ]; then
        licences_of "$MAVEN_LOCAL/${group//.//}/$artifact/$version/$artifact-$version.pom"
      elif [ -n "$found" ]; then
        LICENCES=$found
      fi
    fi
    LICENCES_OF[$pom]=$LICENCES
  fi
  LICENCES=${LICENCES_OF[$pom]}
}
{
  echo "python-sandbox-mcp $VERSION is under the Apache License 2.0 (LICENSE). It bundles these components."
  echo "Their licence texts are inside each jar (META-INF/), for the Java runtime in lib/worker-runtime/jdk/legal/,"
  echo "and for bubblewrap and its libraries in lib/bwrap/copyright/ (their Debian copyright files, and in"
  echo "common-licenses/ the licence texts those name)."
  echo
  for jar in $(cd "$STAGE" && find lib -name '*.jar' -not -path 'lib/worker-runtime/jdk/*' | sort); do
    file=$(basename "$jar")
    [ "$file" = python-sandbox-mcp.jar ] && continue
    [ "$file" = python-sandbox-mcp-jit-worker.jar ] && continue
    licences_of "${POM_NAMED[${file%.jar}.pom]:-/nonexistent}"
    printf '%s\t%s\n' "$jar" "$LICENCES"
  done
  echo
  printf '%s\t%s\n' "lib/worker-runtime/jdk" "$(sed -n 's/^IMPLEMENTOR="\(.*\)"/\1/p' "$RUNTIME/release") $(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"/\1/p' "$RUNTIME/release"): GNU General Public License, version 2, with the Classpath Exception"
  # Charts draw text in DejaVu Sans, unpacked into our own jar from jasperreports-fonts (pom.xml, unpack-chart-fonts).
  printf '%s\t%s\n' "lib/python-sandbox-mcp.jar: dev/pysandbox/charts/fonts/DejaVuSans*.ttf" "DejaVu fonts 2.37: Bitstream Vera Fonts licence and Arev Fonts licence, DejaVu changes in the public domain (the text is beside them, dev/pysandbox/charts/fonts/LICENSE)"
  echo
  sed -e 's#^#lib/bwrap/#' -e 's#; copyright/#; lib/bwrap/copyright/#' "$TARGET/bwrap/THIRD-PARTY"
} > "$STAGE/THIRD-PARTY.txt"

# The bundle's files: the same, with manifest.json at the top, without the JIT workers' runtime, which a desktop
# host never starts (worker.jit=off is the default, worker.jit-workers=auto starts none without this runtime, and the
# bundle offers neither).
# Laid out before tar starts: a hard link made or removed changes the file's inode (its ctime), which tar, reading
# the same file meanwhile, takes for a change and fails on ("file changed as we read it").
MAKE_BUNDLE=yes
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  MAKE_BUNDLE=""
else
  BUNDLE_STAGE="$DIST/bundle"
  mkdir -p "$BUNDLE_STAGE"
  place "$STAGE"/. "$BUNDLE_STAGE/"
  rm -rf "$BUNDLE_STAGE/lib/worker-runtime/"{compiler,jit-lib,worker-jit.aot,worker-jit.aot.classpath}
  sed "s/@VERSION@/$VERSION/g" "$ROOT/src/dist/manifest.json" > "$BUNDLE_STAGE/manifest.json"
fi

# The archive is compressed in the background while the bundle is packed: each takes one core for most of a minute.
ARCHIVE="$DIST/$NAME-$PLATFORM.tar.gz"
tar -C "$DIST" --owner=0 --group=0 -czf "$ARCHIVE" "$NAME" &
ARCHIVING=$!
archive_done() {
  wait "$ARCHIVING" || fail "tar could not write $ARCHIVE"
  echo "dist: $ARCHIVE ($(du -m "$ARCHIVE" | cut -f1) MB; $(du -sm "$STAGE" | cut -f1) MB unpacked)" >&2
}

if [ -z "$MAKE_BUNDLE" ]; then
  archive_done
  echo "dist: node and npm are not installed, so no MCP Bundle was made (the archive is complete)" >&2
  exit 0
fi
MCPB_HOME="$TARGET/tools/mcpb-$MCPB_VERSION"
MCPB="$MCPB_HOME/node_modules/.bin/mcpb"
if [ ! -x "$MCPB" ]; then
  echo "dist: installing @anthropic-ai/mcpb@$MCPB_VERSION into $MCPB_HOME" >&2
  mkdir -p "$MCPB_HOME"
  npm install --prefix "$MCPB_HOME" --no-audit --no-fund --loglevel=error "@anthropic-ai/mcpb@$MCPB_VERSION" >&2
fi
"$MCPB" validate "$BUNDLE_STAGE/manifest.json" >&2
BUNDLE="$DIST/$NAME-$PLATFORM.mcpb"
# mcpb pack holds the whole bundle in memory while it zips.
NODE_OPTIONS="--max-old-space-size=4096" "$MCPB" pack "$BUNDLE_STAGE" "$BUNDLE" >&2
echo "dist: $BUNDLE ($(du -m "$BUNDLE" | cut -f1) MB)" >&2

if [ -n "$PUBLISHED_FROM" ]; then
  SHA256=$(sha256sum "$BUNDLE" | cut -d' ' -f1)
  OWNER_AND_NAME=${PUBLISHED_FROM#https://github.com/}
  sed -e "s/@VERSION@/$VERSION/g" -e "s/@SHA256@/$SHA256/g" -e "s/@BUNDLE@/$(basename "$BUNDLE")/g" \
    -e "s#@OWNER@/@NAME@#$OWNER_AND_NAME#g" "$ROOT/src/dist/server.json" > "$DIST/server.json"
  echo "dist: $DIST/server.json (io.github.$OWNER_AND_NAME, the bundle from $PUBLISHED_FROM/releases)" >&2
else
  echo "dist: no server.json: origin (${ORIGIN:-none}) is not on GitHub; give the repository the release is" \
    "published from with --repository https://github.com/OWNER/NAME" >&2
fi
archive_done
