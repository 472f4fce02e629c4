#!/usr/bin/env bash
# `bash bin/lib/bwrap.sh TARGET`, run by the build (pom.xml) before the unit tests: bundles Debian's bubblewrap,
# the workers' OS layer (supervisor/OsSandbox), so that no server depends on bwrap being installed. It lays out
# TARGET/bwrap/, which a release carries as lib/bwrap/ (bin/lib/dist.sh):
#   bwrap         Debian's binary (the build machine's release: 12 on the project's), which the server runs with lib/ as its library path (supervisor/Bubblewrap)
#   lib/          the libraries it links besides glibc: libselinux (which some distributions, Arch for one, do not
#                 install), the libpcre2-8 that libselinux needs, and libcap
#   copyright/    each package's Debian copyright file, and in common-licenses/ the full licence texts those
#                 name in a Debian system's /usr/share/common-licenses/ (the LGPL-2 that bubblewrap is under,
#                 among them), which a machine of another distribution lacks
#   THIRD-PARTY   a line per file: the package and version it came from, and its licence (for the release's
#                 THIRD-PARTY.txt)
# The packages are unpacked with bin/lib/debian.sh (apt-get download and dpkg-deb -x: no root, nothing
# installed). Where that cannot be done (no apt-get, as on macOS or Fedora, or no Debian archive) it says so and
# the build goes on: the server then looks for bwrap on PATH, and on Linux refuses to start without a working
# one unless worker.os-sandbox=off (README, "Security model").
set -euo pipefail
TARGET=$1
BUNDLE="$TARGET/bwrap"
TOOLS="$TARGET/bwrap-debian"
PACKAGES=(bubblewrap libselinux1 libpcre2-8-0 libcap2)
# Where each package's file goes in the bundle, and its licence as the package's copyright file states it.
declare -A FILE=([bubblewrap]=bwrap [libselinux1]=lib/libselinux.so.1 [libpcre2-8-0]=lib/libpcre2-8.so.0
  [libcap2]=lib/libcap.so.2)
declare -A LICENCE=(
  [bubblewrap]="GNU Library General Public License, version 2 or later (LGPL-2.0-or-later); source: https://github.com/containers/bubblewrap and Debian's source package of this version"
  [libselinux1]="public domain"
  [libpcre2-8-0]="BSD-3-Clause, with the PCRE2 exception for binary library-like packages"
  [libcap2]="BSD-3-Clause or GPL-2.0"
)

. "$(dirname "${BASH_SOURCE[0]}")/debian.sh"

say() {
  echo "bwrap.sh: $*" >&2
}
give_up() {
  say "WARNING $*; bubblewrap is not bundled, and the server will look for bwrap on PATH"
  rm -rf "$BUNDLE.new"
  exit 0
}
runs() { # BUNDLE: the bundled bwrap starts with its own libraries
  env LD_LIBRARY_PATH="$1/lib" "$1/bwrap" --version >/dev/null 2>&1
}

[ "$(uname -s)" = Linux ] || { say "not bundling bubblewrap: it is Linux's, and this is $(uname -s)"; exit 0; }
# Done already, by this version of the script (a clean build downloads the archive's current packages).
if [ "$BUNDLE/THIRD-PARTY" -nt "${BASH_SOURCE[0]}" ] && runs "$BUNDLE"; then
  exit 0
fi
say "bundling Debian's bubblewrap into ${BUNDLE#"$PWD"/} (apt-get download, no root needed)"
rm -rf "$TOOLS" "$BUNDLE.new"
command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 || give_up "no apt-get and dpkg-deb here"
debian_unpack "$TOOLS" "${PACKAGES[@]}" || give_up "could not download ${PACKAGES[*]} (see $TOOLS/apt-get.log)"
mkdir -p "$BUNDLE.new/lib" "$BUNDLE.new/copyright"
for package in "${PACKAGES[@]}"; do
  file=${FILE[$package]}
  found=$(find "$TOOLS/debian/usr/bin" "$TOOLS/debian/lib" "$TOOLS/debian/usr/lib" -name "$(basename "$file")" \
    -not -type d -print -quit 2>/dev/null || true)
  [ -n "$found" ] || give_up "$(basename "$file") is not in Debian's $package"
  # A release is also a zip (the MCP Bundle), so a library is a file under its soname, not a symbolic link.
  cp -L "$found" "$BUNDLE.new/$file"
  cp "$TOOLS/debian/usr/share/doc/$package/copyright" "$BUNDLE.new/copyright/$package"
  deb=$(grep "^${package}_" "$TOOLS/debian/INSTALLED")
  version=${deb#*_}
  version=${version%_*}
  printf '%s\t%s %s (Debian): %s; copyright/%s\n' "$file" "$package" "${version//%3a/:}" "${LICENCE[$package]}" \
    "$package" >>"$BUNDLE.new/THIRD-PARTY"
done
licences=$(grep -oh '/usr/share/common-licenses/[A-Za-z0-9.-]*[A-Za-z0-9]' "$BUNDLE.new"/copyright/* | sort -u)
mkdir -p "$BUNDLE.new/copyright/common-licenses"
for licence in $licences; do
  [ -f "$licence" ] || give_up "$licence, which a copyright file names, is not on this machine"
  cp "$licence" "$BUNDLE.new/copyright/common-licenses/"
done
# Every library bwrap loads, other than glibc's own, must come from lib/: what it finds elsewhere here, another
# machine may lack.
outside=$(env LD_LIBRARY_PATH="$BUNDLE.new/lib" ldd "$BUNDLE.new/bwrap" 2>&1 \
  | grep -v -e "$BUNDLE.new/lib/" -e 'linux-vdso' -e 'libc\.so' -e 'ld-linux' || true)
[ -z "$outside" ] || give_up "the bundled bwrap needs libraries the bundle lacks: $(echo $outside)"
runs "$BUNDLE.new" || give_up "the bundled bwrap does not start"
rm -rf "$BUNDLE"
mv "$BUNDLE.new" "$BUNDLE"
say "bundled $(env LD_LIBRARY_PATH="$BUNDLE/lib" "$BUNDLE/bwrap" --version) ($(cut -f2 "$BUNDLE/THIRD-PARTY" | cut -d' ' -f1,2 | paste -sd ',' | sed 's/,/, /g'))"
