# Sourced by bin/python-sandbox-mcp, bin/test and ./mvnw. Finds a JDK 21+ so that a fresh machine, whose default
# java may be 17, needs no flags: JAVA_HOME first, then java on PATH, then the usual install folders.
# There a JDK 25 wins, because GraalPy 25.0's JIT runs on JDK 25 only; otherwise the newest.
# Plain POSIX sh, no bash: ./mvnw is a /bin/sh script (dash on Debian) and sources this too.

MIN_JAVA=21

# Prints the major version of the JDK at $1, or nothing if it is not a JDK.
jdk_major() {
  local home=$1 version=""
  [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || return 1
  if [ -f "$home/release" ]; then
    version=$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$home/release")
  fi
  if [ -z "$version" ]; then
    version=$("$home/bin/java" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n 1)
  fi
  version=${version#1.}   # 1.8 -> 8
  echo "${version%%[.+-]*}"
}

# Prints the home of a JDK 21+, or explains on stderr and fails.
find_jdk() {
  local candidate major rank best="" best_rank=0
  if [ -n "${JAVA_HOME:-}" ]; then
    major=$(jdk_major "$JAVA_HOME") && [ "${major:-0}" -ge "$MIN_JAVA" ] && { echo "$JAVA_HOME"; return 0; }
  fi
  if command -v java >/dev/null 2>&1; then
    candidate=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
    major=$(jdk_major "$candidate") && [ "${major:-0}" -ge "$MIN_JAVA" ] && { echo "$candidate"; return 0; }
  fi
  for candidate in /usr/lib/jvm/* /usr/local/lib/jvm/* /opt/java/* /opt/jdk* /usr/java/* \
                   "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/* \
                   /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$candidate" ] || continue
    major=$(jdk_major "$candidate") || continue
    [ "${major:-0}" -ge "$MIN_JAVA" ] || continue
    rank=$major
    [ "$major" -eq 25 ] && rank=1000
    if [ "$rank" -gt "$best_rank" ]; then
      best=$candidate
      best_rank=$rank
    fi
  done
  if [ -n "$best" ]; then
    echo "$best"
    return 0
  fi
  echo "python-sandbox-mcp: no JDK $MIN_JAVA or newer found (looked at JAVA_HOME, PATH, /usr/lib/jvm, /opt, ~/.sdkman)." >&2
  echo "Install one (e.g. 'apt-get install openjdk-21-jdk' or Temurin 25) or set JAVA_HOME." >&2
  return 1
}
