# Sourced by bin/validate-deploy, bin/cluster-local and bin/scale-test. Finds HAProxy: the one on PATH, else
# Debian's (2.6, the line deploy/ is written for) unpacked under target/deploy-tools with bin/lib/debian.sh,
# which needs apt-get and dpkg-deb but no root.

. "$(dirname "${BASH_SOURCE[0]}")/debian.sh"

# haproxy_find TOOLS: sets HAPROXY (the binary) and HAPROXY_ENV (VAR=VALUE words for env, the library path of an
# unpacked HAProxy) and HAPROXY_VERSION, unpacking Debian's into TOOLS/debian when there is none on PATH. Messages
# go to stderr. Fails, saying why, when no HAProxy can be had.
haproxy_find() {
  local tools=$1 libs
  HAPROXY=""
  HAPROXY_ENV=()
  HAPROXY_VERSION=""
  if command -v haproxy >/dev/null 2>&1; then
    HAPROXY=$(command -v haproxy)
  else
    if [ ! -x "$tools/debian/usr/sbin/haproxy" ]; then
      echo "installing Debian's haproxy into ${tools#"${ROOT:-}"/} (apt-get download, no root needed)" >&2
      debian_unpack "$tools" haproxy liblua5.3-0 libopentracing-c-wrapper0 libopentracing1 \
        || { echo "could not unpack Debian's haproxy (needs apt-get, dpkg-deb and the Debian archive)" >&2; return 1; }
    fi
    HAPROXY="$tools/debian/usr/sbin/haproxy"
    libs=$(find "$tools/debian/usr/lib" -maxdepth 1 -type d -name '*-linux-gnu*' -printf '%p:')
    HAPROXY_ENV=("LD_LIBRARY_PATH=${libs}$tools/debian/usr/lib")
  fi
  HAPROXY_VERSION=$(env "${HAPROXY_ENV[@]}" "$HAPROXY" -v 2>&1 | sed -n 's/^HAProxy version \([^ ]*\).*/\1/p')
  if [ -z "$HAPROXY_VERSION" ]; then
    echo "$HAPROXY does not run: $(env "${HAPROXY_ENV[@]}" "$HAPROXY" -v 2>&1 | head -n 3)" >&2
    return 1
  fi
}
