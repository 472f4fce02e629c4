# Sourced by bin/validate-deploy and bin/lib/haproxy.sh. Unpacks Debian packages into a folder of the project's
# own (no root needed): apt-get download, then dpkg-deb -x. Nothing is installed on the system.

# debian_unpack TOOLS PACKAGE...: unpacks each PACKAGE (and nothing else: dependencies must be named too) into
# TOOLS/debian, keeping the .deb files in TOOLS/debian-debs and apt-get's output in TOOLS/apt-get.log. Fails
# without apt-get or dpkg-deb, or when a package cannot be downloaded.
debian_unpack() {
  local tools=$1 package file
  shift
  command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 || return 1
  local debs="$tools/debian-debs" log="$tools/apt-get.log"
  mkdir -p "$debs" "$tools/debian"
  if ! (cd "$debs" && apt-get download "$@") >"$log" 2>&1; then
    # An empty or stale package list (a new machine): refresh it where we may.
    if [ "$(id -u)" = 0 ]; then
      apt-get update -qq >>"$log" 2>&1 || true
      (cd "$debs" && apt-get download "$@") >>"$log" 2>&1 || { cat "$log" >&2; return 1; }
    else
      cat "$log" >&2
      return 1
    fi
  fi
  for package in "$@"; do
    file=$(ls -t "$debs/${package}_"*.deb | head -n 1)
    dpkg-deb -x "$file" "$tools/debian"
    basename "$file" >>"$tools/debian/INSTALLED"
  done
}
